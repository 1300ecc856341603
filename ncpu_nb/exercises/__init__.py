"""Every chapter's "Your turn": short exercises, checked in the cell with a ✔/✘ table.

    from ncpu_nb.exercises import chapter
    your_turn = chapter("01")
    answer = ...                              # the learner fills this in
    your_turn.check("sub_word", answer)       # a table: what was expected, what was got

The exercises live with their checks in one module per part of the curriculum; importing them is
light, and a check imports what it runs (torch, the ARM64 machine) only when it runs.
"""
from __future__ import annotations

from ncpu_nb.exercises import (arm64_chapters, c_compiler_chapter, compiler_chapters,  # noqa: F401
                               coprocessor_chapter, debian_chapter, differentiable_chapters, discovery_chapter,
                               float_chapter, forth_chapter, gallery_chapter, isa_discovery_chapter,
                               learned_compiler_chapter, ncpu_chapters, network_chapter, sweeps_chapter)
from ncpu_nb.exercises.checker import REGISTRY, Chapter, Exercise, ExerciseResult, Row, WrongKind

__all__ = ["chapter", "chapters", "Chapter", "Exercise", "ExerciseResult", "Row", "WrongKind"]


def chapter(number: str) -> Chapter:
    """The exercises of chapter `number` ("00" to "32")."""
    number = f"{int(number):02d}"
    if number not in REGISTRY:
        raise KeyError(f"no exercises for chapter {number}; chapters: {', '.join(sorted(REGISTRY))}")
    return Chapter(number, REGISTRY[number])


def chapters() -> list[str]:
    return sorted(REGISTRY)
