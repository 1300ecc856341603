"""Student versions of assignment notebooks, made by nbgrader's own preprocessors (those of
`nbgrader generate_assignment`, less the gradebook): solutions replaced by `raise NotImplementedError()`,
hidden tests removed, outputs cleared, graded cells locked.

The wheel's build (.ci/wheel_backend.py) and `ncpu-nb lab` use it so that a learner never receives an
assignment's source. This module imports nothing of ncpu_nb: the wheel's build loads it by its path,
before the package's extension exists.
"""
from __future__ import annotations

# nbgrader's default delimiters (ClearSolutions.begin_solution_delimeter, ClearHiddenTests.begin_test_delimeter).
SOURCE_MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS", "BEGIN MARK SCHEME")


def is_source(text: str) -> bool:
    """Whether a notebook's text (its JSON) still holds a solution, hidden test or mark scheme."""
    return any(marker in text for marker in SOURCE_MARKERS)


def student_version(text: str) -> str:
    """The student version of an assignment notebook, as text (JSON) from text. Needs nbgrader (the
    `course` extra)."""
    import nbformat
    from nbgrader.preprocessors import (CheckCellMetadata, ClearHiddenTests, ClearMarkScheme, ClearOutput,
                                        ClearSolutions, ComputeChecksums, LockCells)

    nb, resources = nbformat.reads(text, as_version=4), {}
    for step in (LockCells, ClearSolutions, ClearOutput, CheckCellMetadata, ComputeChecksums, ClearHiddenTests,
                 ClearMarkScheme, ComputeChecksums, CheckCellMetadata):
        nb, resources = step().preprocess(nb, resources)
    out = nbformat.writes(nb)
    if is_source(out):  # a delimiter nbgrader did not take (a typo in a marker): never hand it out
        raise ValueError("a solution or hidden-test marker is left after nbgrader's preprocessors")
    return out
