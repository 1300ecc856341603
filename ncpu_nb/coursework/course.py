"""The instructor's side, on nbgrader: student versions, and autograding a folder of submissions.

    release("tutorials", "release/")                       # student versions of every assignment
    grades = grade("tutorials", "submissions/", csv="grades.csv")
    grades                                                 # a table: student, assignment, score

An assignment is a notebook of `source` with nbgrader cell metadata (solution cells, graded test
cells with points, hidden tests, locked cells); its name is the notebook's name. Submissions are
laid out as `SUBMISSIONS/<student>/<assignment>.ipynb`. Both steps run nbgrader's own converters
(`generate_assignment`, `autograde`) through its Python API in a course directory: a temporary one,
or `course=` to keep its gradebook (`gradebook.db`) and autograded notebooks for nbgrader's
formgrader and feedback.

Safety: every cell of a submission runs with a time limit (`timeout`, interrupted, then graded as
an error); the checks give each nCPU run a cycle budget and each ARM64 machine its memory, tmpfs and
process limits, with no host folder mounted. Before each graded test cell the grader puts the kit's
modules and classes back as they were before any student code ran and binds the set-up cells' names
again (`coursework.grading`), so an answer cell that patches the checker does not change the
verdict. Student Python code itself runs with the grader's rights, as in any nbgrader setup: grade
inside a container or an unprivileged account.
"""
from __future__ import annotations

import csv as csv_module
import os
import shutil
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from html import escape
from pathlib import Path

from ncpu_nb import html
from ncpu_nb.coursework import student
from ncpu_nb.errors import NcpuError

COURSE_ID = "ncpu_nb"
CELL_TIMEOUT = 60  # seconds per cell


class CourseError(NcpuError):
    """A step of the course workflow failed: the message says which assignment and why."""


def sources() -> Path:
    """The kit's assignment sources: tutorials/ of a git checkout. The installed package holds only
    their student versions (every learner installs it), so an instructor clones the repository."""
    from ncpu_nb.resources import PACKAGE

    folder = PACKAGE.parent / "tutorials"
    if not (folder.is_dir() and any(student.is_source(p.read_text()) for p in folder.glob("*.ipynb"))):
        raise CourseError("the assignments' sources (with solutions and hidden tests) are not installed: the package "
                          "holds student versions only. Clone the repository and use its tutorials/ folder "
                          "(`ncpu-nb coursework ... --source CHECKOUT/tutorials`)")
    return folder


def assignments(source: str | Path) -> dict[str, Path]:
    """The notebooks of `source` that carry nbgrader cells, by assignment name."""
    import nbformat

    source = Path(source)
    if not source.is_dir():
        raise CourseError(f"{source}: not a folder of assignment notebooks")
    found = {}
    for path in sorted(source.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        if any("nbgrader" in cell.metadata for cell in nb.cells):
            found[path.stem] = path
    return found


def _api(root: Path, timeout: int):
    from nbgrader.apps import NbGraderAPI
    from nbgrader.converters import Autograde
    from traitlets.config import Config

    from ncpu_nb.coursework.grading import GuardTestCells

    # nbgrader runs its database migrations with the `alembic` command: the one beside this Python.
    bin_dir = str(Path(sys.executable).parent)
    if bin_dir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    config = Config()
    config.CourseDirectory.root = str(root)
    config.CourseDirectory.course_id = COURSE_ID
    config.Exchange.root = str(root / "exchange")  # not the system-wide default, which may be unwritable
    config.Execute.timeout = timeout
    config.Autograde.autograde_preprocessors = [GuardTestCells, *Autograde.autograde_preprocessors.default()]
    return NbGraderAPI(config=config)


def _generate(api, root: Path, chosen: dict[str, Path]) -> None:
    for name, path in chosen.items():
        folder = root / "source" / name
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, folder / f"{name}.ipynb")
        result = api.generate_assignment(name)
        if not result["success"]:
            raise CourseError(f"{name}: nbgrader could not make the student version:\n{result.get('log', '')}")


def _pick(source, names) -> dict[str, Path]:
    found = assignments(source)
    if not found:
        raise CourseError(f"{source}: no notebook with nbgrader cells")
    unknown = set(names or ()) - set(found)
    if unknown:
        raise CourseError(f"no assignment {', '.join(sorted(unknown))} in {source}; there are {', '.join(found)}")
    chosen = {n: p for n, p in found.items() if not names or n in names}
    for name, path in chosen.items():
        if not student.is_source(path.read_text()):
            raise CourseError(f"{path} is a student version (no solutions or hidden tests): release and grade from "
                              "the assignment's source (the git checkout's tutorials/)")
    return chosen


class _CourseDir:
    """The course directory: `course` if given (kept), else a temporary one."""

    def __init__(self, course):
        self._temp = None if course else tempfile.TemporaryDirectory(prefix="ncpu-nb-course-")
        self.root = Path(course or self._temp.name).resolve()
        self.root.mkdir(parents=True, exist_ok=True)

    def __enter__(self) -> Path:
        return self.root

    def __exit__(self, *exc) -> None:
        if self._temp:
            self._temp.cleanup()


def release(source: str | Path, dest: str | Path, names=None, course: str | Path | None = None) -> list[Path]:
    """Student versions of the assignments in `source` (all, or `names`), written to `dest`:
    solutions replaced by `raise NotImplementedError()`, hidden tests removed, cells locked."""
    chosen = _pick(source, names)
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    with _CourseDir(course) as root:
        api = _api(root, CELL_TIMEOUT)
        _generate(api, root, chosen)
        for name in chosen:
            target = dest / f"{name}.ipynb"
            shutil.copy(root / "release" / name / f"{name}.ipynb", target)
            written.append(target)
    return written


@dataclass(frozen=True)
class Grade:
    student: str
    assignment: str
    score: float
    max_score: float
    seconds: float
    status: str  # "graded", or why not


@dataclass(frozen=True)
class Grades:
    rows: tuple[Grade, ...]

    def by(self, student: str, assignment: str) -> Grade:
        return next(g for g in self.rows if g.student == student and g.assignment == assignment)

    def write_csv(self, path: str | Path) -> None:
        with open(path, "w", newline="") as f:
            out = csv_module.writer(f)
            out.writerow(["student", "assignment", "score", "max_score", "seconds", "status"])
            for g in self.rows:
                out.writerow([g.student, g.assignment, f"{g.score:g}", f"{g.max_score:g}", f"{g.seconds:.1f}", g.status])

    def _repr_html_(self) -> str:
        rows = [[escape(g.student), escape(g.assignment), f"{g.score:g} / {g.max_score:g}", f"{g.seconds:.1f} s",
                 escape(g.status)] for g in self.rows]
        return html.view(f"Grades: {len(self.rows)} submissions",
                         html.table(["student", "assignment", "score", "time", "status"], rows, numeric=(2, 3)))


def submissions(folder: str | Path, known: set[str]) -> list[tuple[str, str, Path]]:
    """(student, assignment, notebook) for every `folder/<student>/<assignment>.ipynb`."""
    folder = Path(folder)
    if not folder.is_dir():
        raise CourseError(f"{folder}: not a folder of submissions (expected <student>/<assignment>.ipynb)")
    found = []
    for student in sorted(p for p in folder.iterdir() if p.is_dir()):
        for notebook in sorted(student.glob("*.ipynb")):
            if notebook.stem in known:
                found.append((student.name, notebook.stem, notebook))
    return found


def grade(source: str | Path, submitted: str | Path, csv: str | Path | None = None, names=None,
          course: str | Path | None = None, timeout: int = CELL_TIMEOUT) -> Grades:
    """Autograde every submission in `submitted` (`<student>/<assignment>.ipynb`) against the
    assignments in `source`, with nbgrader; optionally write the grades to `csv`."""
    chosen = _pick(source, names)
    work = submissions(submitted, set(chosen))
    if not work:
        raise CourseError(f"{submitted}: no submissions of {', '.join(chosen)} "
                          f"(expected <student>/<assignment>.ipynb)")
    rows = []
    with _CourseDir(course) as root:
        api = _api(root, timeout)
        _generate(api, root, {n: chosen[n] for n in sorted({a for _, a, _ in work})})
        for student, name, notebook in work:
            folder = root / "submitted" / student / name
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy(notebook, folder / f"{name}.ipynb")
            start = time.perf_counter()
            with warnings.catch_warnings():  # SQLAlchemy's notes about nbgrader's own session use
                warnings.simplefilter("ignore")
                result = api.autograde(name, student)
            seconds = time.perf_counter() - start
            if result["success"]:
                info = api.get_submission(name, student)
                rows.append(Grade(student, name, float(info["score"]), float(info["max_score"]), seconds, "graded"))
            else:
                reason = (result.get("error") or "").strip().splitlines()
                rows.append(Grade(student, name, 0.0, 0.0, seconds, "not graded: " + (reason[-1] if reason else "?")))
    grades = Grades(tuple(rows))
    if csv is not None:
        grades.write_csv(csv)
    return grades
