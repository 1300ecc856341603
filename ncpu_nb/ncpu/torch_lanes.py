"""Lanes as batched tensor operations on a torch device: the nCPU ISA run for every lane at once.

`TorchLanes` has the interface of the Rust lane executor (`ncpu_nb._metal.NcpuLanes`), so `CPU(...,
device=...)` runs on it with the CPU's whole face unchanged. Its state is tensors on one device:

    regs    (lanes, 10) int64    R0-R7, SP as unsigned 32-bit values; column 9 stays zero: it is what
                                 "no register" and the zero address base read
    flags   (lanes, 4) bool      ZF SF CF OF
    pc, cycle_counts, fault_value (lanes,) int64; status, fault_kind (lanes,) uint8; skip (lanes,) bool
    mem     (lanes, memory_size + 4) uint8: the last 4 columns take the writes of lanes that store nothing
    ops     (n, 11) int64        the micro-ops of every program (`encoding.lower`), one block per program,
                                 each followed by an END row, which a lane reaches by running off the end

One step of every lane is a fixed sequence of tensor operations: each lane's micro-op gathered by its
PC, operands gathered from its registers, ONE ALU evaluation for all lanes, then masked updates
(torch.where, scatter) of registers, flags, memory, PC, cycles and status. As in the Rust executor
(`metal_ext/src/ncpu/exec.rs`, whose behaviour this matches lane for lane) the ALU also computes
effective addresses (ADD) and stack moves (SUB/ADD 4), and ZF in neural mode. The ALU is either exact
integer tensor arithmetic (fast mode) or the trained cells of `NeuralALU` wired on bit tensors, one
batched forward pass per step over every lane (neural mode: no integer arithmetic touches data there,
only unpacking and packing bits and bytes, routing by the op index, and the executor's own bounds
checks). Only the ALU operations the loaded programs can use are evaluated: the set is known from
the programs, so no step asks the device which ones occur. The host reads nothing back inside the loop
except, every few steps, whether any lane still runs. On a CUDA device 64 steps at a time are replayed
as one captured CUDA graph, and torch.compile fuses the step's operations (see `compiled`).
"""
from __future__ import annotations

import functools
from collections import deque

import torch

from ncpu_nb.errors import UnsupportedInstruction
from ncpu_nb.ncpu.encoding import NONE
from ncpu_nb.ncpu.neural_alu import NeuralALU, torch_device
from ncpu_nb.ncpu.torch_float import FLOAT, float_alu
from ncpu_nb.ncpu.table import ALU_NAMES, CONDITION_NAMES, KINDS, MASK, REGISTERS, SP, ZERO_REG

NREGS = len(REGISTERS)
ZERO_COL = NREGS  # the constant-zero register column
RUNNING, HALTED, FAULT, BREAKPOINT, WATCHPOINT = range(5)  # status bytes, as the Rust executor's
NOP, HALT, ALU, JUMP, LOAD, STORE, PUSH, POP, CALL, RET = range(len(KINDS))
END = len(KINDS)  # the row after a program's last instruction: running off the end halts, without a cycle
PASS, ADD, SUB, MUL, DIV, MOD, AND, OR, XOR, SHL, SHR, SAR, NOT, NEG = range(14)
INTEGER_OPS = frozenset(range(14))
CHECK_EVERY = 64  # most steps between two looks (host syncs) at whether any lane still runs
TRACE_FIELDS = 5 + 2 * NREGS + 4  # cycle, pc, next pc, flags before, flags after, registers before/after, access
STEPPED = ("pc", "cycle_counts", "status", "fault_kind", "fault_value", "skip", "flags_t")  # a step rebinds these
MUTATED = STEPPED + ("regs", "mem", "_ring", "_ring_pos", "_done")  # everything a step changes
CAPTURED = MUTATED + ("ops", "bp", "lane_base", "lane_length")  # every tensor a captured graph reads or writes


def check_op(op: tuple, length: int) -> None:
    """The checks of the Rust executor's `check_op`: a micro-op that passes never indexes out of range."""
    kind, alu, dst, a, b, imm, flags, cond, width, target = op
    reg_ok = (lambda r: r < NREGS or r == NONE)
    if not 0 <= kind < len(KINDS):
        raise ValueError(f"unknown micro-op kind {kind}")
    if not 0 <= alu < len(ALU_NAMES) or not 0 <= cond < len(CONDITION_NAMES):
        raise ValueError("unknown ALU operation or condition")
    memory = kind in (LOAD, STORE)
    if not reg_ok(dst) or not (reg_ok(a) or (memory and a == ZERO_REG)) or not reg_ok(b):
        raise ValueError("register index out of range")
    needs = {LOAD: ((dst, "load"), (a, "load address")), STORE: ((b, "store"), (a, "store address")),
             PUSH: ((b, "push"),), POP: ((dst, "pop"),)}.get(kind, ())
    for r, what in needs:
        if r == NONE:
            raise ValueError(f"{what} needs a register")
    if flags > 2:
        raise ValueError(f"flag mode {flags} is not 0, 1 or 2")
    if memory and width not in (1, 4):
        raise ValueError(f"memory width {width} is not 1 or 4")
    if kind in (JUMP, CALL) and target > length:
        raise ValueError(f"jump target {target} is outside the program")


def _row(op: tuple) -> list[int]:
    """A micro-op as a table row: registers as columns (NONE and the zero base read column 9), then
    whether b is the immediate."""
    kind, alu, dst, a, b, imm, flags, cond, width, target = op
    col = (lambda r: r if r < NREGS else ZERO_COL)
    return [kind, alu, col(dst), col(a), col(b), imm & MASK, flags, cond, width, target, int(b == NONE)]


END_ROW = [END, PASS, ZERO_COL, ZERO_COL, ZERO_COL, 0, 0, 0, 4, 0, 1]


class TorchSnapshot:
    """A copy of every lane's state tensors (on the executor's device)."""

    def __init__(self, lanes: int, memory_size: int, state: dict):
        self.lanes, self.memory_size, self.state = lanes, memory_size, state


def _sub(p, q):
    """(p - q) mod 2^32, the borrow, the signed overflow, on unsigned 32-bit values in int64."""
    r = (p - q) & MASK
    return r, p < q, (((p ^ q) & (p ^ r)) >> 31) == 1


def _signed(v):
    return v - ((v >> 31) << 32)


def fast_alu(aop, x, y, present: frozenset):
    """Exact integer ALU over every lane: (result, carry, overflow, zero), results as unsigned 32-bit
    values in int64. Computes the operations in `present` and picks each lane's by its op index."""
    r, carry, over = y, torch.zeros_like(aop, dtype=torch.bool), torch.zeros_like(aop, dtype=torch.bool)

    def put(k, value):
        nonlocal r
        r = torch.where(aop == k, value, r)

    if ADD in present:
        total = x + y
        s = total & MASK
        on = aop == ADD
        put(ADD, s)
        carry = torch.where(on, total > MASK, carry)
        over = torch.where(on, (((x ^ s) & (y ^ s)) >> 31) == 1, over)
    if present & {SUB, NEG}:
        neg = aop == NEG  # NEG is 0 - a
        d, borrow, v = _sub(torch.where(neg, 0, x), torch.where(neg, x, y))
        on = neg | (aop == SUB)
        r = torch.where(on, d, r)
        carry, over = torch.where(on, borrow, carry), torch.where(on, v, over)
    if MUL in present:  # in two halves of b, so no product leaves int64
        put(MUL, (x * (y & 0xFFFF) + (((x * (y >> 16)) & 0xFFFF) << 16)) & MASK)
    if present & {DIV, MOD}:
        sa, sb = _signed(x), _signed(y)
        zero = sb == 0
        q = torch.where(zero, 0, torch.div(sa, torch.where(zero, 1, sb), rounding_mode="trunc"))
        put(DIV, q & MASK)  # INT_MIN / -1 wraps to INT_MIN; x / 0 = 0
        put(MOD, (sa - q * sb) & MASK)  # x % 0 = x
    if AND in present:
        put(AND, x & y)
    if OR in present:
        put(OR, x | y)
    if XOR in present:
        put(XOR, x ^ y)
    if present & {SHL, SHR, SAR}:
        amount = _signed(y).clamp(0, 31)
        if SHL in present:
            put(SHL, (x << amount) & MASK)
        if SHR in present:
            put(SHR, x >> amount)
        if SAR in present:
            put(SAR, (_signed(x) >> amount) & MASK)
    if NOT in present:
        put(NOT, x ^ MASK)
    if present & FLOAT:
        r, carry, over = float_alu(aop, x, y, present, r, carry, over)
    return r, carry, over, r == 0


class NeuralStep:
    """Neural ALU over every lane: the same operations wired from the trained cells of `NeuralALU`,
    on (lanes, 32) bit tensors, one batched forward pass per step. Words are unpacked to bits and the
    result packed back; every gate in between is a cell evaluation (ZF too: a NOR tree of the result)."""

    def __init__(self, alu: NeuralALU):
        self.alu = alu
        self.shifts = torch.arange(32, device=alu.device)

    def __call__(self, aop, x, y, present: frozenset):
        n, shifts = self.alu, self.shifts
        X = ((x.unsqueeze(1) >> shifts) & 1).float()  # unpacking
        Y = ((y.unsqueeze(1) >> shifts) & 1).float()
        R = Y  # pass
        zero = torch.zeros_like(X[:, 0])
        carry = over = zero

        def put(k, bits):
            nonlocal R
            R = torch.where((aop == k).unsqueeze(1), bits, R)

        if present & {ADD, SUB, NEG}:  # one Kogge-Stone adder: a + b, a + ~b + 1, 0 + ~a + 1
            neg = (aop == NEG).unsqueeze(1)
            minus = (aop == SUB) | (aop == NEG)
            p, q = torch.where(neg, torch.zeros_like(X), X), torch.where(neg, X, Y)
            q = torch.where(minus.unsqueeze(1), n.not_(q), q)
            s, c, into_top = n.add_bits(p, q, minus.float())
            adder = minus | (aop == ADD)
            R = torch.where(adder.unsqueeze(1), s, R)
            carry = torch.where(adder, torch.where(minus, n.not_(c), c), zero)  # CF is the borrow
            over = torch.where(adder, n.xor(c, into_top), zero)
        if MUL in present:
            put(MUL, n.mul(X, Y)[0])
        if present & {DIV, MOD}:
            quotient, remainder = n._divmod(X, Y)
            put(DIV, quotient)
            put(MOD, remainder)
        if present & {AND, OR, XOR}:
            gates = n.logic(torch.stack([X, Y], dim=-1))  # and, or, xor of every bit in one pass
            for k, which in ((AND, 0), (OR, 1), (XOR, 2)):
                if k in present:
                    put(k, gates[..., which])
        if SHL in present:
            put(SHL, n._shift(X, Y, True, zero))
        if present & {SHR, SAR}:  # one right shift: SAR fills with the sign bit, SHR with zero
            right = n._shift(X, Y, False, torch.where(aop == SAR, X[:, 31], zero))
            put(SHR, right)
            put(SAR, right)
        if NOT in present:
            put(NOT, n.not_(X))
        is_zero = n.not_(n.any_(R))
        r = (R.long() << shifts).sum(1)  # packing
        return r, carry > 0.5, over > 0.5, is_zero > 0.5


@functools.cache
def _compiled_step():
    """`TorchLanes._step` compiled, one for every executor (compiled code is reused while its guards hold:
    breakpoints or none, tracing, the memory size; shapes become dynamic after a second lane count)."""
    return torch.compile(TorchLanes._step, fullgraph=True)


@functools.cache
def _fused_alu(device: torch.device) -> NeuralALU:
    """The kit's cells, fused (`NeuralALU(fused=True)`), one per device: what they compile is kept."""
    return NeuralALU(device=device, fused=True)


class TorchLanes:
    """Many nCPU machines stepped together as tensor operations on `device` (see the module docstring).
    The methods are those of the Rust executor (`NcpuLanes`), with the same meanings."""

    def __init__(self, lanes: int, memory_size: int, trace_depth: int = 0, trace_lane: int = 0, *,
                 device: str | torch.device = "cpu", compile: bool | None = None):
        if lanes < 1 or memory_size > MASK:
            raise ValueError("need at least one lane and a memory size below 4 GiB")
        self.device = torch_device(device)
        # torch.compile fuses tensor operations into a few kernels, so data is read and written about once
        # instead of once per operation: in fast mode the whole step (its ~150 operations); in neural mode
        # the wiring of the cells (`NeuralALU(fused=True)`). Worth the compile time (tens of seconds, once
        # a process) on a GPU; on the CPU, eager steps start at once.
        self.compiled = self.device.type == "cuda" if compile is None else bool(compile)
        self.compile_error: str | None = None
        self._lanes, self._size = lanes, memory_size
        dev = self.device
        self.regs = torch.zeros(lanes, NREGS + 1, dtype=torch.int64, device=dev)
        self.regs[:, SP] = memory_size
        self.flags_t = torch.zeros(lanes, 4, dtype=torch.bool, device=dev)
        self.pc = torch.zeros(lanes, dtype=torch.int64, device=dev)
        self.cycle_counts = torch.zeros(lanes, dtype=torch.int64, device=dev)
        self.status = torch.full((lanes,), HALTED, dtype=torch.uint8, device=dev)  # nothing loaded yet
        self.fault_kind = torch.zeros(lanes, dtype=torch.uint8, device=dev)
        self.fault_value = torch.zeros(lanes, dtype=torch.int64, device=dev)
        self.skip = torch.zeros(lanes, dtype=torch.bool, device=dev)
        self.mem = torch.zeros(lanes, memory_size + 4, dtype=torch.uint8, device=dev)
        self.lane_program = torch.zeros(lanes, dtype=torch.int64, device=dev)
        self.lane_base = torch.zeros(lanes, dtype=torch.int64, device=dev)  # row of instruction 0 in `ops`
        self.lane_length = torch.zeros(lanes, dtype=torch.int64, device=dev)
        self._rows: list[list[int]] = []
        self._checked: dict[tuple, list[list[int]]] = {}
        self._bases: list[int] = []
        self._lengths: list[int] = []
        self._breakpoint_rows: set[int] = set()  # rows of `ops` with a breakpoint
        self._tables_stale = True
        self._present: set[int] = {PASS}
        self._watches: list[tuple[int, int, bool, bool]] = []
        self._alu = fast_alu
        self._pending: list[tuple] = []  # resets and register writes, applied together before anything reads
        self.J = torch.arange(4, device=dev)
        self.BYTE_SHIFTS = 8 * self.J
        self.FLAG_BITS = torch.tensor([1, 2, 4, 8], dtype=torch.uint8, device=dev)
        self._done = torch.zeros((), dtype=torch.int64, device=dev)  # lane-instructions of the current run
        self._captured = None  # (key, tensors, CUDA graph) of the last capture
        self.graph_error: str | None = None
        self.graphs_captured = 0
        self.set_trace_unchecked(trace_depth, trace_lane)

    # --- programs and the ALU ----------------------------------------------------------------------
    def add_program(self, ops: list[tuple]) -> int:
        """Adds a program (a list of micro-op tuples); returns its id."""
        ops = tuple(tuple(int(v) for v in op) for op in ops)
        rows = self._checked.get(ops)
        if rows is None:  # one program loaded into many lanes is checked and converted once
            for i, op in enumerate(ops):
                try:
                    check_op(op, len(ops))
                except ValueError as exc:
                    raise ValueError(f"micro-op {i}: {exc}") from None
            rows = self._checked[ops] = [_row(op) for op in ops] + [END_ROW]
        self._bases.append(len(self._rows))
        self._lengths.append(len(ops))
        self._rows += rows
        self._tables_stale = True  # built on the device when next needed: adding many programs stays linear
        for kind, alu, *_ in ops:  # the ALU operations a step may need: known here, never asked of the device
            self._present |= {ALU: {alu}, LOAD: {ADD}, STORE: {ADD}, POP: {ADD}, RET: {ADD},
                              PUSH: {SUB}, CALL: {SUB}}.get(kind, set())
        if isinstance(self._alu, NeuralStep):
            self._refuse_floats()
        return len(self._lengths) - 1

    def _refuse_floats(self) -> None:
        if self._present & FLOAT:
            raise UnsupportedInstruction(
                "neural mode on torch lanes wires the integer ALU only; run float instructions in fast mode on "
                "this device, or in neural mode on the Rust core (CPU(mode='neural') without a device)")

    def use_networks(self, directory=None) -> None:
        """Neural mode: the trained cells (`NeuralALU` on this device) compute from now on
        (integer operations only: a program with float instructions raises UnsupportedInstruction)."""
        step = NeuralStep(_fused_alu(self.device) if self.compiled and directory is None else
                          NeuralALU(directory, device=self.device, fused=self.compiled))
        self._refuse_floats()
        self._alu = step

    def use_exact_alu(self) -> None:
        """Fast mode: exact integer tensor arithmetic from now on."""
        self._alu = fast_alu

    # --- lanes ----------------------------------------------------------------------------------
    @property
    def lanes(self) -> int:
        return self._lanes

    @property
    def memory_size(self) -> int:
        return self._size

    def _lane(self, lane: int) -> int:
        if not 0 <= lane < self._lanes:
            raise IndexError(f"lane {lane} out of range (0..{self._lanes})")
        return lane

    def load_lane(self, lane: int, program: int, data: bytes) -> None:
        """Points `lane` at program `program` and resets it with `data` at address 0 (applied, with
        every other pending reset, before the state is next read or run: a loop over many lanes costs
        one batch of tensor writes)."""
        lane = self._lane(lane)
        if not 0 <= program < len(self._lengths):
            raise IndexError(f"no program {program}")
        if len(data) > self._size:
            raise ValueError(f"the program's data ({len(data)} bytes) does not fit in data memory "
                             f"({self._size} bytes)")
        self._pending.append(("reset", lane, program, bytes(data)))
        if self._trace_lane == lane:
            self._trace.clear()

    def set_register(self, lane: int, register: int, value: int) -> None:
        lane = self._lane(lane)
        if not 0 <= register < NREGS:
            raise IndexError(f"no register {register}")
        self._pending.append(("reg", lane, register, int(value) & MASK))

    def _flush(self) -> None:
        """Builds the program tables if programs or breakpoints changed; applies pending resets and
        register writes in order, each run of one kind as one batch."""
        if self._tables_stale:
            self.ops = torch.tensor(self._rows, dtype=torch.int64, device=self.device).view(-1, len(END_ROW))
            self.bp = torch.zeros(len(self._rows), dtype=torch.bool, device=self.device)
            self.bp[list(self._breakpoint_rows)] = True
            self._tables_stale = False
        pending, self._pending = self._pending, []
        i = 0
        while i < len(pending):
            j = i
            while j < len(pending) and pending[j][0] == pending[i][0]:
                j += 1
            (self._apply_resets if pending[i][0] == "reset" else self._apply_registers)(pending[i:j])
            i = j

    def _apply_resets(self, items) -> None:
        last = {lane: (program, data) for _, lane, program, data in items}  # a later reset wins
        dev = self.device
        lanes = torch.tensor(list(last), dtype=torch.int64, device=dev)
        programs = [p for p, _ in last.values()]
        self.lane_program[lanes] = torch.tensor(programs, dtype=torch.int64, device=dev)
        self.lane_base[lanes] = torch.tensor([self._bases[p] for p in programs], dtype=torch.int64, device=dev)
        self.lane_length[lanes] = torch.tensor([self._lengths[p] for p in programs], dtype=torch.int64, device=dev)
        self.regs[lanes] = 0
        self.regs[lanes, SP] = self._size
        for t in (self.pc, self.cycle_counts, self.fault_kind, self.fault_value):
            t[lanes] = 0
        self.flags_t[lanes] = False
        self.skip[lanes] = False
        self.status[lanes] = RUNNING
        self.mem[lanes] = 0
        by_data: dict[bytes, list[int]] = {}
        for lane, (_, data) in last.items():
            if data:
                by_data.setdefault(data, []).append(lane)
        for data, group in by_data.items():
            rows = torch.tensor(group, dtype=torch.int64, device=dev)
            image = torch.tensor(list(data), dtype=torch.uint8, device=dev)
            self.mem[rows, :len(data)] = image

    def _apply_registers(self, items) -> None:
        last = {(lane, reg): value for _, lane, reg, value in items}  # a later write wins
        lanes, regs = zip(*last)
        dev = self.device
        self.regs[torch.tensor(lanes, device=dev), torch.tensor(regs, device=dev)] = torch.tensor(
            list(last.values()), dtype=torch.int64, device=dev)

    # --- running ---------------------------------------------------------------------------------
    def run(self, max_steps: int, honor_breakpoints: bool = True) -> int:
        """Runs each running lane for at most `max_steps` instructions. Returns the number of
        instructions executed over all lanes."""
        self._flush()
        if not self._lengths or max_steps <= 0:
            return 0
        running = self.status == RUNNING
        self.fault_kind.masked_fill_(running, 0)  # a lane that runs starts with no stop detail
        self.fault_value.masked_fill_(running, 0)
        bps = honor_breakpoints and bool(self._breakpoint_rows)
        tracing = self._trace_lane is not None
        if tracing:
            self._ring.zero_()
            self._ring_pos.zero_()
        done = self._done
        done.zero_()
        # Chunks grow from one step, so a short run is not stepped past its halt; where chunks are
        # replayed graphs, whole ones from the start (steps after every lane stopped change nothing).
        steps, every = 0, CHECK_EVERY if self.device.type == "cuda" and self.graph_error is None else 1
        with torch.no_grad():
            while steps < max_steps:
                n = min(every, max_steps - steps)
                graph = self._graph(bps, tracing) if n == CHECK_EVERY else None
                if graph is not None:
                    graph.replay()
                else:
                    self._steps_in_place(n, bps, tracing)
                steps += n
                if not bool((self.status == RUNNING).any()):  # the one host sync: does any lane still run?
                    break
                every = min(2 * every, CHECK_EVERY)
        if tracing:
            self._collect_trace()
        return int(done)

    def _steps_in_place(self, n: int, bps: bool, tracing: bool) -> None:
        """`n` steps that leave every state tensor where it was (a step computes new tensors; they are
        copied back), so the same steps can be captured once as a CUDA graph and replayed."""
        kept = {name: getattr(self, name) for name in STEPPED}
        for _ in range(n):
            self._done += self._one_step(bps, tracing)
            for name, tensor in kept.items():
                new = getattr(self, name)
                if new is not tensor:
                    tensor.copy_(new)
                    setattr(self, name, tensor)

    def _graph(self, bps: bool, tracing: bool):
        """On a CUDA device, CHECK_EVERY steps captured once as a CUDA graph (one launch replays them,
        instead of a few hundred kernel launches a step from Python); recaptured when the programs, the
        ALU, breakpoints, watches, the trace or a state tensor (restore) change. None elsewhere, or if
        capture fails (`graph_error` says why; the steps then run eagerly)."""
        if self.device.type != "cuda" or self.graph_error is not None:
            return None
        key = (bps, tracing, frozenset(self._present), tuple(self._watches), self._alu)
        tensors = tuple(getattr(self, name) for name in CAPTURED)
        cached = self._captured
        if cached is not None and cached[0] == key and all(a is b for a, b in zip(cached[1], tensors)):
            return cached[2]
        self._captured = None
        saved = {name: getattr(self, name).clone() for name in MUTATED}
        try:
            stream = torch.cuda.Stream(self.device)
            stream.wait_stream(torch.cuda.current_stream(self.device))
            with torch.cuda.stream(stream):  # a warm-up step on the capture stream, then its effects undone
                self._steps_in_place(1, bps, tracing)
            torch.cuda.current_stream(self.device).wait_stream(stream)
            for name, value in saved.items():
                getattr(self, name).copy_(value)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, stream=stream):  # recorded, not run
                self._steps_in_place(CHECK_EVERY, bps, tracing)
        except RuntimeError as exc:
            for name, value in saved.items():  # the persistent tensors, as they were before the warm-up
                setattr(self, name, value)
            self.graph_error = f"CUDA graph capture failed, steps run eagerly: {exc}"
            return None
        self._captured = (key, tuple(getattr(self, name) for name in CAPTURED), graph)
        self.graphs_captured += 1
        return graph

    def _one_step(self, bps: bool, tracing: bool) -> torch.Tensor:
        """One step of every lane; returns the instructions executed. In fast mode, compiled (see `compiled`)
        for integer programs without watches: one compiled step, with every integer operation, serves them
        all, where each set of watches (and floats) would be compiled anew for runs that are short. Eager if
        compiling failed (`compile_error` says why; a failed compilation changed nothing, and an error of
        the step itself recurs eagerly)."""
        if (self.compiled and self.compile_error is None and self._alu is fast_alu and not self._watches
                and not self._present & FLOAT):
            try:
                return _compiled_step()(self, bps, tracing, INTEGER_OPS)
            except Exception as exc:  # noqa: BLE001 - any compiler failure: the eager step is the same step
                self.compile_error = f"torch.compile failed, steps run eagerly: {type(exc).__name__}: {exc}"
        return self._step(bps, tracing, frozenset(self._present))

    def _step(self, bps: bool, tracing: bool, present: frozenset) -> torch.Tensor:
        regs, pc, size, J = self.regs, self.pc, self._size, self.J
        active = self.status == RUNNING
        g = self.lane_base + pc
        kind, alu, dst, a, b, imm, fmode, cond, width, target, b_imm = self.ops.index_select(0, g).unbind(1)
        end = active & (kind == END)
        live = active & ~end
        bp_hit = None
        if bps:  # a lane stops before an instruction with a breakpoint, unless it resumes over it
            bp_hit = live & self.bp.index_select(0, g) & ~self.skip
            live = live & ~bp_hit
        A = regs.gather(1, a.unsqueeze(1)).squeeze(1)
        B = torch.where(b_imm.bool(), imm, regs.gather(1, b.unsqueeze(1)).squeeze(1))
        sp = regs[:, SP]
        is_alu = kind == ALU
        is_mem = (kind == LOAD) | (kind == STORE)
        is_push = (kind == PUSH) | (kind == CALL)
        is_pop = (kind == POP) | (kind == RET)
        stack = is_push | is_pop
        # One ALU evaluation for every lane: the instruction's own operation, an effective address
        # (base + offset), or a stack move (SP - 4 before a push, SP + 4 after a pop).
        x = torch.where(stack, sp, A)
        y = torch.where(is_mem, imm, torch.where(stack, 4, B))
        aop = torch.where(is_alu, alu, torch.where(is_mem | is_pop, ADD, torch.where(is_push, SUB, PASS)))
        r, carry, over, zero = self._alu(aop, x, y, present)

        touches = is_mem | stack
        addr = torch.where(is_pop, sp, r)
        span = torch.where(is_mem, width, 4)
        writes = (kind == STORE) | is_push
        inside = addr + span <= size
        in_width = J < span.unsqueeze(1)
        at = addr.unsqueeze(1) + J
        reading = (touches & inside).unsqueeze(1) & in_width
        loaded = self.mem.gather(1, torch.where(reading, at, size + J)).long()
        value = (torch.where(reading, loaded, 0) << self.BYTE_SHIFTS).sum(1)  # little-endian bytes, packed

        w_hit = None
        if self._watches:  # a watched access stops the lane before the instruction changes anything
            hit = torch.zeros_like(live)
            for start, stop, read, write in self._watches:
                rw = writes if write and not read else ~writes if read and not write else torch.ones_like(live)
                if read or write:
                    hit = hit | (rw & (addr < stop) & (addr + span > start))
            w_hit = live & touches & ~self.skip & hit
            live = live & ~w_hit
        bad_access = live & touches & ~inside
        bad_return = live & (kind == RET) & inside & (value > self.lane_length)
        ex = live & ~bad_access & ~bad_return  # a faulting instruction changes nothing and takes no cycle

        if tracing:
            t = self._trace_lane
            before = (self.cycle_counts[t], pc[t], (self.flags_t[t].to(torch.uint8) * self.FLAG_BITS).sum(), regs[t, :NREGS].clone())

        regs[:, SP] = torch.where(ex & stack, r, sp)
        writes_dst = ex & (dst != ZERO_COL) & (is_alu | (kind == LOAD) | (kind == POP))
        dst1 = dst.unsqueeze(1)
        regs.scatter_(1, dst1, torch.where(writes_dst, torch.where(is_alu, r, value), regs.gather(1, dst1).squeeze(1)).unsqueeze(1))

        f = self.flags_t
        z, s, c, o = f.unbind(1)
        set_flags = ex & is_alu & (fmode > 0)
        set_carry = set_flags & (fmode == 2)
        conditions = torch.stack([torch.ones_like(z), z, ~z, s, ~s, c, ~c, o, ~o, s != o, s == o, ~z & (s == o),
                                  z | (s != o), ~c & ~z, c | z], 1)
        taken = conditions.gather(1, cond.unsqueeze(1)).squeeze(1)
        self.flags_t = torch.stack([torch.where(set_flags, zero, z), torch.where(set_flags, (r >> 31) == 1, s),
                                    torch.where(set_carry, carry, c), torch.where(set_carry, over, o)], 1)

        stores = ex & writes
        stored = torch.where(kind == CALL, pc + 1, B)
        self.mem.scatter_(1, torch.where(stores.unsqueeze(1) & in_width, at, size + J),
                          ((stored.unsqueeze(1) >> self.BYTE_SHIFTS) & 0xFF).to(torch.uint8))

        jump = ((kind == JUMP) & taken) | (kind == CALL)
        following = torch.where(kind == HALT, pc, torch.where(jump, target, torch.where(kind == RET, value, pc + 1)))
        self.pc = torch.where(ex, following, pc)
        self.cycle_counts = self.cycle_counts + ex

        status = torch.where(end | (ex & (kind == HALT)), HALTED, self.status)
        fault_kind, fault_value = self.fault_kind, self.fault_value
        if bp_hit is not None:
            status = torch.where(bp_hit, BREAKPOINT, status)
        if w_hit is not None:
            status = torch.where(w_hit, WATCHPOINT, status)
            fault_kind = torch.where(w_hit, 3 + writes.to(torch.uint8), fault_kind)
            fault_value = torch.where(w_hit, addr, fault_value)
        faulted = bad_access | bad_return
        self.status = torch.where(faulted, FAULT, status).to(torch.uint8)
        self.fault_kind = torch.where(bad_access, 1, torch.where(bad_return, 2, fault_kind)).to(torch.uint8)
        self.fault_value = torch.where(bad_access, addr, torch.where(bad_return, value, fault_value))
        self.skip = self.skip & ~live  # an instruction that began (ran or faulted) is no longer resumed over

        if tracing:
            cycle, pc0, f0, regs0 = before
            f1 = (self.flags_t[t].to(torch.uint8) * self.FLAG_BITS).sum()
            entry = torch.cat([torch.stack([cycle, pc0, self.pc[t], f0.long(), f1.long()]), regs0, regs[t, :NREGS],
                               torch.stack([touches[t].long(), addr[t], span[t], writes[t].long()])])
            slot = (self._ring_pos % self._ring.shape[0]).view(1)
            keep = self._ring.index_select(0, slot).squeeze(0)
            self._ring.index_copy_(0, slot, torch.where(ex[t], entry, keep).unsqueeze(0))
            self._ring_pos += ex[t].long()
        return ex.sum()

    def resume(self) -> None:
        """Lanes stopped at a breakpoint or watch run again (over it) on the next `run`."""
        self._flush()
        stopped = (self.status == BREAKPOINT) | (self.status == WATCHPOINT)
        self.status.masked_fill_(stopped, RUNNING)  # in place: a captured graph keeps reading these tensors
        self.skip |= stopped

    def set_breakpoint(self, program: int, index: int, on: bool) -> None:
        if not 0 <= program < len(self._lengths) or not 0 <= index <= self._lengths[program]:
            raise IndexError(f"no instruction {index} in program {program}")
        row = self._bases[program] + index
        self._breakpoint_rows = (self._breakpoint_rows | {row}) if on else (self._breakpoint_rows - {row})
        self._tables_stale = True

    def set_watch(self, address: int, size: int, read: bool, write: bool, on: bool) -> None:
        """Watch `size` bytes from `address` (reads and/or writes) in every lane, or stop watching them."""
        watch = (int(address), int(address) + int(size), bool(read), bool(write))
        self._watches = [w for w in self._watches if w != watch] + ([watch] if on else [])

    # --- trace -----------------------------------------------------------------------------------
    def set_trace_unchecked(self, depth: int, lane: int) -> None:
        self._trace = deque(maxlen=max(depth, 0))
        self._trace_lane = lane if depth > 0 else None
        # Steps of one `run` are recorded on the device, in a ring, and read back when it returns.
        self._ring = torch.zeros(max(depth, 1), TRACE_FIELDS, dtype=torch.int64, device=self.device)
        self._ring_pos = torch.zeros((), dtype=torch.int64, device=self.device)

    def set_trace(self, depth: int, lane: int) -> None:
        self.set_trace_unchecked(depth, self._lane(lane))

    def _collect_trace(self) -> None:
        n = int(self._ring_pos)
        depth = self._ring.shape[0]
        rows = self._ring.cpu().numpy()
        for i in range(max(0, n - depth), n):
            e = [int(v) for v in rows[i % depth]]
            old, new = e[5:5 + NREGS], e[5 + NREGS:5 + 2 * NREGS]
            changes = [(r, old[r], new[r]) for r in range(NREGS) if old[r] != new[r]][:2]
            access = (e[-3], e[-2], bool(e[-1])) if e[-4] else None
            self._trace.append((e[0], e[1], e[2], e[3], e[4], changes, access))

    def trace(self) -> list[tuple]:
        """Trace entries, oldest first: (cycle, pc, next_pc, flags_before, flags_after,
        [(register, old, new)], the memory access (address, width, write) or None)."""
        return list(self._trace)

    # --- state ---------------------------------------------------------------------------------
    def registers(self) -> bytes:
        """Registers as little-endian u32, lanes x 9 (R0-R7, SP)."""
        self._flush()
        return self.regs[:, :NREGS].cpu().numpy().astype("<u4").tobytes()

    def flags(self) -> bytes:
        """Flag bits of every lane as bytes (ZF 1, SF 2, CF 4, OF 8)."""
        self._flush()
        return (self.flags_t.to(torch.uint8) * self.FLAG_BITS).sum(1).to(torch.uint8).cpu().numpy().tobytes()

    def cycles(self) -> bytes:
        """Every lane's cycle count as little-endian u64."""
        self._flush()
        return self.cycle_counts.cpu().numpy().astype("<u8").tobytes()

    def statuses(self) -> bytes:
        self._flush()
        return self.status.cpu().numpy().tobytes()

    def lane_states(self) -> list[tuple]:
        """Per-lane (pc, flags, cycles, status, fault kind, fault value, program)."""
        self._flush()
        flag_bits = (self.flags_t.to(torch.uint8) * self.FLAG_BITS).sum(1)
        columns = torch.stack([self.pc, flag_bits.long(), self.cycle_counts, self.status.long(), self.fault_kind.long(),
                               self.fault_value, self.lane_program], 1)
        return [tuple(row) for row in columns.cpu().tolist()]

    def lane_state(self, lane: int) -> tuple:
        lane = self._lane(lane)
        self._flush()
        f = self.flags_t[lane].to(torch.uint8) * self.FLAG_BITS
        values = torch.stack([self.pc[lane], f.sum().long(), self.cycle_counts[lane], self.status[lane].long(),
                              self.fault_kind[lane].long(), self.fault_value[lane], self.lane_program[lane]])
        return tuple(values.cpu().tolist())

    def set_pc(self, lane: int, pc: int) -> None:
        lane = self._lane(lane)
        self._flush()
        length = self._lengths[int(self.lane_program[lane])] if self._lengths else 0
        if not 0 <= pc <= length:
            raise IndexError(f"pc {pc} is outside the program (0..{length})")
        self.pc[lane] = pc
        if int(self.status[lane]) != FAULT:
            self.status[lane] = RUNNING

    def _span(self, address: int, n: int) -> slice:
        if address < 0 or n < 0 or address + n > self._size:
            raise IndexError(f"memory range 0x{address:X}+{n} is outside data memory ({self._size} bytes)")
        return slice(address, address + n)

    def read_memory(self, lane: int, address: int, n: int) -> bytes:
        lane = self._lane(lane)
        self._flush()
        return self.mem[lane, self._span(address, n)].cpu().numpy().tobytes()

    def write_memory(self, lane: int, address: int, data: bytes) -> None:
        lane = self._lane(lane)
        self._flush()
        span = self._span(address, len(data))
        if data:
            self.mem[lane, span] = torch.tensor(list(data), dtype=torch.uint8, device=self.device)

    # --- snapshots -------------------------------------------------------------------------------
    STATE = ("regs", "flags_t", "pc", "cycle_counts", "status", "fault_kind", "fault_value", "skip", "mem",
             "lane_program", "lane_base", "lane_length")

    def snapshot(self) -> TorchSnapshot:
        self._flush()
        return TorchSnapshot(self._lanes, self._size, {k: getattr(self, k).clone() for k in self.STATE})

    def restore_keeping_trace(self, snapshot: TorchSnapshot) -> None:
        if not isinstance(snapshot, TorchSnapshot):
            raise TypeError("this snapshot was taken on another executor (the Rust lanes); restore it there")
        if snapshot.lanes != self._lanes or snapshot.memory_size != self._size:
            raise ValueError("snapshot is of a machine with another shape")
        self._pending = []  # the snapshot's state replaces whatever was still to be applied
        for k, v in snapshot.state.items():
            setattr(self, k, v.to(self.device).clone())

    def restore(self, snapshot: TorchSnapshot) -> None:
        self.restore_keeping_trace(snapshot)
        if self._trace_lane is not None:  # the trace keeps what happened before the restored moment
            now = int(self.cycle_counts[self._trace_lane])
            kept = [e for e in self._trace if e[0] < now]
            self._trace.clear()
            self._trace.extend(kept)
