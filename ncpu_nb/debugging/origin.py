"""Where did this value come from? A dynamic backward slice of an nCPU run, by exact re-execution.

    o = ncpu_nb.origin(cpu, "R1")                 # R1 at the end of the run, from the machine's start
    o = ncpu_nb.origin(cpu, (0x40, 4), at=120)    # the word at 0x40 just before step 120
    o                                             # the steps that produced it, highlighted, and their inputs

The machine runs from where it stands with every step recorded (its memory accesses included), so the
slice is exact: a register's value comes from the last step that wrote it, a loaded value from the
last steps that wrote those bytes, and each of those steps' values from the registers and memory it
read — back to the inputs: registers as they were at the start (set by you) and memory as loaded (the
program's data, or zero). Only data flows are followed: a value chosen by a branch depends on the
branch's flags too, and an access on its address register; those are named with each step, not
followed (`address` edges).
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from html import escape

from ncpu_nb import html
from ncpu_nb.ncpu.encoding import NONE
from ncpu_nb.ncpu.table import ALU_NAMES, KINDS, REGISTERS

PASS = ALU_NAMES.index("pass")


@dataclass(frozen=True)
class Source:
    """One input a step read: a register or the bytes at an address, and the step that wrote it
    (None: it was so at the start of the run)."""

    what: str  # "R2" or "mem[0x40..0x43]"
    value: int
    writer: int | None


@dataclass
class SliceStep:
    step: int
    pc: int
    instruction: str
    produced: str  # what this step wrote that the slice needs
    value: int
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
                 labels: dict[int, str]):
        self.target, self.value, self.at = target, value, at
        self.steps, self.inputs = steps, inputs
        self._labels = sorted(labels.items())

    def _where(self, pc: int) -> str:
        i = bisect.bisect_right(self._labels, (pc, "\uffff")) - 1
        if i < 0:
            return str(pc)
        start, name = self._labels[i]
        return name if pc == start else f"{name}+{pc - start}"

    def summary(self) -> list[str]:
        lines = [f"{self.target} = {self.value} (0x{self.value & 0xFFFFFFFF:x}) before step {self.at:,}: "
                 f"{len(self.steps)} step(s) made it, from {len(self.inputs)} input(s)"]
        for s in self.steps:
            came = ", ".join(f"{src.what} (step {src.writer})" if src.writer is not None else f"{src.what} (start)"
                             for src in s.sources) or "a constant"
            lines.append(f"  step {s.step:>5}  {self._where(s.pc):>10}  {s.instruction:<24} {s.produced} = {s.value}"
                         f"  <- {came}")
        lines += [f"  input: {src.what} = {src.value} at the start" for src in self.inputs]
        return lines

    def __repr__(self) -> str:
        return "\n".join(self.summary())

    def _repr_html_(self) -> str:
        rows = []
        for s in self.steps:
            came = ", ".join(escape(src.what) + (f" <span class='dim'>← step {src.writer}</span>" if src.writer is not None
                                                 else " <span class='dim'>(start)</span>") for src in s.sources)
            rows.append([f"{s.step:,}", escape(self._where(s.pc)), f"<code>{escape(s.instruction)}</code>",
                         f"{escape(s.produced)} = {s.value}", came or "<span class='dim'>a constant</span>",
                         escape(", ".join(s.address))])
        rows += [["start", "", "", f"{escape(src.what)} = {src.value}", "<span class='dim'>input</span>", ""]
                 for src in self.inputs]
        head = (f"<div><b>{escape(self.target)}</b> = {self.value} before step {self.at:,}: "
                f"{len(self.steps)} step(s), {len(self.inputs)} input(s)</div>")
        table = html.table(["step", "where", "instruction", "wrote", "from", "address from"], rows,
                           row_classes={i: "hl" for i in range(min(1, len(rows)))}, numeric=(0,))
        return html.view(f"Where {self.target} came from", head, table)


def _signed(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def origin(machine, what, *, at: int | None = None, max_steps: int = 200_000) -> Origin:
    """The steps and inputs that produced `what` — a register name ("R1", "SP") or a memory range
    (address, size), or an address (one 4-byte word) — just before step `at` (default: after the last
    step). Runs an nCPU `CPU` from where it stands (lane 0, at most `max_steps` steps, recording each),
    and leaves it where the run stopped."""
    from ncpu_nb.ncpu.cpu import CPU

    if not isinstance(machine, CPU):
        raise TypeError("origin slices nCPU runs (a CPU); the AArch64 machine is not supported yet")
    start_registers = dict(machine.registers)
    memory_size = machine._exec.memory_size
    start_memory = machine.read_memory(0, memory_size)
    machine.trace_depth = max_steps + 1
    machine.run(max_steps, check=False)
    trace = list(machine.trace)
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
    ordered = [steps[k] for k in sorted(steps, reverse=True)]
    return Origin(target, value, at, ordered, sorted(inputs.values(), key=lambda s: s.what), machine.code_labels())


def _stored_value(step, ops, register_value, i: int) -> int:
    """The value a storing step wrote: its value register before it ran (a CALL stores the return index)."""
    kind, _, _, _, b, *_ = ops[step.pc]
    if KINDS[kind] == "call":
        return step.pc + 1
    return register_value(REGISTERS[b], i) & 0xFFFFFFFF
