"""A coverage-guided fuzzer for the AArch64 machine and the nCPU: mutate a program's input, keep what
reaches new code.

    report = ncpu_nb.fuzz("programs/arm64/c/bin/magic", seconds=30)       # input on stdin
    report = ncpu_nb.fuzz("busybox", ["busybox", "sed", "-e"], where="argv") # input as the last argument
    report = ncpu_nb.fuzz("busybox", ["busybox", "sh", "/tmp/s"], where="file:/tmp/s")  # input as a file
    report = ncpu_nb.fuzz(ncpu_nb.load_program("magic_word"), where="memory:input", lanes=256)  # nCPU
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

**The nCPU** (a `CPU`, a `Program`, a bundled program's name, a .asm file or assembly text) is fuzzed on
lanes: a batch of `lanes` inputs runs as the lanes of one CPU at once, every lane restored from one
snapshot of the loaded program and given its own input, the lanes spread over the cores by the Rust
executor. The input goes into data memory (`where="memory:LABEL"` or `"memory:ADDRESS"`: `size` bytes
there, the input zero-padded, so a shorter string still ends in a 0 byte; `size` defaults to the
label's bytes up to the next data label) or into the registers (`where="registers"`: little-endian
words into R0, R1, …, `size` bytes, 32 at most); without `where`, the program's first data label, else
the registers. The seeds default to what the program already holds there. Each lane counts its own edges (jumps taken or not, calls, returns) in a 4 Ki-slot map
(`CPU.set_coverage`); a lane that faults (a memory access outside data memory, a jump outside the
program) is a crash, one still running after `max_steps` steps (10,000 unless told) a hang. (The nCPU
lanes do not record compared operands: its campaigns mutate without a dictionary.)

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
from dataclasses import dataclass, field, replace
from html import escape
from pathlib import Path

import numpy as np

from ncpu_nb import _metal, html
from ncpu_nb.protocol import Editable

INTERESTING = (0, 1, 0x7F, 0x80, 0xFF, ord("0"), ord("9"), ord("A"), ord("a"), ord(" "), ord("\n"))
# AFL's hit-count buckets (1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+), one bit each: count -> its bit
BUCKETS = np.array([0] + [1 << int(np.searchsorted([1, 2, 3, 4, 8, 16, 32, 128], c, side="right") - 1)
                          for c in range(1, 256)], np.uint8)
# The signals that mean a program crashed (a fault, a trap or abort()), by number.
SIGNALS = {4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 11: "SIGSEGV", 31: "SIGSYS"}
WHERE = ("stdin", "argv", "file:/PATH")
MAX_INPUT = 4096
NCPU_MAX_STEPS = 10_000  # nCPU programs are short: a run this long is a hang unless told otherwise


@dataclass(frozen=True)
class Target:
    """How one execution is made: the program, its arguments, where the input goes, its budget."""

    path: str  # a host ELF file, or 'busybox' (the bundled one)
    argv: tuple[str, ...]
    where: str  # 'stdin', 'argv' (appended as the last argument) or 'file:/PATH' (that file, written first)
    max_steps: int

    @property
    def title(self) -> str:
        return " ".join(self.argv)

    def spec(self) -> dict:
        """What a saved reproducer records of the target (see `replay`)."""
        return {"program": self.path, "argv": list(self.argv), "where": self.where, "max_steps": self.max_steps}

    def replay(self, data: bytes) -> tuple:
        """Runs `data` on a fresh machine: (machine, Outcome)."""
        machine = self.machine(data)
        return machine, _run_outcome(machine, self.max_steps)

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
        return self.target.replay(self.input)


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

    batch, slots = 1, 1 << 16  # inputs per draw from the corpus; coverage slots

    def __init__(self, target: Target):
        self.target = target
        self.snapshot = None
        if target.where != "argv":
            machine = target.machine(None)
            machine.set_coverage(True)
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
            machine.set_coverage(True)
        outcome = _run_outcome(machine, self.target.max_steps)
        return outcome, np.frombuffer(machine.coverage(), np.uint8), machine.compares()

    def execute_batch(self, inputs: list[bytes]) -> list[tuple]:
        return [self.execute(data) for data in inputs]


@dataclass(frozen=True)
class NcpuTarget:
    """How one nCPU execution is made: the program (its source), where the input goes, its budget."""

    name: str
    source: str
    where: str  # 'memory:ADDRESS' (an address or a data label) or 'registers'
    size: int  # bytes of input at most: the memory region, or 4 per register
    max_steps: int
    memory_size: int = 65536
    registers: tuple = ()  # (name, value) set at load, before the input

    @classmethod
    def of(cls, program, where: str, size: int | None, max_steps: int | None) -> "NcpuTarget":
        """The target for a machine holding an nCPU program (a CPU: its shown lane's program, memory size and
        load-time registers), a Program, a bundled program's name, a .asm file or assembly text."""
        from ncpu_nb.ncpu import Program, assemble

        memory_size, registers = 65536, ()
        if isinstance(program, Editable):
            memory_size = max(end for _, end, _ in program.memory_map())
            registers, program = tuple(program.initial_registers.items()), program.program
            if not isinstance(program, Program):
                raise ValueError(f"the machine holds no nCPU program (it holds {program!r})")
        elif not isinstance(program, Program):
            text = str(program)
            if text.endswith(".asm") and Path(text).is_file():
                program = assemble(Path(text).read_text(), name=Path(text).stem)
            else:
                from ncpu_nb import list_programs, load_program

                program = load_program(text) if text in list_programs() else assemble(text)
        if not where:  # the program's first data label, else the registers
            labels = program.data_labels or {}
            where = f"memory:{min(labels, key=labels.get)}" if labels else "registers"
        if where != "registers" and not (where.startswith("memory:") and len(where) > 7):
            raise ValueError(f"an nCPU program takes its input at memory:ADDRESS (or a data label) or in "
                             f"registers, not {where!r}")
        target = cls(program.name, program.source, where, 0, max_steps or NCPU_MAX_STEPS, memory_size, registers)
        return replace(target, size=target.input_size(program, size))

    def input_size(self, program, size: int | None) -> int:
        """`size` checked against where the input goes (None: the whole region, or 32 register bytes)."""
        if self.where == "registers":
            size = 32 if size is None else size
            if not 0 < size <= 32 or size % 4:
                raise ValueError("where='registers' takes 4 to 32 bytes, a multiple of 4 (R0, R1, …)")
            return size
        address = self.address(program)
        if size is None:
            labels = program.data_labels or {}
            if self.where[7:] not in labels:
                raise ValueError(f"give size= for {self.where!r} (only a data label has a size of its own)")
            ends = [a for a in [*labels.values(), len(program.data)] if a > address]
            size = min(ends) - address if ends else 0
        if not 0 < size <= self.memory_size - address:
            raise ValueError(f"{size} bytes at 0x{address:X} do not fit in data memory ({self.memory_size} bytes)")
        return size

    def address(self, program) -> int:
        from ncpu_nb.ncpu.program import data_address

        where = self.where[7:]
        return data_address(int(where, 0) if where[:1].isdigit() else where, program, self.memory_size)

    @property
    def title(self) -> str:
        return f"{self.name} (nCPU, input in {self.where})"

    def program(self):
        from ncpu_nb.ncpu import assemble

        return assemble(self.source, name=self.name)

    def cpu(self, lanes: int = 1, trace_depth: int = 0):
        """A CPU with the program loaded in `lanes` lanes (fast mode: the neural ALU computes the same)."""
        from ncpu_nb.ncpu import CPU

        return CPU(self.program(), lanes=lanes, memory_size=self.memory_size, trace_depth=trace_depth,
                   max_steps=self.max_steps, registers=dict(self.registers))

    def seed(self) -> bytes:
        """What the program holds where the input goes (data memory; registers start as loaded)."""
        if self.where == "registers":
            return b"".join(int(dict(self.registers).get(f"R{i}", 0) & 0xFFFF_FFFF).to_bytes(4, "little")
                            for i in range(self.size // 4)).rstrip(b"\0")
        address = self.address(self.program())
        return self.program().data[address:address + self.size].rstrip(b"\0")

    def place(self, cpu, inputs: list[bytes]) -> None:
        """Input i into lane i: `size` bytes, zero-padded, at the address or into R0, R1, …"""
        if self.where == "registers":
            for lane, data in enumerate(inputs):
                padded = data.ljust(self.size, b"\0")
                cpu.set_registers(lane, **{f"R{i}": int.from_bytes(padded[4 * i:4 * i + 4], "little")
                                           for i in range(self.size // 4)})
            return
        address = self.address(cpu.program)
        for lane, data in enumerate(inputs):
            cpu.write_memory(address, data.ljust(self.size, b"\0")[:self.size], lane)

    def outcomes(self, cpu, n: int) -> list[Outcome]:
        """How lanes 0..n-1 ended: a fault is a crash, a lane still running a hang."""
        statuses, steps = cpu.lane_status(), cpu.lane_cycles()
        found = []
        for lane in range(n):
            if statuses[lane] == "fault":
                pc, what = cpu.lane_fault(lane)
                kind = "memory" if what.startswith("memory") else "jump"
                found.append(Outcome("crash", f"{kind} fault at {pc}", int(steps[lane]),
                                     f"{what} ({cpu.disassemble(pc, 1)[0][1]})"))
            elif statuses[lane] == "running":
                found.append(Outcome("hang", "hang", int(steps[lane]), f"still running after {self.max_steps:,} steps"))
            else:
                found.append(Outcome("ok", statuses[lane], int(steps[lane])))
        return found

    def machine(self, data: bytes):
        """A one-lane CPU (tracing, for the debugger) with `data` in place, about to run."""
        cpu = self.cpu(1, trace_depth=256)
        self.place(cpu, [data])
        return cpu

    def replay(self, data: bytes) -> tuple:
        """Runs `data` on a fresh CPU: (cpu, Outcome)."""
        cpu = self.machine(data)
        cpu.run(self.max_steps, check=False)
        return cpu, self.outcomes(cpu, 1)[0]

    def spec(self) -> dict:
        return {"engine": "ncpu", "program": self.name, "source": self.source, "where": self.where,
                "size": self.size, "max_steps": self.max_steps, "memory_size": self.memory_size,
                "registers": dict(self.registers)}


class _LaneRunner:
    """The nCPU's executions: a batch of inputs as the lanes of one CPU (all restored from one snapshot
    of the loaded program, coverage on), and single inputs (seeds, minimising) on a one-lane CPU."""

    slots = _metal.NCPU_COVERAGE_SLOTS

    def __init__(self, target: NcpuTarget, lanes: int):
        self.target, self.batch = target, lanes
        self.machines = {}
        for n in {1, lanes}:
            cpu = target.cpu(n)
            cpu.set_coverage(True)
            self.machines[n] = cpu, cpu.snapshot()

    def _run(self, inputs: list[bytes], lanes: int) -> tuple[list[Outcome], np.ndarray]:
        cpu, snapshot = self.machines[lanes]
        cpu.restore(snapshot)  # lanes unused by a short last batch run the program's own data
        self.target.place(cpu, inputs)
        cpu.run(self.target.max_steps, check=False)
        return self.target.outcomes(cpu, len(inputs)), cpu.coverage()

    def execute(self, data: bytes) -> tuple[Outcome, np.ndarray, list[int]]:
        outcomes, maps = self._run([data], 1)
        return outcomes[0], maps[0], []

    def execute_batch(self, inputs: list[bytes]) -> list[tuple]:
        outcomes, maps = self._run(inputs, self.batch)
        return [(outcome, maps[lane], []) for lane, outcome in enumerate(outcomes)]


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
            (folder / f"{name}.json").write_text(json.dumps({
                **f.target.spec(), "input": f"{name}.input", "outcome": f.outcome.signature,
                "instructions": f.outcome.instructions, "detail": f.outcome.detail}, indent=2) + "\n")
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
        return html.view(f"Fuzzing {escape(self.target.title)}", *parts)


def _is_ncpu(program, where: str) -> bool:
    from ncpu_nb.ncpu import Program

    return isinstance(program, (Editable, Program)) or where == "registers" or where.startswith("memory:")


class Fuzzer:
    """A campaign over one target; `run` can be called again to go on (see the module doc). An AArch64
    target runs on `workers` machines (threads), an nCPU target as batches of `lanes` lanes."""

    def __init__(self, program, argv=None, *, where: str | None = None, seeds=None, max_steps: int | None = None,
                 workers: int = 2, seed: int = 0, size: int | None = None, lanes: int = 256):
        ncpu = _is_ncpu(program, where or "")
        where = where or ("" if ncpu else "stdin")
        if not ncpu and where not in WHERE[:2] and not (where.startswith("file:/") and len(where) > 6):
            raise ValueError(f"where must be one of {', '.join(WHERE)} (AArch64) or memory:ADDRESS, registers "
                             f"(nCPU), not {where!r}")
        if (max_steps is not None and max_steps < 1) or workers < 1 or lanes < 1:
            raise ValueError("max_steps, workers and lanes must be at least 1")
        if ncpu:
            self.target = NcpuTarget.of(program, where, size, max_steps)
            self.workers = [_LaneRunner(self.target, lanes)]  # the executor spreads the lanes over the cores
            seeds = seeds if seeds is not None else (self.target.seed(),)
            self.max_input = self.target.size
        else:
            path = str(program)
            argv = tuple(argv) if argv is not None else ((path,) if path == "busybox" else (Path(path).name,))
            self.target = Target(path, argv, where, max_steps or 1_000_000)
            self.workers = [_Worker(self.target) for _ in range(workers)]
            self.max_input = MAX_INPUT
        self.rng = random.Random(seed)
        self.seed = seed
        self.corpus = [bytes(s.encode() if isinstance(s, str) else s) for s in seeds or ()] or [b""]
        self.dictionary: list[bytes] = []  # what the program compared its input with (see `tokens`)
        self.seen = np.zeros(self.workers[0].slots, np.uint8)  # bucket bits reached so far, per slot
        self._maps: set[int] = set()  # hashes of the coverage maps checked so far
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
        return bytes(out[:self.max_input])

    # --- the loop ----------------------------------------------------------------------------
    def _novel(self, coverage: np.ndarray) -> bool:
        key = hash(coverage.tobytes())  # a map met before brings nothing new: `seen` only grows
        if key in self._maps:
            return False
        if len(self._maps) >= 1 << 20:
            self._maps.clear()
        self._maps.add(key)
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

    def _work(self, worker, until: float, budget: int) -> None:
        """Draws inputs (a batch: one per lane of an nCPU runner), runs them and records what they did."""
        while True:
            with self._lock:
                if self.executions >= budget or time.perf_counter() >= until:
                    return
                batch = [self.mutate(self.pick()) for _ in range(min(worker.batch, budget - self.executions))]
            for data, result in zip(batch, worker.execute_batch(batch)):
                self._record(data, *result, worker)

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
            self.history.append((self.executions, time.perf_counter() - start, int(np.count_nonzero(self.seen))))
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


def fuzz(program, argv=None, *, where: str | None = None, seeds=None, executions: int | None = None,
         seconds: float | None = None, max_steps: int | None = None, workers: int = 2, seed: int = 0,
         size: int | None = None, lanes: int = 256, live: bool = False, stop_on_crash: bool = False) -> FuzzReport:
    """Fuzz an AArch64 program (a host ELF path, or 'busybox' with its argv; input on stdin unless
    `where` says otherwise) or an nCPU program (a CPU, a Program; input at `where="memory:LABEL"` or
    in `"registers"`, run as `lanes` lanes at once) — see the module doc."""
    return Fuzzer(program, argv, where=where, seeds=seeds, max_steps=max_steps, workers=workers, seed=seed,
                  size=size, lanes=lanes).run(executions, seconds, live=live, stop_on_crash=stop_on_crash)


def replay(reproducer) -> tuple:
    """Runs a saved reproducer (the .json that `FuzzReport.save` wrote): (machine, Outcome)."""
    path = Path(reproducer)
    spec = json.loads(path.read_text())
    if spec.get("engine") == "ncpu":
        target = NcpuTarget(spec["program"], spec["source"], spec["where"], spec["size"], spec["max_steps"],
                            spec["memory_size"], tuple(spec["registers"].items()))
    else:
        target = Target(spec["program"], tuple(spec["argv"]), spec["where"], spec["max_steps"])
    return target.replay((path.parent / spec["input"]).read_bytes())


# --- campaigns: one fuzzer per seed, here or as Ray tasks ---------------------------------------------
def _seed_task(item) -> tuple[FuzzReport, np.ndarray]:
    """One seed's campaign (a sweep's task): the report and the coverage bits it reached."""
    program, argv, seed, executions, options = item
    fuzzer = Fuzzer(program, argv, seed=seed, workers=1, **options)
    report = fuzzer.run(executions)
    return report, fuzzer.seen.copy()


class CampaignReport:
    """A campaign of one fuzzer per seed: each seed's report, and what they found together — the union of
    their coverage, each crash and hang signature once (from the first seed, in seed order, that found it)."""

    def __init__(self, reports: list[FuzzReport], seen: np.ndarray, seconds: float):
        self.reports, self.seconds = reports, seconds
        self.seeds = [r.seed for r in reports]
        self.executions = sum(r.executions for r in reports)
        self.edges = int(np.count_nonzero(seen))
        self.corpus = list(dict.fromkeys(data for r in reports for data in r.corpus))
        self.crashes = list({f.outcome.signature: f for r in reversed(reports) for f in r.crashes}.values())[::-1]
        self.hangs = list({f.outcome.signature: f for r in reversed(reports) for f in r.hangs}.values())[::-1]

    def rows(self) -> list[dict]:
        """One dict per seed (for a DataFrame): executions, edges, corpus size, crash and hang signatures."""
        return [{"seed": r.seed, "executions": r.executions, "edges": r.edges, "corpus": len(r.corpus),
                 "crashes": ", ".join(f.outcome.signature for f in r.crashes),
                 "hangs": len(r.hangs), "seconds": round(r.seconds, 2)} for r in self.reports]

    def summary(self) -> list[str]:
        lines = [f"{len(self.reports)} seeds, {self.executions:,} executions in {self.seconds:.1f} s, "
                 f"{self.edges} edges together, {len(self.corpus)} distinct inputs in the corpora, "
                 f"{len(self.crashes)} crash(es), {len(self.hangs)} hang(s)"]
        for f in self.crashes + self.hangs:
            lines.append(f"  {f.outcome.signature}: input {f.input!r} — {f.outcome.detail}")
        return lines

    def __repr__(self) -> str:
        return "\n".join(self.summary())

    def _repr_html_(self) -> str:
        rows = [[str(r["seed"]), f"{r['executions']:,}", str(r["edges"]), str(r["corpus"]), escape(r["crashes"]),
                 str(r["hangs"])] for r in self.rows()]
        return html.view(self.summary()[0], html.table(["seed", "executions", "edges", "corpus", "crashes", "hangs"],
                                                        rows, numeric=(0, 1, 2, 3, 5)))


def fuzz_campaign(program, argv=None, *, seeds=(0, 1, 2, 3), executions: int = 2000, ray=None,
                  progress: bool = True, **options) -> CampaignReport:
    """One campaign per seed of `seeds`, each a one-worker `Fuzzer(..., seed=SEED)` run for `executions`
    executions, merged (see CampaignReport). A one-worker campaign with a budget of executions is
    deterministic, so with `ray` (True, "local" or a cluster address; each seed a Ray task, through
    ncpu_nb.sweeps) the reports are the local ones, but for the seconds. `options` go to Fuzzer (where,
    seeds of the corpus as `corpus=`, max_steps, size, lanes); `program` must pickle for Ray (a path,
    'busybox' or a bundled nCPU program's name)."""
    from ncpu_nb.sweeps import sweep

    if "corpus" in options:
        options["seeds"] = options.pop("corpus")
    start = time.perf_counter()
    results = sweep(_seed_task, [(program, argv, seed, executions, options) for seed in seeds], ray=ray,
                    desc="fuzzing seeds", progress=progress)
    seen = np.zeros_like(results[0][1]) if results else np.zeros(1, np.uint8)
    for _, bits in results:
        seen |= bits
    return CampaignReport([r for r, _ in results], seen, time.perf_counter() - start)
