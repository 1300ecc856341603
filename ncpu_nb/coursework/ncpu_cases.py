"""Autograding nCPU programs: run a student's program on many test cases at once.

    report = check(source, [({"R0": 3, "R1": 5}, {"R2": 5}), ...])
    report                    # the failing cases, the cycles each used against the budget, and a
                              # button per failing case that opens it in the debugger
    report.assert_passed()    # in an autograder cell: fails loudly with the failing cases

All cases run together as lanes of one CPU, so hundreds of cases cost one run; the cycle budget
stops a program that never halts.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from html import escape

from ncpu_nb import html
from ncpu_nb.errors import AssemblyError
from ncpu_nb.ncpu import CPU
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.program import Program

DEFAULT_BUDGET = 100_000  # cycles per case
DEBUG_BUTTONS = 6  # failing cases offered in the debugger, at most


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
    error: str | None = None  # why nothing ran (no answer yet, or the program does not assemble)
    program: Program | None = None
    budget: int = DEFAULT_BUDGET

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
                      f"{ {k: c.got.get(k) for k in c.expected} } ({_status(c, self.budget)})" for c in bad[:5]]
            raise AssertionError("\n".join(lines))

    def debugger(self, case: CaseResult | int = 0):
        """The debugger on one case (a CaseResult, or an index into the failing cases), from its inputs."""
        if self.program is None:
            raise ValueError(self.error or "no program to debug")
        if isinstance(case, int):
            case = self.failures()[case]
        return CPU(self.program, registers=case.inputs).debugger()

    def _table(self, cases) -> str:
        rows = [["✔" if c.passed else "✘", escape(str(c.inputs)), escape(str(c.expected)),
                 escape(str({k: c.got.get(k) for k in c.expected})), f"{c.cycles:,}", _status(c, self.budget)]
                for c in cases]
        return html.table(["", "inputs", "expected", "got", "cycles", "status"], rows, numeric=(4,))

    def _repr_html_(self) -> str:
        if self.error:
            return html.view("Grade: 0", f"<pre>{escape(self.error)}</pre>")
        title = f"Grade: {self.passed}/{len(self.cases)} cases passed ({self.score:.0%})"
        worst = max(c.cycles for c in self.cases)
        parts = [f"<p>Cycles: at most {worst:,} of the budget of {self.budget:,} per case.</p>"]
        bad = self.failures()
        good = [c for c in self.cases if c.passed]
        if bad:
            parts.append(self._table(bad))
            parts.append("<p>To step through a failing case: <code>report.debugger(0)</code> "
                         "(0 is the first failing case).</p>")
        if good:  # passing cases folded away (<details> needs no JavaScript)
            parts.append(f"<details><summary>{len(good)} passing cases</summary>{self._table(good)}</details>")
        return html.view(title, *parts)

    def view(self):
        """The report with a button per failing case (up to six) that opens it in the debugger."""
        import ipywidgets as widgets
        from IPython.display import display

        out = widgets.Output()

        def open_case(case):
            out.clear_output()
            with out:
                display(self.debugger(case))

        buttons = []
        for n, case in enumerate(self.failures()[:DEBUG_BUTTONS]):
            button = widgets.Button(description=f"debug case {n}", tooltip=f"inputs {case.inputs}")
            button.on_click(lambda _, case=case: open_case(case))
            buttons.append(button)
        return widgets.VBox([widgets.HTML(self._repr_html_()), widgets.HBox(buttons), out])

    def _repr_mimebundle_(self, **kwargs):
        """In a kernel with failing cases: the live view (its HTML stays as the saved fallback)."""
        static = {"text/html": self._repr_html_(), "text/plain": repr(self)}
        if self.program is None or not self.failures() or not _in_kernel():
            return static
        data = self.view()._repr_mimebundle_(**kwargs)
        return {**data, "text/html": static["text/html"]}


def _status(case: CaseResult, budget: int) -> str:
    if case.status == "halted":
        return "halted"
    if case.cycles >= budget:
        return f"budget of {budget:,} cycles used up (an endless loop?)"
    return case.status


def _in_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


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


def check(program: str | Program | None, cases: list[tuple[dict, dict]], max_cycles: int = DEFAULT_BUDGET) -> GradeReport:
    """Run `program` once per case (all at once, as lanes, each with `max_cycles` cycles) and
    compare the named registers. `None` (an exercise not done yet) grades 0 with a clear message."""
    if not cases:
        raise ValueError("check needs at least one (inputs, expected) case")
    if program is None or program is Ellipsis:
        return GradeReport((), "No answer yet: write your program in the solution cell above and run it.")
    if not isinstance(program, (str, Program)):
        return GradeReport((), f"Expected the program as a string, got {type(program).__name__}.")
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
    return GradeReport(results, program=program, budget=max_cycles)
