"""`Checks`: a named list of ✔/✘ rows that an autograder cell shows and asserts.

    checks = Checks("an 8-bit adder", rows)
    checks                  # a table: what was checked, what was expected and got
    checks.assert_passed()  # AssertionError listing the failed rows (nbgrader scores the cell 0)
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ncpu_nb import html
from ncpu_nb.exercises.checker import SYMBOL, Row, one_line

NOT_ANSWERED = "No answer yet: fill in the solution cell above and run it."


@dataclass(frozen=True)
class Checks:
    title: str
    rows: tuple[Row, ...]

    @classmethod
    def of(cls, title: str, check, *answers) -> "Checks":
        """Run `check(*answers) -> rows`; an unanswered exercise (None or ...) or an answer that
        raises becomes one ✘ row that says so, never an error in the autograder cell."""
        if any(answer is None or answer is Ellipsis for answer in answers):
            return cls(title, (Row("your answer", False, NOT_ANSWERED),))
        try:
            return cls(title, tuple(Row(*row) for row in check(*answers)))
        except Exception as error:  # the student's code failed inside the check: say how
            return cls(title, (Row("your answer", False, one_line(error)),))

    @property
    def passed(self) -> bool:
        return bool(self.rows) and all(row.passed for row in self.rows)

    def assert_passed(self) -> None:
        failed = [row for row in self.rows if not row.passed]
        if failed:
            raise AssertionError(f"{self.title}: {len(failed)} of {len(self.rows)} checks failed:\n"
                                 + "\n".join(f"  ✘ {row.what}: {row.detail}" for row in failed))

    def _repr_html_(self) -> str:
        rows = [[SYMBOL[row.passed], escape(row.what), escape(row.detail)] for row in self.rows]
        marked = {i: "hl" for i, row in enumerate(self.rows) if not row.passed}
        verdict = "✔ all checks pass" if self.passed else f"✘ {sum(not r.passed for r in self.rows)} failed"
        return html.view(f"{self.title}: {verdict}", html.table(["", "check", "detail"], rows, row_classes=marked))

    def __repr__(self) -> str:
        return "\n".join([self.title] + [f"  {SYMBOL[row.passed]} {row.what}: {row.detail}" for row in self.rows])
