"""`ncpu-nb verify` / `ncpu_nb.verify()`: prove the neural ALU exact, and the float unit IEEE 754.

1. Every trained cell on its entire input domain.
2. Every 32-bit operation, through the networks, against fast mode: all pairs of edge values; all
   8-bit x 8-bit operand pairs placed in each byte lane; every shift amount (and out-of-range ones)
   on single-bit and random patterns; and 1,000,000 random 32-bit pairs. The core's neural mode
   (what `CPU(mode="neural")` runs, one instruction per lane, flags included) gets all of them; the
   torch wiring (`NeuralALU`) too, except that for MUL, DIV and MOD it takes only the first pairs
   of each set, unless `full`.
3. Every float operation of the float unit, fast, wired and neural, against IEEE 754: special
   values, 10,000,000 random pairs, every pair of two 8-bit formats (`ncpu_nb.float_verification`).

Why that suffices: each operation is a fixed wiring of cells (no data-dependent structure besides
what the cells compute), and each cell is right on every input it can ever receive, so by induction
over the wiring every gate output is right for every operand pair — all 2^64 of them. The operand
tests check the wiring itself.

The work splits by operation: each operation's random operands come from its own generator, seeded
by (seed, the operation's index), so `verify(ray=True)` (`ncpu-nb verify --ray`) runs one Ray task per
operation (and one for the cells) and gets the same report as the run in this process.
"""
from __future__ import annotations

import time
from html import escape

import numpy as np
import torch

from ncpu_nb import html
from ncpu_nb.ncpu.neural_cells import CELLS
from ncpu_nb.ncpu.torch_cells import load_cell
from ncpu_nb.ncpu.neural_alu import NeuralALU
from ncpu_nb.ncpu.table import ALU_NAMES, CARRY_OPS, FORMS, INTEGER_OPS
from ncpu_nb.verification_check import Check

EDGE = [0, 1, 2, 3, 7, 31, 32, 33, 255, 256, 0xFFFF, 0x10000, 0x55555555, 0xAAAAAAAA, 0x7FFFFFFE, 0x7FFFFFFF,
        0x80000000, 0x80000001, 0xFFFFFFE0, 0xFFFFFFFE, 0xFFFFFFFF]
SLOW = {"mul": 50_000, "div": 10_000, "mod": 10_000}  # torch pairs per set for the costly operations (quick)
CHUNK = 16_384
RANDOM_PAIRS = 1_000_000


class VerifyReport(list):
    """The checks, in order; `exact` is True only if every one found no mismatch."""

    @property
    def exact(self) -> bool:
        return all(c.exact for c in self)

    def __str__(self) -> str:
        lines = [f"{'check':24s} {'cases':>12s} {'in torch':>10s} {'mismatches':>10s} {'max ULP':>8s} {'seconds':>8s}"
                 f"  domain"]
        lines += [f"{c.what:24s} {c.cases:>12,} {c.torch_cases:>10,} {c.mismatches:>10,} {c.max_ulp:>8,} "
                  f"{c.seconds:>8.2f}  {c.domain}" for c in self]
        lines.append("EXACT: every check passed" if self.exact else "NOT EXACT: see the mismatches above")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = [[escape(c.what), escape(c.domain), f"{c.cases:,}", f"{c.torch_cases:,}", f"{c.mismatches:,}",
                 f"{c.max_ulp:,}", f"{c.seconds:.2f}"] for c in self]
        title = "Neural ALU: exact" if self.exact else "Neural ALU: NOT exact"
        return html.view(title, html.table(["check", "domain", "cases", "in torch", "mismatches", "max ULP", "seconds"],
                                           rows, numeric=(2, 3, 4, 5, 6)))


def _instruction(op: str) -> str:
    """One instruction computing `op` on R0 (a) and R1 (b) into R2, read off the ISA table."""
    form = next(f for f in FORMS if f.sem.kind == "alu" and f.sem.alu == op and f.sem.dst
                and all(k == "reg" for _, k, _ in f.operands))
    sources = ["R0", "R1"] if len(form.operands) == 3 else (["R1"] if form.sem.a is None else ["R0"])
    return f"{form.mnemonic} R2, {', '.join(sources)}"


def executed(op: str, a: np.ndarray, b: np.ndarray, mode: str):
    """(result, flag bits ZF|SF<<1|CF<<2|OF<<3) of `op` run by a CPU in `mode`, one lane per pair."""
    from ncpu_nb.ncpu import CPU

    cpu = CPU(_instruction(op) + "\nHALT", mode=mode, lanes=len(a), memory_size=4, trace_depth=0)
    cpu.set_registers(R0=a.astype(np.int64), R1=b.astype(np.int64))
    cpu.run()
    result = cpu.registers_array()[:, 2].astype(np.uint32).astype(np.uint64)
    return result, cpu.flags_array()


def _compare(alu: NeuralALU, op: str, a: np.ndarray, b: np.ndarray, torch_limit: int) -> int:
    """Operand pairs where the core (all pairs) or the torch wiring (the first `torch_limit`)
    disagrees with fast mode."""
    result, flags = executed(op, a, b, "fast")
    core_result, core_flags = executed(op, a, b, "neural")
    wrong = (core_result != result) | (core_flags != flags)
    for start in range(0, min(len(a), torch_limit), CHUNK):
        part = slice(start, min(start + CHUNK, torch_limit))
        got, carry, overflow = alu.compute(op, a[part], b[part])
        bad = got != result[part]
        if op in CARRY_OPS:  # only these define carry and overflow
            bad |= (carry != (flags[part] >> 2 & 1)) | (overflow != (flags[part] >> 3 & 1))
        wrong[part] |= bad
    return int(wrong.sum())


def operand_sets(op: str, rng: np.random.Generator, random_pairs: int = None):
    """(name, description, a, b) operand sets for one operation; the last has `random_pairs` random pairs."""
    e = np.array(EDGE, dtype=np.uint64)
    yield "edge", f"all pairs of {len(EDGE)} edge values", np.repeat(e, len(e)), np.tile(e, len(e))
    x, y = np.meshgrid(np.arange(256, dtype=np.uint64), np.arange(256, dtype=np.uint64))
    for k in range(4):
        yield (f"bytes {k}", f"all 8-bit pairs in byte lane {k}", x.ravel() << np.uint64(8 * k),
               y.ravel() << np.uint64(8 * k))
    if op in ("shl", "shr", "sar"):
        patterns = np.concatenate([1 << np.arange(32, dtype=np.uint64), e, rng.integers(0, 2**32, 64, np.uint64)])
        amounts = np.concatenate([np.arange(34, dtype=np.uint64),
                                  np.array([100, 2**31 - 1, 2**31, 2**32 - 1, 2**32 - 32], dtype=np.uint64)])
        yield ("amounts", f"every amount 0..33 and 5 out-of-range ones x {len(patterns)} patterns",
               np.repeat(patterns, len(amounts)), np.tile(amounts, len(patterns)))
    n = RANDOM_PAIRS if random_pairs is None else random_pairs
    yield "random", f"{n:,} random 32-bit pairs", rng.integers(0, 2**32, n, np.uint64), \
        rng.integers(0, 2**32, n, np.uint64)


def _cells(_=None) -> list[Check]:
    checks = []
    for name, spec in CELLS.items():
        t0 = time.perf_counter()
        right, total = load_cell(name).check()
        checks.append(Check(f"cell {name}", f"all {total} patterns of {len(spec.inputs)} input bits", total,
                            total - right, time.perf_counter() - t0, total))
    return checks


def _operation(job: tuple) -> list[Check]:
    """The checks of one operation: job is (op, full, seed, device, random_pairs)."""
    op, full, seed, device, random_pairs = job
    alu, checks = NeuralALU(device=device), []
    rng = np.random.default_rng([seed, ALU_NAMES.index(op)])  # its own stream: the same wherever it runs
    for label, domain, a, b in operand_sets(op, rng, random_pairs):
        t0 = time.perf_counter()
        limit = len(a) if full or op not in SLOW else SLOW[op]
        with torch.no_grad():
            bad = _compare(alu, op, a, b, limit)
        checks.append(Check(f"{op} {label}", domain, len(a), bad, time.perf_counter() - t0, min(limit, len(a))))
    return checks


def _job(job):
    if job is None:
        return _cells()
    if job[0] == "float":
        from ncpu_nb.float_verification import float_operation

        return float_operation(job)
    return _operation(job)


def verify(full: bool = False, progress: bool = True, seed: int = 0, device: str = "cpu", *, ops=None,
           random_pairs: int = RANDOM_PAIRS, float_pairs: int | None = None, ray=None) -> VerifyReport:
    """Check every cell exhaustively, every integer operation against fast mode (see the module doc)
    and every float operation against IEEE 754 (`ncpu_nb.float_verification`, `float_pairs` random
    pairs each, 10,000,000 by default).
    `device` runs the torch wiring there ("cuda": a GPU makes `full` quick). `ops` checks only those
    operations, `random_pairs` sets the size of each random set (a reduced run). `ray` (True,
    "local" or a cluster address) runs the cells and each operation as Ray tasks (`ncpu_nb.sweeps`)."""
    from ncpu_nb.sweeps import sweep

    from ncpu_nb.float_verification import FLOAT_CHECKED, RANDOM_PAIRS as FLOAT_PAIRS

    NeuralALU(device=device)  # first: a device this host lacks fails before any work
    known = INTEGER_OPS + FLOAT_CHECKED
    ops = list(known if ops is None else ops)
    unknown = [op for op in ops if op not in known]
    if unknown:
        raise ValueError(f"unknown operation {unknown[0]!r}; choose from {', '.join(known)}")
    jobs = [None] + [("float", op, full, seed, FLOAT_PAIRS if float_pairs is None else float_pairs)
                     if op in FLOAT_CHECKED else (op, full, seed, device, random_pairs) for op in ops]
    # A Ray task that asks for no GPU sees none: with cuda, four tasks share each GPU.
    gpus = 0.25 if ray and str(device).startswith("cuda") else 0
    parts = sweep(_job, jobs, ray=ray, desc="verifying", progress=progress, num_gpus=gpus)
    return VerifyReport(check for part in parts for check in part)
