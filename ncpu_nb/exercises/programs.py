"""Grading an nCPU program answer: `coursework.check` runs every case at once, as lanes."""
from __future__ import annotations

from ncpu_nb.coursework import check
from ncpu_nb.exercises.checker import Row, WrongKind
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.program import Program


def program_rows(program, cases: list[tuple[dict, dict]], what: str = "cases") -> list[Row]:
    """Rows for a program answer: does it assemble, and does it pass every (inputs, expected) case?"""
    if not isinstance(program, (str, Program)):
        raise WrongKind(f"expected the program as text (or a Program), got {type(program).__name__}")
    report = check(program, cases)
    if report.error:
        return [Row("assembles", False, report.error.splitlines()[-1].strip())]
    rows = [Row("assembles", True, "yes")]
    bad = report.failures()
    if not bad:
        rows.append(Row(what, True, f"all {len(report.cases)} pass"))
    else:
        first = bad[0]
        got = {k: first.got.get(k) for k in first.expected}
        rows.append(Row(what, False, f"{len(bad)} of {len(report.cases)} fail, e.g. inputs {first.inputs}: "
                                     f"expected {first.expected}, got {got} ({first.status})"))
    return rows


def instruction_count(program) -> int:
    """Instructions other than HALT."""
    program = program if isinstance(program, Program) else assemble(program)
    return sum(instruction.form.mnemonic != "HALT" for instruction in program.instructions)
