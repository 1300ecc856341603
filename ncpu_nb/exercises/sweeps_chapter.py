"""The exercises of chapter 27: sweeps on Ray (how the work splits, and why the answers match)."""
from __future__ import annotations

from ncpu_nb.exercises.checker import Row, expect, exercise, integer


@exercise("27", "verify_tasks", "How many tasks does `ncpu-nb verify --ray` submit (all operations)?")
def _(answer):
    from ncpu_nb.float_verification import FLOAT_CHECKED
    from ncpu_nb.verification import INTEGER_OPS

    operations = len(INTEGER_OPS) + len(FLOAT_CHECKED)
    got = integer(answer, "a count of tasks")
    rows = [expect("tasks", 1 + operations, got)]
    if got == operations:
        rows.append(Row("the cells", False, "one task per operation, and one more checks the four cells"))
    elif got == 1 + len(INTEGER_OPS):
        rows.append(Row("the float unit", False, "its operations are checked too, one task each"))
    return rows


@exercise("27", "xor_first_random", "The first operand a of xor's random set in verify(seed=0)")
def _(answer):
    import numpy as np

    from ncpu_nb.ncpu.table import ALU_NAMES
    from ncpu_nb.verification import operand_sets

    *_, (_, _, a, _) = operand_sets("xor", np.random.default_rng([0, ALU_NAMES.index("xor")]), 10)
    got = integer(answer, "a whole number")
    rows = [expect("a[0]", int(a[0]), got, show=lambda w: f"0x{w:08X}")]
    if got == int(np.random.default_rng(0).integers(0, 2**32, 10, np.uint64)[0]):
        rows.append(Row("its stream", False, "that is default_rng(0)'s first draw: each operation has its own "
                                             "generator, seeded by (seed, the operation's index)"))
    return rows
