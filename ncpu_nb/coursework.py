"""Autograding for nCPU coursework: run a student's program on many test cases at once.

    report = check(source, [({"R0": 3, "R1": 5}, {"R2": 5}), ...])
    report                    # an HTML table of every case
    report.assert_passed()    # in an autograder cell: fails loudly with the failing cases

All cases run together as lanes of one CPU, so hundreds of cases cost one run.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from html import escape

from ncpu_nb import html
from ncpu_nb.ncpu import CPU
from ncpu_nb.errors import AssemblyError
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.program import Program


@dataclass(frozen=True)
class CaseResult:
    inputs: dict
    expected: dict
    got: dict
    cycles: int
    status: str

    @property
    def passed(self) -> bool:
        return self.status == "halted" and all(self.got.get(k) == v for k, v in self.expected.items())


@dataclass(frozen=True)
class GradeReport:
    cases: tuple[CaseResult, ...]
    error: str | None = None  # why nothing ran (e.g. the program does not assemble)

    @property
    def passed(self) -> int:
        return sum(c.passed for c in self.cases)

    @property
    def score(self) -> float:
        return self.passed / len(self.cases) if self.cases and not self.error else 0.0

    def failures(self) -> list[CaseResult]:
        return [c for c in self.cases if not c.passed]

    def assert_passed(self) -> None:
        if self.error:
            raise AssertionError(self.error)
        bad = self.failures()
        if bad:
            lines = [f"{len(bad)} of {len(self.cases)} cases failed, e.g.:"]
            lines += [f"  inputs {c.inputs}: expected {c.expected}, got "
                      f"{ {k: c.got.get(k) for k in c.expected} } ({c.status}, {c.cycles} cycles)" for c in bad[:5]]
            raise AssertionError("\n".join(lines))

    def _table(self, cases) -> str:
        rows = [["✔" if c.passed else "✘", escape(str(c.inputs)), escape(str(c.expected)),
                 escape(str({k: c.got.get(k) for k in c.expected})), str(c.cycles), c.status] for c in cases]
        return html.table(["", "inputs", "expected", "got", "cycles", "status"], rows, numeric=(4,))

    def _repr_html_(self) -> str:
        if self.error:
            return html.view("Grade: 0 (does not run)", f"<pre>{escape(self.error)}</pre>")
        title = f"Grade: {self.passed}/{len(self.cases)} cases passed ({self.score:.0%})"
        bad = self.failures()
        good = [c for c in self.cases if c.passed]
        parts = [self._table(bad)] if bad else []
        if good:  # passing cases folded away (<details> needs no JavaScript)
            parts.append(f"<details><summary>{len(good)} passing cases</summary>{self._table(good)}</details>")
        return html.view(title, *parts)


def random_cases(reference, inputs: list[str], n: int = 50, low: int = -1000, high: int = 1000,
                 seed: int = 0) -> list[tuple[dict, dict]]:
    """`n` cases with random inputs in [low, high] and expected outputs from the Python
    function `reference(**inputs) -> {register: value}`."""
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        given = {r: rng.randint(low, high) for r in inputs}
        cases.append((given, reference(**given)))
    return cases


def check(program: str | Program, cases: list[tuple[dict, dict]], max_cycles: int = 100_000) -> GradeReport:
    """Run `program` once per case (all at once, as lanes) and compare the named registers."""
    if not cases:
        raise ValueError("check needs at least one (inputs, expected) case")
    try:
        program = program if isinstance(program, Program) else assemble(program)
    except AssemblyError as err:
        return GradeReport((), f"The program does not assemble:\n{err}")
    cpu = CPU(program, lanes=len(cases), trace_depth=0)
    names = sorted({k for given, _ in cases for k in given})
    cpu.set_registers(**{r: [given.get(r, 0) for given, _ in cases] for r in names})
    cpu.run(max_cycles, check=False)
    statuses, cycles = cpu.lane_status(), cpu.lane_cycles()
    results = tuple(CaseResult(dict(given), dict(expected), cpu.lane_registers(i), int(cycles[i]), statuses[i])
                    for i, (given, expected) in enumerate(cases))
    return GradeReport(results)
