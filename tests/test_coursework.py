"""The coursework checks: threshold-neuron circuits, ✔/✘ reports, the nCPU grade report's debugger
hand-off, and the `ncpu-nb coursework` command (nbgrader itself: test_coursework_assignments.py)."""
import math

import numpy as np
import pytest

from ncpu_nb.cli import main
from ncpu_nb.coursework import check, random_cases
from ncpu_nb.coursework.checks import NOT_ANSWERED, Checks
from ncpu_nb.coursework.circuits import Circuit, CircuitError, check_adder, check_gate
from ncpu_nb.exercises.checker import Row


def AND(c, a, b):
    return c.neuron([a, b], [1, 1], -2)


def OR(c, a, b):
    return c.neuron([a, b], [1, 1], -1)


def XOR(c, a, b):
    return c.neuron([a, b, AND(c, a, b)], [1, 1, -2], -1)


def ripple(c, a, b):
    carry, out = c.constant(0), []
    for x, y in zip(a, b):
        out.append(XOR(c, XOR(c, x, y), carry))
        carry = c.neuron([x, y, carry], [1, 1, 1], -2)
    return out + [carry]


def test_a_neuron_fires_when_its_weighted_sum_plus_bias_reaches_zero():
    c = Circuit()
    a, b = c.input("a"), c.input("b")
    out = c.neuron([a, b], [0.5, 2.0], -2.0)
    got = c.evaluate([out], {"a": [0, 1, 0, 1], "b": [0, 0, 1, 1]})
    assert got.tolist() == [[0, 0, 1, 1]]
    assert (c.size, c.depth([out]), c.fan_in) == (1, 1, 2)


def test_wiring_mistakes_are_typed_errors_that_say_which_neuron():
    c, other = Circuit(), Circuit()
    a = c.input("a")
    with pytest.raises(CircuitError, match="neuron 1: 1 inputs but 2 weights"):
        c.neuron([a], [1, 1], 0)
    with pytest.raises(CircuitError, match="not a wire of this circuit"):
        c.neuron([other.input("x")], [1], 0)
    with pytest.raises(CircuitError, match="finite numbers"):
        c.neuron([a], [math.inf], 0)
    with pytest.raises(CircuitError, match="no values for inputs"):
        c.evaluate([a], {})


def test_gates_are_checked_on_every_input_and_their_size():
    assert check_gate("XOR", XOR, lambda a, b: a ^ b, max_neurons=2).passed
    too_big = check_gate("XOR", XOR, lambda a, b: a ^ b, max_neurons=1)
    assert not too_big.passed and too_big.rows[-1].detail == "2 (at most 1)"
    wrong = check_gate("XOR", OR, lambda a, b: a ^ b)
    assert [row.passed for row in wrong.rows] == [True, True, True, False]


def test_adders_are_checked_exhaustively_with_their_depth_and_fan_in():
    good = check_adder(ripple, bits=8)
    assert good.passed and good.rows[0].what == "all 65,536 pairs of 8-bit numbers"
    assert good.rows[-1].detail == "40 neurons, depth 9"  # the carry ripples through 8 majority neurons
    deep = check_adder(ripple, bits=8, max_depth=6, max_fan_in=3)
    assert [row.passed for row in deep.rows] == [True, False, True, True]

    def off_by_one_carry(c, a, b):  # drops the carry out
        return ripple(c, a, b)[:-1] + [c.constant(0)]
    wrong = check_adder(off_by_one_carry, bits=4)
    assert not wrong.passed and "wrong, e.g." in wrong.rows[0].detail


def test_checks_turn_missing_answers_and_student_exceptions_into_failing_rows():
    unanswered = Checks.of("t", lambda x: [Row("x", True, "")], None)
    assert not unanswered.passed and unanswered.rows[0].detail == NOT_ANSWERED
    broken = Checks.of("t", lambda x: [Row("x", x() == 1, "")], lambda: 1 / 0)
    assert broken.rows[0].detail == "ZeroDivisionError: division by zero"
    with pytest.raises(AssertionError, match="1 of 1 checks failed"):
        broken.assert_passed()
    fine = Checks.of("t", lambda x: [Row("x", x == 2, "two")], 2)
    fine.assert_passed()
    assert "✔ all checks pass" in fine._repr_html_()


def test_the_grade_report_shows_the_budget_and_hands_failing_cases_to_the_debugger():
    cases = random_cases(lambda R0: {"R1": abs(R0)}, ["R0"], n=20, seed=1)
    report = check("MOV R1, R0\nHALT", cases, max_cycles=500)  # wrong for negative R0
    assert 0 < report.score < 1
    html = report._repr_html_()
    assert "budget of 500 per case" in html and "report.debugger(0)" in html
    first = report.failures()[0]
    dbg = report.debugger(0)
    assert dbg.machine.registers["R0"] == first.inputs["R0"] and dbg.machine.pc == 0
    view = report.view()
    buttons = view.children[1].children
    assert len(buttons) == min(6, len(report.failures()))
    assert buttons[0].tooltip == f"inputs {first.inputs}"


def test_an_endless_loop_uses_up_its_budget_and_says_so():
    report = check("top:\nJMP top", [({"R0": 1}, {"R1": 1})], max_cycles=1_000)
    assert report.cases[0].cycles == 1_000
    with pytest.raises(AssertionError, match="budget of 1,000 cycles used up"):
        report.assert_passed()


def test_no_answer_yet_grades_zero_with_a_clear_message():
    report = check(None, [({"R0": 1}, {"R1": 1})])
    assert report.score == 0
    with pytest.raises(AssertionError, match="No answer yet"):
        report.assert_passed()


def test_the_cli_releases_a_student_version(tmp_path, capsys):
    pytest.importorskip("nbgrader")
    assert main(["coursework", "release", str(tmp_path), "--assignment", "02_gates_and_adders_from_neurons"]) == 0
    released = tmp_path / "02_gates_and_adders_from_neurons.ipynb"
    assert str(released) in capsys.readouterr().out
    text = released.read_text()
    assert "raise NotImplementedError()" in text and "BEGIN SOLUTION" not in text and "HIDDEN" not in text


def test_the_cli_names_an_unknown_assignment(tmp_path, capsys):
    pytest.importorskip("nbgrader")
    assert main(["coursework", "release", str(tmp_path), "--assignment", "99_nope"]) == 1
    err = capsys.readouterr().err
    assert "no assignment 99_nope" in err and "01_assembly_on_the_ncpu" in err
    assert main(["coursework", "grade", str(tmp_path / "missing")]) == 1
    assert "not a folder of submissions" in capsys.readouterr().err


def test_a_learners_workspace_from_the_checkout_gets_student_versions_only(tmp_path):
    """A checkout holds the assignments' sources; `ncpu-nb lab` copies each as its student version."""
    pytest.importorskip("nbgrader")
    from ncpu_nb.lab import workspace
    from ncpu_nb.resources import data_dir

    root, added = workspace(tmp_path / "learner")
    assert "tutorials/01_assembly_on_the_ncpu.ipynb" in added
    for notebook in root.rglob("*.ipynb"):
        text = notebook.read_text()
        assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text, notebook
    sources = sorted(p.name for p in data_dir("tutorials").glob("*.ipynb"))
    assert sorted(p.name for p in (root / "tutorials").glob("*.ipynb")) == sources
    assert "raise NotImplementedError()" in (root / "tutorials" / "02_gates_and_adders_from_neurons.ipynb").read_text()


def test_a_student_version_is_refused_as_an_assignment_source(tmp_path, capsys):
    pytest.importorskip("nbgrader")
    from ncpu_nb.coursework import course
    from ncpu_nb.resources import PACKAGE

    assert course.sources() == PACKAGE.parent / "tutorials"  # the checkout's
    [released] = course.release(course.sources(), tmp_path / "release", names=["01_assembly_on_the_ncpu"])
    with pytest.raises(course.CourseError, match="01_assembly_on_the_ncpu.ipynb is a student version"):
        course.release(released.parent, tmp_path / "again")
    assert main(["coursework", "grade", str(tmp_path), "--source", str(released.parent)]) == 1
    assert "is a student version" in capsys.readouterr().err
