"""Neural mode: the lane executor whose data path runs through the trained networks.

It offers the same methods as the Rust fast executor (`ncpu_nb._metal.NcpuLanes`), so `CPU` drives
either. Lanes advance in lockstep; in each step the lanes that need the same ALU operation go
through the networks as one batch. Data never meets Python or tensor arithmetic: ALU results,
flags (ZF is a NOR of the result bits), effective addresses (base + offset) and stack pointer
updates (SP - 4, SP + 4) all come from `NeuralALU`. What stays outside is control: choosing the
next instruction index, evaluating a branch condition on flag bits, and moving bytes.
"""
from __future__ import annotations

from collections import deque

import numpy as np
import torch

from ncpu_nb.alu.neural_alu import NeuralALU, from_bits, to_bits
from ncpu_nb.isa.encoding import NONE
from ncpu_nb.isa.table import ALU_NAMES, CONDITIONS, CONDITION_NAMES, KINDS, REGISTERS, SP, ZERO_REG

NREGS = len(REGISTERS)
RUNNING, HALTED, FAULT, BREAKPOINT = range(4)
_ALU = None  # the networks are loaded once per process


def _alu() -> NeuralALU:
    global _ALU
    if _ALU is None:
        _ALU = NeuralALU()
    return _ALU


class NeuralLanes:
    """Lanes of nCPU state stepped by the neural ALU (the interface of `_metal.NcpuLanes`)."""

    def __init__(self, lanes: int, memory_size: int, trace_depth: int = 0, trace_lane: int = 0):
        self.lanes, self.memory_size = lanes, memory_size
        self.alu = _alu()
        self.regs = np.zeros((lanes, NREGS), dtype=np.uint32)
        self.regs[:, SP] = memory_size
        self.pc = np.zeros(lanes, dtype=np.int64)
        self.flags = np.zeros(lanes, dtype=np.uint8)
        self.cycles = np.zeros(lanes, dtype=np.int64)
        self.status = np.full(lanes, HALTED, dtype=np.uint8)  # nothing to run until a program is loaded
        self.fault = np.zeros((lanes, 2), dtype=np.int64)
        self.skip = np.zeros(lanes, dtype=bool)
        self.mem = np.zeros((lanes, memory_size), dtype=np.uint8)
        self.lane_program = np.zeros(lanes, dtype=np.int64)
        # every program's micro-ops in one table (and breakpoints in one array), so fetching the
        # instruction of every lane is one gather: row offsets[p] + pc
        self.table = np.zeros((0, 10), dtype=np.int64)
        self.offsets = np.zeros(0, dtype=np.int64)
        self.lengths = np.zeros(0, dtype=np.int64)
        self.bp = np.zeros(0, dtype=bool)  # program p's flags at offsets[p] + p + pc (one spare slot each)
        self.set_trace(trace_depth, trace_lane)

    # --- programs and state, as in NcpuLanes ------------------------------------------------------
    def add_program(self, ops) -> int:
        ops = np.array(ops, dtype=np.int64).reshape(-1, 10)
        self.offsets = np.append(self.offsets, len(self.table))
        self.lengths = np.append(self.lengths, len(ops))
        self.table = np.concatenate([self.table, ops])
        self.bp = np.concatenate([self.bp, np.zeros(len(ops) + 1, dtype=bool)])
        return len(self.offsets) - 1

    def load_lane(self, lane: int, program: int, data: bytes) -> None:
        if len(data) > self.memory_size:
            raise ValueError(f"the program's data ({len(data)} bytes) does not fit in data memory "
                             f"({self.memory_size} bytes)")
        self.lane_program[lane] = program
        self.regs[lane] = 0
        self.regs[lane, SP] = self.memory_size
        self.pc[lane] = self.flags[lane] = self.cycles[lane] = 0
        self.status[lane], self.fault[lane], self.skip[lane] = RUNNING, 0, False
        self.mem[lane] = 0
        self.mem[lane, :len(data)] = np.frombuffer(data, dtype=np.uint8)
        if lane == self.trace_lane:
            self.trace_ring.clear()

    def resume(self) -> None:
        at = self.status == BREAKPOINT
        self.status[at], self.skip[at] = RUNNING, True

    def set_breakpoint(self, program: int, index: int, on: bool) -> None:
        if not 0 <= index <= self.lengths[program]:
            raise IndexError(f"no instruction {index} in program {program}")
        self.bp[self.offsets[program] + program + index] = on

    def set_trace(self, depth: int, lane: int) -> None:
        self.trace_lane = lane if depth > 0 else None
        self.trace_ring = deque(maxlen=max(depth, 1))

    def trace(self):
        return list(self.trace_ring)

    def registers(self) -> bytes:
        return self.regs.astype("<u4").tobytes()

    def set_register(self, lane: int, register: int, value: int) -> None:
        self.regs[lane, register] = value

    def lane_states(self):
        return [(int(self.pc[l]), int(self.flags[l]), int(self.cycles[l]), int(self.status[l]),
                 int(self.fault[l, 0]), int(self.fault[l, 1]), int(self.lane_program[l])) for l in range(self.lanes)]

    def statuses(self) -> bytes:
        return self.status.tobytes()

    def set_pc(self, lane: int, pc: int) -> None:
        self.pc[lane] = pc
        if self.status[lane] != FAULT:
            self.status[lane] = RUNNING

    def _span(self, addr: int, n: int):
        if addr < 0 or addr + n > self.memory_size:
            raise IndexError(f"memory range 0x{addr:X}+{n} is outside data memory ({self.memory_size} bytes)")

    def read_memory(self, lane: int, addr: int, n: int) -> bytes:
        self._span(addr, n)
        return self.mem[lane, addr:addr + n].tobytes()

    def write_memory(self, lane: int, addr: int, data: bytes) -> None:
        self._span(addr, len(data))
        self.mem[lane, addr:addr + len(data)] = np.frombuffer(data, dtype=np.uint8)

    _STATE = ("regs", "pc", "flags", "cycles", "status", "fault", "skip", "mem", "lane_program")

    def snapshot(self):
        return {name: getattr(self, name).copy() for name in self._STATE}

    def restore(self, snapshot) -> None:
        for name in self._STATE:
            setattr(self, name, snapshot[name].copy())
        if self.trace_lane is not None:
            now = self.cycles[self.trace_lane]
            self.trace_ring = deque((e for e in self.trace_ring if e[0] < now), maxlen=self.trace_ring.maxlen)

    # --- execution ----------------------------------------------------------------------------------
    def _neural(self, op: str, a: np.ndarray, b: np.ndarray):
        """(result, carry, overflow, zero) through the networks; ZF is the NOR of the result bits."""
        with torch.no_grad():
            r, c, v = self.alu.op(op)(to_bits(a), to_bits(b))
            zero = self.alu.not_(self.alu.any_(r))
        return (from_bits(r).astype(np.uint32), c.numpy().astype(np.uint8), v.numpy().astype(np.uint8),
                zero.numpy().astype(np.uint8))

    def run(self, max_steps: int, honor_breakpoints: bool = True) -> int:
        done = 0
        for _ in range(max_steps):
            executed = self._step(honor_breakpoints)
            if executed < 0:
                break
            done += executed
        return done

    def _step(self, honor_breakpoints: bool) -> int:
        """One lockstep cycle of every running lane; -1 when none is running."""
        lanes = np.flatnonzero(self.status == RUNNING)
        if len(lanes) == 0:
            return -1
        off_end = self.pc[lanes] >= self.lengths[self.lane_program[lanes]]  # halts, without a cycle
        self.status[lanes[off_end]] = HALTED
        lanes = lanes[~off_end]
        program, pc = self.lane_program[lanes], self.pc[lanes]
        if honor_breakpoints:
            hit = self.bp[self.offsets[program] + program + pc] & ~self.skip[lanes]
            self.status[lanes[hit]] = BREAKPOINT
            lanes, program, pc = lanes[~hit], program[~hit], pc[~hit]
        self.skip[lanes] = False
        if len(lanes) == 0:
            return 0
        ops = self.table[self.offsets[program] + pc]
        traced = self.trace_lane if self.trace_lane in lanes else None
        before = (self.regs[traced].copy(), int(self.flags[traced])) if traced is not None else None
        next_pc = self.pc[lanes] + 1
        stored = {}
        for kind in np.unique(ops[:, 0]):
            sel = ops[:, 0] == kind
            getattr(self, f"_{KINDS[kind]}")(lanes[sel], ops[sel], next_pc, sel, stored)
        ok = self.status[lanes] != FAULT  # a faulting instruction takes no cycle and moves nothing
        if traced is not None and ok[list(lanes).index(traced)]:
            i = list(lanes).index(traced)
            old, f0 = before
            changes = [(r, int(old[r]), int(self.regs[traced, r])) for r in range(NREGS) if old[r] != self.regs[traced, r]]
            self.trace_ring.append((int(self.cycles[traced]), int(self.pc[traced]), int(next_pc[i]), f0,
                                    int(self.flags[traced]), changes, stored.get(traced)))
        self.pc[lanes[ok]] = next_pc[ok]
        self.cycles[lanes[ok]] += 1
        return int(ok.sum())

    def _fault(self, lanes, kind: int, values):
        self.status[lanes], self.fault[lanes, 0], self.fault[lanes, 1] = FAULT, kind, values

    def _nop(self, lanes, ops, next_pc, sel, stored):
        pass

    def _halt(self, lanes, ops, next_pc, sel, stored):
        self.status[lanes] = HALTED
        next_pc[sel] = self.pc[lanes]

    def _alu(self, lanes, ops, next_pc, sel, stored):
        for code in np.unique(ops[:, 1]):
            pick = ops[:, 1] == code
            l, o = lanes[pick], ops[pick]
            a = np.where(o[:, 3] == NONE, 0, self.regs[l, np.minimum(o[:, 3], NREGS - 1)])
            b = np.where(o[:, 4] == NONE, o[:, 5], self.regs[l, np.minimum(o[:, 4], NREGS - 1)])
            result, carry, overflow, zero = self._neural(ALU_NAMES[code], a, b)
            write = o[:, 2] != NONE
            self.regs[l[write], o[write, 2]] = result[write]
            mode = o[:, 6]  # flag bits: ZF 1, SF 2, CF 4, OF 8 (packing, not arithmetic)
            zs = zero | (result >> 31).astype(np.uint8) << 1
            cv = np.where(mode == 2, carry << 2 | overflow << 3, self.flags[l] & 0b1100)
            self.flags[l] = np.where(mode == 0, self.flags[l], zs | cv)

    def _jump(self, lanes, ops, next_pc, sel, stored):
        f = self.flags[lanes]
        bits = [(f >> i & 1).astype(bool) for i in range(4)]
        taken = np.array([CONDITIONS[CONDITION_NAMES[c]](*(bit[i] for bit in bits)) for i, c in enumerate(ops[:, 7])],
                         dtype=bool)
        idx = np.flatnonzero(sel)
        next_pc[idx[taken]] = ops[taken, 9]

    def _address(self, lanes, ops):
        base = np.where(ops[:, 3] == ZERO_REG, 0, self.regs[lanes, np.minimum(ops[:, 3], NREGS - 1)])
        return self._neural("add", base, ops[:, 5])[0].astype(np.int64)

    def _in_range(self, lanes, addr, width):
        fits = addr + width <= self.memory_size
        self._fault(lanes[~fits], 1, addr[~fits])
        return fits

    def _load(self, lanes, ops, next_pc, sel, stored):
        addr = self._address(lanes, ops)
        fits = self._in_range(lanes, addr, ops[:, 8])
        for l, o, a in zip(lanes[fits], ops[fits], addr[fits]):
            self.regs[l, o[2]] = int.from_bytes(self.mem[l, a:a + o[8]].tobytes(), "little")

    def _store(self, lanes, ops, next_pc, sel, stored):
        addr = self._address(lanes, ops)
        fits = self._in_range(lanes, addr, ops[:, 8])
        for l, o, a in zip(lanes[fits], ops[fits], addr[fits]):
            self.mem[l, a:a + o[8]] = np.frombuffer(int(self.regs[l, o[4]]).to_bytes(4, "little")[:o[8]], np.uint8)
            stored[l] = (int(a), int(o[8]))

    def _push_word(self, lanes, values, stored):
        """SP -= 4 (through the networks); [SP] = value. Returns the lanes that did not fault."""
        addr = self._neural("sub", self.regs[lanes, SP], np.full(len(lanes), 4))[0].astype(np.int64)
        fits = self._in_range(lanes, addr, 4)
        for l, a, v in zip(lanes[fits], addr[fits], values[fits]):
            self.mem[l, a:a + 4] = np.frombuffer(int(v).to_bytes(4, "little"), np.uint8)
            self.regs[l, SP] = a
            stored[l] = (int(a), 4)
        return fits

    def _push(self, lanes, ops, next_pc, sel, stored):
        self._push_word(lanes, self.regs[lanes, ops[:, 4]], stored)

    def _call(self, lanes, ops, next_pc, sel, stored):
        fits = self._push_word(lanes, next_pc[sel], stored)  # the return index is the next instruction's
        idx = np.flatnonzero(sel)
        next_pc[idx[fits]] = ops[fits, 9]

    def _pop_word(self, lanes):
        addr = self.regs[lanes, SP].astype(np.int64)
        fits = self._in_range(lanes, addr, 4)
        values = np.array([int.from_bytes(self.mem[l, a:a + 4].tobytes(), "little") if f else 0
                           for l, a, f in zip(lanes, addr, fits)], dtype=np.int64)
        return values, fits, self._neural("add", self.regs[lanes, SP], np.full(len(lanes), 4))[0]

    def _pop(self, lanes, ops, next_pc, sel, stored):
        values, fits, new_sp = self._pop_word(lanes)
        self.regs[lanes[fits], SP] = new_sp[fits]
        self.regs[lanes[fits], ops[fits, 2]] = values[fits]

    def _ret(self, lanes, ops, next_pc, sel, stored):
        values, fits, new_sp = self._pop_word(lanes)
        outside = fits & (values > self.lengths[self.lane_program[lanes]])
        self._fault(lanes[outside], 2, values[outside])
        good = fits & ~outside
        self.regs[lanes[good], SP] = new_sp[good]
        idx = np.flatnonzero(sel)
        next_pc[idx[good]] = values[good]
