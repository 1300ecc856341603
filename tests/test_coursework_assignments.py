"""Every assignment through nbgrader itself: the student version gives nothing away, scores 0 when
handed in untouched (failing only where it should), the source scores full marks and a wrong answer
scores in between; and a class's submissions grade into a CSV within a time bound."""
import csv
import re
import time

import nbformat
import pytest

from ncpu_nb.coursework import course
from ncpu_nb.resources import data_dir

pytest.importorskip("nbgrader")
pytestmark = pytest.mark.slow

SOURCE = data_dir("tutorials")
SOLUTION = re.compile(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", re.S)
HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S)

# One wrong answer per assignment: grade_id -> the cell's new source.
WRONG = {
    "01_assembly_on_the_ncpu": {"ex1_answer": 'max_program = "MOV R2, R0\\nHALT"'},
    "02_gates_and_adders_from_neurons": {"xor_answer": "def XOR(c, a, b):\n    return AND(c, OR(c, a, b), NAND(c, a, b))"},
    "03_backprop_through_a_program": {"flow_answer": 'derivatives = {"R0": 9, "R1": 9, "R3": 0}\nr3_cut = 4'},
    "04_synthesis_from_examples": {"max_answer": 'max_program = "MOV R2, R0\\nSUB R3, R0, R1\\nJNS done\\n'
                                                 'MOV R2, R1\\ndone:\\nHALT"   # wrong when R0 - R1 overflows'},
    "05_debugging_arm64": {"patch_answer": "patch = (m.address('record') + 0x10, 0x54000081)   # b.ne"},
    "06_linux_from_the_inside": {"signal_answer": "on_term = \"trap 'echo caught TERM' TERM; kill -TERM $$\""},
}


def _write(nb, folder, name):
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{name}.ipynb")


def _grade_id(cell):
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def test_the_kit_has_six_assignments_each_with_a_wrong_answer_here():
    assert sorted(course.assignments(SOURCE)) == sorted(WRONG)


@pytest.fixture
def graded(once_per_run, name):
    """Release the assignment, then grade three hand-ins with nbgrader: the source, the student version
    untouched, and the source with one wrong answer. Once per run and per assignment, so that the two
    workers grade different assignments side by side (about 10 to 45 s each)."""
    return once_per_run(f"graded_{name}", lambda work: _release_and_grade(work, name))


def _release_and_grade(work, name):
    path = SOURCE / f"{name}.ipynb"
    [released] = course.release(SOURCE, work / "release", names=[name])
    _write(nbformat.read(path, as_version=4), work / "submitted" / "source", name)
    _write(nbformat.read(released, as_version=4), work / "submitted" / "untouched", name)
    wrong = nbformat.read(path, as_version=4)
    for cell in wrong.cells:
        if _grade_id(cell) in WRONG[name]:
            cell.source = WRONG[name][_grade_id(cell)]
    _write(wrong, work / "submitted" / "wrong", name)
    start = time.perf_counter()
    grades = course.grade(SOURCE, work / "submitted", csv=work / "grades.csv", names=[name], course=work / "nbgrader")
    return work, released, grades, time.perf_counter() - start


def _autograded(work, student, name):
    return nbformat.read(work / "nbgrader" / "autograded" / student / name / f"{name}.ipynb", as_version=4)


# Grading the source executes the whole assignment, as nbmake would: so nbmake leaves it out (tests/conftest.py).
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.executes(SOURCE / f"{n}.ipynb"))
                                  for n in sorted(WRONG)])
def test_the_source_runs_every_cell_without_an_error(graded, name):
    work, _, _, _ = graded
    cells = [c for c in _autograded(work, "source", name).cells if c.cell_type == "code" and c.source.strip()]
    assert cells and all(c.execution_count for c in cells)
    errors = [(_grade_id(c), o.ename) for c in cells for o in c.outputs if o.output_type == "error"]
    assert errors == []


@pytest.mark.parametrize("name", sorted(WRONG))
def test_the_student_version_has_no_solution_and_no_hidden_test(graded, name):
    _, released, _, _ = graded
    student = nbformat.read(released, as_version=4)
    text = "\n".join(cell.source for cell in student.cells)
    assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text
    cells = nbformat.read(SOURCE / f"{name}.ipynb", as_version=4).cells
    regions = [r for cell in cells for r in SOLUTION.findall(cell.source) + HIDDEN.findall(cell.source)]
    given = "\n".join(HIDDEN.sub("", SOLUTION.sub("", cell.source)) for cell in cells)
    # Solution-only lines: not trivial (`HALT`, `"""`, comments), not also given outside the regions.
    secret = [line.strip() for region in regions for line in region.splitlines()]
    secret = [line for line in secret if len(line) > 12 and not line.startswith("#") and line not in given]
    assert secret  # the regions were found
    for line in secret:
        assert line not in text, f"{name}: {line!r} is in the student version"
    solutions = [c for c in student.cells if c.metadata.get("nbgrader", {}).get("solution")]
    assert solutions and all("raise NotImplementedError()" in c.source for c in solutions)
    tests = [c for c in student.cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert tests and all(c.metadata["nbgrader"]["locked"] and c.metadata["nbgrader"]["points"] > 0 for c in tests)


@pytest.mark.parametrize("name", sorted(WRONG))
def test_source_scores_full_untouched_scores_zero_and_wrong_in_between(graded, name):
    _, _, grades, _ = graded
    full, none, wrong = (grades.by(student, name) for student in ("source", "untouched", "wrong"))
    assert {full.status, none.status, wrong.status} == {"graded"}
    assert full.max_score > 0 and full.score == full.max_score
    assert none.score == 0
    assert 0 < wrong.score < wrong.max_score


@pytest.mark.parametrize("name", sorted(WRONG))
def test_an_untouched_student_version_fails_only_where_expected(graded, name):
    """Answer cells raise NotImplementedError (or define functions that will), every test cell fails its
    assertions, nothing else errs."""
    work, _, _, _ = graded
    for cell in _autograded(work, "untouched", name).cells:
        meta = cell.metadata.get("nbgrader", {})
        errors = [o.ename for o in cell.get("outputs", []) if o.output_type == "error"]
        if meta.get("solution"):
            assert errors in ([], ["NotImplementedError"]), (meta["grade_id"], errors)
        elif meta.get("grade"):
            assert errors == ["AssertionError"], (meta["grade_id"], errors)
        else:
            assert errors == [], (_grade_id(cell), errors)


@pytest.mark.parametrize("name", sorted(WRONG))
def test_the_grades_are_written_as_csv(graded, name):
    work, _, grades, seconds = graded
    rows = list(csv.DictReader((work / "grades.csv").open()))
    assert len(rows) == 3 == len(grades.rows)
    assert {r["student"] for r in rows} == {"source", "untouched", "wrong"} and {r["assignment"] for r in rows} == {name}
    assert seconds < 300  # three notebooks, each in a fresh kernel


def test_a_class_of_three_grades_within_a_time_bound(tmp_path):
    """One correct, one wrong, one that never finishes (interrupted after the cell timeout)."""
    name = "01_assembly_on_the_ncpu"
    source = nbformat.read(SOURCE / f"{name}.ipynb", as_version=4)
    for student, change in (("ann", None), ("ben", WRONG[name]["ex1_answer"]), ("cal", "while True:\n    pass")):
        nb = nbformat.from_dict(source)
        for cell in nb.cells:
            if change and _grade_id(cell) == "ex1_answer":
                cell.source = change
        _write(nb, tmp_path / "in" / student, name)
    start = time.perf_counter()
    grades = course.grade(SOURCE, tmp_path / "in", csv=tmp_path / "grades.csv", names=[name], timeout=5)
    assert time.perf_counter() - start < 120
    rows = {r["student"]: r for r in csv.DictReader((tmp_path / "grades.csv").open())}
    assert (rows["ann"]["score"], rows["ben"]["score"], rows["cal"]["score"]) == ("15", "12", "12")
    assert all(r["max_score"] == "15" and r["status"] == "graded" for r in rows.values())
    assert grades.by("cal", name).seconds >= 5  # the endless cell ran until the timeout


# Answer cells that change the checker instead of answering: each is added to the untouched student
# version (which scores 0), after its first answer cell.
PATCHES = {
    "the checker's method": "from ncpu_nb.coursework.checks import Checks\n"
                            "Checks.assert_passed = lambda self, *a, **k: None",
    "the checks' module": "import ncpu_nb.coursework.circuits as circuits\n"
                          "from ncpu_nb.coursework.checks import Checks\n"
                          "circuits.check_gate = circuits.check_adder = lambda *a, **k: Checks('patched', ())\n"
                          "Checks.passed = property(lambda self: True)\n"
                          "Checks.assert_passed = lambda self, *a, **k: None",
    "the checks' code": "import ncpu_nb.coursework.circuits as circuits\n"
                        "passing = lambda *a, **k: Checks('patched', (Row('all', True, ''),))\n"
                        "circuits.check_gate.__code__ = circuits.check_adder.__code__ = passing.__code__",
    "the set-up's names": "from ncpu_nb.coursework.checks import Checks\n"
                          "class Passing(Checks):\n"
                          "    def assert_passed(self):\n"
                          "        pass\n"
                          "check_gate = check_adder = lambda *a, **k: Passing('patched', ())",
}


def test_a_submission_that_patches_the_checker_scores_what_its_answers_score(tmp_path):
    """Wrong answers (the student version's `raise NotImplementedError()`) plus a patch of the
    checker in an answer cell, graded by nbgrader through course.grade: 0, as without the patch."""
    name = "02_gates_and_adders_from_neurons"
    [released] = course.release(SOURCE, tmp_path / "release", names=[name])
    for student, patch in PATCHES.items():
        nb = nbformat.read(released, as_version=4)
        answer = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution"))
        answer.source += "\n" + patch
        _write(nb, tmp_path / "submitted" / student.replace(" ", "_").replace("'", ""), name)
    grades = course.grade(SOURCE, tmp_path / "submitted", names=[name])
    assert len(grades.rows) == len(PATCHES)
    for g in grades.rows:
        assert g.status == "graded" and g.max_score == 12
        assert g.score == 0, f"{g.student}: {g.score:g} of {g.max_score:g}"
