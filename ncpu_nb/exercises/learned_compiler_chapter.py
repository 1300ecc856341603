"""The exercises of chapter 16 (a compiler that learns)."""
from __future__ import annotations

from ncpu_nb.exercises.checker import exercise, expect, integer
from ncpu_nb.exercises.programs import program_rows


@exercise("16", "be_the_compiler", "nCPU assembly for `result = (a + 2) * (b - c)`: a, b, c in R0-R2, the result in R3")
def _(answer):
    import numpy as np

    rng = np.random.default_rng([14, 2])
    inputs = [(3, 5, 2), (0, 0, 0), (-2, 7, 9)] + [tuple(int(v) for v in rng.integers(-100, 101, 3)) for _ in range(20)]
    cases = [({"R0": a, "R1": b, "R2": c}, {"R3": (a + 2) * (b - c)}) for a, b, c in inputs]
    return program_rows(answer, cases)


@exercise("16", "learned_length", "How many instructions (HALT not counted) does the shipped learned compiler "
                                   "write for `(a - 3) * (b + c * 2)`?")
def _(answer):
    from ncpu_nb.compiler.learned_compiler import LearnedCompiler

    program = LearnedCompiler.load().compile("(a - 3) * (b + c * 2)").program
    count = sum(instruction.mnemonic != "HALT" for instruction in program.instructions)
    return [expect("instructions besides HALT", count, integer(answer))]


@exercise("16", "right_but_not_exact", "Of the depth-3 expressions of held_out_expressions(per_depth=1000, seed=1), "
                                        "how many does the shipped model compile to a program that gives Python's "
                                        "value but is not the exact compiler's?")
def _(answer):
    from ncpu_nb.compiler.expression_corpus import held_out_expressions
    from ncpu_nb.compiler.learned_compiler import LearnedCompiler

    report = LearnedCompiler.load().evaluate({3: held_out_expressions(per_depth=1000, seed=1)[3]})
    count = sum(o.executes and not o.exact_match for o in report.outcomes)
    return [expect("right but not the exact compiler's program", count, integer(answer))]
