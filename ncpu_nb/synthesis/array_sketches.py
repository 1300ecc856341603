"""Array sketches: loops that walk an array in data memory (the `array` solver of the portfolio).

The array's address and length are input registers (which ones is a hole: any input whose value is
an array's address in every example, any other whose value is its length); `w` is the spec's
memory width (LDR/STR for words, LDRB/STRB for bytes).

reduce     p = base; e = len; acc = INIT; top: CMP e, 0 / JLE end / LDR x, [p] / [x = x PRE k] /
           acc = COMBINE(acc, x) / p += w; e -= 1 / JMP top / end: out = acc
           -- sum, product, max, min, count of matches, sum of squares, xor of all
terminated p = base; acc = INIT; top: LDR x, [p] / CMP x, K / JZ end / acc = COMBINE(acc, x) / p += w /
           JMP top / end: out = acc   -- length to a terminator, sum up to it
map        p = base; q = DEST (first or last cell); e = len; top: CMP e, 0 / JLE end / LDR x, [p] /
           x = F(x) [or acc = COMBINE(acc, x); x = acc] / STR x, [q] / p += w; q ±= w; e -= 1 / JMP top
           -- copy, reverse into another array, scale every element, prefix sums
swap       i = base; j = base + (len - 1) w; top: CMP i, j / JGE end / LDR x, [i] / LDR y, [j] /
           x = F(x); y = F(y) / STR y, [i] / STR x, [j] / i += w; j -= w / JMP top
           -- reverse in place (F the identity, or F applied on the way)
"""
from __future__ import annotations

import itertools
import time

from ncpu_nb.ncpu.table import MASK
from ncpu_nb.synthesis.emit import BINARY, instruction
from ncpu_nb.synthesis.gradient_search import constant_pool
from ncpu_nb.synthesis.sketch_eval import KEEP, MAX_TRIPS, TooLong, fits, op, scratch, signed, signed_compare
from ncpu_nb.synthesis.spec import MEMORY, SynthesisSpec

COMBINES = ("add", "mul", "xor", "and", "or", "max", "min", "count")  # count: acc + 1 when x is nonzero
INITS = (0, 1, -1, "first")


def _load(width):
    return "LDR" if width == 4 else "LDRB"


def _store(width):
    return "STR" if width == 4 else "STRB"


def _array_registers(spec: SynthesisSpec) -> list[tuple[str, str | None]]:
    """(address register, length register or None) pairs the examples agree on."""
    pairs = []
    for base in spec.inputs:
        blocks = [inp.get(MEMORY, {}) for inp, _ in spec.examples]
        if not all(inp[base] in b for (inp, _), b in zip(spec.examples, blocks)):
            continue
        for length in spec.inputs:
            if length != base and all(inp[length] == len(b[inp[base]]) for (inp, _), b in zip(spec.examples, blocks)):
                pairs.append((base, length))
        pairs.append((base, None))
    return pairs


def _maps(consts):
    """(x -> F(x), lines computing F into register x): the identity first."""
    maps = [(lambda x: x, lambda x, t: [])]
    for name in BINARY:
        for k in consts:
            maps.append((lambda x, o=name, k=k: op(o, x, k), lambda x, t, o=name, k=k: [instruction(o, x, x, k)]))
    maps.append((lambda x: op("mul", x, x), lambda x, t: [instruction("mul", x, x, x)]))
    return maps


def _combine(name: str, acc: int, x: int) -> int:
    if name == "max":
        return x if signed_compare(x, acc) > 0 else acc
    if name == "min":
        return x if signed_compare(x, acc) < 0 else acc
    if name == "count":
        return (acc + (x != 0)) & MASK
    return op(name, acc, x)


def _combine_lines(name: str, acc: str, x: str, label: str) -> list[str]:
    if name in ("max", "min"):
        return [f"CMP {x}, {acc}", f"{'JLE' if name == 'max' else 'JGE'} {label}", instruction("pass", acc, None, x),
                f"{label}:"]
    if name == "count":
        return [f"CMP {x}, 0", f"JZ {label}", instruction("add", acc, acc, 1), f"{label}:"]
    return [instruction(name, acc, acc, x)]


def _init_value(init, memory, base_value, width):
    return memory.get(base_value, 0) if init == "first" else init & MASK


def _init_lines(init, acc, p, width):
    return [f"{_load(width)} {acc}, [{p}]"] if init == "first" else [instruction("pass", acc, None, init)]


def search_reduce(spec, deadline, found, maps):
    regs = scratch(spec, 4)
    if regs is None or len(spec.outputs) != 1 or spec.output_memory:
        return
    p, e, acc, x = regs
    out, w = spec.outputs[0], spec.memory_width
    for (base, length), (f, f_lines), combine, init in itertools.product(
            [pair for pair in _array_registers(spec) if pair[1]], maps, COMBINES, INITS):
        if time.perf_counter() > deadline or len(found) >= KEEP:
            return

        def run(regs_in, memory, base=base, length=length, f=f, combine=combine, init=init):
            a = _init_value(init, memory, regs_in[base], w)
            for i in range(max(signed(regs_in[length]), 0)):
                a = _combine(combine, a, f(memory.get(regs_in[base] + w * i, 0)))
            return {**regs_in, out: a}, memory

        if fits(spec, run):
            found.append("\n".join([
                instruction("pass", p, None, base), instruction("pass", e, None, length), *_init_lines(init, acc, p, w),
                "top:", f"CMP {e}, 0", "JLE end", f"{_load(w)} {x}, [{p}]", *f_lines(x, None),
                *_combine_lines(combine, acc, x, "next"), instruction("add", p, p, w), instruction("sub", e, e, 1),
                "JMP top", "end:", instruction("pass", out, None, acc), "HALT"]))


def search_terminated(spec, deadline, found, consts):
    regs = scratch(spec, 3)
    if regs is None or len(spec.outputs) != 1 or spec.output_memory:
        return
    p, acc, x = regs
    out, w = spec.outputs[0], spec.memory_width
    for (base, _), stop, combine, init in itertools.product(
            [pair for pair in _array_registers(spec) if pair[1] is None], [0] + consts, ("count",) + COMBINES[:-1],
            (0, 1)):
        if time.perf_counter() > deadline or len(found) >= KEEP:
            return
        stop_value = stop & ((1 << (8 * w)) - 1)

        def run(regs_in, memory, base=base, stop_value=stop_value, combine=combine, init=init):
            a, address = init, regs_in[base]
            for _ in range(MAX_TRIPS):
                v = memory.get(address, 0)
                if v == stop_value:
                    return {**regs_in, out: a & MASK}, memory
                a = (a + 1) & MASK if combine == "count" else _combine(combine, a, v)
                address += w
            raise TooLong

        if fits(spec, run):
            step = [instruction("add", acc, acc, 1)] if combine == "count" else _combine_lines(combine, acc, x, "next")
            found.append("\n".join([
                instruction("pass", p, None, base), instruction("pass", acc, None, init), "top:",
                f"{_load(w)} {x}, [{p}]", f"CMP {x}, {stop_value}", "JZ end", *step, instruction("add", p, p, w),
                "JMP top", "end:", instruction("pass", out, None, acc), "HALT"]))


def _destination(spec: SynthesisSpec, base: str):
    """Where the output array starts: the input array's register (in place), or one fixed address."""
    starts = [next(iter(out[MEMORY])) for _, out in spec.examples]
    if all(s == inp[base] for s, (inp, _) in zip(starts, spec.examples)):
        return base
    return starts[0] if len(set(starts)) == 1 else None


def search_map(spec, deadline, found, maps):
    regs = scratch(spec, 5)
    if regs is None or not spec.output_memory:
        return
    p, q, e, x, acc = regs
    w = spec.memory_width
    for (base, length), backwards, scan, (f, f_lines) in itertools.product(
            [pair for pair in _array_registers(spec) if pair[1]], (False, True), (None, "add", "mul", "max", "xor"),
            maps):
        if time.perf_counter() > deadline or len(found) >= KEEP:
            return
        dest = _destination(spec, base)
        if dest is None:
            return

        def run(regs_in, memory, base=base, length=length, backwards=backwards, scan=scan, f=f, dest=dest):
            memory = dict(memory)
            n = max(signed(regs_in[length]), 0)
            start = regs_in[dest] if isinstance(dest, str) else dest
            a = 0 if scan != "mul" else 1
            for i in range(n):
                v = f(memory.get(regs_in[base] + w * i, 0))
                if scan is not None:
                    a = v = _combine(scan, a, v) if i or scan != "max" else v
                memory[start + w * ((n - 1 - i) if backwards else i)] = v & ((1 << (8 * w)) - 1)
            return regs_in, memory

        if fits(spec, run):
            if backwards:
                q_lines = [instruction("sub", q, length, 1), instruction("mul", q, q, w),
                           instruction("add", q, q, dest) if isinstance(dest, str) else instruction("add", q, q, dest)]
            else:
                q_lines = [instruction("pass", q, None, dest)]
            if scan is None:
                scan_lines = []
            elif scan == "max":  # the first element starts the running maximum
                scan_lines = [f"CMP {e}, {length}", "JZ take", *_combine_lines("max", acc, x, "kept"), "JMP stored",
                              "take:", instruction("pass", acc, None, x), "stored:", instruction("pass", x, None, acc)]
            else:
                scan_lines = [*_combine_lines(scan, acc, x, "next"), instruction("pass", x, None, acc)]
            init = [] if scan is None else [instruction("pass", acc, None, 1 if scan == "mul" else 0)]
            found.append("\n".join([
                instruction("pass", p, None, base), *q_lines, instruction("pass", e, None, length), *init,
                "top:", f"CMP {e}, 0", "JLE end", f"{_load(w)} {x}, [{p}]", *f_lines(x, None), *scan_lines,
                f"{_store(w)} {x}, [{q}]", instruction("add", p, p, w), instruction("sub" if backwards else "add", q, q, w),
                instruction("sub", e, e, 1), "JMP top", "end:", "HALT"]))


def search_swap(spec, deadline, found, maps):
    regs = scratch(spec, 4)
    if regs is None or not spec.output_memory:
        return
    i, j, x, y = regs
    w = spec.memory_width
    for (base, length), (f, f_lines) in itertools.product([pair for pair in _array_registers(spec) if pair[1]], maps):
        if time.perf_counter() > deadline or len(found) >= KEEP:
            return
        if _destination(spec, base) != base:
            return

        def run(regs_in, memory, base=base, length=length, f=f):
            memory = dict(memory)
            lo, hi = regs_in[base], regs_in[base] + w * (signed(regs_in[length]) - 1)
            while lo < hi:
                memory[lo], memory[hi] = (f(memory.get(hi, 0)) & ((1 << (8 * w)) - 1),
                                          f(memory.get(lo, 0)) & ((1 << (8 * w)) - 1))
                lo, hi = lo + w, hi - w
            return regs_in, memory

        if fits(spec, run):
            found.append("\n".join([
                instruction("pass", i, None, base), instruction("sub", j, length, 1), instruction("mul", j, j, w),
                instruction("add", j, j, i), "top:", f"CMP {i}, {j}", "JGE end", f"{_load(w)} {x}, [{i}]",
                f"{_load(w)} {y}, [{j}]", *f_lines(x, None), *f_lines(y, None), f"{_store(w)} {y}, [{i}]",
                f"{_store(w)} {x}, [{j}]", instruction("add", i, i, w), instruction("sub", j, j, w), "JMP top", "end:",
                "HALT"]))


def search_arrays(spec: SynthesisSpec, deadline: float) -> list[str]:
    """Fitting programs (at most KEEP) from the array sketches; none for specs without memory."""
    if not spec.uses_memory:
        return []
    consts = constant_pool(spec)
    maps = _maps(consts)
    found: list[str] = []
    search_swap(spec, deadline, found, maps[:1])  # plain reversal first: it has the fewest holes
    search_reduce(spec, deadline, found, maps)
    search_terminated(spec, deadline, found, consts)
    search_map(spec, deadline, found, maps)
    search_swap(spec, deadline, found, maps[1:])
    return found
