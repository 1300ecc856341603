"""The exercises of chapter 09: programs from examples (sequences, loops, held-out checks)."""
from __future__ import annotations

from ncpu_nb.exercises.checker import Row, expect, exercise, integer, require
from ncpu_nb.exercises.programs import program_rows


@exercise("09", "sequence_examples", "Training examples in SynthesisSpec.from_sequence(<10 terms>, order=3, held_out=2)")
def _(answer):
    from ncpu_nb.synthesis.spec import SynthesisSpec

    spec = SynthesisSpec.from_sequence([0, 0, 1, 1, 2, 4, 7, 13, 24, 44], order=3, held_out=2)
    return [expect("training examples", len(spec.examples), integer(answer, "a count of examples"))]


@exercise("09", "triangular_loop", "A loop (no MUL, no DIV) leaving R1 = 0 + 1 + … + R0 for R0 from 0 to 300")
def _(answer):
    from ncpu_nb.ncpu.assembler import assemble

    source = require(answer, str, "the program as text")
    rows = program_rows(source, [({"R0": n}, {"R1": n * (n + 1) // 2}) for n in (*range(12), 99, 300)])
    if rows[0].passed:
        used = {instruction.form.mnemonic for instruction in assemble(source).instructions}
        rows.append(Row("no MUL or DIV", not used & {"MUL", "DIV"}, ", ".join(sorted(used & {"MUL", "DIV"}))
                        or "none used"))
    return rows
