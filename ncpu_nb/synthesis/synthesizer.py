"""`Synthesizer`: programs from input -> output examples, by gradient descent first, then by a
portfolio of discrete solvers; whatever is found is checked on the exact CPU before it is reported.

    spec = SynthesisSpec.from_dict({"inputs": ["R0", "R1"], "outputs": ["R2"],
                                    "examples": [[{"R0": 3, "R1": 5}, {"R2": 8}], ...]})
    result = Synthesizer().synthesize(spec)
    result.program, result.method, result.solved
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from html import escape

import torch

from ncpu_nb import html
from ncpu_nb.synthesis.enumeration import Enumerator
from ncpu_nb.synthesis.gradient_search import GradientSearch, SearchStats, single_thread
from ncpu_nb.synthesis.array_sketches import search_arrays
from ncpu_nb.synthesis.loop_sketches import search_loops
from ncpu_nb.synthesis.sketches import search_chain, search_loop, search_select
from ncpu_nb.synthesis.spec import SpecError, SynthesisSpec
from ncpu_nb.ncpu.exact_check import passing
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.program import Program

__all__ = ["Synthesizer", "SynthesisResult", "SynthesisSpec", "SpecError", "SearchStopped", "METHODS"]

# Portfolio order: gradient descent, then the discrete solvers (each labelled in the result): the
# quick fixed-shape sketches, most constrained first (a looser shape fits few examples more easily
# without generalising), before the open-ended enumeration. Each gets this fraction of the time
# left when its turn comes (the last one gets all of it).
# Programs that read or write memory are for the array sketches alone: the other solvers see registers only.
# The multi-register loop sketches (`loops`) come before the one-accumulator `loop`: their spaces are
# small and quick to exhaust, the `loop` sketch's is large.
METHODS = ("gradient", "chain", "select", "loops", "loop", "array", "enumerative")
SHARES = {"gradient": 0.5, "chain": 0.1, "select": 0.15, "loop": 0.5, "loops": 0.5, "array": 1.0, "enumerative": 1.0}
MEMORY_METHODS = ("array",)
UNSIMPLIFIED = ("loops", "array")
# Shortest fit wins: once a program fits, the quick fixed-shape sketches not yet tried get a short look
# too, and a shorter program that fits replaces it (fewer instructions generalise more often: an
# expressive search can fit a few examples by accident).
SECOND_LOOK = ("chain", "select")
SECOND_LOOK_SECONDS = 2.0


class SearchStopped(Exception):
    """The search was asked to stop (`Synthesizer.stop()`); the result so far is kept."""


@dataclass
class SynthesisResult:
    """What the synthesizer found.

    solved       the program passed every training example AND every held-out example on the exact CPU
    program      the program (None if nothing passed the training examples): the shortest of `fits`
    method       which solver found it: one of METHODS
    seconds      wall time of the whole search
    stopped      the search was stopped before its time limit
    held_out     (passed, total) on examples the search never saw
    restarts, restart_successes   gradient restarts run and how many of them decoded to a solution
    """

    spec: SynthesisSpec
    solved: bool
    program: Program | None
    method: str | None
    seconds: float
    held_out: tuple[int, int] = (0, 0)
    restarts: int = 0
    restart_successes: int = 0
    gradient: SearchStats | None = None
    attempts: list = field(default_factory=list)  # (method, seconds, outcome)
    fits: list = field(default_factory=list)  # (method, program) of every program that fit the examples
    stopped: bool = False

    @property
    def gradient_found(self) -> bool:
        """Gradient descent's own program fits the training examples and passes the held-out ones."""
        return any(m == "gradient" for m, _ in verified(self.fits, self.spec))

    @property
    def restart_success_rate(self) -> float:
        return self.restart_successes / self.restarts if self.restarts else 0.0

    def as_json(self) -> dict:
        return {"solved": self.solved, "program": self.program.source if self.program else "",
                "method": self.method or "", "seconds": round(self.seconds, 3)}

    def __repr__(self) -> str:
        state = f"solved by {self.method}" if self.solved else "not solved"
        return f"<SynthesisResult {self.spec.name}: {state} in {self.seconds:.2f} s>"

    def _repr_html_(self) -> str:
        facts = [["task", escape(self.spec.name)],
                 ["result", "solved" if self.solved else ("fits the examples, fails held-out"
                                                          if self.program else "not solved")],
                 ["method", escape(self.method or "-")], ["time", f"{self.seconds:.2f} s"],
                 ["held-out examples", f"{self.held_out[0]} / {self.held_out[1]} exact"],
                 ["gradient restarts", f"{self.restart_successes} of {self.restarts} succeeded"]]
        attempts = [[escape(m), f"{s:.2f} s", escape(o)] for m, s, o in self.attempts]
        parts = [html.box(html.table(["", ""], facts)), html.box(html.table(["method", "time", "outcome"],
                                                                               attempts))]
        if self.program is not None:
            parts.append(self.program.listing_html())
        return html.view(f"Synthesis: {self.spec.name}", *parts)


def simplify(program: Program, spec: SynthesisSpec) -> Program:
    """Drop instructions one at a time while the program still fits every training example
    (checked on the CPU), pass after pass until none can go: a search can leave instructions whose
    results are never used (a compare is needed only while its jump is there)."""
    lines, before = program.source.splitlines(), None
    while lines != before:
        before, lines = lines, _drop_pass(lines, spec, program.name)
    return assemble("\n".join(tidy(lines)), name=program.name)


def _drop_pass(lines: list[str], spec: SynthesisSpec, name: str) -> list[str]:
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.endswith(":") or line == "HALT" or not line:
            i += 1
            continue
        trial = lines[:i] + lines[i + 1:]
        try:
            candidate = assemble("\n".join(trial), name=name)
        except Exception:  # a removed line a label needed
            i += 1
            continue
        if passing(candidate, spec.examples, width=spec.memory_width).all():
            lines = trial
        else:
            i += 1
    return lines


def tidy(lines: list[str]) -> list[str]:
    """The same program without jumps to the very next instruction and labels nothing jumps to
    (what is left of a branch whose arms `simplify` emptied)."""
    while True:
        kept = []
        for i, line in enumerate(lines):
            words = line.replace(",", " ").split()
            if len(words) == 2 and words[0].startswith("J"):
                following = []
                for later in lines[i + 1:]:
                    if not later.strip().endswith(":"):
                        break
                    following.append(later.strip()[:-1])
                if words[1] in following:
                    continue
            kept.append(line)
        targets = {line.replace(",", " ").split()[-1] for line in kept if line.strip().startswith("J")}
        kept = [line for line in kept if not line.strip().endswith(":") or line.strip()[:-1] in targets]
        if kept == lines:
            return kept
        lines = kept


def verified(fits: list, spec: SynthesisSpec) -> list:
    """The fits that also pass the held-out examples (all of them when there are none). The held-out
    examples serve as the validation set that decides when the search may stop, and which program is
    reported; no solver ever trains on them."""
    return [fit for fit in fits if passing(fit[1], spec.held_out, width=spec.memory_width).all()]


class Synthesizer:
    """Gradient descent on soft programs first, then the discrete portfolio.

    methods      the solvers to try, in order (see METHODS); ("gradient",) for gradient alone
    shares       fraction of the time left each method gets when others follow (default SHARES)
    progress     called with a dict now and then (method, step or size, seconds, ...)
    record_gradients  keep per-step gradient norms of every slot's distributions (for gradflow)
    device       the torch device gradient descent's restarts run on (cpu, cuda) when no `gradient`
                 search is given; the discrete solvers are plain Python
    """

    def __init__(self, methods=METHODS, gradient: GradientSearch | None = None, shares: dict | None = None,
                 progress=None, record_gradients: bool = False, device: str | torch.device | None = None):
        self.record_gradients = record_gradients
        unknown = [m for m in methods if m not in METHODS]
        if unknown:
            raise ValueError(f"unknown method {unknown[0]!r}; choose from {', '.join(METHODS)}")
        self.methods, self.shares, self.progress = tuple(methods), {**SHARES, **(shares or {})}, progress
        if gradient is not None and device is not None:
            raise ValueError("give the device to the GradientSearch: GradientSearch(device=...)")
        self.gradient = gradient or GradientSearch(device="cpu" if device is None else device)
        self._stop = threading.Event()

    def stop(self) -> None:
        """Ask a running `synthesize` (on another thread) to stop soon; it returns what it has."""
        self._stop.set()

    def _report(self, info: dict) -> None:
        if self._stop.is_set():
            raise SearchStopped
        if self.progress is not None:
            self.progress(info)

    def _until(self, method: str, spec: SynthesisSpec, now: float, deadline: float, last: bool) -> float:
        if last:
            return deadline
        until = now + (deadline - now) * self.shares[method]
        if method == "gradient" and spec.gradient_seconds is not None:
            until = min(until, now + spec.gradient_seconds)
        return until

    def synthesize(self, spec: SynthesisSpec | dict, time_limit: float | None = None) -> SynthesisResult:
        if isinstance(spec, dict):
            spec = SynthesisSpec.from_dict(spec)
        limit = spec.time_limit if time_limit is None else time_limit
        start = time.perf_counter()
        deadline = start + limit
        result = SynthesisResult(spec, False, None, None, 0.0)
        self._stop.clear()
        memory = spec.uses_memory
        methods = [m for m in self.methods if (m in MEMORY_METHODS) == memory]
        for m in self.methods:
            if m not in methods:
                result.attempts.append((m, 0.0, "not applicable: " + ("it sees registers only" if memory else
                                                                      "no memory in the examples")))
        try:
            for index, method in enumerate(methods):
                now = time.perf_counter()
                if now >= deadline:
                    break
                self._attempt(method, spec, self._until(method, spec, now, deadline, index == len(methods) - 1),
                              result)
                if verified(result.fits, spec):  # a fit that fails the held-out examples does not end the search
                    break
            if result.fits:
                tried = {m for m, _, _ in result.attempts}
                for method in SECOND_LOOK:
                    if method in methods and method not in tried and time.perf_counter() < deadline:
                        self._attempt(method, spec, min(deadline, time.perf_counter() + SECOND_LOOK_SECONDS), result)
        except SearchStopped:
            result.stopped = True
        if result.fits:
            candidates = verified(result.fits, spec) or result.fits
            result.method, result.program = min(candidates, key=lambda fit: len(fit[1]))  # ties: the first
        result.seconds = time.perf_counter() - start
        if result.program is not None:
            kept = passing(result.program, spec.held_out, width=spec.memory_width)
            result.held_out = (int(kept.sum()), len(spec.held_out))
            result.solved = result.held_out[0] == result.held_out[1]
        return result

    def _attempt(self, method: str, spec: SynthesisSpec, until: float, result: SynthesisResult) -> None:
        now = time.perf_counter()
        self._report({"method": method, "seconds": 0.0, "starting": True})
        try:
            with single_thread():
                found = self._run(method, spec, until, result)
        except SearchStopped:
            result.attempts.append((method, time.perf_counter() - now, "stopped"))
            raise
        texts = [found] if isinstance(found, str) else (found or [])
        outcomes = []
        for text in texts:
            program = assemble(text, name=spec.name)
            if passing(program, spec.examples, width=spec.memory_width).all():  # the exact CPU has the last word
                # A loop sketch's program is already its shape's minimum; dropping its loop test could
                # leave a loop that fits the examples only because memory past an array reads zero.
                result.fits.append((method, program if method in UNSIMPLIFIED else simplify(program, spec)))
                outcomes.append(f"found, {len(result.fits[-1][1]) - 1} instructions")
            else:
                outcomes.append("rejected by the CPU")
        result.attempts.append((method, time.perf_counter() - now, "; ".join(outcomes) or "nothing found"))

    def _run(self, method: str, spec: SynthesisSpec, until: float, result: SynthesisResult) -> str | None:
        if method == "gradient":
            text, stats = self.gradient.search(spec, until, self._report, self.record_gradients)
            result.gradient, result.restarts, result.restart_successes = stats, stats.restarts, stats.successes
            return text
        if method == "enumerative":
            return Enumerator().search(spec, until, self._report)[0]
        if method == "select":
            return search_select(spec, until)
        if method == "chain":
            return search_chain(spec, until)
        if method == "loops":
            return search_loops(spec, until)
        if method == "array":
            return search_arrays(spec, until)
        return search_loop(spec, until)
