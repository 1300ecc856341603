"""The machine protocol: what every engine offers, and all that widgets, reprs and magics use.

The nCPU CPU (fast and neural modes), the differentiable engine and the ARM64 machine implement
`MachineProtocol` and share its types: `RunResult`, `Snapshot`, `Breakpoints`, `Watchpoints`,
`Trace`, `DebugLayout`. Beyond it, capabilities an engine may offer (`Batched`, `Editable`, `Symbolic`,
`Instrumented`, `AccessTracing`, `Observed`, `Hosted`): the debugger and the tools test those, never an
engine's class, so a new engine gets every tool whose needs it meets; the tools in `debugging/` use only
public methods.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping, MutableSet, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any, Iterable, NamedTuple, Protocol, runtime_checkable

from ncpu_nb import html
from ncpu_nb import machine_arguments


@dataclass(frozen=True)
class TraceStep:
    """One executed instruction and what it changed."""

    cycle: int
    pc: int
    instruction: str
    next_pc: int
    changes: dict[str, tuple[int, int]] = field(default_factory=dict)  # register -> (old, new)
    flags_before: str = ""
    flags_after: str = ""
    memory_write: tuple[int, int] | None = None  # (address, width) of its (first) memory write
    lane: int = 0
    accesses: tuple[tuple[int, int, bool], ...] = ()  # every memory access, in order: (address, size, write)


class Trace(Sequence):
    """Recent steps of one lane, oldest first."""

    def __init__(self, steps: Iterable[TraceStep], width: int = 32):
        self._steps = list(steps)
        self._width = width

    def __getitem__(self, i):
        return Trace(self._steps[i], self._width) if isinstance(i, slice) else self._steps[i]

    def __len__(self) -> int:
        return len(self._steps)

    @property
    def width(self) -> int:
        """Bits of the machine's registers (how values are printed)."""
        return self._width

    def __repr__(self) -> str:
        return f"<Trace of {len(self)} steps>"

    def _fmt(self, value: int) -> str:
        return f"0x{value & ((1 << self._width) - 1):0{self._width // 4}X}"

    def describe(self, step: TraceStep) -> str:
        parts = [f"{r}: {self._fmt(old)} → {self._fmt(new)}" for r, (old, new) in step.changes.items()]
        if step.flags_before != step.flags_after:
            parts.append(f"flags: {step.flags_before or '-'} → {step.flags_after or '-'}")
        if step.memory_write:
            addr, width = step.memory_write
            parts.append(f"mem[{self._fmt(addr)}] ({width} bytes)")
        return ", ".join(parts)

    def to_dataframe(self):
        """The trace as a pandas DataFrame (pandas must be installed)."""
        import pandas as pd

        return pd.DataFrame([{**{k: getattr(s, k) for k in ("cycle", "pc", "instruction", "next_pc")},
                              "changes": self.describe(s)} for s in self._steps])

    def _repr_html_(self) -> str:
        rows = [[str(s.cycle), str(s.pc), escape(s.instruction), escape(self.describe(s))] for s in self._steps]
        return html.view(f"Trace: {len(self)} steps", html.table(["cycle", "pc", "instruction", "changes"], rows,
                                                                  numeric=(0, 1)))


@dataclass(frozen=True)
class RunResult:
    """What one `run` did, on any engine. Engines return subclasses that add their own details
    (`CpuRun`: lanes; `Arm64Run`: exit status, system calls; `SoftRun`: the tensors).

    stop     why it ended: 'halted' (the program ended), 'breakpoint', 'watchpoint', 'budget'
             (`max_steps` ran out), 'fault', or an engine's own ('timeout', 'stdin', ...)
    steps    instructions executed by this run (lane 0's, where there are lanes)
    seconds  wall-clock time
    pc       where the machine stands now
    detail   what the stop says beyond its kind, e.g. 'write of 0x10'
    """

    stop: str
    steps: int
    seconds: float
    pc: int
    detail: str = ""

    @property
    def halted(self) -> bool:
        return self.stop == "halted"

    def _rows(self) -> list[list[str]]:
        rate = f"{self.steps / self.seconds:,.0f}" if self.seconds > 0 else "-"
        seconds = f"{self.seconds * 1e6:,.0f} µs" if self.seconds < 0.01 else f"{self.seconds:.3f} s"
        return [["stopped", escape(self.stop + (f" ({self.detail})" if self.detail else ""))],
                ["steps", f"{self.steps:,}"], ["time", seconds], ["steps / s", rate]]

    def _repr_html_(self) -> str:
        return html.view("Run", html.table(["", ""], self._rows()))


@dataclass(frozen=True)
class Snapshot:
    """A machine's whole state at one moment (`snapshot()`); `restore` returns to it. `state` is
    the engine's own and opaque; `cycles` is the machine's clock then."""

    cycles: int
    state: object = field(repr=False)

    @staticmethod
    def given(value) -> "Snapshot":
        """`value`, which `restore` was given: a Snapshot, or a TypeError that says what it takes."""
        if not isinstance(value, Snapshot):
            raise TypeError(f"restore takes a Snapshot (from snapshot()), not {value!r}")
        return value


class Breakpoints(MutableSet):
    """Code locations where `run` stops before executing the instruction there (a step goes over them).

    Holds locations as the engine numbers them (instruction indices, or addresses); `add`, `discard`,
    `toggle` and `in` also take what the engine's `resolve` understands (labels, symbols, '0x…' text).
    """

    def __init__(self, resolve: Callable[[Any], int], apply: Callable[[int, bool], None],
                 show: Callable[[int], str] = str):
        self._resolve, self._apply, self._show = resolve, apply, show
        self._set: set[int] = set()

    def add(self, where) -> None:
        location = self._resolve(where)
        self._apply(location, True)
        self._set.add(location)

    def discard(self, where) -> None:
        location = self._resolve(where)
        if location in self._set:
            self._apply(location, False)
            self._set.discard(location)

    def toggle(self, where) -> bool:
        """Adds or removes a breakpoint; returns whether it is now set."""
        location = self._resolve(where)
        (self.discard if location in self._set else self.add)(location)
        return location in self._set

    def __contains__(self, where) -> bool:
        try:
            return self._resolve(where) in self._set
        except (KeyError, IndexError, ValueError):
            return False

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(self._set))

    def __len__(self) -> int:
        return len(self._set)

    def __repr__(self) -> str:
        return f"Breakpoints([{', '.join(self._show(b) for b in self)}])"


class Frame(NamedTuple):
    """One call on a machine's call stack (`call_stack()`, innermost first).

    location    where the frame is: the PC for the innermost, the call instruction for the others
    function    the function it is in ('' when unknown)
    returns_to  where its caller goes on when it returns (None for the outermost frame)
    stack       the caller's stack pointer is at least this when the return lands (so a recursive
                call returning to the same place does not count as this frame's return)
    """

    location: int
    function: str
    returns_to: int | None
    stack: int


class Watchpoint(NamedTuple):
    address: int
    size: int
    read: bool
    write: bool


class Watchpoints:
    """Memory ranges whose writes (and, if asked, reads) stop `run` or `step` just before the
    instruction that would access them; the next run or step goes on over that access.

        m.watchpoints.add(0x100)                   # writes to 0x100.. (one machine word)
        m.watchpoints.add("counter", 4, read=True) # reads and writes of a symbol's 4 bytes
    """

    def __init__(self, resolve: Callable[[Any], int], apply: Callable[[Watchpoint, bool], None], word: int,
                 show: Callable[[int], str] = lambda a: f"0x{a:x}"):
        self._resolve, self._apply, self._word, self._show = resolve, apply, word, show
        self._set: set[Watchpoint] = set()

    def add(self, where, size: int | None = None, *, read: bool = False, write: bool = True) -> None:
        size = self._word if size is None else int(size)
        if size <= 0:
            raise ValueError(f"a watchpoint covers at least one byte, not {size}")
        if not (read or write):
            raise ValueError("a watchpoint watches reads, writes or both")
        w = Watchpoint(self._resolve(where), size, bool(read), bool(write))
        self._apply(w, True)
        self._set.add(w)

    def remove(self, where, size: int | None = None) -> None:
        address, size = self._resolve(where), self._word if size is None else int(size)
        for w in [w for w in self._set if (w.address, w.size) == (address, size)]:
            self._apply(w, False)
            self._set.discard(w)

    def clear(self) -> None:
        for w in list(self._set):
            self._apply(w, False)
        self._set.clear()

    def __iter__(self) -> Iterator[Watchpoint]:
        return iter(sorted(self._set))

    def __len__(self) -> int:
        return len(self._set)

    def __repr__(self) -> str:
        return "Watchpoints([" + ", ".join(f"{self._show(w.address)}+{w.size} {'r' * w.read}{'w' * w.write}"
                                           for w in self) + "])"


@runtime_checkable
class MachineProtocol(Protocol):
    """What every engine implements, and all the debugger, reprs and magics use.

    cycles        instructions retired since reset: the machine's clock (`restore` brings it back)
    status        'running' while it can go on ('breakpoint' and 'watchpoint': stopped before an
                  instruction, and goes on from there); anything else ('halted', 'fault', 'exited', ...)
                  ends execution until `reset` or `restore`
    stop_detail   what the last stop says beyond `status` ('' if nothing)
    step(n)       `n` instructions; breakpoints do not stop a step, a watchpoint does (before the
                  access). Returns how many ran.
    run(max_steps=None, check=True)   until halt, a breakpoint or watchpoint (stopping before it), a
                  fault, or `max_steps` instructions (None: the engine's default budget). With `check`, a
                  fault or an exhausted budget raises a typed error; without, they are the result's `stop`.
    trace_depth   how many recent steps `trace` keeps (settable; 0 turns tracing off, the fastest)
    restore_keeping_trace(s)   `restore(s)` but keep the trace as it is (for rebuilding a trace)
    memory_map()  readable memory as (start, end, permissions) ranges, end exclusive
    debug_layout()  the register groups and what a code location is (see `DebugLayout`)
    debug_extras()  what the machine shows beyond all that, now (see `DebugExtras`; empty for most)
    set_register(name, value), write_memory(address, data)   change the state (a debugger's edits)
    return_address(location)  where the call instruction at `location` returns to; None if it is no call
    call_stack()  the calls active now as `Frame`s, innermost first (the machine's own walk)
    source_at(location)  the source line an instruction was compiled from, as (where, text)
                  ('hello.c:12', 'puts("hi");'), or None (no line table, or the listing is the source)

    Execution is deterministic from a snapshot: the debugger steps back by restoring an earlier
    snapshot and re-executing up to the target cycle.
    """

    @property
    def registers(self) -> dict[str, int]: ...

    @property
    def pc(self) -> int: ...

    @property
    def flags(self) -> dict[str, bool]: ...

    @property
    def cycles(self) -> int: ...

    @property
    def status(self) -> str: ...

    @property
    def stop_detail(self) -> str: ...

    @property
    def trace(self) -> Trace: ...

    trace_depth: int
    breakpoints: Breakpoints
    watchpoints: Watchpoints

    def read_memory(self, address: int, n: int) -> bytes: ...

    def write_memory(self, address: int, data: bytes) -> None: ...

    def set_register(self, name: str, value) -> None: ...

    def return_address(self, location: int) -> int | None: ...

    def call_stack(self) -> list[Frame]: ...

    def source_at(self, location: int) -> tuple[str, str] | None: ...

    def memory_map(self) -> Sequence[tuple[int, int, str]]: ...

    def step(self, n: int = 1) -> int: ...

    def run(self, max_steps: int | None = None, *, check: bool = True) -> RunResult: ...

    def reset(self) -> None: ...

    def snapshot(self) -> Snapshot: ...

    def restore(self, snapshot: Snapshot) -> None: ...

    def restore_keeping_trace(self, snapshot: Snapshot) -> None: ...

    def disassemble(self, start: int | None = None, n: int = 8) -> list[tuple[int, str]]: ...

    def code_labels(self) -> dict[int, str]: ...

    def debug_layout(self) -> DebugLayout: ...

    def debug_extras(self) -> DebugExtras: ...

    @property
    def title(self) -> str: ...  # what the machine runs, in a few words: the debugger's header

    def debugger(self, **options): ...


# --- Capabilities beyond the protocol: what an engine may offer, tested by tools as `isinstance(m, Batched)`.


@runtime_checkable
class Batched(Protocol):
    """Many lanes, one shown at a time: `lane` picks the lane that registers, memory, trace and steps
    show; `lane_counts()` says how all of them stand ({'running': 4, 'halted': 60}); `write_memory`
    takes the lane it writes."""

    @property
    def lanes(self) -> int: ...

    lane: int

    def lane_counts(self) -> dict[str, int]: ...

    def write_memory(self, address: int, data: bytes, lane: int | None = None) -> None: ...


@runtime_checkable
class Editable(Protocol):
    """A program held as source text that can be edited in place (registers and memory are editable on
    every engine): `program.source` is the text (`program` is None before one is loaded), and
    `reload(source)` assembles and loads it again, breakpoints kept (they move with their lines), with
    `initial_registers` set before its first instruction as at load."""

    @property
    def program(self): ...

    @property
    def initial_registers(self) -> dict[str, int]: ...

    def reload(self, source: str): ...


@runtime_checkable
class Symbolic(Protocol):
    """Names for code locations: `address(where)` takes a symbol or label (or a number) and gives the location."""

    def address(self, where) -> int: ...


@runtime_checkable
class Instrumented(Protocol):
    """Counters a tool reads after a run: edge coverage and compared operands (the fuzzer), instructions
    per PC with sampled call stacks (the profiler), the raw trace ring with memory accesses (the
    sanitizer), and the text of the instruction at an address."""

    def set_coverage(self, on: bool) -> None: ...

    def coverage(self) -> bytes | None: ...

    def compares(self) -> list[int]: ...

    def set_profile(self, period: int) -> None: ...

    def profile_counts(self) -> tuple | None: ...

    def trace_entries(self) -> list[tuple]: ...

    def instruction_at(self, pc: int) -> str: ...


@runtime_checkable
class AccessTracing(Protocol):
    """A trace that records memory accesses (`TraceStep.accesses`, `memory_write`) only when asked, since
    recording them costs speed (the nCPU's trace has them always): a tool that needs them sets this."""

    trace_accesses: bool


@runtime_checkable
class Observed(Protocol):
    """A digest of what a timing observer could see, kept by the engine as it runs: every PC, the PC after
    it and its memory accesses. `observation` is (instructions, digest) since `set_observation(True)`."""

    def set_observation(self, on: bool) -> None: ...

    @property
    def observation(self) -> tuple[int, str] | None: ...


@runtime_checkable
class Hosted(Protocol):
    """A guest program under an operating system: its ELF (symbols, line table), the process shown now,
    how it ended (exit status, faults), its system calls and output streams, and the instructions
    retired by all its processes together."""

    @property
    def elf(self): ...

    @property
    def pid(self) -> int: ...

    @property
    def exit_status(self) -> int | None: ...

    @property
    def instructions(self) -> int: ...

    @property
    def stdout_bytes(self) -> bytes: ...

    @property
    def stderr_bytes(self) -> bytes: ...

    def faults(self) -> list: ...

    def syscall_log(self) -> Sequence: ...


def needs(machine, tool: str, *capabilities: type) -> None:
    """A TypeError that names what `tool` needs and the machine lacks, unless it has every capability."""
    missing = [c.__name__ for c in capabilities if not isinstance(machine, c)]
    if missing:
        raise TypeError(f"{tool} needs a machine with the capabilities {', '.join(missing)} (ncpu_nb.protocol; "
                        f"Arm64Machine has them), not {type(machine).__name__}")


def budget(max_steps: int | None, old_name: str, old_value: int | None) -> int | None:
    """`max_steps`, or the value given under an engine's old name for it (with a DeprecationWarning);
    either is None or a number of steps."""
    if old_value is None:
        return machine_arguments.optional_count(max_steps, "max_steps")
    machine_arguments.optional_count(old_value, old_name)
    warnings.warn(f"run({old_name}=…) is now run(max_steps=…)", DeprecationWarning, stacklevel=3)
    if max_steps is not None:
        raise TypeError(f"give max_steps or {old_name}, not both")
    return int(old_value)


# --- How a debugger shows a machine -----------------------------------------------------------------


@dataclass(frozen=True)
class RegisterGroup:
    """Registers shown together, all `bits` wide. An `on_demand` group (e.g. 32 SIMD registers)
    is read only while a view has it open."""

    name: str
    names: tuple[str, ...]
    bits: int
    on_demand: bool = False


@dataclass(frozen=True)
class DebugLayout:
    """How to show a machine: its register groups, and what a code location is.

    code_unit      PC distance between consecutive instructions (1 for instruction indices, 4 for AArch64)
    hex_locations  show code locations as hex addresses (True) or as decimal instruction indices
    address_bits   width of data addresses (memory views print this many hex digits)
    stack_pointer  the register that holds the stack pointer (step over and step out compare it)
    """

    register_groups: tuple[RegisterGroup, ...]
    code_unit: int = 1
    hex_locations: bool = False
    address_bits: int = 32
    stack_pointer: str = "SP"


class Bar(NamedTuple):
    """A table cell drawn as a bar filled to `fraction` (0 to 1), with `text` beside it."""

    fraction: float
    text: str


@dataclass(frozen=True)
class Panel:
    """A table an engine adds to its debugger (see `DebugExtras`); a cell is text or a `Bar`."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str | Bar, ...], ...]


@dataclass(frozen=True)
class DebugExtras:
    """What a machine shows beyond registers, flags, code, memory and trace, read afresh at every
    stop. Exact machines have none (`DebugExtras()`).

    location_weights  a machine whose PC is a probability distribution: code location -> probability
                      (the listing draws a bar on each row)
    panels            tables of the machine's own (e.g. values with their gradients)
    """

    location_weights: Mapping[int, float] = field(default_factory=dict)
    panels: tuple[Panel, ...] = ()


def __getattr__(name: str):
    if name == "Debuggable":  # its parts are in MachineProtocol now
        warnings.warn("ncpu_nb.protocol.Debuggable is now MachineProtocol", DeprecationWarning, stacklevel=2)
        return MachineProtocol
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
