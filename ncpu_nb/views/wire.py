"""What views send to the browser about a machine, engine-neutral (protocol and `DebugLayout` only).

Values travel as hex strings: a JavaScript number holds 53 bits, registers hold 32, 64 or 128.
The browser formats them (hex or signed decimal) itself, so the radix toggle needs no kernel.
"""
from __future__ import annotations

from collections.abc import Mapping

from ncpu_nb.protocol import Bar, DebugLayout, MachineProtocol, Panel, Trace, TraceStep

PAGE = 256  # bytes per memory request: one view of 16 rows of 16 bytes


def hex_value(value: int, bits: int) -> str:
    return format(value & ((1 << bits) - 1), "x")


def location(layout: DebugLayout, loc: int) -> str:
    """A code location as people read it: a hex address, or a decimal instruction index."""
    return f"0x{loc:x}" if layout.hex_locations else str(loc)


def register_bits(layout: DebugLayout) -> dict[str, int]:
    return {name: group.bits for group in layout.register_groups for name in group.names}


def registers(machine: MachineProtocol, layout: DebugLayout, previous: dict, open_groups: set) -> tuple[list, dict]:
    """Register groups for the wire, each register [name, hex, changed since `previous`];
    on-demand groups carry values only while open. Returns (groups, the values read)."""
    values = dict(machine.registers)
    groups = []
    for group in layout.register_groups:
        shown = not group.on_demand or group.name in open_groups
        if shown and group.on_demand:  # e.g. SIMD registers: read only while shown, one by one
            values.update((name, machine.get_register(name)) for name in group.names if name not in values)
        rows = [[name, hex_value(values[name], group.bits), name in previous and previous[name] != values[name]]
                for name in group.names] if shown else []
        groups.append({"name": group.name, "bits": group.bits, "on_demand": group.on_demand, "open": shown,
                       "registers": rows})
    return groups, values


def flags(machine: MachineProtocol, previous: dict) -> tuple[list, dict]:
    now = dict(machine.flags)
    return [[name, bool(on), name in previous and previous[name] != on] for name, on in now.items()], now


def listing(machine: MachineProtocol, layout: DebugLayout, before: int = 6, after: int = 12,
            weights: Mapping[int, float] | None = None, hidden: int | None = None) -> list[dict]:
    """Instructions around the PC: location, label, text, breakpoint set, current, the PC's
    probability of being there (`weights`, a soft PC's; None where the machine has none), and the
    source line ('hello.c:12', its text) where a new one begins. `hidden`: a breakpoint the debugger
    set for itself (run to cursor, step over), not shown."""
    pc = machine.pc
    start = max(0, pc - before * layout.code_unit)
    labels = machine.code_labels()
    breakpoints = machine.breakpoints
    rows, line = [], None
    for loc, text in machine.disassemble(start, before + after + 1):
        source = machine.source_at(loc)
        rows.append({"key": hex(loc), "loc": location(layout, loc), "label": labels.get(loc, ""), "text": text,
                     "bp": loc in breakpoints and loc != hidden, "current": loc == pc,
                     "weight": weights.get(loc, 0.0) if weights else None,
                     "source": list(source) if source and source[0] != line else None})
        line = source[0] if source else None
    return rows


def frames(machine: MachineProtocol, layout: DebugLayout) -> list[dict]:
    """The call stack for the wire: each frame's location, function and source line."""
    out = []
    for frame in machine.call_stack():
        source = machine.source_at(frame.location)
        out.append({"key": hex(frame.location), "loc": location(layout, frame.location), "function": frame.function,
                    "source": source[0] if source else ""})
    return out


def watchpoints(machine: MachineProtocol) -> list[list]:
    """Each watchpoint as [hex address, size, 'r', 'w' or 'rw']."""
    return [[format(w.address, "x"), w.size, "r" * w.read + "w" * w.write] for w in machine.watchpoints]


def panels(extra: tuple[Panel, ...]) -> list[dict]:
    """A machine's own tables for the wire: a cell is text, or {"bar": fraction, "text": ...}."""
    cell = lambda c: {"bar": min(1.0, max(0.0, float(c.fraction))), "text": c.text} if isinstance(c, Bar) else str(c)  # noqa: E731
    return [{"title": p.title, "columns": list(p.columns), "rows": [[cell(c) for c in row] for row in p.rows]}
            for p in extra]


def trace_step(step: TraceStep, layout: DebugLayout, bits: dict[str, int]) -> dict:
    """One trace row: its register changes as [name, old hex, new hex, bits]."""
    default = layout.register_groups[0].bits
    changes = [[name, hex_value(old, bits.get(name, default)), hex_value(new, bits.get(name, default)),
                bits.get(name, default)] for name, (old, new) in step.changes.items()]
    return {"cycle": step.cycle, "loc": location(layout, step.pc), "text": step.instruction, "changes": changes,
            "flags": [step.flags_before, step.flags_after] if step.flags_before != step.flags_after else None,
            "store": [format(step.memory_write[0], "x"), step.memory_write[1]] if step.memory_write else None}


def recent_steps(trace: Trace, now: int, n: int) -> list[TraceStep]:
    """The last `n` steps executed before cycle `now`."""
    return [s for s in trace[-n - 1:] if s.cycle < now][-n:]


class MemoryPages:
    """Serves memory one `PAGE` at a time and marks the bytes that changed during the current action
    (a step, a run, a step back): each answer compares with the page as it was last seen before the
    action began. Within one `generation` (one state of the machine) answers repeat."""

    def __init__(self, machine: MachineProtocol):
        self._machine = machine
        self._action = 0
        self._seen: dict[int, tuple] = {}  # page -> (action, generation, bytes before the action, bytes, changed)

    def begin_action(self) -> None:
        self._action += 1

    def forget(self) -> None:
        self._seen.clear()

    def read(self, address: int, generation: int, store: tuple[int, int] | None = None) -> tuple[dict, bytes]:
        """The page holding `address`: (message, its bytes). Unmapped bytes read as 0 and are
        left out of `mapped` ([start, end) offsets). `store` is the last write, always marked."""
        page = address - address % PAGE
        data, mapped = bytearray(PAGE), []
        for start, end, _ in self._machine.memory_map():
            lo, hi = max(start, page), min(end, page + PAGE)
            if lo < hi:
                data[lo - page:hi - page] = self._machine.read_memory(lo, hi - lo)
                mapped.append([lo - page, hi - page])
        data = bytes(data)
        seen = self._seen.get(page)
        if seen is not None and seen[1] == generation:
            changed = seen[4]
            before = seen[2]
        else:
            before = None if seen is None else seen[2] if seen[0] == self._action else seen[3]
            changed = [i for i in range(PAGE) if data[i] != before[i]] if before is not None else []
            if store is not None:
                changed = sorted(set(changed) | {a - page for a in range(store[0], store[0] + store[1])
                                                 if page <= a < page + PAGE})
        self._seen[page] = (self._action, generation, before, data, changed)
        return {"kind": "page", "address": format(page, "x"), "mapped": mapped, "changed": changed,
                "generation": generation}, data
