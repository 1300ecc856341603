"""The discrete baseline: bottom-up enumeration of straight-line programs.

Expressions are built by size (number of ALU operations) from the input registers and a pool of
constants, each evaluated on every training example at once with the exact ALU (the
differentiable ALU's forward pass on integers is exact). *Observational equivalence* prunes: an
expression whose values on the examples were already produced by a smaller one is dropped. The
first expression matching an output's values is turned into instructions (`codegen`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import torch

from ncpu_nb.differentiable.soft_alu import relaxed_op
from ncpu_nb.synthesis.emit import BINARY, UNARY, instruction
from ncpu_nb.synthesis.gradient_search import constant_pool
from ncpu_nb.synthesis.spec import USABLE, SynthesisSpec

CHUNK = 1 << 18  # candidate values evaluated per batch (the deadline is checked between batches)
_MIX = torch.randint(1, 1 << 61, (64,), generator=torch.Generator().manual_seed(7))


def _signed(v: int) -> int:
    return v - (1 << 32) if v >= (1 << 31) else v


def row_hashes(values: torch.Tensor) -> torch.Tensor:
    """A 64-bit hash of each row of integer values (int64 arithmetic wraps)."""
    ints = values.to(torch.int64)
    return (ints * _MIX[: ints.shape[1]]).sum(1) ^ (ints[:, 0] << 17)


@dataclass(frozen=True)
class Expr:
    """op applied to child expression ids (a constant is an int in `b`); op 'input' names a register."""

    op: str
    a: int | str | None = None
    b: int | None = None
    const: int | None = None


class Enumerator:
    """Bottom-up enumeration with observational equivalence.

    max_values  stop growing once this many distinct value vectors are stored
    """

    def __init__(self, max_values: int = 400_000):
        self.max_values = max_values

    def search(self, spec: SynthesisSpec, deadline: float, progress=None) -> tuple[str | None, dict]:
        consts = constant_pool(spec)
        inputs = torch.tensor([[inp[r] for r in spec.inputs] for inp, _ in spec.examples], dtype=torch.float64).T
        targets = {o: torch.tensor([_signed(out[o]) for _, out in spec.examples], dtype=torch.float64)
                   for o in spec.outputs}
        exprs: list[Expr] = [Expr("input", r) for r in spec.inputs]
        levels = [list(range(len(exprs)))]  # expression ids by size
        values = inputs.clone() if len(spec.inputs) else torch.zeros(0, len(spec.examples), dtype=torch.float64)
        seen = set(row_hashes(values).tolist()) if len(values) else set()
        const_rows = torch.tensor(consts, dtype=torch.float64).unsqueeze(1).expand(-1, len(spec.examples))
        found: dict[str, int] = {}
        self._match(values, range(len(exprs)), targets, found)
        for c, row in zip(consts, const_rows):  # an output that is a constant
            for o, t in targets.items():
                if o not in found and bool((row == t).all()):
                    exprs.append(Expr("const", const=c))
                    found[o] = len(exprs) - 1
        stats = {"sizes": 0, "values": len(values)}
        size = 0
        while len(found) < len(targets) and time.perf_counter() < deadline and len(values) < self.max_values:
            size += 1
            new_ids = []
            for op, a_ids, b_ids, b_consts in self._shapes(levels, size, consts):
                a_vals = values[a_ids]
                b_vals = torch.cat([values[b_ids], const_rows[b_consts]]) if b_consts is not None else values[b_ids]
                step = max(1, CHUNK // max(1, len(b_vals)))
                for lo in range(0, len(a_ids), step):
                    if time.perf_counter() >= deadline:
                        break
                    av = a_vals[lo:lo + step]
                    if op in UNARY:
                        out = relaxed_op(op, av, av)
                        pairs = [(a_ids[lo + i], None) for i in range(len(av))]
                    else:
                        out = relaxed_op(op, av.unsqueeze(1), b_vals.unsqueeze(0)).reshape(-1, av.shape[1])
                        pairs = None
                    hashes = row_hashes(out)
                    keep = [i for i, h in enumerate(hashes.tolist()) if h not in seen and not seen.add(h)]
                    if not keep:
                        continue
                    base = len(exprs)
                    for i in keep:
                        if pairs is not None:
                            exprs.append(Expr(op, pairs[i][0]))
                            continue
                        ai, bj = divmod(i, len(b_vals))
                        if bj < len(b_ids):
                            exprs.append(Expr(op, a_ids[lo + ai], b_ids[bj]))
                        else:
                            exprs.append(Expr(op, a_ids[lo + ai], const=consts[b_consts[bj - len(b_ids)]]))
                    ids = range(base, len(exprs))
                    values = torch.cat([values, out[keep]])
                    new_ids.extend(ids)
                    self._match(values, ids, targets, found)
                    if len(found) == len(targets):
                        break
                if len(found) == len(targets) or time.perf_counter() >= deadline:
                    break
            levels.append(new_ids)
            stats.update(sizes=size, values=len(values))
            if progress is not None:
                progress({"method": "enumerative", "size": size, "values": len(values)})
        if len(found) < len(targets):
            return None, stats
        return codegen(spec, exprs, found), stats

    @staticmethod
    def _shapes(levels, size, consts):
        """(op, first-operand ids, second-operand ids, constant indices) for expressions of `size`."""
        out = []
        for op in UNARY:
            out.append((op, levels[size - 1], None, None))
        for op in BINARY:
            for left in range(size):
                right = size - 1 - left
                if right == 0:
                    out.append((op, levels[left], levels[0], list(range(len(consts)))))
                else:
                    out.append((op, levels[left], levels[right], None))
        return out

    @staticmethod
    def _match(values, ids, targets, found):
        ids = list(ids)
        if not ids:
            return
        block = values[ids]
        for o, t in targets.items():
            if o in found:
                continue
            hit = (block == t).all(1).nonzero()
            if len(hit):
                found[o] = ids[int(hit[0])]


def codegen(spec: SynthesisSpec, exprs: list[Expr], roots: dict[str, int]) -> str | None:
    """Instructions computing every output's expression. Inputs stay intact until every output is
    computed: an output that is also an input is built in a scratch register and moved at the end.
    None if R0-R7 run out."""
    free = [r for r in USABLE if r not in spec.inputs and r not in spec.outputs]
    lines: list[str] = []
    moves: list[tuple[str, str | int]] = []

    def emit(i: int, into: str | None) -> str | int:
        e = exprs[i]
        if e.op == "input":
            return e.a
        if e.op == "const":
            return e.const
        a = emit(e.a, None)
        if isinstance(a, int):  # constants only sit in the second operand: load it first
            a = _into(a)
        b = e.const if e.const is not None else (emit(e.b, None) if e.b is not None else None)
        dst = into or _scratch()
        lines.append(instruction(e.op, dst, a, b))
        for used in (a, b):
            if isinstance(used, str) and used in scratch_used and used != dst:
                free.append(used)
                scratch_used.discard(used)
        return dst

    scratch_used: set = set()

    def _scratch() -> str:
        if not free:
            raise LookupError
        r = free.pop(0)
        scratch_used.add(r)
        return r

    def _into(c: int) -> str:
        r = _scratch()
        lines.append(instruction("pass", r, None, c))
        return r

    try:
        late = []
        for o in spec.outputs:
            root = exprs[roots[o]]
            if root.op in ("input", "const"):
                (late if o in spec.inputs else moves).append((o, emit(roots[o], None)))
            elif o in spec.inputs:
                r = emit(roots[o], None)
                scratch_used.discard(r)  # keep it until the final move
                late.append((o, r))
            else:
                emit(roots[o], o)
        # values held in input registers must be copied before any input is overwritten
        staged = []
        for o, src in late:
            if isinstance(src, str) and src in spec.inputs and src != o:
                tmp = _scratch()
                scratch_used.discard(tmp)
                lines.append(instruction("pass", tmp, None, src))
                src = tmp
            staged.append((o, src))
        for o, src in moves + staged:
            if src != o:
                lines.append(instruction("pass", o, None, src))
    except LookupError:
        return None
    return "\n".join(lines + ["HALT"])
