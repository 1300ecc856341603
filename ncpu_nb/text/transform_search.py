"""Finding the transforms that fit example pairs: enumeration over the DSL with parameters inferred.

Two solvers, each named in what it reports:
  * "inference"   one transform: every family's parameters solved from the examples (a shift is
                  (k - h) mod 26 of any letter, a replacement the byte every class member became, ...)
                  and checked on every pair;
  * "composition" two transforms in a row: the first enumerated over its finite instances and the
                  second inferred from what the first made of the inputs; or the second enumerated
                  over the invertible ones and the first inferred from the undone outputs.
Nothing here is gradient descent: it is an exhaustive, typed enumeration of the DSL. Every fit is
checked against the Python reference here and, by the synthesizer, on the exact nCPU. A composition
one of whose stages leaves every example as it was is not considered: the examples give no reason
for that stage (it would only add guesses about text they do not show).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ncpu_nb.text.transforms import FAMILIES, Pairs, Pipeline, Transform

SOLVERS = ("inference", "composition")


@dataclass(frozen=True)
class Candidate:
    pipeline: Pipeline
    solver: str  # one of SOLVERS


def _fits(pipeline: Pipeline, pairs: Pairs) -> bool:
    return all(pipeline.apply(x) == y for x, y in pairs)


def singles(pairs: Pairs) -> list[Pipeline]:
    return [Pipeline((Transform(name, p),)) for name, family in FAMILIES.items() for p in family.infer(pairs)]


def _idle(pairs: Pairs) -> bool:
    """A stage whose input equals its output on every example: the examples give no reason for it."""
    return all(x == y for x, y in pairs)


def _second_stages(pairs: Pairs, first: Transform) -> list[Pipeline]:
    middle = [(first.apply(x), y) for x, y in pairs]
    if _idle([(x, m) for (x, _), (m, _) in zip(pairs, middle)]) or _idle(middle):
        return []
    return [Pipeline((first, Transform(name, p))) for name, family in FAMILIES.items()
            if name not in ("copy", first.family) for p in family.infer(middle)]


def _first_stages(pairs: Pairs, second: Transform) -> list[Pipeline]:
    undo = second.inverse()
    middle = [(x, undo.apply(y)) for x, y in pairs]
    if _idle(middle) or _idle([(m, y) for (_, m), (_, y) in zip(middle, pairs)]):
        return []
    found = []
    for name, family in FAMILIES.items():
        if name in ("copy", second.family):
            continue
        for p in family.infer(middle):
            pipeline = Pipeline((Transform(name, p), second))
            if _fits(pipeline, pairs):
                found.append(pipeline)
    return found


def enumerable() -> list[Transform]:
    """Every transform with a finite parameter list, for a stage to be enumerated (not inferred)."""
    return [Transform(name, p) for name, family in FAMILIES.items() if name != "copy" for p in family.instances()]


def search(pairs: Pairs, deadline: float | None = None,
           progress: Callable[[dict], None] | None = None) -> list[Candidate]:
    """Every one- and two-stage pipeline fitting all `pairs` (bytes in, bytes out), best-ranked first.
    Stops enumerating compositions at `deadline` (a time.monotonic() value)."""
    found: dict[Pipeline, str] = {p: "inference" for p in singles(pairs)}
    if progress:
        progress({"solver": "inference", "tried": len(FAMILIES), "found": len(found)})
    firsts = enumerable()
    seconds = [t for t in firsts if t.inverse() is not None]
    for i, stage in enumerate(firsts + seconds):
        if deadline is not None and time.monotonic() > deadline:
            break
        more = _second_stages(pairs, stage) if i < len(firsts) else _first_stages(pairs, stage)
        for pipeline in more:
            found.setdefault(pipeline, "composition")
        if progress and i % 8 == 7:
            progress({"solver": "composition", "tried": i + 1, "of": len(firsts) + len(seconds), "found": len(found)})
    return sorted((Candidate(p, s) for p, s in found.items()), key=lambda c: c.pipeline.rank)
