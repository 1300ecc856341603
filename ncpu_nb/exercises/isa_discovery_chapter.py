"""The exercises of chapter 13: a near miss measured on the held-out grid, and a shortest program for
the fixed ISA (the length ISA discovery is compared with)."""
from __future__ import annotations

from ncpu_nb.exercises.checker import Row, exercise, number
from ncpu_nb.exercises.programs import instruction_count, program_rows


@exercise("13", "or_as_add", "On the arithmetic benchmark's held-out grid, on what fraction of pairs does a|b equal a+b?")
def _(answer):
    from ncpu_nb.differentiable.isa_library import ARITHMETIC

    a, b = ARITHMETIC.grid_pairs()
    exact = ((a | b) == a + b).double().mean().item()
    got = number(answer, "a fraction between 0 and 1")
    passed = abs(got - exact) < 5e-4
    return [Row("fraction of the grid (to 3 decimals)", passed,
                f"got {got:.4f}" if passed else f"expected {exact:.4f}, got {got:.4f}")]


SQUARE_PLUS_SUM = "(a+b)·a − b"


@exercise("13", "shortest_fixed", "The shortest nCPU program (R0 = a, R1 = b, result in R2) for (a+b)·a − b")
def _(answer):
    import torch

    from ncpu_nb.differentiable import isa_search
    from ncpu_nb.differentiable.isa_discovery import FIXED_ISA
    from ncpu_nb.differentiable.soft_alu import exact_op

    values = range(-20, 21, 3)
    cases = [({"R0": a, "R1": b}, {"R2": (a + b) * a - b}) for a in values for b in values]
    rows = program_rows(answer, cases, "every pair in -20..20 (step 3) on the exact CPU")
    if not all(row.passed for row in rows):
        return rows
    a = torch.tensor([x for x in values for _ in values])
    b = torch.tensor([y for _ in values for y in values])
    exact = lambda x, y: torch.stack([exact_op(op, x, y) for op in FIXED_ISA], -1)  # noqa: E731
    fewest = len(isa_search.shortest(exact, a, b, {"t": (a + b) * a - b}, len(FIXED_ISA))["t"])
    count = instruction_count(answer)
    return rows + [Row("instructions (HALT not counted)", count == fewest,
                       f"{count}, the fewest" if count == fewest else f"{count}; it can be done in {fewest}")]
