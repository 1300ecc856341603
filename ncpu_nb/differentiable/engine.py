"""`DifferentiableEngine`: an nCPU program run on real-valued registers under autograd.

The engine reads the same lowered micro-ops as the exact CPU (`ncpu_nb.ncpu.encoding.lower`) and
computes every ALU operation with `ncpu_nb.differentiable.soft_alu` (fast) or the trained networks (neural, with
straight-through gradients). Control flow uses a *soft program counter*: a probability
distribution over instruction indices plus one absorbing "halted" slot. Each step mixes the
outcome of every instruction by its probability, and a conditional jump moves mass to its target
with the probability that its condition holds (a multilinear relaxation of the table's
conditions). Forward values stay exact: the flags are exact 0/1, so on integer inputs the engine
computes what the CPU computes; gradients reach branch decisions through the flags' sigmoid
surrogates (`flag_temperature`).

Data memory is a `SoftMemory` (bytes as real tensors): LDR/STR/LDRB/STRB, PUSH/POP and CALL/RET
read and write it, an integer address exactly, a real one as a blend of its two neighbours, so
gradients reach stored values, array contents given as inputs, and addresses. RET jumps to the
return index it loads (a real one splits the PC between the two instructions around it). An access
outside memory (or a return outside the program) on a lane's likelier path (mass over one half;
on an integer program, its only path) is a fault, as on the CPU; on a less likely path of a
relaxed run it reads zeros and writes nothing. With `code_at`, the program's words live in that
memory too and every step fetches its instruction there: code a program writes is code it runs.
A `SoftProgram` (trainable distributions over each slot's instruction) runs too, slot after slot.

Float instructions (FADD FSUB FMUL FDIV FSQRT ITOF FTOI FCMP FMOV) run through `soft_float`: a register the
program uses as a float holds the float's value (binary32 forward, bit for bit the CPU's fast mode;
straight-through rounding backward), `engine.float_registers` names them, and `engine.registers` gives
them as the CPU's bits. A register used both as a float and as an integer raises `UnsupportedInstruction`.

The engine is a machine of the protocol (`ncpu_nb.MachineProtocol`): it holds a current soft state
(registers, flags, the PC distribution, cycles) that `step`, `run`, `reset`, `snapshot` and
`restore` move, so `engine.debugger()` opens the debugger on it. What only this machine has
(`values`, `gradients`, the PC distribution, a soft program's choices) reaches the view through
`debug_extras`. The engine is batched (`ncpu_nb.protocol.Batched`): `lane` (0 unless set) is the lane the
protocol's properties, the trace, breakpoints and watchpoints describe; `step` and `run` move every lane.

`device="cuda"` keeps a run's state (registers, flags, PC distribution, memory) on that torch device:
inputs given as tensors elsewhere are moved there (`.to` is differentiable, so their gradients still
reach them), numbers become leaves on it. The neural ALU computes on the CPU and hands results back.
"""
from __future__ import annotations

import time
import warnings
from collections import deque
from dataclasses import dataclass

import numpy as np
import torch

from ncpu_nb import html, machine_arguments as arguments
from ncpu_nb.differentiable.soft_alu import condition, integers, relaxed_op, signed, soft_flags, straight_through
from ncpu_nb.differentiable.soft_float import FloatPlan, float_op, float_plan, mix, rounded, signed_bits
from ncpu_nb.differentiable.soft_memory import SoftMemory
from ncpu_nb.differentiable.soft_program import SoftProgram
from ncpu_nb.differentiable.soft_run import SoftRun
from ncpu_nb.errors import CycleBudgetExceeded, DecodeError, ExecutionError, UnsupportedInstruction
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.call_frames import call_stack
from ncpu_nb.ncpu.encoding import MICRO_FIELDS, NONE, decode, lower
from ncpu_nb.ncpu.neural_alu import torch_device
from ncpu_nb.ncpu.program import Program, data_address
from ncpu_nb.ncpu.reference_interpreter import place_code
from ncpu_nb.ncpu.table import ALU_NAMES, FLAGS, FLOAT_OPS, KINDS, MASK, REGISTERS, SP
from ncpu_nb.protocol import (Bar, Breakpoints, DebugExtras, DebugLayout, Frame, Panel, RegisterGroup, Snapshot, Trace,
                              TraceStep, Watchpoints)

ALUS = ("fast", "neural")
DTYPE = torch.float64
MEMORY = "memory"  # the inputs' key for arrays placed in data memory, as in the exact check's examples
FAULT_MASS = 0.5  # an access outside memory faults on a lane whose PC is on it with more than this
NOP_OP = dict(zip(MICRO_FIELDS, (KINDS.index("nop"), 0, NONE, NONE, NONE, 0, 0, 0, 0, 0)))


class _Fault(Exception):
    """An access outside memory, or a return outside the program, on a lane's likelier path."""

    def __init__(self, lane: int, pc: int, message: str):
        self.lane, self.pc, self.message = lane, pc, message


SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _lane_element(gradient: torch.Tensor, lane: int) -> torch.Tensor:
    """A lane's element of an input's gradient: its own for an input given per lane, the one for a scalar."""
    flat = gradient.reshape(-1)
    return flat[lane] if flat.numel() > 1 else flat[0]


def _signed_int(u: int) -> int:
    """An unsigned 32-bit field as the signed number it holds (`soft_alu.signed` of one int)."""
    return u - (1 << 32) if u >= (1 << 31) else u


def _set(regs: torch.Tensor, index: int, value: torch.Tensor) -> torch.Tensor:
    """The registers with column `index` replaced (out of place, for autograd); NONE changes nothing."""
    if index == NONE:
        return regs
    return torch.cat([regs[:, :index], value.unsqueeze(1), regs[:, index + 1:]], 1)


_neural_alu = None


def neural_alu():
    """The trained networks, loaded once."""
    global _neural_alu
    if _neural_alu is None:
        from ncpu_nb.ncpu.neural_alu import NeuralALU

        _neural_alu = NeuralALU()
    return _neural_alu


def neural_op(name: str, a: torch.Tensor, b: torch.Tensor):
    """Result, carry and overflow computed by the trained networks; the result's gradient is the
    fast ALU's (straight-through)."""
    shape = a.shape
    ua, ub = integers(a).reshape(-1).cpu().numpy(), integers(b).reshape(-1).cpu().numpy()
    r, c, v = neural_alu().compute(name, ua, ub)
    exact = signed(torch.from_numpy(r.astype(np.int64))).reshape(shape).to(a.device)
    as_float = lambda x: torch.from_numpy(x.astype(np.float64)).reshape(shape).to(a.device, a.dtype)  # noqa: E731
    return straight_through(relaxed_op(name, a, b), exact), (as_float(c), as_float(v))


@dataclass(frozen=True)
class _State:
    """Everything a snapshot restores: the inputs (the leaves gradients are taken with respect to)
    and the soft state computed from them."""

    inputs: dict
    lanes: int | None
    immediates: torch.Tensor
    registers: torch.Tensor
    flags: torch.Tensor
    pc: torch.Tensor
    memory: SoftMemory
    memory_inputs: dict
    status: str
    detail: str
    fault: _Fault | None
    trace: tuple


class DifferentiableEngine:
    """Runs an nCPU program (or a `SoftProgram`) with real-valued registers, differentiably.

        engine = DifferentiableEngine("MOV R1, 3\\nMUL R2, R0, R1\\nHALT", inputs={"R0": 5.0})
        engine.run()["R2"]            # tensor([15.])
        engine.gradients()["R2"]      # {"R0": 3.0}: d R2 / d R0
        x = torch.tensor([5.0, 2.0], dtype=torch.float64, requires_grad=True)
        engine.run(inputs={"R0": x})["R2"].sum().backward()      # x.grad == [3, 3]
        a = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)
        engine = DifferentiableEngine("LDR R0, [256]\nLDR R1, [260]\nMUL R2, R0, R1\nHALT")
        engine.run(inputs={"memory": {256: a}})["R2"].backward()  # a.grad == [4, 3]

    inputs            initial registers: numbers (each becomes a leaf tensor that requires grad),
                      or tensors of shape (lanes,) (used as they are); and under "memory",
                      {address: values} arrays placed in data memory (`memory_width` bytes per
                      value; a list of numbers becomes a leaf tensor, a tensor is (n,) or (lanes, n))
    alu               'fast' (differentiable tensor arithmetic) or 'neural' (the trained networks
                      forward, straight-through gradients backward)
    flag_temperature  width of the flags' sigmoid surrogates (None: flags carry no gradient)
    soft_branches     flags take their surrogates' values forward too (needs a temperature): a
                      branch on a value near its threshold splits the PC distribution, and the
                      registers become the mixture of both paths (no longer the CPU's answer)
    max_steps         step budget of `run` (a step moves every lane by one instruction)
    trace_depth       steps kept in `trace` (0 turns tracing off)
    memory_size       bytes of data memory per lane (SP starts there), as `CPU(memory_size=...)`
    memory_width      bytes per value of the arrays given under inputs["memory"] (4 or 1)
    code_at           keep the program's words in data memory from this address and fetch every
                      instruction from there (self-modifying code: a store into the code changes what
                      runs; see `_fetch`); None keeps code apart from data, as the CPU does
    device            the torch device a run's tensors live on: cpu (default; a SoftProgram's own
                      device) or cuda
    """

    def __init__(self, program: str | Program | SoftProgram, *, inputs: dict | None = None, alu: str = "fast",
                 flag_temperature: float | None = 1.0, soft_branches: bool = False, max_steps: int = 10_000,
                 trace_depth: int = 256, memory_size: int = 65536, memory_width: int = 4,
                 code_at: int | None = None, device: str | torch.device | None = None):
        if alu not in ALUS:
            raise ValueError(f"unknown ALU {alu!r}; choose one of {', '.join(ALUS)}")
        if soft_branches and not flag_temperature:
            raise ValueError("soft_branches needs a flag_temperature: the surrogates' width")
        self.soft = isinstance(program, SoftProgram)
        if self.soft and alu != "fast":
            raise ValueError("a SoftProgram runs on the fast ALU: its mixture needs every operation's gradient")
        self.program = program if isinstance(program, (Program, SoftProgram)) else assemble(program)
        self.device = torch_device(device if device is not None else program.device if self.soft else "cpu")
        if self.soft and self.device != program.device:
            raise ValueError(f"the SoftProgram's parameters are on {program.device}, the engine's device is "
                             f"{self.device}: make the SoftProgram with device={str(self.device)!r}")
        self.alu, self.flag_temperature, self.max_steps = alu, flag_temperature, arguments.count(max_steps, "max_steps")
        self.soft_branches = soft_branches
        if memory_width not in (1, 4):
            raise ValueError(f"memory_width is 4 (words) or 1 (bytes), not {memory_width}")
        self.memory_size, self.memory_width, self.code_at = memory_size, memory_width, code_at
        if code_at is not None:
            if self.soft:
                raise ValueError("a SoftProgram has no words to place in memory: code_at needs an nCPU program")
            place_code(self.program, bytearray(memory_size), code_at)  # raises if the code does not fit
        self._decode_cache: dict = {}
        self.ops = [] if self.soft else [dict(zip(MICRO_FIELDS, op)) for op in self.program.micro_ops]
        self.floats = FloatPlan() if self.soft else float_plan(self.program, self.ops)  # see soft_float
        if self.floats and code_at is not None:
            raise UnsupportedInstruction("code in memory holds bits, and the engine keeps float values: a float "
                                         "program runs with code_at=None", 0, self.program.instructions[0].text())
        # Immediates as signed reals (a float's value where it is one): `run(immediates=...)` may replace them
        # with trainable tensors.
        self.immediates = torch.tensor([self.floats.immediates.get(pc, float(_signed_int(op["imm"]))) for pc, op in
                                        enumerate(self.ops)] if not self.soft else [0.0] * len(self.program),
                                       dtype=DTYPE, device=self.device)
        self.breakpoints = Breakpoints(self._code_index, lambda index, on: None)  # `run` looks at the set itself
        self.watchpoints = Watchpoints(self._data_address, lambda w, on: None, word=4)
        self._trace: deque = deque(maxlen=trace_depth)
        self._inputs, self._memory_inputs, self._lanes, self._imm = {}, {}, None, self.immediates
        self._over_watch = False  # stopped at a watchpoint: the next step goes over that access
        self._fault: _Fault | None = None
        self._rows = torch.eye(len(self) + 1, dtype=DTYPE, device=self.device)  # row i: all on instruction i
        self._lane = 0
        self.reset(inputs or {})

    def __len__(self) -> int:
        return len(self.program) if self.soft else len(self.ops)

    # --- inputs and the start -----------------------------------------------------------------------
    def initial_registers(self, registers: dict | None, lanes: int | None = None) -> torch.Tensor:
        """(lanes, 9) registers: zeros, SP at the stack top, then `registers` (numbers or (lanes,) tensors)."""
        for k in (registers or {}):
            if k.upper() not in REGISTERS:
                raise KeyError(f"no register {k!r}; registers are {', '.join(REGISTERS)}")
        values = {REGISTERS.index(k.upper()): v for k, v in (registers or {}).items()}
        sizes = {torch.as_tensor(v).numel() for v in values.values() if torch.as_tensor(v).dim() > 0}
        if len(sizes) > 1:
            raise ValueError(f"register values disagree on the number of lanes: {sorted(sizes)}")
        lanes = lanes or (sizes.pop() if sizes else 1)
        columns = []
        for r in range(len(REGISTERS)):
            default = float(self.memory_size) if r == SP else 0.0
            v = self._tensor(values.get(r, default))
            columns.append(v.expand(lanes) if v.dim() == 0 else v.reshape(lanes))
        return torch.stack(columns, 1)

    def _tensor(self, value) -> torch.Tensor:
        """A number, or a tensor on any device, as a DTYPE tensor on the engine's (`.to` keeps the gradient)."""
        if isinstance(value, torch.Tensor):
            return value.to(self.device, DTYPE)
        return torch.tensor(float(value), dtype=DTYPE, device=self.device)

    def _as_inputs(self, inputs: dict) -> dict[str, torch.Tensor]:
        """Register name -> tensor; a number becomes a leaf that requires grad (see `gradients`)."""
        if not isinstance(inputs, dict):
            raise TypeError(f"inputs are a dict of register -> value, not {type(inputs).__name__}")
        for k in inputs:
            if k != MEMORY and (not isinstance(k, str) or k.upper() not in REGISTERS):
                raise KeyError(f"no register {k!r}; registers are {', '.join(REGISTERS)}")
        return {k.upper(): v if isinstance(v, torch.Tensor) else self._tensor(v).requires_grad_(True)
                for k, v in inputs.items() if k != MEMORY}

    def _as_arrays(self, arrays: dict) -> dict[int, torch.Tensor]:
        """Address -> (n,) or (lanes, n) tensor of values; a list of numbers becomes a leaf that requires grad."""
        if not isinstance(arrays, dict):
            raise TypeError(f"inputs['memory'] is a dict of address -> values, not {type(arrays).__name__}")
        found = {}
        for address, values in arrays.items():
            tensor = values if isinstance(values, torch.Tensor) else torch.tensor(
                [float(v) for v in values], dtype=DTYPE, device=self.device, requires_grad=True)
            end = int(address) + self.memory_width * tensor.shape[-1]
            if tensor.dim() not in (1, 2) or int(address) < 0 or end > self.memory_size:
                raise ValueError(f"an array of shape {tuple(tensor.shape)} at {address} does not fit data memory "
                                 f"(0..{self.memory_size}, {self.memory_width} bytes per value)")
            found[int(address)] = tensor
        return found

    def _initial_memory(self, lanes: int) -> SoftMemory:
        memory = SoftMemory(self.memory_size, lanes, b"" if self.soft else self.program.data, device=self.device)
        if self.code_at is not None:
            words = torch.tensor([[float(w) for w in self.program.words]], dtype=DTYPE, device=self.device)
            memory = memory.with_array(self.code_at, 4, words.expand(lanes, -1))
        for address, values in self._memory_inputs.items():
            values = values.to(self.device)
            values = values.expand(lanes, -1) if values.dim() == 1 else values
            if values.shape[0] != lanes:
                raise ValueError(f"the array at {address} has {values.shape[0]} lanes, the registers {lanes}")
            memory = memory.with_array(address, self.memory_width, values)
        return memory

    def _immediates(self, immediates) -> torch.Tensor:
        if isinstance(immediates, dict):
            return torch.stack([self._tensor(immediates.get(i, self.immediates[i])) for i in range(len(self))])
        return self.immediates if immediates is None else immediates.to(self.device)

    def reset(self, inputs: dict | None = None, *, lanes: int | None = None,
              immediates: torch.Tensor | dict | None = None) -> None:
        """Back to PC 0 with the engine's inputs. What is given replaces the engine's: `inputs`
        (and with them the number of lanes, unless `lanes` says), `immediates` (a (len,) tensor or
        {index: value}, replacing the program's immediate operands)."""
        if inputs is not None:
            self._inputs, self._lanes = self._as_inputs(inputs), lanes
            self._memory_inputs = self._as_arrays(inputs.get(MEMORY) or {})
        elif lanes is not None:
            self._lanes = lanes
        if immediates is not None:
            self._imm = self._immediates(immediates)
        array_lanes = {v.shape[0] for v in self._memory_inputs.values() if v.dim() == 2}
        self._regs = self.initial_registers(self._inputs, self._lanes or (min(array_lanes) if array_lanes else None))
        if self.floats.registers:  # a float register's input is a value: the binary32 nearest to it
            self._regs = torch.stack([rounded(c) if r in self.floats.registers else c
                                      for r, c in enumerate(self._regs.unbind(1))], 1)
        n = self._regs.shape[0]
        self._lane = min(self._lane, n - 1)  # fewer lanes now: the last one
        self._memory = self._initial_memory(n)
        self._over_watch, self._detail, self._fault = False, "", None
        self._flags = torch.zeros(n, len(FLAGS), dtype=DTYPE, device=self.device)
        self._pc = torch.zeros(n, len(self) + 1, dtype=DTYPE, device=self.device)
        self._pc[:, 0] = 1.0
        self._cycles, self._status = 0, "halted" if len(self) == 0 else "running"
        self._trace.clear()

    @property
    def inputs(self) -> dict:
        """The registers the engine starts from (register -> tensor; `gradients` are taken with respect
        to them) and, under "memory", the arrays placed in data memory (address -> tensor)."""
        return {**self._inputs, MEMORY: dict(self._memory_inputs)} if self._memory_inputs else dict(self._inputs)

    @property
    def memory(self) -> SoftMemory:
        """The data memory now (every lane): `memory.read(address, width)`, `memory.bytes(address, n, lane)`."""
        return self._memory

    # --- the soft machine -----------------------------------------------------------------------------
    def _alu(self, name: str, a, b):
        if self.alu == "neural":
            return neural_op(name, a, b)
        return relaxed_op(name, a, b), None

    def _execute(self, pc: int, regs, flags, imm, memory: SoftMemory, mass: torch.Tensor):
        """(registers, flags, memory, next-PC distribution) after instruction `pc` executes; `mass`
        is each lane's probability of being there (an access outside memory faults above FAULT_MASS)."""
        if self.soft:
            return self.program.execute(pc, regs), flags, memory, self._rows[min(pc + 1, len(self))]
        if self.code_at is None:
            return self._run_op(pc, self.ops[pc], regs, flags, imm[pc], memory, mass)
        fetched = self._fetch(pc, memory, mass)
        if len(fetched) == 1:
            _, op, value = fetched[0]
            return self._run_op(pc, op, regs, flags, value, memory, mass)
        outcomes = [(lanes, self._run_op(pc, op, regs, flags, value, memory, mass * lanes))
                    for lanes, op, value in fetched]  # lanes whose code differs here run apart
        mix = lambda k: sum(lanes.unsqueeze(1) * outcome[k] for lanes, outcome in outcomes)  # noqa: E731
        memory = SoftMemory.mix(memory, [(lanes, outcome[2]) for lanes, outcome in outcomes if outcome[2] is not memory])
        return mix(0), mix(1), memory, mix(3)

    def _fetch(self, pc: int, memory: SoftMemory, mass: torch.Tensor) -> list[tuple]:
        """Instruction `pc` read from memory (code in memory): (lanes as a 0/1 mask, micro-op, immediate)
        for each distinct word the lanes hold there. Opcode, registers and targets come from the
        rounded word; the immediate (or address offset) is the word's low field plus the word's
        fraction, so a stored instruction passes its gradient to the immediate it holds."""
        at = torch.full((memory.lanes,), float(self.code_at + 4 * pc), dtype=DTYPE, device=self.device)
        word = memory.read(at, 4)
        fraction = word - torch.round(word.detach())
        exact = integers(word).tolist()
        live = [lane for lane in range(len(exact)) if mass[lane] > 0] or [0]
        first, alive = exact[live[0]], set(live)
        fetched = []
        for value in dict.fromkeys(exact[lane] for lane in live):  # a lane off this slot joins the first group
            lanes = torch.tensor([float(w == value if lane in alive else value == first)
                                  for lane, w in enumerate(exact)], dtype=DTYPE, device=self.device)
            op, has_immediate = self._decoded(pc, value, lanes, mass)
            fetched.append((lanes, op, op["imm_signed"] + fraction if has_immediate else
                            self._tensor(op["imm_signed"])))
        return fetched

    def _decoded(self, pc: int, word: int, lanes: torch.Tensor, mass: torch.Tensor) -> tuple[dict, bool]:
        """The micro-op of a word (cached), and whether its low field is an immediate or offset; an
        invalid word faults on a lane's likelier path and is a NOP elsewhere."""
        if word not in self._decode_cache:
            try:
                instruction = decode(word, self.program.literals)
            except DecodeError as exc:
                self._decode_cache[word] = exc
            else:
                op = dict(zip(MICRO_FIELDS, lower(instruction)))
                op["imm_signed"] = float(_signed_int(op["imm"]))
                kinds = {kind for _, kind, _ in instruction.form.operands}
                self._decode_cache[word] = (op, bool(kinds & {"imm16", "imm20", "mem"}))
        found = self._decode_cache[word]
        if isinstance(found, DecodeError):
            bad = (lanes > 0) & (mass > FAULT_MASS)
            if bad.any():
                raise _Fault(int(bad.nonzero()[0, 0]), pc, f"invalid instruction: {found}")
            return dict(NOP_OP, imm_signed=0.0), False
        return found

    def _run_op(self, pc: int, op: dict, regs, flags, imm, memory: SoftMemory, mass: torch.Tensor):
        """`_execute` for one micro-op; `imm` its immediate (a number, or one per lane)."""
        kind = KINDS[op["kind"]]
        fall = self._rows[len(self) if kind == "halt" else min(pc + 1, len(self))]
        if kind in ("nop", "halt"):
            return regs, flags, memory, fall
        if kind == "jump":
            jump = condition(op["cond"], flags).unsqueeze(1)
            return regs, flags, memory, (1 - jump) * fall + jump * self._rows[min(op["target"], len(self))]
        if kind != "alu":
            regs, memory, goes_to = self._memory_op(pc, kind, op, regs, imm, memory, mass)
            return regs, flags, memory, fall if goes_to is None else goes_to
        name = ALU_NAMES[op["alu"]]
        zero = torch.zeros_like(regs[:, 0])
        a = regs[:, op["a"]] if op["a"] != NONE else zero
        b = regs[:, op["b"]] if op["b"] != NONE else imm.expand_as(zero)
        if name in FLOAT_OPS or (name == "pass" and op["dst"] in self.floats.registers):  # both ALUs: soft_float
            result, new_flags = float_op(name, a, b, flags, self.flag_temperature, self.soft_branches)
            return (regs if result is None else _set(regs, op["dst"], result)), new_flags, memory, fall
        result, carry = self._alu(name, a, b)
        new_flags = soft_flags(name, a, b, result, flags, op["flags"], self.flag_temperature, carry,
                               soft_forward=self.soft_branches)
        return _set(regs, op["dst"], result), new_flags, memory, fall

    def _access(self, pc: int, kind: str, op: dict, regs, imm) -> tuple[torch.Tensor, int]:
        """Each lane's real address of a memory instruction's access, and its width."""
        if kind in ("load", "store"):
            base = regs[:, op["a"]] if op["a"] < len(REGISTERS) else torch.zeros_like(regs[:, 0])
            return base + imm, op["width"]
        return (regs[:, SP] - 4 if kind in ("push", "call") else regs[:, SP]), 4

    def _memory_op(self, pc: int, kind: str, op: dict, regs, imm, memory: SoftMemory, mass: torch.Tensor):
        """(registers, memory, next-PC distribution or None) of a load, store, push, pop, call or ret."""
        address, width = self._access(pc, kind, op, regs, imm)
        bad = memory.outside(address, width) & (mass > FAULT_MASS)
        if bad.any():
            lane = int(bad.nonzero()[0, 0])
            at = int(round(address[lane].item())) & MASK
            raise _Fault(lane, pc, f"memory access at 0x{at:X} is outside data memory ({self.memory_size} bytes)")
        if kind == "load":
            return _set(regs, op["dst"], memory.read(address, width)), memory, None
        if kind in ("store", "push", "call"):
            value = torch.full_like(address, float(pc + 1)) if kind == "call" else regs[:, op["b"]]
            memory = memory.write(address, width, value)
            if kind == "store":
                return regs, memory, None
            regs = _set(regs, SP, address)
            return regs, memory, self._rows[min(op["target"], len(self))] if kind == "call" else None
        value = memory.read(address, 4)  # pop, ret: SP moves up first, then a POP into SP overwrites it
        regs = _set(regs, SP, address + 4)
        if kind == "pop":
            return _set(regs, op["dst"], value), memory, None
        outside = ((value.detach() < 0) | (value.detach() > len(self))) & (mass > FAULT_MASS)
        if outside.any():
            lane = int(outside.nonzero()[0, 0])
            raise _Fault(lane, pc, f"jump to {int(round(value[lane].item())) & MASK}, outside the program")
        return regs, memory, self._index_distribution(value)

    def _index_distribution(self, index: torch.Tensor) -> torch.Tensor:
        """(lanes, len + 1) a real instruction index as a distribution: the two whole indices around
        it, weighted by nearness (clamped to the program and its halted slot)."""
        index = index.clamp(0, len(self))
        low = torch.floor(index.detach())
        fraction = (index - low).unsqueeze(1)
        high = torch.clamp(low + 1, max=len(self)).to(torch.int64)
        return (1 - fraction) * self._rows[low.to(torch.int64)] + fraction * self._rows[high]

    def soft_step(self, regs, flags, pc, imm, memory: SoftMemory):
        """One step of the soft machine, a pure function: every instruction's outcome (registers,
        flags, memory, where it goes) mixed by its probability. Returns (regs, flags, pc, memory)."""
        length = len(self)
        halted = pc[:, length:]
        new_regs, new_flags = halted * regs, halted * flags
        new_pc = torch.nn.functional.pad(halted, (length, 0))
        mass = pc.detach()
        top, writes = mass.amax(0), []
        terms = [(halted, torch.cat([regs, flags], 1))] if self.floats else None
        for i in range(length):
            if top[i] == 0 and not pc.requires_grad:
                continue
            w = pc[:, i:i + 1]
            r, f, m, goes_to = self._execute(i, regs, flags, imm, memory, mass[:, i])
            if self.floats:  # mixed exactly below: NaN, inf and -0 survive the mixture
                terms.append((w, torch.cat([r, f], 1)))
            else:
                new_regs, new_flags = new_regs + w * r, new_flags + w * f
            new_pc = new_pc + w * goes_to
            if m is not memory:
                writes.append((w[:, 0], m))
        if self.floats:
            mixed = mix(terms)
            new_regs, new_flags = mixed[:, :len(REGISTERS)], mixed[:, len(REGISTERS):]
        return new_regs, new_flags, new_pc, SoftMemory.mix(memory, writes) if writes else memory

    def _halted_lanes(self) -> torch.Tensor:
        """Per lane: no probability left on any instruction (exact: mass that has moved to the
        halted slot may sum to a hair under 1 there)."""
        return (self._pc.detach()[:, :-1] == 0).all(1)

    def _advance(self) -> None:
        """One step of every lane, traced (the shown lane) if the trace is on. A fault leaves the state as it
        was (a faulting instruction changes nothing), sets the status and raises `_Fault`."""
        before = (self.pc, self.registers, self._flag_text()) if self._trace.maxlen else None
        try:
            self._regs, self._flags, self._pc, self._memory = self.soft_step(self._regs, self._flags, self._pc,
                                                                             self._imm, self._memory)
        except _Fault as fault:
            self._status, self._detail, self._fault = "fault", fault.message, fault
            raise
        self._over_watch = False
        if before is not None:
            pc, registers, flags = before
            changes = {name: (registers[name], value) for name, value in self.registers.items()
                       if registers[name] != value}
            self._trace.append(TraceStep(self._cycles, pc, self._instruction_text(pc), self.pc, changes, flags,
                                         self._flag_text(), lane=self._lane))
        self._cycles += 1

    def _fault_error(self) -> ExecutionError:
        fault = self._fault
        return ExecutionError(fault.message, fault.pc, self._instruction_text(fault.pc), fault.lane)

    def _watch_hit(self) -> str:
        """What the shown lane's likeliest instruction would access under a watchpoint ('write of 0x10'), or ''."""
        pc = self.pc
        if self._over_watch or not len(self.watchpoints) or pc >= len(self) or self.soft:
            return ""
        op, imm = self._shown_op(pc)
        kind = KINDS[op["kind"]]
        if kind not in ("load", "store", "push", "pop", "call", "ret"):
            return ""
        address, width = self._access(pc, kind, op, self._regs.detach(), imm)
        at, writes = int(round(address[self._lane].item())), kind in ("store", "push", "call")
        for w in self.watchpoints:
            if at < w.address + w.size and w.address < at + width and (w.write if writes else w.read):
                return f"{'write' if writes else 'read'} of 0x{at:X}"
        return ""

    def _stop_at_watch(self) -> bool:
        detail = self._watch_hit()
        if detail:
            self._status, self._detail, self._over_watch = "watchpoint", detail, True
        return bool(detail)

    def step(self, n: int = 1) -> int:
        """`n` steps of every lane (breakpoints do not stop a step, a watchpoint does, before the
        access; halted lanes stay halted). A fault raises ExecutionError. Returns how many ran."""
        n = arguments.count(n, "n")
        if self._status == "fault":
            raise self._fault_error()
        ran = 0
        while ran < n and not self._halted_lanes().all():
            if self._stop_at_watch():
                return ran
            try:
                self._advance()
            except _Fault:
                raise self._fault_error() from None
            ran += 1
        self._status = "halted" if self._halted_lanes()[self._lane] else "running"
        self._detail = ""
        return ran

    def run(self, max_steps: int | None = None, *, inputs: dict | None = None, lanes: int | None = None,
            immediates: torch.Tensor | dict | None = None, record: bool = False, check: bool = True) -> SoftRun:
        """Run until every lane has halted, the shown lane's most likely instruction is on a breakpoint
        (stopping before it; a run that starts there goes over it) or about to touch a watchpoint
        (the same), a fault, or `max_steps` steps (default `self.max_steps`). Giving `inputs`, `lanes`
        or `immediates` first resets to them (see `reset`); without them the run goes on from the
        current state.

        record  keep every step's registers (with retained gradients) for `gradient_flow`
        check   a fault raises ExecutionError and an exhausted budget CycleBudgetExceeded; without,
                they are the result's stop ('fault', 'budget')
        """
        if isinstance(max_steps, dict):  # the old form, run({"R0": x})
            warnings.warn("DifferentiableEngine.run({...}) is now run(inputs={...})", DeprecationWarning, stacklevel=2)
            if inputs is not None:
                raise TypeError("give the inputs once: run(inputs={...})")
            inputs, max_steps = max_steps, None
        max_steps = arguments.optional_count(max_steps, "max_steps")
        if inputs is not None or lanes is not None or immediates is not None:
            self.reset(inputs, lanes=lanes, immediates=immediates)
        budget = self.max_steps if max_steps is None else max_steps
        history, executed = [], []
        if record:
            self._regs = self._regs.clone() if self._regs.requires_grad else self._regs.clone().requires_grad_(True)
            self._regs.retain_grad()
            history.append(self._regs)
        t0, ran, stop = time.perf_counter(), 0, "budget"
        while ran < budget:
            if self._status == "fault":
                stop = "fault"
                break
            if self._halted_lanes().all():
                stop = "halted"
                break
            if ran > 0 and self.pc in self.breakpoints:
                stop = "breakpoint"
                break
            if self._stop_at_watch():
                stop = "watchpoint"
                break
            if record:
                executed.append(self.pc)
            try:
                self._advance()
            except _Fault:
                stop = "fault"
                break
            ran += 1
            if record:
                self._regs.retain_grad()
                history.append(self._regs)
        else:
            stop = "halted" if self._halted_lanes().all() else "budget"
        seconds = time.perf_counter() - t0
        if stop not in ("fault", "watchpoint"):
            self._detail = ""
            self._status = ("breakpoint" if stop == "breakpoint" else
                            "halted" if self._halted_lanes()[self._lane] else "running")
        if check and stop == "fault":
            raise self._fault_error()
        if check and stop == "budget":
            raise CycleBudgetExceeded(budget, self.pc, self._instruction_text(self.pc),
                                      int((~self._halted_lanes()).sum()))
        return SoftRun(stop, ran, seconds, self.pc, self._detail, program=self.program, alu=self.alu,
                       registers=self._regs, flags=self._flags, pc_distribution=self._pc, memory=self._memory,
                       history=history, executed=executed)

    # --- the protocol's view of the shown lane -------------------------------------------------------------
    @property
    def lanes(self) -> int:
        return self._regs.shape[0]

    @property
    def lane(self) -> int:
        return self._lane

    @lane.setter
    def lane(self, lane: int) -> None:
        """Show another lane; the trace follows it from its next step (all lanes step together)."""
        self._lane = self._lane_number(lane)

    def lane_counts(self) -> dict[str, int]:
        """How many lanes stand in each state: 'halted' (no probability left on an instruction), 'running',
        and after a fault 'fault' for the lane that raised it."""
        halted = self._halted_lanes()
        faulted = self._fault.lane if self._status == "fault" else None
        counts = {"running": int((~halted).sum()) - (faulted is not None), "halted": int(halted.sum())}
        return {**counts, "fault": 1} if faulted is not None else counts

    @property
    def registers(self) -> dict[str, int]:
        """The shown lane's registers rounded to integers; a float register as its binary32 bits (signed, as the
        CPU's `registers` gives them)."""
        floats = self.floats.names
        return {name: signed_bits(v) if name in floats else int(round(v)) for name, v in self.values().items()}

    @property
    def float_registers(self) -> tuple[str, ...]:
        """The registers that hold floats in this program (their values are floats: see `soft_float`)."""
        return self.floats.names

    def values(self) -> dict[str, float]:
        """The shown lane's registers as the real numbers they are."""
        return dict(zip(REGISTERS, self._regs.detach()[self._lane].tolist()))

    def gradients(self) -> dict[str, dict[str, float]]:
        """For each register, d(its value now) / d(each input), in the shown lane: its own element of an input
        given per lane (0 where no path leads from the input)."""
        wrt = {k: v for k, v in self._inputs.items() if v.requires_grad}
        grads = {}
        for r, name in enumerate(REGISTERS):
            value, row = self._regs[self._lane, r], dict.fromkeys(self._inputs, 0.0)
            if wrt and value.requires_grad:
                found = torch.autograd.grad(value, list(wrt.values()), retain_graph=True, allow_unused=True)
                row.update((k, float(_lane_element(g, self._lane))) for k, g in zip(wrt, found) if g is not None)
            grads[name] = row
        return grads

    @property
    def pc(self) -> int:
        """The shown lane's most likely instruction (`len(program)`: the halted slot)."""
        return int(self._pc.detach()[self._lane].argmax())

    def pc_distribution(self) -> list[float]:
        """The shown lane's probability of each instruction, then of having halted."""
        return self._pc.detach()[self._lane].tolist()

    @property
    def flags(self) -> dict[str, bool]:
        """The shown lane's flags, each set when its (soft) value is over one half."""
        return {name: value > 0.5 for name, value in zip(FLAGS, self._flags.detach()[self._lane].tolist())}

    def _flag_text(self) -> str:
        return "".join(name[0] for name, on in self.flags.items() if on)

    @property
    def cycles(self) -> int:
        return self._cycles

    @property
    def status(self) -> str:
        """'running', 'breakpoint' (a run stopped before the shown lane's most likely instruction) or 'halted'
        (the shown lane; `lane_counts` says how the others stand)."""
        return self._status

    @property
    def stop_detail(self) -> str:
        """At a watchpoint, the access it stopped before ('write of 0x10'); at a fault, what went wrong."""
        return self._detail

    @property
    def trace(self) -> Trace:
        """Recent steps of the shown lane (its most likely instruction, its rounded registers' changes)."""
        return Trace(self._trace)

    @property
    def trace_depth(self) -> int:
        return self._trace.maxlen

    @trace_depth.setter
    def trace_depth(self, depth: int) -> None:
        self._trace = deque(list(self._trace)[-depth:] if depth else [], maxlen=depth)

    def _code_index(self, where) -> int:
        """An instruction index from an int or a code label."""
        labels = {} if self.soft else (self.program.code_labels or {})
        if isinstance(where, str):
            if where not in labels:
                raise KeyError(f"no code label {where!r}")
            return labels[where]
        if not 0 <= int(where) < len(self):
            raise IndexError(f"no instruction {where}")
        return int(where)

    def _data_address(self, where) -> int:
        """A data address from an int or a data label of the program."""
        return data_address(where, None if self.soft else self.program, self.memory_size)

    def read_memory(self, address: int, n: int, lane: int | None = None) -> bytes:
        """n bytes of a lane's data memory (the shown lane's unless told), each rounded to the byte the CPU
        would hold."""
        if address < 0 or n < 0 or address + n > self.memory_size:
            raise IndexError(f"{n} bytes at {address} are outside data memory ({self.memory_size} bytes)")
        return self._memory.bytes(address, n, self._lane if lane is None else self._lane_number(lane))

    def memory_map(self) -> list[tuple[int, int, str]]:
        """Each lane's data memory: one range."""
        return [(0, self.memory_size, "rw-")]

    def snapshot(self) -> Snapshot:
        """The inputs and the soft state (tensors and memories are never changed in place: a snapshot
        holds them as they are)."""
        return Snapshot(self._cycles, _State(dict(self._inputs), self._lanes, self._imm, self._regs, self._flags,
                                             self._pc, self._memory, dict(self._memory_inputs),
                                             self._status, self._detail, self._fault, tuple(self._trace)))

    def restore(self, snapshot: Snapshot) -> None:
        self.restore_keeping_trace(Snapshot.given(snapshot))
        self._trace = deque(snapshot.state.trace, maxlen=self._trace.maxlen)

    def restore_keeping_trace(self, snapshot: Snapshot) -> None:
        s = Snapshot.given(snapshot).state
        self._inputs, self._lanes, self._imm = dict(s.inputs), s.lanes, s.immediates
        self._regs, self._flags, self._pc, self._status = s.registers, s.flags, s.pc, s.status
        self._memory, self._memory_inputs, self._detail = s.memory, dict(s.memory_inputs), s.detail
        self._over_watch, self._fault = s.status == "watchpoint", s.fault
        self._cycles = snapshot.cycles

    # --- how the debugger shows it ------------------------------------------------------------------------
    def _lane_number(self, lane: int) -> int:
        lane = int(lane)
        if not 0 <= lane < self.lanes:
            raise IndexError(f"no lane {lane}: this engine has lanes 0 to {self.lanes - 1}")
        return lane

    def _shown_op(self, pc: int) -> tuple[dict, torch.Tensor]:
        """The shown lane's micro-op at `pc` (read from memory when the code lives there) and its immediate."""
        if self.code_at is None:
            return self.ops[pc], self._imm.detach()[pc]
        none = torch.zeros(1, device=self.device)
        op, _ = self._decoded(pc, self._code_word(pc), none, none)
        return op, self._tensor(op["imm_signed"])

    def _code_word(self, pc: int) -> int:
        """The shown lane's word at instruction slot `pc` of code in memory."""
        return int.from_bytes(self._memory.bytes(self.code_at + 4 * pc, 4, self._lane), "little")

    def _instruction_text(self, pc: int) -> str:
        if pc >= len(self):
            return "(halted)"
        if self.soft:
            text, probability = self.program.most_likely(pc)
            return f"{text}    p={probability:.2f}"
        if self.code_at is not None:  # what the shown lane's code holds now
            word = self._code_word(pc)
            try:
                return decode(word, self.program.literals).text(self.program.label_at())
            except DecodeError:
                return f".word 0x{word:08X}    (not an instruction)"
        return self.program.instructions[pc].text(self.program.label_at())

    def disassemble(self, start: int | None = None, n: int = 8) -> list[tuple[int, str]]:
        """(index, text) from `start` (default: the PC); the row after the last instruction is the
        halted slot. A soft program's slot shows its most likely instruction and that one's probability."""
        start = self.pc if start is None else start
        return [(i, self._instruction_text(i)) for i in range(max(0, start), min(len(self) + 1, start + n))]

    def code_labels(self) -> dict[int, str]:
        return {} if self.soft else self.program.label_at()

    def set_register(self, name: str, value: float) -> None:
        """The shown lane's register `name` becomes `value`, a constant from here on (no gradient through it;
        the other lanes keep theirs, as the CPU's `set_register` does)."""
        if arguments.register_name(name).upper() not in REGISTERS:
            raise KeyError(f"no register {name!r}; registers are {', '.join(REGISTERS)}")
        r = REGISTERS.index(name.upper())
        value = torch.tensor(float(arguments.register_number(name, value)), dtype=self._regs.dtype, device=self.device)
        self._regs = _set(self._regs, r, torch.where(self._lane_mask(self._lane), value, self._regs[:, r]))

    def write_memory(self, address: int, data: bytes, lane: int | None = None) -> None:
        """Exact bytes into every lane's data memory, or one `lane`'s (constants from here on)."""
        data = bytes(data)
        if address < 0 or address + len(data) > self.memory_size:
            raise IndexError(f"{len(data)} bytes at {address} are outside data memory ({self.memory_size} bytes)")
        self._memory = self._memory.with_bytes(address, data, None if lane is None else
                                               self._lane_mask(self._lane_number(lane)))

    def _lane_mask(self, lane: int) -> torch.Tensor:
        return torch.arange(self.lanes, device=self.device) == lane

    def return_address(self, location: int) -> int | None:
        """The slot a CALL at `location` returns to (None: no CALL there, or a soft program)."""
        if self.soft or not 0 <= location < len(self):
            return None
        return location + 1 if self.program.instructions[location].mnemonic == "CALL" else None

    def call_stack(self) -> list[Frame]:
        """The shown lane's active calls (its likeliest PC, its stack's bytes rounded), innermost first; a soft
        program has no fixed CALLs to walk: []."""
        if self.soft:
            return []
        word = lambda address: int.from_bytes(self.read_memory(address, 4), "little")  # noqa: E731
        return call_stack(self.program, self.pc, self.registers["SP"], word, self.memory_size)

    def source_at(self, location: int) -> None:
        """None: the listing is the assembly source itself."""
        return None

    def debug_layout(self) -> DebugLayout:
        """R0-R7 and SP (the shown lane's, rounded), 32 bits; code locations are instruction indices."""
        return DebugLayout((RegisterGroup("registers", REGISTERS, 32),))

    @property
    def title(self) -> str:
        """'<name> · differentiable, fast ALU'."""
        name = self.program.name if not self.program.name.startswith("<") else f"{len(self)} instructions"
        lane = f" · lane {self._lane} of {self.lanes}" if self.lanes > 1 else ""
        return f"{name} · differentiable, {self.alu} ALU{lane}"

    def debug_extras(self) -> DebugExtras:
        """The shown lane's PC distribution (a bar on each listing row, the halted slot's too), each register's
        real value with its gradient with respect to each input, and a soft program's likeliest choices."""
        weights = dict(enumerate(self.pc_distribution()))
        values, grads = self.values(), self.gradients()
        inputs = list(self._inputs)
        rows = tuple((name, f"{values[name]:.6g}", *(f"{grads[name][k]:.6g}" for k in inputs)) for name in REGISTERS)
        lane = str(self._lane).translate(SUBSCRIPTS)
        panels = [Panel("Values and gradients", ("register", "value", *(f"∂/∂{k}{lane}" for k in inputs)), rows)]
        if self.soft:
            panels.append(Panel("Slot choices", ("slot", "field", "most likely", "2nd", "3rd"), tuple(
                (str(slot), field, *(Bar(p, f"{choice} {p:.2f}") for choice, p in choices))
                for slot in range(len(self)) for field, choices in self.program.top_choices(slot).items())))
        return DebugExtras(weights, tuple(panels))

    def debugger(self, **options):
        """A live debugger: registers, the PC distribution on the listing, values and gradients, trace,
        and step / run / back / reset (see `ncpu_nb.views.Debugger` for the options)."""
        from ncpu_nb.views.debugger import Debugger  # imports anywidget: only when asked

        return Debugger(self, **options)

    def __repr__(self) -> str:
        return (f"<DifferentiableEngine {self.program.name}: {len(self)} instructions, {self.alu} ALU, "
                f"pc={self.pc} cycles={self.cycles} {self.status}>")

    def _repr_html_(self) -> str:
        listing = (html.table(["slot", "most likely"], [[str(i), text] for i, text in self.disassemble(0, len(self))])
                   if self.soft else self.program.listing_html())
        return html.view(f"DifferentiableEngine ({self.alu} ALU, flag temperature {self.flag_temperature})", listing)
