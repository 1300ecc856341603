"""Reference interpreter on plain Python integers: the oracle every execution mode is tested against.

It reads each instruction's `Semantics` record directly (not the lowered micro-ops), one step
at a time, and is written for clarity, not speed.

With `code_at`, the program's words also live in data memory from that address (4 bytes each) and
every step fetches and decodes instruction `pc` from there, so a program that stores into its own
code runs what it wrote (self-modifying code). The CPU keeps code apart from data and has no such
mode; this one is the oracle of the differentiable engine's.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ncpu_nb.errors import DecodeError
from ncpu_nb.ncpu.encoding import decode
from ncpu_nb.ncpu.program import Program
from ncpu_nb.ncpu.table import CONDITIONS, MASK, REGISTERS, SP, ZERO_REG, alu, flags_written


@dataclass
class ReferenceState:
    registers: list[int]
    memory: bytearray
    pc: int = 0
    flags: dict = field(default_factory=lambda: {"ZF": 0, "SF": 0, "CF": 0, "OF": 0})
    cycles: int = 0
    halted: bool = False
    fault: str | None = None
    code_at: int | None = None


def place_code(program: Program, memory: bytearray, code_at: int) -> None:
    """Write the program's words at `code_at`, refusing a place that overlaps its data or leaves memory."""
    end = code_at + 4 * len(program)
    if code_at < len(program.data) or end > len(memory):
        raise ValueError(f"code at {code_at}..{end} must lie in memory ({len(memory)} bytes) after the "
                         f"program's data (0..{len(program.data)})")
    memory[code_at:end] = b"".join(w.to_bytes(4, "little") for w in program.words)


def initial_state(program: Program, memory_size: int = 65536, registers: dict | None = None,
                  code_at: int | None = None) -> ReferenceState:
    regs = [0] * len(REGISTERS)
    regs[SP] = memory_size & MASK
    for name, value in (registers or {}).items():
        regs[REGISTERS.index(name.upper())] = value & MASK
    memory = bytearray(memory_size)
    memory[: len(program.data)] = program.data
    if code_at is not None:
        place_code(program, memory, code_at)
    return ReferenceState(regs, memory, code_at=code_at)


def run_reference(program: Program, max_cycles: int = 1_000_000, memory_size: int = 65536,
                  registers: dict | None = None, code_at: int | None = None) -> ReferenceState:
    """Run until HALT, the end of the program, a fault or `max_cycles`; return the final state."""
    s = initial_state(program, memory_size, registers, code_at)
    while not s.halted and s.fault is None and s.cycles < max_cycles:
        step_reference(program, s)
    return s


def step_reference(program: Program, s: ReferenceState) -> None:
    if s.pc >= len(program):  # running off the end halts without a cycle
        s.halted = True
        return
    if s.code_at is None:
        instr = program.instructions[s.pc]
    else:
        at = s.code_at + 4 * s.pc
        word = int.from_bytes(s.memory[at:at + 4], "little")
        try:
            instr = decode(word, program.literals)
        except DecodeError as exc:
            s.fault = f"invalid instruction: {exc}"
            return
    sem, values = instr.form.sem, dict(zip((n for n, _, _ in instr.form.operands), instr.values))
    kinds = {n: k for n, k, _ in instr.form.operands}
    regs, mem = s.registers, s.memory

    def read(name):
        if isinstance(name, int):
            return name & MASK
        return regs[values[name]] if kinds[name] == "reg" else values[name] & MASK

    def address(name):
        base, offset = values[name]
        return ((0 if base == ZERO_REG else regs[base]) + offset) & MASK

    def load(addr, width):
        if addr + width > len(mem):
            raise IndexError(addr)
        return int.from_bytes(mem[addr:addr + width], "little")

    def store(addr, width, value):
        if addr + width > len(mem):
            raise IndexError(addr)
        mem[addr:addr + width] = (value & ((1 << (8 * width)) - 1)).to_bytes(width, "little")

    next_pc = s.pc + 1
    try:
        if sem.kind == "halt":
            s.halted, next_pc = True, s.pc
        elif sem.kind == "alu":
            a = read(sem.a) if sem.a is not None else 0
            b = read(sem.b) if sem.b is not None else 0
            result, carry, overflow = alu(sem.alu, a, b)
            if sem.dst:
                regs[values[sem.dst]] = result
            new = {"ZF": int(result == 0), "SF": result >> 31, "CF": carry, "OF": overflow}
            s.flags.update({f: new[f] for f in flags_written(sem)})
        elif sem.kind == "jump":
            f = s.flags
            if CONDITIONS[sem.cond](f["ZF"], f["SF"], f["CF"], f["OF"]):
                next_pc = values["target"]
        elif sem.kind == "load":
            regs[values[sem.dst]] = load(address(sem.a), sem.width)
        elif sem.kind == "store":
            store(address(sem.a), sem.width, read(sem.b))
        elif sem.kind in ("push", "call"):
            value = read(sem.b) if sem.kind == "push" else s.pc + 1
            store((regs[SP] - 4) & MASK, 4, value)
            regs[SP] = (regs[SP] - 4) & MASK
            if sem.kind == "call":
                next_pc = values["target"]
        elif sem.kind in ("pop", "ret"):
            value = load(regs[SP], 4)
            if sem.kind == "ret" and value > len(program):
                s.fault = f"return to {value}, outside the program (0..{len(program)})"
                return  # a faulting instruction changes nothing and takes no cycle
            regs[SP] = (regs[SP] + 4) & MASK
            if sem.kind == "pop":
                regs[values[sem.dst]] = value
            else:
                next_pc = value
    except IndexError as exc:
        s.fault = f"memory access at 0x{exc.args[0]:X} is outside data memory ({len(mem)} bytes)"
        return
    s.pc = next_pc
    s.cycles += 1
