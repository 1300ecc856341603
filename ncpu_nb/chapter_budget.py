"""How much searching and training a chapter does: all of it when a learner runs the chapter, a
stated fraction when CI executes it.

The chapters whose cost is search time or training (08, 13, 16, 17, 27) pass their time limits,
step counts and sample sizes through `scaled`. Unset, `NCPU_NB_CHAPTER_BUDGET` is 1 and every number
is the chapter's own; pytest sets it to 0.25 (tests/conftest.py), so CI runs the same cells through
the same code with smaller numbers (README, "Tests"); under `--full` it is 1.
"""
from __future__ import annotations

import os

VARIABLE = "NCPU_NB_CHAPTER_BUDGET"


def budget() -> float:
    """The fraction in (0, 1] from `NCPU_NB_CHAPTER_BUDGET`; 1 when it is unset or empty."""
    text = os.environ.get(VARIABLE, "").strip() or "1"
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{VARIABLE} must be a number in (0, 1], not {text!r}") from None
    if not 0 < value <= 1:
        raise ValueError(f"{VARIABLE} must be a number in (0, 1], not {text!r}")
    return value


def scaled(amount: int | float, least: int | float = 1) -> int | float:
    """`amount` times the budget, at least `least`: a whole number for a whole number (steps, seeds,
    samples), a float for a float (seconds)."""
    value = amount * budget()
    if isinstance(amount, int):
        return max(int(least), round(value))
    return max(float(least), value)
