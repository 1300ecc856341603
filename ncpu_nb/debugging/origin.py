"""Where did this value come from? A dynamic backward slice of a run, by exact re-execution.

    o = ncpu_nb.origin(cpu, "R1")                 # R1 at the end of the run, from the machine's start
    o = ncpu_nb.origin(cpu, (0x40, 4), at=120)    # the word at 0x40 just before step 120
    o                                             # the steps that produced it, highlighted, and their inputs

The machine runs from where it stands with every step recorded (its memory accesses included), so the
slice is exact: a register's value comes from the last step that wrote it, a loaded value from the
last steps that wrote those bytes, and each of those steps' values from the registers and memory it
read — back to the inputs: registers as they were at the start (set by you) and memory as loaded (the
program's data, or zero). Only data flows are followed: a value chosen by a branch depends on the
branch's flags too, and an access on its address register; those are named with each step and
followed only with `addresses=True` (a table lookup's index). The AArch64 machine's slice is built the
same way (`arm64_origin.py`), its inputs including the system calls that read data in.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from html import escape

from ncpu_nb import html
from ncpu_nb.ncpu.encoding import NONE
from ncpu_nb.ncpu.program import Program
from ncpu_nb.ncpu.table import ALU_NAMES, KINDS, REGISTERS
from ncpu_nb.protocol import Editable, Hosted

PASS = ALU_NAMES.index("pass")


@dataclass(frozen=True)
class Source:
    """One input a step read: a register or the bytes at an address, and the step that wrote it
    (None: it was so at the start of the run)."""

    what: str  # "R2" or "mem[0x40..0x43]"
    value: int
    writer: int | None
    note: str = ""  # for an input that is not a start value: the system call that brought it in


@dataclass
class SliceStep:
    step: int
    pc: int
    instruction: str
    produced: str  # what this step wrote that the slice needs
    value: int | None  # None where a row joins several outputs
    sources: list[Source] = field(default_factory=list)
    address: list[str] = field(default_factory=list)  # registers that chose an address (not followed)


def _reads(op: tuple) -> tuple[list[int], list[int]]:
    """(registers whose values flow into what the micro-op writes, registers that form its address)."""
    kind, alu, dst, a, b, *_ = op
    name = KINDS[kind]
    regs = [r for r in (a, b) if r != NONE and r < len(REGISTERS)]
    sp = REGISTERS.index("SP")
    if name == "alu":
        return ([b] if alu == PASS and b != NONE else regs), []
    if name == "load":
        return [], [r for r in (a,) if r < len(REGISTERS)]
    if name == "store":
        return [b], [r for r in (a,) if r < len(REGISTERS)]
    if name == "push":
        return [b], [sp]
    if name in ("pop", "call", "ret"):
        return [], [sp]
    return [], []


def merged(steps: dict[tuple[int, str], SliceStep]) -> list[SliceStep]:
    """One row per step, newest first: a step reached for several of its outputs (the bytes of one
    store, asked for one by one) lists them together, with their sources and address registers."""
    rows: dict[int, SliceStep] = {}
    for (i, _), s in sorted(steps.items()):
        row = rows.get(i)
        if row is None:
            rows[i] = SliceStep(s.step, s.pc, s.instruction, s.produced, s.value, list(s.sources), list(s.address))
            continue
        row.produced = _join(row.produced, s.produced)
        row.value = None
        row.sources += [src for src in s.sources if src not in row.sources]
        row.address += [a for a in s.address if a not in row.address]
    return [rows[i] for i in sorted(rows, reverse=True)]


def _join(a: str, b: str) -> str:
    """Two outputs as one text; adjacent byte ranges become one range."""
    def span(text):
        lo, _, hi = text[4:-1].partition("..")
        return int(lo, 16), int(hi or lo, 16)

    if a.startswith("mem[") and b.startswith("mem[") and ", " not in a:
        (a0, a1), (b0, b1) = span(a), span(b)
        if b0 <= a1 + 1 and a0 <= b1 + 1:
            lo, hi = min(a0, b0), max(a1, b1)
            return f"mem[0x{lo:x}..0x{hi:x}]"
    return f"{a}, {b}"


def _writes(op: tuple) -> list[int]:
    """The registers a micro-op writes."""
    kind, alu, dst, *_ = op
    name = KINDS[kind]
    sp = REGISTERS.index("SP")
    own = [dst] if name in ("alu", "load", "pop") and dst != NONE and dst < len(REGISTERS) else []
    return own + ([sp] if name in ("push", "pop", "call", "ret") else [])


class Origin:
    """The slice (see the module doc): `steps` newest first, `inputs` the start-of-run values it reaches."""

    def __init__(self, target: str, value: int, at: int, steps: list[SliceStep], inputs: list[Source],
                 labels: dict[int, str], hex_pc: bool = False, truncated: bool = False):
        self.target, self.value, self.at = target, value, at
        self.steps, self.inputs, self.truncated = steps, inputs, truncated
        self._labels, self._hex = sorted(labels.items()), hex_pc

    def _where(self, pc: int) -> str:
        i = bisect.bisect_right(self._labels, (pc, "\uffff")) - 1
        if i < 0:
            return f"0x{pc:x}" if self._hex else str(pc)
        start, name = self._labels[i]
        return name if pc == start else f"{name}+{f'0x{pc - start:x}' if self._hex else pc - start}"

    @staticmethod
    def _input(src: Source) -> str:
        value = shown_value(src.what, src.value)
        return f"{src.what} = {value} from {src.note}" if src.note else f"{src.what} = {value} at the start"

    def summary(self) -> list[str]:
        lines = [f"{self.target} = {shown_value(self.target, self.value)} before step {self.at:,}: "
                 f"{len(self.steps)} step(s) made it, from {len(self.inputs)} input(s)"
                 + (f" (stopped after {len(self.steps)} steps)" if self.truncated else "")]
        for s in self.steps:
            came = ", ".join(f"{src.what} (step {src.writer})" if src.writer is not None else f"{src.what} (start)"
                             for src in s.sources) or "a constant"
            shown = s.produced if s.value is None else f"{s.produced} = {shown_value(s.produced, s.value)}"
            lines.append(f"  step {s.step:>5}  {self._where(s.pc):>10}  {s.instruction:<24} {shown}  <- {came}")
        lines += [f"  input: {self._input(src)}" for src in self.inputs]
        return lines

    def __repr__(self) -> str:
        return "\n".join(self.summary())

    def _repr_html_(self) -> str:
        rows = []
        for s in self.steps:
            came = ", ".join(escape(src.what) + (f" <span class='dim'>← step {src.writer}</span>" if src.writer is not None
                                                 else " <span class='dim'>(start)</span>") for src in s.sources)
            rows.append([f"{s.step:,}", escape(self._where(s.pc)), f"<code>{escape(s.instruction)}</code>",
                         escape(s.produced if s.value is None else f"{s.produced} = {shown_value(s.produced, s.value)}"),
                         came or "<span class='dim'>a constant</span>",
                         escape(", ".join(s.address))])
        rows += [["input", "", "", escape(f"{src.what} = {shown_value(src.what, src.value)}"),
                  f"<span class='dim'>{escape(src.note or 'the start')}</span>", ""] for src in self.inputs]
        head = (f"<div><b>{escape(self.target)}</b> = {escape(shown_value(self.target, self.value))} before step {self.at:,}: "
                f"{len(self.steps)} step(s), {len(self.inputs)} input(s)</div>")
        table = html.table(["step", "where", "instruction", "wrote", "from", "address from"], rows,
                           row_classes={i: "hl" for i in range(min(1, len(rows)))}, numeric=(0,))
        return html.view(f"Where {self.target} came from", head, table)


def shown_value(what: str, value: int) -> str:
    """A value as text: a number for a register or a memory range of a number's width (1, 2, 4 or 8
    bytes), the bytes themselves for any other range (text, a vector)."""
    if what.startswith("mem[") and ".." in what:
        lo, hi = (int(x, 16) for x in what[4:-1].split(".."))
        if hi - lo + 1 not in (1, 2, 4, 8):
            return repr((value % (1 << 8 * (hi - lo + 1))).to_bytes(hi - lo + 1, "little"))
    return str(value)


def _signed(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def origin(machine, what, *, at: int | None = None, max_steps: int = 200_000, addresses: bool = False) -> Origin:
    """The steps and inputs that produced `what` — a register name ("R1", "SP"; "x0" on the AArch64
    machine), a memory range (address, size) or an address (one word), or on the AArch64 machine
    "stdout" (the bytes of the last write to it) — just before step `at` (default: after the last step).
    Runs the machine (any engine holding an nCPU program, its shown lane; or an `Arm64Machine`) from
    where it stands, at most `max_steps` steps, recording each, and leaves it where the run stopped. With `addresses`, the
    registers that chose an address are followed too when they hold an index (on the nCPU every one
    but SP; on the AArch64 machine those below 64 KiB, not pointers)."""
    if isinstance(machine, Hosted):  # a Linux guest: here, an AArch64 one (its slicer reads A64 and system calls)
        from ncpu_nb.debugging.arm64_origin import arm64_origin

        return arm64_origin(machine, what, at, max_steps, addresses)
    if not (isinstance(machine, Editable) and isinstance(machine.program, Program)):  # the micro-ops say what each step read
        raise TypeError(f"origin slices runs of an nCPU program (an Editable machine holding a Program) and of a Hosted "
                        f"AArch64 machine, not {type(machine).__name__}")
    start_registers = dict(machine.registers)
    memory_size = max(end for _, end, _ in machine.memory_map())
    start_memory = machine.read_memory(0, memory_size)
    depth, machine.trace_depth = machine.trace_depth, max_steps + 1
    machine.run(max_steps, check=False)
    trace = list(machine.trace)
    machine.trace_depth = depth  # as it was
    at = len(trace) if at is None else at
    if not 0 <= at <= len(trace):
        raise ValueError(f"at={at} is outside the run (0..{len(trace)} steps)")
    ops = machine.program.micro_ops

    reg_writes: dict[str, list[int]] = {}  # from the micro-ops: a write of the value a register held counts
    reg_changes: dict[str, list[int]] = {}
    byte_writes: dict[int, list[int]] = {}
    for i, s in enumerate(trace):
        for r in _writes(ops[s.pc]):
            reg_writes.setdefault(REGISTERS[r], []).append(i)
        for r in s.changes:
            reg_changes.setdefault(r, []).append(i)
        for address, size, write in s.accesses:
            if write:
                for byte in range(address, address + size):
                    byte_writes.setdefault(byte, []).append(i)

    def last(writers: list[int], before: int) -> int | None:
        k = bisect.bisect_left(writers, before) - 1
        return writers[k] if k >= 0 else None

    def register_value(name: str, before: int) -> int:
        c = last(reg_changes.get(name, []), before)  # the newest change (a write of the same value is none)
        return trace[c].changes[name][1] if c is not None else start_registers[name]

    def byte_value(address: int, before: int) -> int:  # memory as it was just before step `before`
        w = last(byte_writes.get(address, []), before)
        if w is None:
            return start_memory[address]
        machine_step = trace[w]
        a, size, _ = next(acc for acc in machine_step.accesses if acc[2])
        stored = _stored_value(machine_step, ops, register_value, w)
        return (stored >> (8 * (address - a))) & 0xFF

    def source_of_register(name: str, before: int) -> Source:
        return Source(name, register_value(name, before), last(reg_writes.get(name, []), before))

    def sources_of_bytes(address: int, size: int, before: int) -> list[Source]:
        out, byte = [], address
        while byte < address + size:  # runs of bytes with the same writer become one source
            w = last(byte_writes.get(byte, []), before)
            end = byte + 1
            while end < address + size and last(byte_writes.get(end, []), before) == w:
                end += 1
            value = int.from_bytes(bytes(byte_value(b, before) for b in range(byte, end)), "little")
            value = _signed(value) if end - byte == 4 else value  # a word reads as the signed number it holds
            out.append(Source(f"mem[0x{byte:x}]" if end == byte + 1 else f"mem[0x{byte:x}..0x{end - 1:x}]",
                              value, w))
            byte = end
        return out

    if isinstance(what, str):
        name = what.upper()
        if name not in REGISTERS:
            raise ValueError(f"no register {what!r}; the registers are {', '.join(REGISTERS)}")
        roots = [source_of_register(name, at)]
        target, value = name, _signed(register_value(name, at))
    else:
        address, size = what if isinstance(what, tuple) else (what, 4)
        if address < 0 or address + size > memory_size:
            raise ValueError(f"memory 0x{address:x}+{size} is outside data memory ({memory_size} bytes)")
        roots = sources_of_bytes(address, size, at)
        target = f"mem[0x{address:x}..0x{address + size - 1:x}]"
        value = int.from_bytes(bytes(byte_value(b, at) for b in range(address, address + size)), "little")
        value = _signed(value) if size == 4 else value

    def explain(i: int, output: str) -> tuple[list[Source], list[str]]:
        """The sources of `output` (a register, or bytes it stored) written by step `i`, and the
        registers that chose its address."""
        step, op = trace[i], ops[trace[i].pc]
        kind = KINDS[op[0]]
        data, address = _reads(op)
        addressing = [REGISTERS[r] for r in address]
        if output == "SP" and kind in ("push", "pop", "call", "ret"):
            return [source_of_register("SP", i)], []  # SP -+ 4
        if output.startswith("mem"):
            if kind == "call":
                return [], addressing  # the return index: a constant of the instruction
            return [source_of_register(REGISTERS[op[4]], i)], addressing  # the stored register
        if kind in ("load", "pop"):
            a, size, _ = next(acc for acc in step.accesses if not acc[2])
            return sources_of_bytes(a, size, i), addressing
        return [source_of_register(REGISTERS[r], i) for r in dict.fromkeys(data)], addressing

    steps: dict[tuple[int, str], SliceStep] = {}
    inputs: dict[str, Source] = {}
    pending = list(roots)
    while pending:
        src = pending.pop()
        if src.writer is None:
            inputs.setdefault(src.what, src)
            continue
        if (src.writer, src.what) in steps:
            continue
        step = trace[src.writer]
        sources, addressing = explain(src.writer, src.what)
        shown = src.value if src.what.startswith("mem") else _signed(src.value)
        steps[src.writer, src.what] = SliceStep(src.writer, step.pc, step.instruction, src.what, shown, sources,
                                                addressing)
        pending += sources
        if addresses:
            pending += [source_of_register(name, src.writer) for name in addressing if name != "SP"]
    return Origin(target, value, at, merged(steps), sorted(inputs.values(), key=lambda s: s.what), machine.code_labels())


def _stored_value(step, ops, register_value, i: int) -> int:
    """The value a storing step wrote: its value register before it ran (a CALL stores the return index)."""
    kind, _, _, _, b, *_ = ops[step.pc]
    if KINDS[kind] == "call":
        return step.pc + 1
    return register_value(REGISTERS[b], i) & 0xFFFFFFFF
