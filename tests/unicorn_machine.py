"""A machine of the debugger protocol over Unicorn's AArch64 core: 64-bit registers, sp/pc/nzcv,
128-bit SIMD registers on demand and a sparse 64-bit address space. The widget tests drive the
views with it to check that nothing in them assumes the nCPU's 32-bit, index-addressed machine."""
from __future__ import annotations

import struct
import capstone
import unicorn
from unicorn import arm64_const as uc

from ncpu_nb.protocol import (Breakpoints, DebugExtras, DebugLayout, Frame, RegisterGroup, RunResult, Snapshot,
                              Trace, TraceStep, Watchpoints)

CODE, STACK, STACK_SIZE = 0x40_0000, 0x7FFF_FFF0_0000, 0x1_0000
GENERAL = tuple(f"x{i}" for i in range(31)) + ("sp", "pc", "nzcv")
SIMD = tuple(f"v{i}" for i in range(32))
REG_IDS = {**{f"x{i}": getattr(uc, f"UC_ARM64_REG_X{i}") for i in range(29)}, "x29": uc.UC_ARM64_REG_X29,
           "x30": uc.UC_ARM64_REG_X30, "sp": uc.UC_ARM64_REG_SP, "pc": uc.UC_ARM64_REG_PC,
           "nzcv": uc.UC_ARM64_REG_NZCV, **{f"v{i}": getattr(uc, f"UC_ARM64_REG_V{i}") for i in range(32)}}
# x0 = 0; x1 = -1; loop: x0 += 1; push x0; v0.2d = x0; b loop
PROGRAM = [0xD2800000, 0x92800001, 0x91000400, 0xF81F8FE0, 0x4E080C00, 0x17FFFFFD]


class UnicornMachine:
    def __init__(self, words=PROGRAM):
        self._code = b"".join(struct.pack("<I", w) for w in words)
        self._disasm = capstone.Cs(capstone.CS_ARCH_ARM64, capstone.CS_MODE_ARM)
        self.breakpoints = Breakpoints(int, lambda address, on: None)  # `run` looks at the set itself
        self.watchpoints = Watchpoints(int, lambda w, on: None, word=8)  # not watched: the views only list them
        self.trace_depth, self.stop_detail = 256, ""
        self.reset()

    def reset(self) -> None:
        self._uc = unicorn.Uc(unicorn.UC_ARCH_ARM64, unicorn.UC_MODE_ARM)
        self._uc.mem_map(CODE, 0x1000, unicorn.UC_PROT_READ | unicorn.UC_PROT_EXEC)
        self._uc.mem_write(CODE, self._code)
        self._uc.mem_map(STACK, STACK_SIZE)
        self._uc.reg_write(uc.UC_ARM64_REG_SP, STACK + STACK_SIZE)
        self._uc.reg_write(uc.UC_ARM64_REG_NZCV, 0)  # Unicorn starts with Z set
        self._uc.reg_write(uc.UC_ARM64_REG_PC, CODE)
        self.cycles, self.status, self._steps = 0, "running", []

    def debug_layout(self) -> DebugLayout:
        return DebugLayout((RegisterGroup("general", GENERAL, 64), RegisterGroup("simd", SIMD, 128, on_demand=True)),
                           code_unit=4, hex_locations=True, address_bits=64, stack_pointer="sp")

    @property
    def registers(self) -> dict[str, int]:
        return {name: self._uc.reg_read(REG_IDS[name]) for name in GENERAL + SIMD}

    @property
    def pc(self) -> int:
        return self._uc.reg_read(uc.UC_ARM64_REG_PC)

    @property
    def flags(self) -> dict[str, bool]:
        nzcv = self._uc.reg_read(uc.UC_ARM64_REG_NZCV)
        return {name: bool(nzcv >> bit & 1) for name, bit in (("N", 31), ("Z", 30), ("C", 29), ("V", 28))}

    @property
    def trace(self) -> Trace:
        return Trace(self._steps[-self.trace_depth:] if self.trace_depth else [], 64)

    def memory_map(self) -> list[tuple[int, int, str]]:
        return [(start, end + 1, "rwx") for start, end, _ in self._uc.mem_regions()]

    def read_memory(self, address: int, n: int) -> bytes:
        return bytes(self._uc.mem_read(address, n))

    def write_memory(self, address: int, data: bytes) -> None:
        self._uc.mem_write(address, bytes(data))

    def set_register(self, name: str, value: int) -> None:
        self._uc.reg_write(REG_IDS[name], int(value) & ((1 << (128 if name.startswith("v") else 64)) - 1))

    def return_address(self, location: int) -> int | None:
        return location + 4 if self._text(location).split(" ", 1)[0] in ("bl", "blr") else None

    def call_stack(self) -> list[Frame]:  # the test program makes no calls: one frame
        return [Frame(self.pc, "", None, self.registers["sp"])]

    def source_at(self, location: int) -> None:
        return None

    def _step_one(self) -> None:
        before, pc = self.registers, self.pc
        stack_before = self.read_memory(STACK, STACK_SIZE)
        self._uc.emu_start(pc, CODE + 0x1000, count=1)
        after = self.registers
        changes = {n: (before[n], after[n]) for n in GENERAL + SIMD if n != "pc" and before[n] != after[n]}
        stack_after = self.read_memory(STACK, STACK_SIZE)
        written = [i for i in range(STACK_SIZE) if stack_before[i] != stack_after[i]]
        store = (STACK + written[0], written[-1] - written[0] + 1) if written else None
        self._steps.append(TraceStep(self.cycles, pc, self._text(pc), self.pc, changes, memory_write=store))
        self.cycles += 1

    def _text(self, pc: int) -> str:
        insn = next(self._disasm.disasm(self.read_memory(pc, 4), pc), None)
        return f"{insn.mnemonic} {insn.op_str}".strip() if insn else ".word"

    def step(self, n: int = 1) -> int:
        for _ in range(n):
            self._step_one()
        self.status = "running"
        return n

    def run(self, max_steps: int | None = None, *, check: bool = False) -> RunResult:
        start = self.cycles
        for i in range(1000 if max_steps is None else max_steps):
            if i > 0 and self.pc in self.breakpoints:
                self.status = "breakpoint"
                return RunResult("breakpoint", self.cycles - start, 0.0, self.pc)
            self._step_one()
        self.status = "running"
        return RunResult("budget", self.cycles - start, 0.0, self.pc)

    def snapshot(self) -> Snapshot:
        return Snapshot(self.cycles, (self._uc.context_save(), self.read_memory(STACK, STACK_SIZE), list(self._steps),
                                      self.status))

    def restore(self, snapshot: Snapshot) -> None:
        context, stack, steps, self.status = snapshot.state
        self._uc.context_restore(context)
        self._uc.mem_write(STACK, stack)
        self.cycles, self._steps = snapshot.cycles, list(steps)

    def restore_keeping_trace(self, snapshot: Snapshot) -> None:
        steps = self._steps
        self.restore(snapshot)
        self._steps = steps

    title = "Unicorn · a six-instruction loop"

    def debug_extras(self) -> DebugExtras:
        return DebugExtras()

    def code_labels(self) -> dict[int, str]:
        return {CODE + 8: "loop"}

    def debugger(self, **options):
        from ncpu_nb.views import Debugger

        return Debugger(self, **options)

    def disassemble(self, start: int | None = None, n: int = 8) -> list[tuple[int, str]]:
        start = self.pc if start is None else start
        return [(a, self._text(a)) for a in range(start, start + 4 * n, 4) if CODE <= a < CODE + len(self._code)]
