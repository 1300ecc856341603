"""A coverage-guided fuzzer for the AArch64 machine: mutate a program's input, keep what reaches new code.

    report = ncpu_nb.fuzz("programs/arm64/c/bin/magic", seconds=30)       # input on stdin
    report = ncpu_nb.fuzz("busybox", ["busybox", "sed", "-e"], where="argv") # input as the last argument
    report = ncpu_nb.fuzz("busybox", ["busybox", "sh", "/tmp/s"], where="file:/tmp/s")  # input as a file
    report.crashes[0].input, report.crashes[0].replay()                    # minimised; replays exactly
    report.save("findings/")                                                # reproducers, one folder

Coverage is the engine's own: with `set_coverage` on, every branch-class instruction counts its
(pc, next pc) edge in a 64 Ki-slot map, taken or not, inside the Rust loop (no Python per instruction).
An input is kept in the corpus when it reaches an edge, or an edge's hit-count bucket (1, 2, 3, 4-7,
8-15, 16-31, 32-127, 128+ as AFL counts them), that no earlier input reached.

Executions start from a **snapshot**: for stdin, the machine runs once to where the program first waits
for input and is snapshotted there (pages shared copy-on-write), so each execution only restores it,
writes the input and runs; for a file, the snapshot is the machine before its first instruction, and
each execution writes the file into the machine's own filesystem (`write_file`) first. Several workers (`workers`, threads: the engine runs with the GIL released)
each own a machine and draw from one corpus.

An execution **crashes** when a fault or a signal ends the program (SIGSEGV, SIGABRT…; told apart by
signal and PC) and **hangs** when it runs past `max_steps` instructions. Each new crash or hang is
minimised (chunks and then single bytes removed while the outcome stays the same) and kept with
everything needed to replay it exactly: the machine is deterministic, so a replay ends at the same
instruction count with the same fault.
"""
from __future__ import annotations

import hashlib
import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

import numpy as np

from ncpu_nb import html

INTERESTING = (0, 1, 0x7F, 0x80, 0xFF, ord("0"), ord("9"), ord("A"), ord("a"), ord(" "), ord("\n"))
# AFL's hit-count buckets (1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+), one bit each: count -> its bit
BUCKETS = np.array([0] + [1 << int(np.searchsorted([1, 2, 3, 4, 8, 16, 32, 128], c, side="right") - 1)
                          for c in range(1, 256)], np.uint8)
# The signals that mean a program crashed (a fault, a trap or abort()), by number.
SIGNALS = {4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 11: "SIGSEGV", 31: "SIGSYS"}
WHERE = ("stdin", "argv", "file:/PATH")
MAX_INPUT = 4096


@dataclass(frozen=True)
class Target:
    """How one execution is made: the program, its arguments, where the input goes, its budget."""

    path: str  # a host ELF file, or 'busybox' (the bundled one)
    argv: tuple[str, ...]
    where: str  # 'stdin', 'argv' (appended as the last argument) or 'file:/PATH' (that file, written first)
    max_steps: int

    def machine(self, data: bytes | None):
        """A machine about to run: for stdin, one that ran to where the program first waits for input
        (and then got `data`, unless None); for argv, one with `data` as the last argument; for a file,
        one with `data` in it. The fuzzer's executions start from the same state (its snapshot), so a
        replay counts the same instructions."""
        from ncpu_nb.arm64.machine import Arm64Machine

        argv = list(self.argv)
        if self.where == "argv":
            argv.append(data.replace(b"\0", b"").decode("latin-1"))
        options = {"interactive": True} if self.where == "stdin" else {"stdin": b""}
        machine = (Arm64Machine.busybox(*argv[1:], **options) if self.path == "busybox" else
                   Arm64Machine.from_elf(self.path, argv, **options))
        if self.where.startswith("file:"):
            machine.write_file(self.where[5:], data or b"")
        if self.where == "stdin":
            machine.run(self.max_steps, check=False)
            if machine.stop != "stdin":
                raise ValueError(f"{' '.join(self.argv)} never waits for standard input ({machine.stop}): "
                                 f"fuzz its arguments (where='argv') instead")
            if data is not None:
                machine.write_stdin(data)
                machine.close_stdin()
        return machine


@dataclass(frozen=True)
class Outcome:
    kind: str  # ok, crash or hang
    signature: str  # e.g. 'SIGSEGV at 0x4007a8' (crash), 'hang' or 'exit 0'
    instructions: int
    detail: str = ""


@dataclass
class Reproducer:
    """A crash or hang: its minimised input and how the run ended; `replay()` runs it again."""

    outcome: Outcome
    input: bytes
    original: bytes  # the input as the fuzzer first found it, before minimising
    execution: int  # which execution found it
    target: Target = field(repr=False)

    def replay(self):
        """Runs the input again from a fresh machine: (machine, Outcome) — the same as `outcome`."""
        machine = self.target.machine(self.input)
        return machine, _run_outcome(machine, self.target.max_steps)


def _run_outcome(machine, max_steps: int) -> Outcome:
    run = machine.run(max_steps, check=False)
    faults = machine.faults()
    if faults:
        f = faults[0]
        return Outcome("crash", f"{SIGNALS.get(f.signal, f'signal {f.signal}')} at 0x{f.pc:x}", machine.instructions,
                       f.what)
    status, signal = machine.exit_status, machine.exit_signal
    if run.stop == "exited" and signal in SIGNALS:  # abort(), a trap: not a fault, but a crash all the same
        return Outcome("crash", f"{SIGNALS[signal]} at 0x{machine.pc:x}", machine.instructions,
                       f"killed by {SIGNALS[signal]}")
    if run.stop == "exited":  # an exit, or a signal that ends a program without a bug (SIGTERM, SIGPIPE…)
        return Outcome("ok", f"exit {status}" if signal is None else f"killed by signal {signal}",
                       machine.instructions)
    if run.stop == "budget":
        return Outcome("hang", "hang", machine.instructions, f"still running after {max_steps:,} instructions")
    return Outcome("ok", run.stop, machine.instructions, machine.stop_detail)


class _Worker:
    """One machine, restored from its snapshot for each execution (or made afresh, for argv inputs)."""

    def __init__(self, target: Target):
        self.target = target
        self.snapshot = None
        if target.where != "argv":
            machine = target.machine(None)
            machine._engine.set_coverage(True)
            self.machine, self.snapshot = machine, machine.snapshot()

    def execute(self, data: bytes) -> tuple[Outcome, np.ndarray, list[int]]:
        if self.snapshot is not None:
            machine = self.machine
            machine.restore(self.snapshot)
            if self.target.where == "stdin":
                machine.write_stdin(data)
                machine.close_stdin()
            else:
                machine.write_file(self.target.where[5:], data)
        else:
            machine = self.target.machine(data)
            machine._engine.set_coverage(True)
        outcome = _run_outcome(machine, self.target.max_steps)
        engine = machine._engine
        return outcome, np.frombuffer(engine.coverage(), np.uint8), engine.compares()


def tokens(compared: list[int]) -> set[bytes]:
    """Dictionary entries from compared operands: small numbers as their little-endian bytes, larger ones
    only when every byte is printable (a word of a string compared in one go); addresses are left out."""
    found = set()
    for value in compared:
        data = value.to_bytes((value.bit_length() + 7) // 8 or 1, "little")
        if value < 0x10000 or all(0x20 <= b < 0x7F for b in data):
            found.add(data)
    return found


def _minimise(data: bytes, same) -> bytes:
    """The shortest input found by removing chunks (halves down to single bytes) while `same(input)` holds."""
    size = max(len(data) // 2, 1)
    while data and size >= 1:
        i, removed = 0, False
        while i < len(data):
            candidate = data[:i] + data[i + size:]
            if same(candidate):
                data, removed = candidate, True
            else:
                i += size
        if not removed:
            size //= 2
    return data


class FuzzReport:
    """What a campaign found: crashes, hangs, the corpus, and coverage over executions."""

    def __init__(self, target: Target, executions: int, seconds: float, corpus: list[bytes], edges: int,
                 history: list[tuple[int, float, int]], crashes: list[Reproducer], hangs: list[Reproducer], seed: int):
        self.target, self.executions, self.seconds = target, executions, seconds
        self.corpus, self.edges, self.history = corpus, edges, history
        self.crashes, self.hangs, self.seed = crashes, hangs, seed

    @property
    def rate(self) -> float:
        """Executions per second over the campaign."""
        return self.executions / self.seconds if self.seconds else 0.0

    def summary(self) -> list[str]:
        lines = [f"{self.executions:,} executions in {self.seconds:.1f} s ({self.rate:,.0f}/s), "
                 f"{self.edges} edges, corpus of {len(self.corpus)}, {len(self.crashes)} crash(es), "
                 f"{len(self.hangs)} hang(s)"]
        for f in self.crashes + self.hangs:
            lines.append(f"  {f.outcome.signature}: input {f.input!r} (found at execution {f.execution:,}, "
                         f"{len(f.original)} bytes before minimising) — {f.outcome.detail}")
        return lines

    def __repr__(self) -> str:
        return "\n".join(self.summary())

    def save(self, folder) -> list[Path]:
        """Writes each crash and hang as NAME.input (the bytes) and NAME.json (how to replay it)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for f in self.crashes + self.hangs:
            digest = hashlib.sha1(f.input).hexdigest()[:10]
            name = f"{f.outcome.kind}-{f.outcome.signature.split()[0].lower()}-{digest}"
            (folder / f"{name}.input").write_bytes(f.input)
            t = f.target
            (folder / f"{name}.json").write_text(json.dumps({
                "program": t.path, "argv": list(t.argv), "where": t.where, "max_steps": t.max_steps,
                "input": f"{name}.input", "outcome": f.outcome.signature, "instructions": f.outcome.instructions,
                "detail": f.outcome.detail}, indent=2) + "\n")
            written.append(folder / f"{name}.json")
        return written

    def coverage_svg(self, width: int = 420, height: int = 120) -> str:
        """Edges over executions, as an inline SVG (no plotting library needed)."""
        if len(self.history) < 2:
            return ""
        last_x, top = max(self.history[-1][0], 1), max(h[2] for h in self.history) or 1
        points = " ".join(f"{8 + (width - 16) * x / last_x:.1f},{height - 16 - (height - 28) * e / top:.1f}"
                          for x, _, e in self.history)
        return (f"<svg width='{width}' height='{height}' style='font:11px sans-serif'>"
                f"<polyline fill='none' stroke='#36c' stroke-width='2' points='{points}'/>"
                f"<text x='8' y='12'>{top} edges</text><text x='{width - 8}' y='{height - 2}' "
                f"text-anchor='end'>{last_x:,} executions</text></svg>")

    def plot(self):
        """Edges over executions and over seconds (plotly): the coverage curve of the campaign."""
        import plotly.graph_objects as go
        from plotly.subplots import make_subplots

        fig = make_subplots(rows=1, cols=2, subplot_titles=("by execution", "by second"))
        xs, ts, es = zip(*self.history) if self.history else ((), (), ())
        fig.add_trace(go.Scatter(x=xs, y=es, mode="lines", name="edges"), 1, 1)
        fig.add_trace(go.Scatter(x=ts, y=es, mode="lines", name="edges", showlegend=False), 1, 2)
        fig.update_layout(title="Coverage", height=320, yaxis_title="edges")
        return fig

    def _repr_html_(self) -> str:
        rows = [[escape(f.outcome.kind), escape(f.outcome.signature), f"<code>{escape(repr(f.input))}</code>",
                 f"{f.execution:,}", escape(f.outcome.detail)] for f in self.crashes + self.hangs]
        parts = [f"<div>{escape(self.summary()[0])}</div>", self.coverage_svg()]
        if rows:
            parts.append(html.table(["kind", "outcome", "input (minimised)", "found at execution", "detail"], rows))
        return html.view(f"Fuzzing {escape(' '.join(self.target.argv))}", *parts)


class Fuzzer:
    """A campaign over one target; `run` can be called again to go on (see the module doc)."""

    def __init__(self, program, argv=None, *, where: str = "stdin", seeds=(b"",), max_steps: int = 1_000_000,
                 workers: int = 2, seed: int = 0):
        if where not in WHERE[:2] and not (where.startswith("file:/") and len(where) > 6):
            raise ValueError(f"where must be one of {', '.join(WHERE)}, not {where!r}")
        if max_steps < 1 or workers < 1:
            raise ValueError("max_steps and workers must be at least 1")
        path = str(program)
        argv = tuple(argv) if argv is not None else ((path,) if path == "busybox" else (Path(path).name,))
        self.target = Target(path, argv, where, max_steps)
        self.workers = [_Worker(self.target) for _ in range(workers)]
        self.rng = random.Random(seed)
        self.seed = seed
        self.corpus = [bytes(s.encode() if isinstance(s, str) else s) for s in seeds] or [b""]
        self.dictionary: list[bytes] = []  # what the program compared its input with (see `tokens`)
        self.seen = np.zeros(1 << 16, np.uint8)  # bucket bits reached so far, per slot
        self.executions, self.seconds, self.history = 0, 0.0, []
        self.crashes: dict[str, Reproducer] = {}
        self.hangs: dict[str, Reproducer] = {}
        self._lock = threading.Lock()

    # --- mutation ----------------------------------------------------------------------------
    def pick(self) -> bytes:
        """A corpus entry to mutate: half the time one of the three newest (the frontier, where new
        coverage was last found), else any."""
        if self.rng.random() < 0.5:
            return self.rng.choice(self.corpus[-3:])
        return self.rng.choice(self.corpus)

    def mutate(self, data: bytes) -> bytes:
        rng, out = self.rng, bytearray(data)
        for _ in range(1 << rng.randrange(3)):
            choice = rng.randrange(9)
            if choice == 0 or not out:  # insert a byte
                out.insert(rng.randrange(len(out) + 1), rng.choice(INTERESTING) if rng.random() < 0.3 else
                           rng.randrange(256))
            elif choice == 1:  # set a byte
                out[rng.randrange(len(out))] = rng.randrange(256)
            elif choice == 2:  # flip a bit
                out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
            elif choice == 3:  # an interesting value
                out[rng.randrange(len(out))] = rng.choice(INTERESTING)
            elif choice == 4 and len(out) > 1:  # delete a chunk
                i = rng.randrange(len(out))
                del out[i:i + rng.randrange(1, min(8, len(out) - i) + 1)]
            elif choice == 5:  # duplicate a chunk
                i = rng.randrange(len(out))
                out[i:i] = out[i:i + rng.randrange(1, 9)]
            elif choice == 6:  # splice with another corpus entry
                other = rng.choice(self.corpus)
                cut = rng.randrange(len(out) + 1)
                out = out[:cut] + other[rng.randrange(len(other) + 1):]
            elif self.dictionary:  # a token the program compared something with: put in, or over
                token, i = rng.choice(self.dictionary), rng.randrange(len(out) + 1)
                out[i:i + (len(token) if choice == 7 else 0)] = token
        return bytes(out[:MAX_INPUT])

    # --- the loop ----------------------------------------------------------------------------
    def _novel(self, coverage: np.ndarray) -> bool:
        bits = BUCKETS[coverage]
        new = bits & ~self.seen
        if not new.any():
            return False
        self.seen |= bits
        return True

    def _record(self, data: bytes, outcome: Outcome, coverage: np.ndarray, compared: list[int],
                worker: _Worker) -> None:
        with self._lock:
            self.executions += 1
            if self._novel(coverage):
                self.corpus.append(data)
                known = set(self.dictionary)
                self.dictionary += sorted(tokens(compared) - known)
            found = {"crash": self.crashes, "hang": self.hangs}.get(outcome.kind)
            if found is None or outcome.signature in found:
                return
            found[outcome.signature] = None  # claimed: minimised below, outside the lock
            execution = self.executions
        small = _minimise(data, lambda d: worker.execute(d)[0].signature == outcome.signature)
        final = worker.execute(small)[0]
        with self._lock:
            found[outcome.signature] = Reproducer(final, small, data, execution, self.target)

    def _work(self, worker: _Worker, until: float, budget: int) -> None:
        while True:
            with self._lock:
                if self.executions >= budget or time.perf_counter() >= until:
                    return
                data = self.mutate(self.pick())
            self._record(data, *worker.execute(data), worker)

    def run(self, executions: int | None = None, seconds: float | None = None, *, live: bool = False,
            stop_on_crash: bool = False) -> FuzzReport:
        """Fuzz for `executions` more executions or `seconds` (whichever ends first; one of them is
        needed). `live=True` shows the report in the notebook and updates it as coverage grows;
        `stop_on_crash` ends at the first crash."""
        if executions is None and seconds is None:
            raise ValueError("give executions=, seconds= or both")
        budget = self.executions + (executions if executions is not None else 1 << 62)
        deadline = time.perf_counter() + (seconds if seconds is not None else 1e9)
        display = _LiveDisplay(self) if live else None
        start = time.perf_counter()
        if not self.history:  # the seeds first, in order
            for data in list(self.corpus):
                self._record(data, *self.workers[0].execute(data), self.workers[0])
        with ThreadPoolExecutor(len(self.workers)) as pool:
            while self.executions < budget and time.perf_counter() < deadline:
                step_end = min(deadline, time.perf_counter() + 0.5)
                step_budget = budget
                list(pool.map(lambda w: self._work(w, step_end, step_budget), self.workers))
                self.history.append((self.executions, self.seconds + time.perf_counter() - start,
                                     int(np.count_nonzero(self.seen))))
                if display is not None:
                    display.update()
                if stop_on_crash and self.crashes:
                    break
        self.seconds += time.perf_counter() - start
        report = self.report()
        if display is not None:
            display.update(report)
        return report

    def report(self) -> FuzzReport:
        done = [f for f in self.crashes.values() if f is not None], [f for f in self.hangs.values() if f is not None]
        return FuzzReport(self.target, self.executions, self.seconds, list(self.corpus),
                          int(np.count_nonzero(self.seen)), list(self.history), *done, self.seed)


class _LiveDisplay:
    """The report in a notebook output, redrawn in place as the campaign goes (IPython display ids)."""

    def __init__(self, fuzzer: Fuzzer):
        from IPython.display import HTML, display

        self.fuzzer, self.html = fuzzer, HTML
        self.handle = display(HTML("<i>fuzzing…</i>"), display_id=True)

    def update(self, report: FuzzReport | None = None) -> None:
        if self.handle is not None:
            self.handle.update(self.html((report or self.fuzzer.report())._repr_html_()))


def fuzz(program, argv=None, *, where: str = "stdin", seeds=(b"",), executions: int | None = None,
         seconds: float | None = None, max_steps: int = 1_000_000, workers: int = 2, seed: int = 0,
         live: bool = False, stop_on_crash: bool = False) -> FuzzReport:
    """Fuzz an AArch64 program (a host ELF path, or 'busybox' with its argv) — see the module doc."""
    return Fuzzer(program, argv, where=where, seeds=seeds, max_steps=max_steps, workers=workers,
                  seed=seed).run(executions, seconds, live=live, stop_on_crash=stop_on_crash)


def replay(reproducer) -> tuple:
    """Runs a saved reproducer (the .json that `FuzzReport.save` wrote): (machine, Outcome)."""
    path = Path(reproducer)
    spec = json.loads(path.read_text())
    target = Target(spec["program"], tuple(spec["argv"]), spec["where"], spec["max_steps"])
    machine = target.machine((path.parent / spec["input"]).read_bytes())
    return machine, _run_outcome(machine, target.max_steps)
