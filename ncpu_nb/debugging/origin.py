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

from ncpu_nb.debugging.origin_slice import Origin, SliceStep, Source, merged
from ncpu_nb.ncpu.encoding import NONE
from ncpu_nb.ncpu.program import Program
from ncpu_nb.ncpu.table import ALU_NAMES, KINDS, REGISTERS
from ncpu_nb.protocol import Editable, Hosted

PASS = ALU_NAMES.index("pass")


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
