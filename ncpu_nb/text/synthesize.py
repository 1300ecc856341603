"""From example pairs to a verified nCPU program: search the DSL, then check the best-ranked fits on
the exact CPU, on the training pairs and on held-out strings.

Held-out strings cover what short examples leave out: the whole alphabet in both cases, the letters
that wrap (xyz), digits, punctuation, spaces, runs, and random printable text. On them the emitted
program must produce exactly what its transform's Python reference produces: the program is then
known to be that transform, beyond the examples. Other fits that behave differently there are kept
as `alternatives`: what the examples leave open, shown to the user with a string that tells them apart.
"""
from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape

from ncpu_nb import html
from ncpu_nb.ncpu.program import Program
from ncpu_nb.text import assembly
from ncpu_nb.text.execute import run_many, to_bytes
from ncpu_nb.text.transform_search import Candidate, search
from ncpu_nb.text.transforms import Pipeline

CHECKED = 6  # best-ranked fits run on the CPU before giving up (each is exact, so the first passes)


def held_out_strings(seed: int = 0, random_count: int = 6) -> list[bytes]:
    fixed = [b"the quick brown fox jumps over the lazy dog", b"THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG",
             b"xyz XYZ abc ABC", b"0123456789", bytes(range(33, 48)) + bytes(range(58, 65)) + bytes(range(91, 97))
             + bytes(range(123, 127)), b"Hello, World! It's 2024.", b"aaabccddddd  zzzZZZ 1111",
             bytes(range(32, 127)), b"a", b""]
    rng = random.Random(seed)
    return fixed + [bytes(rng.randrange(32, 127) for _ in range(rng.randrange(1, 40))) for _ in range(random_count)]


@dataclass
class Alternative:
    """Another transform that fits the examples but differs on `example` (input, ours, theirs)."""

    pipeline: Pipeline
    example: tuple[str, str, str]


@dataclass
class TextResult:
    pairs: list[tuple[str, str]]
    pipeline: Pipeline | None = None
    program: Program | None = None
    solver: str | None = None
    seconds: float = 0.0
    held_out: tuple[int, int] = (0, 0)  # held-out strings where the program matched its reference / tried
    cycles_per_char: float = 0.0
    alternatives: list[Alternative] = field(default_factory=list)
    fits: int = 0  # pipelines that fit the examples
    message: str = ""

    @property
    def solved(self) -> bool:
        return self.program is not None

    @property
    def size(self) -> int:
        return len(self.program) if self.program else 0

    def summary_rows(self) -> list[tuple[str, str]]:
        if not self.solved:
            return [("result", self.message or "not solved"), ("examples", _pairs_text(self.pairs))]
        rows = [("transform", self.pipeline.words()), ("DSL", str(self.pipeline)),
                ("found by", f"{self.solver} ({_SOLVER_WORDS[self.solver]})"),
                ("program", f"{self.size} instructions, {self.cycles_per_char:.1f} cycles per character"),
                ("verified", f"exact CPU: {len(self.pairs)}/{len(self.pairs)} examples, "
                             f"{self.held_out[0]}/{self.held_out[1]} held-out strings match the transform"),
                ("examples", _pairs_text(self.pairs)), ("time", f"{self.seconds:.2f} s, {self.fits} fits")]
        for alt in self.alternatives:
            x, ours, theirs = alt.example
            rows.append(("also fits", f"{alt.pipeline.words()} — differs on {x!r}: {ours!r} here, {theirs!r} there"))
        return rows

    def summary(self) -> str:
        width = max(len(k) for k, _ in self.summary_rows())
        text = "\n".join(f"{k:<{width}}  {v}" for k, v in self.summary_rows())
        return text + ("\n\n" + self.program.source if self.solved else "")

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        if not self.solved:
            return f"<TextResult not solved: {self.message}>"
        return f"<TextResult {self.pipeline} by {self.solver}: {self.size} instructions>"

    def _repr_html_(self) -> str:
        rows = [[escape(k), escape(v)] for k, v in self.summary_rows()]
        parts = [html.table(["", ""], rows)]
        if self.solved:
            parts.append(f"<pre>{escape(self.program.source)}</pre>")
        return html.view("Text machine: " + ("solved" if self.solved else "not solved"), *parts)

    def as_json(self) -> dict:
        return {"program": self.program.source if self.solved else None, "solver": self.solver,
                "transform": str(self.pipeline) if self.pipeline else None,
                "words": self.pipeline.words() if self.pipeline else None, "size": self.size,
                "cycles_per_char": round(self.cycles_per_char, 2), "held_out": list(self.held_out),
                "seconds": round(self.seconds, 3), "message": self.message}

    def to_json(self) -> str:
        return json.dumps(self.as_json())


_SOLVER_WORDS = {"inference": "one transform of the DSL, its parameters solved from the examples",
                 "composition": "two transforms of the DSL in a row, enumerated and inferred"}


def _pairs_text(pairs) -> str:
    return ", ".join(f"{x!r} → {y!r}" for x, y in pairs)


def _text(data: bytes) -> str:
    return data.decode("latin-1")


class TextSynthesizer:
    """`TextSynthesizer().synthesize([("hello", "khoor")])` → a `TextResult`."""

    def __init__(self, held_out: list[bytes] | None = None, checked: int = CHECKED):
        self.held_out = held_out_strings() if held_out is None else held_out
        self.checked = checked

    def synthesize(self, pairs, time_limit: float = 30.0,
                   progress: Callable[[dict], None] | None = None) -> TextResult:
        t0 = time.monotonic()
        data = [(to_bytes(x, "example input"), to_bytes(y, "example output")) for x, y in pairs]
        result = TextResult(pairs=[(_text(x), _text(y)) for x, y in data])
        if not data:
            result.message = "no examples: give at least one pair, e.g. hello → khoor"
            return result
        candidates = search(data, t0 + time_limit, progress)
        result.fits = len(candidates)
        for candidate in candidates[:self.checked]:
            if progress:
                progress({"solver": "verify", "checking": str(candidate.pipeline)})
            if self._verify(candidate, data, result):
                result.alternatives = self._alternatives(candidate, candidates)
                break
        else:
            result.message = ("no transform of the DSL (one or two in a row) fits these examples"
                              if not candidates else "no fit passed the check on the exact CPU")
        result.seconds = time.monotonic() - t0
        return result

    def _verify(self, candidate: Candidate, data, result: TextResult) -> bool:
        """Run the candidate's program on the exact CPU: training pairs must come out as given, held-out
        strings as the transform's reference says. Fills `result` if they do."""
        program = assembly.program(candidate.pipeline)
        inputs = [x for x, _ in data] + self.held_out
        outputs, steps = run_many(program, inputs)
        training = all(out == y for out, (_, y) in zip(outputs, data))
        expected = [candidate.pipeline.apply(h).split(b"\0", 1)[0] for h in self.held_out]
        matched = sum(out == want for out, want in zip(outputs[len(data):], expected))
        if not (training and matched == len(self.held_out)):
            return False
        result.pipeline, result.program, result.solver = candidate.pipeline, program, candidate.solver
        result.held_out = (matched, len(self.held_out))
        result.cycles_per_char = steps / max(1, sum(len(x) + 1 for x in inputs))
        return True

    def _plainness(self, i: int) -> tuple[bool, int]:
        """Sort key for showing held-out string i: plain text (letters, digits, spaces, .,!') first, short first."""
        text = self.held_out[i]
        return not all(chr(c).isalnum() or chr(c) in " .,!'" for c in text), len(text)

    def _alternatives(self, chosen: Candidate, candidates: list[Candidate], most: int = 3) -> list[Alternative]:
        """Fits that generalise differently from the chosen one, each with a held-out string showing how."""
        ours = [chosen.pipeline.apply(h) for h in self.held_out]
        seen = {tuple(ours)}
        out = []
        for c in candidates:
            theirs = [c.pipeline.apply(h) for h in self.held_out]
            if tuple(theirs) in seen:
                continue
            seen.add(tuple(theirs))
            i = min((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), key=self._plainness)
            out.append(Alternative(c.pipeline, (_text(self.held_out[i]), _text(ours[i]), _text(theirs[i]))))
            if len(out) == most:
                break
        return out
