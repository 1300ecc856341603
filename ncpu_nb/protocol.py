"""The machine protocol: what every engine offers, and what widgets, reprs and magics use.

The nCPU CPU (fast and neural), the differentiable engine and the ARM64 machine all implement
`MachineProtocol`; views talk to this protocol only, so a new engine gets the debugger for free.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any, Iterable, Protocol, runtime_checkable

from ncpu_nb import html


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
    memory_write: tuple[int, int] | None = None  # (address, width)
    lane: int = 0


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


@runtime_checkable
class MachineProtocol(Protocol):
    """What every engine implements."""

    @property
    def registers(self) -> dict[str, int]: ...

    @property
    def pc(self) -> int: ...

    @property
    def flags(self) -> dict[str, bool]: ...

    @property
    def trace(self) -> Trace: ...

    @property
    def breakpoints(self) -> Any: ...  # a mutable set of code locations

    def read_memory(self, address: int, n: int) -> bytes: ...

    def step(self, n: int = 1) -> int: ...

    def run(self, *args, **kwargs) -> Any: ...

    def reset(self) -> None: ...

    def snapshot(self) -> Any: ...

    def restore(self, snapshot: Any) -> None: ...

    def disassemble(self, start: int | None = None, n: int = 8) -> list[tuple[int, str]]: ...


@runtime_checkable
class Debuggable(MachineProtocol, Protocol):
    """A machine the debugger widget drives: the protocol, plus

    cycles    instructions retired since reset (`restore` brings it back with the rest of the state)
    status    'running' while it can go on; anything else ('halted', 'breakpoint', 'fault', ...) stops a run
    run(max_cycles, check=False)   at most `max_cycles` instructions, returning early at a breakpoint
              (before executing it), at halt or at a fault, without raising for any of them
    step(n)   `n` instructions, breakpoints ignored

    Execution must be deterministic from a snapshot: stepping back restores an earlier snapshot and
    re-executes up to the target cycle.
    """

    @property
    def cycles(self) -> int: ...

    @property
    def status(self) -> str: ...


# --- What a debugger needs beyond the protocol ----------------------------------------------------
# Engines describe their register file and code locations with `debug_layout()` (optional: the
# default below fits a 32-bit machine whose PC is an instruction index, like the nCPU), and their
# readable memory with `memory_map()` (optional: the default is one flat `memory_size` bytes).


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
    """

    register_groups: tuple[RegisterGroup, ...]
    code_unit: int = 1
    hex_locations: bool = False
    address_bits: int = 32


def debug_layout(machine: MachineProtocol) -> DebugLayout:
    """The machine's own `debug_layout()`, or one group of its `registers`, 32 bits, indexed code."""
    own = getattr(machine, "debug_layout", None)
    if own is not None:
        return own()
    return DebugLayout((RegisterGroup("registers", tuple(machine.registers), 32),))


def memory_map(machine: MachineProtocol) -> list[tuple[int, int, str]]:
    """Readable memory as (start, end, permissions) ranges, end exclusive."""
    own = getattr(machine, "memory_map", None)
    if own is not None:
        return list(own())
    return [(0, machine.memory_size, "rw-")]


def code_labels(machine: MachineProtocol) -> dict[int, str]:
    """Code location -> label, where the engine knows any (`code_labels()`; none otherwise)."""
    own = getattr(machine, "code_labels", None)
    return dict(own()) if own is not None else {}
