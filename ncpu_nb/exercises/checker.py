"""The checker behind every chapter's "Your turn": an exercise, its check, and a ✔/✘ table.

An exercise's check takes the learner's answer (a value, a program text, a machine…) and returns rows
`(what, passed, detail)`. Whatever the answer does — wrong, missing, or raising — the result is a table,
never a traceback: an exception becomes a ✘ row with its one-line message, and the placeholder `...`
(or `None`) is a neutral "not answered yet" row.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from html import escape
from typing import Any, Callable, NamedTuple

from ncpu_nb import html


class Row(NamedTuple):
    what: str
    passed: bool | None  # None: nothing to judge yet (the exercise is unanswered)
    detail: str


class WrongKind(TypeError):
    """The answer is not the kind of thing the exercise asks for (say, text where a number is wanted)."""


UNANSWERED = Row("not answered yet", None, "replace the ... with your answer and run the cell again")
SYMBOL = {True: "✔", False: "✘", None: "…"}


def expect(what: str, expected, got, show: Callable[[Any], str] = repr) -> Row:
    """A row comparing `got` with `expected`, saying both."""
    if got == expected:
        return Row(what, True, f"got {show(got)}")
    return Row(what, False, f"expected {show(expected)}, got {show(got)}")


def require(answer, kind: type | tuple[type, ...], description: str):
    """`answer` if it is of `kind`, else a WrongKind naming what was wanted and what came."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(answer, kinds) and not (isinstance(answer, bool) and bool not in kinds):  # True is no number
        return answer
    raise WrongKind(f"expected {description}, got {type(answer).__name__} {short(answer)}")


def integer(answer, description: str = "a whole number") -> int:
    """The answer as an int (NumPy integers welcome), or a WrongKind."""
    return int(require(answer, numbers.Integral, description))


def number(answer, description: str = "a number") -> float:
    return float(require(answer, numbers.Real, description))


def text(answer, description: str) -> str:
    return require(answer, str, description).strip()


def short(value, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def one_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


@dataclass(frozen=True)
class Exercise:
    chapter: str   # "01"
    name: str      # the key the notebook checks it by, e.g. "sub_word"
    question: str  # one line, shown above the table
    check_answer: Callable[[Any], list[Row]]

    def check(self, answer) -> "ExerciseResult":
        if answer is ... or answer is None:
            return ExerciseResult(self, (UNANSWERED,))
        try:
            rows = tuple(Row(*row) for row in self.check_answer(answer))
        except WrongKind as error:  # the message says what kind of answer is wanted
            rows = (Row("your answer", False, str(error)),)
        except Exception as error:  # the learner's answer, or code it passed in, failed: a ✘ row says how
            rows = (Row("your answer", False, one_line(error)),)
        return ExerciseResult(self, rows)


@dataclass(frozen=True)
class ExerciseResult:
    exercise: Exercise
    rows: tuple[Row, ...]

    @property
    def answered(self) -> bool:
        return all(row.passed is not None for row in self.rows)

    @property
    def passed(self) -> bool:
        return self.answered and all(row.passed for row in self.rows)

    def summary(self) -> str:
        if not self.answered:
            return "not answered yet"
        if self.passed:
            return "✔ correct"
        failed = sum(not row.passed for row in self.rows)
        return f"✘ {failed} of {len(self.rows)} checks failed"

    def _repr_html_(self) -> str:
        rows = [[SYMBOL[row.passed], escape(row.what), escape(row.detail)] for row in self.rows]
        marked = {i: "hl" for i, row in enumerate(self.rows) if row.passed is False}
        question = f"<div class='dim'>{escape(self.exercise.question)}</div>"
        return html.view(f"{self.exercise.name}: {self.summary()}", question,
                         html.table(["", "check", "expected / got"], rows, row_classes=marked))

    def __repr__(self) -> str:
        lines = [f"{self.exercise.name}: {self.summary()}"]
        lines += [f"  {SYMBOL[row.passed]} {row.what}: {row.detail}" for row in self.rows]
        return "\n".join(lines)


class Chapter:
    """One chapter's exercises, by name: `chapter("01").check("sub_word", answer)`."""

    def __init__(self, number: str, exercises: list[Exercise]):
        self.number = number
        self.exercises = {exercise.name: exercise for exercise in exercises}

    def __getitem__(self, name: str) -> Exercise:
        try:
            return self.exercises[name]
        except KeyError:
            known = ", ".join(self.exercises)
            raise KeyError(f"chapter {self.number} has no exercise {name!r}; it has {known}") from None

    def __iter__(self):
        return iter(self.exercises.values())

    def __len__(self) -> int:
        return len(self.exercises)

    def check(self, name: str, answer) -> ExerciseResult:
        return self[name].check(answer)

    def __repr__(self) -> str:
        return f"<Chapter {self.number}: {', '.join(self.exercises)}>"


REGISTRY: dict[str, list[Exercise]] = {}


def exercise(chapter: str, name: str, question: str):
    """Register the decorated check function as exercise `name` of `chapter`."""
    def register(check_answer: Callable[[Any], list[Row]]) -> Callable[[Any], list[Row]]:
        REGISTRY.setdefault(chapter, []).append(Exercise(chapter, name, question, check_answer))
        return check_answer
    return register
