"""Two more discrete solvers for the portfolio: programs of a fixed *shape* with holes, every
filling checked against the examples at once.

select  CMP x, y / Jcc taken / (each output = a one-instruction value) / HALT /
        taken: (each output = a one-instruction value) / HALT
        -- a branch; the two arms are solved independently, each on the examples that reach it
chain   out = ((in0 OP in1) OP in2) ... OP in(k-1), optionally then OP2 constant
        -- one operation folded over every input (sums, products, the parity of k bits)
loop    n' = n; acc = init; top: CMP n', 0 / J(LE|Z) end / [acc = acc PRE k] / acc = acc OP e(n') /
        n' = n' UPD k / JMP top / end: out = acc
        -- a counted loop (countdown, halving, digit by digit), one accumulator
"""
from __future__ import annotations

import itertools
import time

import torch

from ncpu_nb.differentiable.soft_alu import relaxed_op
from ncpu_nb.synthesis.emit import BINARY, UNARY, instruction
from ncpu_nb.synthesis.gradient_search import constant_pool
from ncpu_nb.synthesis.spec import USABLE, SynthesisSpec
from ncpu_nb.ncpu.table import CONDITIONS, FORMS, alu

MAX_TRIPS = 64
PRE_OPS = ("shl", "mul", "add", "xor")  # what the accumulator may do to itself before each step
JUMP_BY_CONDITION = {f.sem.cond: f.mnemonic for f in FORMS if f.sem.kind == "jump"}


def _signed(v: int) -> int:
    return v - (1 << 32) if v >= (1 << 31) else v


def _one_step_values(spec: SynthesisSpec, consts: list[int]):
    """Values one instruction can put in a register: [(values on the examples, (op, a, b))]."""
    columns = {r: torch.tensor([float(inp[r]) for inp, _ in spec.examples], dtype=torch.float64)
               for r in spec.inputs}
    e = len(spec.examples)
    out = [(v, ("pass", None, r)) for r, v in columns.items()]
    out += [(torch.full((e,), float(c), dtype=torch.float64), ("pass", None, c)) for c in consts]
    for op in UNARY:
        out += [(relaxed_op(op, v, v), (op, r, None)) for r, v in columns.items()]
    for op in BINARY:
        for (r, v), b in itertools.product(columns.items(), list(columns) + consts):
            bv = columns[b] if isinstance(b, str) else torch.full((e,), float(b), dtype=torch.float64)
            out.append((relaxed_op(op, v, bv), (op, r, b)))
    return out


def _block(spec: SynthesisSpec, picks: dict) -> list[str]:
    """Instructions setting each output to its pick; outputs that are inputs are set last, through
    scratch registers, so no input is overwritten while still needed."""
    scratch = [r for r in USABLE if r not in spec.inputs and r not in spec.outputs]
    lines, late = [], []
    for o, (op, a, b) in picks.items():
        if o in spec.inputs:
            tmp = scratch.pop(0)
            lines.append(instruction(op, tmp, a, b))
            late.append(instruction("pass", o, None, tmp))
        else:
            lines.append(instruction(op, o, a, b))
    return lines + late


def search_select(spec: SynthesisSpec, deadline: float) -> str | None:
    consts = constant_pool(spec)
    candidates = _one_step_values(spec, consts)
    values = torch.stack([v for v, _ in candidates])  # (candidates, examples)
    targets = {o: torch.tensor([float(_signed(out[o])) for _, out in spec.examples], dtype=torch.float64)
               for o in spec.outputs}
    match = {o: values == t for o, t in targets.items()}
    if len(spec.inputs) + len(spec.outputs) > len(USABLE) - len(spec.outputs):
        return None
    for x, y in itertools.product(spec.inputs, spec.inputs + consts):
        if x == y:
            continue
        flags = []
        for inp, _ in spec.examples:
            a, b = inp[x] & 0xFFFF_FFFF, (inp[y] if isinstance(y, str) else y) & 0xFFFF_FFFF
            r, c, v = alu("sub", a, b)
            flags.append((int(r == 0), r >> 31, c, v))
        for cond, test in CONDITIONS.items():
            if cond == "al" or time.perf_counter() > deadline:
                continue
            taken = torch.tensor([bool(test(*f)) for f in flags])
            picks = ({}, {})
            for o, m in match.items():
                for arm, mask in ((0, ~taken), (1, taken)):
                    ok = m[:, mask].all(1).nonzero()
                    if len(ok):
                        picks[arm][o] = candidates[int(ok[0])][1]
            if all(len(p) == len(spec.outputs) for p in picks):
                lines = [f"CMP {x}, {y}", f"{JUMP_BY_CONDITION[cond]} taken", *_block(spec, picks[0]), "HALT",
                         "taken:", *_block(spec, picks[1]), "HALT"]
                return "\n".join(lines)
    return None


def search_chain(spec: SynthesisSpec, deadline: float) -> str | None:
    if len(spec.outputs) != 1 or len(spec.inputs) < 2:
        return None
    out = spec.outputs[0]
    consts = constant_pool(spec)
    columns = [torch.tensor([float(inp[r]) for inp, _ in spec.examples], dtype=torch.float64) for r in spec.inputs]
    target = torch.tensor([float(_signed(o[out])) for _, o in spec.examples], dtype=torch.float64)
    acc_reg = out if out not in spec.inputs[1:] else next(r for r in USABLE if r not in spec.inputs)
    for op in BINARY:
        if time.perf_counter() > deadline:
            return None
        acc = columns[0]
        for column in columns[1:]:
            acc = relaxed_op(op, acc, column)
        finish = [None] + [(op2, c) for op2 in BINARY for c in consts]
        for last in finish:
            value = acc if last is None else relaxed_op(last[0], acc, torch.full_like(acc, float(last[1])))
            if bool((value == target).all()):
                lines = [instruction(op, acc_reg, spec.inputs[0], spec.inputs[1])]
                lines += [instruction(op, acc_reg, acc_reg, r) for r in spec.inputs[2:]]
                if last is not None:
                    lines.append(instruction(last[0], acc_reg, acc_reg, last[1]))
                if acc_reg != out:
                    lines.append(instruction("pass", out, None, acc_reg))
                return "\n".join(lines + ["HALT"])
    return None


def _counter_trajectories(n0: torch.Tensor, update, until_zero: bool, trips: int):
    """Counter values at each trip and whether the body runs, for one update rule."""
    c, states, active = n0.clone(), [], []
    running = torch.ones_like(n0, dtype=torch.bool)
    for _ in range(trips):
        running = running & ((c != 0) if until_zero else (c > 0))
        states.append(c.clone())
        active.append(running.clone())
        c = torch.where(running, relaxed_op(update[0], c, torch.full_like(c, float(update[1]))), c)
    return states, active


def search_loop(spec: SynthesisSpec, deadline: float) -> str | None:
    if len(spec.outputs) != 1:
        return None
    out = spec.outputs[0]
    consts = constant_pool(spec)
    e = len(spec.examples)
    target = torch.tensor([float(_signed(o[out])) for _, o in spec.examples], dtype=torch.float64)
    columns = {r: torch.tensor([float(inp[r]) for inp, _ in spec.examples], dtype=torch.float64)
               for r in spec.inputs}
    updates = [("sub", 1), ("shr", 1)] + [("div", k) for k in consts if k > 1]
    inits = [(r, columns[r]) for r in spec.inputs] + [(c, torch.full((e,), float(c), dtype=torch.float64))
                                                      for c in [0] + consts]
    init_values = torch.stack([v for _, v in inits])  # (inits, e)
    scratch = [r for r in USABLE if r not in spec.inputs and r != out]
    if len(scratch) < 3:
        return None
    counter, acc, tmp = scratch[:3]
    if out not in spec.inputs:
        acc = out
    # Plain accumulators first, over every counter; then the ones that also transform themselves.
    pres = ([None], [(p, k) for p in PRE_OPS for k in consts])
    for pre_ops, n, update, until_zero in itertools.product(pres, spec.inputs, updates, (False, True)):
        if time.perf_counter() > deadline:
            return None
        states, active = _counter_trajectories(columns[n], update, until_zero, MAX_TRIPS)
        if bool(active[-1].any()):
            continue  # some example would not leave the loop in MAX_TRIPS trips
        terms = [("c", None, None)] + [("in", r, None) for r in spec.inputs] + [("k", k, None) for k in consts]
        terms += [(op, "c", k) for op in BINARY for k in consts + spec.inputs + ["c"]]

        def term_value(term, c):
            kind, a, b = term
            if kind == "c":
                return c
            if kind == "in":
                return columns[a]
            if kind == "k":
                return torch.full_like(c, float(a))
            bv = c if b == "c" else columns[b] if isinstance(b, str) else torch.full_like(c, float(b))
            return relaxed_op(kind, c, bv)

        trips = [(torch.stack([term_value(term, c) for term in terms]).unsqueeze(1), run)
                 for c, run in zip(states, active) if bool(run.any())]  # (terms, 1, e) per trip
        for op, pre in itertools.product(BINARY, pre_ops):
            if time.perf_counter() > deadline:
                return None
            accs = init_values.unsqueeze(0).expand(len(terms), -1, -1).clone()  # (terms, inits, e)
            for t, run in trips:
                shifted = accs if pre is None else relaxed_op(pre[0], accs, torch.full_like(accs, float(pre[1])))
                accs = torch.where(run, relaxed_op(op, shifted, t), accs)
            hit = (accs == target).all(-1).nonzero()
            if len(hit):
                term, init = terms[int(hit[0, 0])], inits[int(hit[0, 1])][0]
                return _loop_text(spec, out, n, counter, acc, tmp, init, op, term, update, until_zero, pre)
    return None


def _loop_text(spec, out, n, counter, acc, tmp, init, op, term, update, until_zero, pre) -> str:
    kind, a, b = term
    body = [] if pre is None else [instruction(pre[0], acc, acc, pre[1])]
    if kind == "c":
        operand = counter
    elif kind == "in":
        operand = a
    elif kind == "k":
        operand = a
    else:
        body.append(instruction(kind, tmp, counter, counter if b == "c" else b))
        operand = tmp
    body.append(instruction(op, acc, acc, operand))
    lines = [instruction("pass", counter, None, n), instruction("pass", acc, None, init),
             "top:", f"CMP {counter}, 0", f"{'JZ' if until_zero else 'JLE'} end", *body,
             instruction(update[0], counter, counter, update[1]), "JMP top", "end:"]
    if acc != out:
        lines.append(instruction("pass", out, None, acc))
    return "\n".join(lines + ["HALT"])
