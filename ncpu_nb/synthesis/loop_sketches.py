"""Loop sketches with more state than one accumulator (the `loops` solver of the portfolio).

pair    a = A0; b = B0; c = n; top: CMP c, 0 / JLE end / t = STEP(a, b) / a = b / b = t /
        c = c - 1 / JMP top / end: out = a or b
        -- a counted two-term recurrence: fib(n), Lucas, Pell, Jacobsthal, powers
euclid  top: CMP y, 0 / J(Z|LE) end / t = x OP y / x = y / y = t / JMP top / end: out = x or y
        -- a while-loop over a pair of inputs: Euclid's gcd
count   c = C0; top: CMP n, K / J(LE|Z) end / [AND t, n, 1 / CMP t, 0 / JNZ odd] /
        n = n OP1 k1 / [JMP next / odd: n = n OP2 k2 / n = n OP3 k3] / next: c = c + 1 / JMP top / end: out = c
        -- how many steps a rule takes to bring n down: digits, bit length, Collatz steps

Every hole (operations, constants, initial values, which register is which) is filled by search:
each filling runs on the training examples in Python (sketch_eval), cheapest shapes first, and
the first few that fit every example go back to the synthesizer, which runs them on the exact CPU.
"""
from __future__ import annotations

import itertools
import time

from ncpu_nb.ncpu.table import MASK
from ncpu_nb.synthesis.emit import BINARY, instruction
from ncpu_nb.synthesis.gradient_search import constant_pool
from ncpu_nb.synthesis.sketch_eval import KEEP, MAX_TRIPS, TooLong, fits, op, scratch, signed, signed_compare
from ncpu_nb.synthesis.spec import SynthesisSpec

PAIR_INITS = (0, 1, 2, 3)
COUNT_UPDATES = (("shr", 1), ("div", 10), ("div", 2), ("sub", 1), ("div", 3), ("div", 8), ("div", 16), ("sub", 2))
ODD_FIRST = (("mul", 3), ("mul", 5), ("shl", 1), ("add", 1), ("mul", 2))
ODD_SECOND = (("add", 1), ("sub", 1), ("add", 3), (None, None))
STOPS = ((0, "le"), (1, "le"), (0, "z"), (1, "z"))
JUMP = {"le": "JLE", "z": "JZ"}


def _stop(value: int, k: int, cond: str) -> bool:
    return signed_compare(value, k) <= 0 if cond == "le" else value & MASK == k & MASK


def _pair_steps(consts):
    """(description, t = f(a, b), lines computing t from registers a, b into t)."""
    steps = []
    for name in BINARY:
        steps.append((lambda a, b, o=name: op(o, a, b), lambda t, a, b, o=name: [instruction(o, t, a, b)]))
        steps.append((lambda a, b, o=name: op(o, b, a), lambda t, a, b, o=name: [instruction(o, t, b, a)]))
    for scale, k, join in itertools.product(("mul", "shl"), [c for c in consts if 1 < c <= 4], ("add", "sub")):
        for first_b in (True, False):
            def f(a, b, s=scale, k=k, j=join, fb=first_b):
                x, y = (b, a) if fb else (a, b)
                return op(j, op(s, x, k), y)

            def lines(t, a, b, s=scale, k=k, j=join, fb=first_b):
                x, y = (b, a) if fb else (a, b)
                return [instruction(s, t, x, k), instruction(j, t, t, y)]
            steps.append((f, lines))
    return steps


def search_pair(spec: SynthesisSpec, deadline: float, found: list) -> None:
    regs = scratch(spec, 4)
    if regs is None or len(spec.outputs) != 1:
        return
    c, a, b, t = regs
    out = spec.outputs[0]
    steps = _pair_steps(constant_pool(spec))
    for n in spec.inputs:
        for (a0, b0), (step, lines), take_b in itertools.product(itertools.product(PAIR_INITS, repeat=2), steps,
                                                                (False, True)):
            if time.perf_counter() > deadline or len(found) >= KEEP:
                return

            def run(regs_in, memory, n=n, a0=a0, b0=b0, step=step, take_b=take_b):
                count, x, y = signed(regs_in[n]), a0, b0
                if count > MAX_TRIPS:
                    raise TooLong
                for _ in range(max(count, 0)):
                    x, y = y, step(x, y)
                return {**regs_in, out: y if take_b else x}, memory

            if fits(spec, run):
                found.append("\n".join([
                    instruction("pass", c, None, n), instruction("pass", a, None, a0), instruction("pass", b, None, b0),
                    "top:", f"CMP {c}, 0", "JLE end", *lines(t, a, b), instruction("pass", a, None, b),
                    instruction("pass", b, None, t), instruction("sub", c, c, 1), "JMP top", "end:",
                    instruction("pass", out, None, b if take_b else a), "HALT"]))


def search_euclid(spec: SynthesisSpec, deadline: float, found: list) -> None:
    regs = scratch(spec, 3)
    if regs is None or len(spec.outputs) != 1 or len(spec.inputs) < 2:
        return
    x, y, t = regs
    out = spec.outputs[0]
    for (p, q), name, (k, cond), take_y in itertools.product(itertools.permutations(spec.inputs, 2), BINARY,
                                                            ((0, "z"), (0, "le")), (False, True)):
        if time.perf_counter() > deadline or len(found) >= KEEP:
            return

        def run(regs_in, memory, p=p, q=q, name=name, k=k, cond=cond, take_y=take_y):
            u, v = regs_in[p], regs_in[q]
            for _ in range(MAX_TRIPS):
                if _stop(v, k, cond):
                    return {**regs_in, out: v if take_y else u}, memory
                u, v = v, op(name, u, v)
            raise TooLong

        if fits(spec, run):
            found.append("\n".join([
                instruction("pass", x, None, p), instruction("pass", y, None, q), "top:", f"CMP {y}, {k}",
                f"{JUMP[cond]} end", instruction(name, t, x, y), instruction("pass", x, None, y),
                instruction("pass", y, None, t), "JMP top", "end:", instruction("pass", out, None, y if take_y else x),
                "HALT"]))


def search_count(spec: SynthesisSpec, deadline: float, found: list) -> None:
    regs = scratch(spec, 3)
    if regs is None or len(spec.outputs) != 1:
        return
    m, c, t = regs
    out = spec.outputs[0]
    odd_arms = [None] + [(f, s) for f in ODD_FIRST for s in ODD_SECOND]
    for odd, n, even, (k, cond), c0 in itertools.product(odd_arms, spec.inputs, COUNT_UPDATES, STOPS, (0, 1)):
        if time.perf_counter() > deadline or len(found) >= KEEP:
            return
        if odd is not None and odd[1][0] is None and odd[0] == ("add", 1):
            continue  # the same as an unbranched n + 1 on odd values; nothing new

        def run(regs_in, memory, n=n, even=even, k=k, cond=cond, c0=c0, odd=odd):
            v, steps = regs_in[n], c0
            for _ in range(MAX_TRIPS):
                if _stop(v, k, cond):
                    return {**regs_in, out: steps & MASK}, memory
                if odd is not None and v & 1:
                    v = op(odd[0][0], v, odd[0][1])
                    if odd[1][0] is not None:
                        v = op(odd[1][0], v, odd[1][1])
                else:
                    v = op(even[0], v, even[1])
                steps += 1
            raise TooLong

        if fits(spec, run):
            body = [instruction(even[0], m, m, even[1])]
            if odd is not None:
                arm = [instruction(odd[0][0], m, m, odd[0][1])]
                if odd[1][0] is not None:
                    arm.append(instruction(odd[1][0], m, m, odd[1][1]))
                body = [instruction("and", t, m, 1), f"CMP {t}, 0", "JNZ odd", *body, "JMP next", "odd:", *arm,
                        "next:"]
            found.append("\n".join([
                instruction("pass", m, None, n), instruction("pass", c, None, c0), "top:", f"CMP {m}, {k}",
                f"{JUMP[cond]} end", *body, instruction("add", c, c, 1), "JMP top", "end:",
                instruction("pass", out, None, c), "HALT"]))


def search_loops(spec: SynthesisSpec, deadline: float) -> list[str]:
    """Fitting programs (at most KEEP), from the sketches in this order: euclid, pair, count."""
    if spec.uses_memory:
        return []
    found: list[str] = []
    for sketch in (search_euclid, search_pair, search_count):
        sketch(spec, deadline, found)
    return found
