"""The chapters' budget (ncpu_nb/chapter_budget.py): a learner's run takes every number as written, a
quarter (pytest's default, tests/conftest.py) rounds, and a budget that is not a fraction is refused."""
import pytest

from ncpu_nb.chapter_budget import VARIABLE, budget, scaled


def test_unset_the_chapter_takes_its_own_numbers(monkeypatch):
    monkeypatch.delenv(VARIABLE, raising=False)
    assert budget() == 1 and scaled(300) == 300 and scaled(4.5) == 4.5


def test_a_quarter_rounds_whole_numbers_and_keeps_a_floor(monkeypatch):
    monkeypatch.setenv(VARIABLE, "0.25")
    assert (scaled(300), scaled(5, least=2), scaled(6), scaled(2), scaled(8.0)) == (75, 2, 2, 1, 2.0)
    assert isinstance(scaled(300), int) and isinstance(scaled(8.0), float)


@pytest.mark.parametrize("text", ["0", "-1", "1.5", "a quarter", "nan"])
def test_a_budget_that_is_not_a_fraction_is_refused_by_name(monkeypatch, text):
    monkeypatch.setenv(VARIABLE, text)
    with pytest.raises(ValueError, match=VARIABLE):
        budget()

