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

Data memory, the stack, CALL and RET are not relaxed: such programs raise `UnsupportedInstruction`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

from ncpu_nb import html
from ncpu_nb.differentiable.soft_alu import condition, integers, relaxed_op, signed, soft_flags, straight_through
from ncpu_nb.errors import NcpuError
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.encoding import MICRO_FIELDS, NONE
from ncpu_nb.ncpu.program import Program
from ncpu_nb.ncpu.table import ALU_NAMES, FLAGS, KINDS, REGISTERS, SP

ALUS = ("fast", "neural")
SUPPORTED_KINDS = ("nop", "halt", "alu", "jump")
DTYPE = torch.float64
STACK_TOP = 65536  # SP's initial value, as on the CPU with its default memory size


class UnsupportedInstruction(NcpuError):
    """The program uses an instruction the differentiable engine does not relax (memory, stack, calls)."""

    def __init__(self, pc: int, instruction: str):
        self.pc, self.instruction = pc, instruction
        super().__init__(f"the differentiable engine runs register programs only (ALU, jumps, HALT); "
                         f"PC={pc}: {instruction}")


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
    ua, ub = integers(a).reshape(-1).numpy(), integers(b).reshape(-1).numpy()
    r, c, v = neural_alu().compute(name, ua, ub)
    exact = signed(torch.from_numpy(r.astype(np.int64))).reshape(shape)
    as_float = lambda x: torch.from_numpy(x.astype(np.float64)).reshape(shape).to(a.dtype)  # noqa: E731
    return straight_through(relaxed_op(name, a, b), exact), (as_float(c), as_float(v))


@dataclass
class SoftRun:
    """The state after `DifferentiableEngine.run`, every tensor batched over lanes.

    registers  (lanes, 9) real values, columns R0-R7, SP
    flags      (lanes, 4) ZF SF CF OF
    pc         (lanes, len(program) + 1) probability of each instruction; the last column is "halted"
    history    register tensors before the first and after each step (with `record=True`), for
               gradient flow; `executed` the instruction index lane 0 ran at each step
    """

    program: Program
    alu: str
    registers: torch.Tensor
    flags: torch.Tensor
    pc: torch.Tensor
    steps: int
    history: list = field(default_factory=list)
    executed: list = field(default_factory=list)  # with record=True: lane 0's most likely PC at each step

    def __getitem__(self, name: str) -> torch.Tensor:
        return self.registers[:, REGISTERS.index(name.upper())]

    @property
    def halted(self) -> torch.Tensor:
        """Probability that each lane has halted."""
        return self.pc[:, -1]

    def _repr_html_(self) -> str:
        lanes = self.registers.shape[0]
        shown = min(lanes, 4)
        values = self.registers.detach()[:shown]
        rows = [[name] + [f"{values[l, r].item():.6g}" for l in range(shown)] for r, name in enumerate(REGISTERS)]
        rows += [[flag] + [f"{self.flags[l, f].item():.3g}" for l in range(shown)] for f, flag in enumerate(FLAGS)]
        title = (f"Soft run of {self.program.name} ({self.alu} ALU): {self.steps} steps, "
                 f"halted {self.halted.detach().mean().item():.3f}" + (f", {lanes} lanes" if lanes > 1 else ""))
        return html.view(title, html.table([""] + [f"lane {l}" for l in range(shown)], rows, numeric=tuple(
            range(1, shown + 1))))

    def __repr__(self) -> str:
        regs = " ".join(f"{n}={self[n][0].item():.6g}" for n in REGISTERS[:8])
        return f"<SoftRun {self.program.name}: {self.steps} steps | lane 0: {regs}>"


class DifferentiableEngine:
    """Runs an nCPU program with real-valued registers, differentiably.

        engine = DifferentiableEngine("MOV R1, 3\\nMUL R2, R0, R1\\nHALT")
        x = torch.tensor([5.0], dtype=torch.float64, requires_grad=True)
        run = engine.run({"R0": x})
        run["R2"].backward()          # x.grad == 3

    alu               'fast' (differentiable tensor arithmetic) or 'neural' (the trained networks
                      forward, straight-through gradients backward)
    flag_temperature  width of the flags' sigmoid surrogates (None: flags carry no gradient)
    max_steps         step budget of `run` (a step moves every lane by one instruction)
    """

    def __init__(self, program: str | Program, *, alu: str = "fast", flag_temperature: float | None = 1.0,
                 max_steps: int = 10_000):
        if alu not in ALUS:
            raise ValueError(f"unknown ALU {alu!r}; choose one of {', '.join(ALUS)}")
        self.program = program if isinstance(program, Program) else assemble(program)
        self.alu, self.flag_temperature, self.max_steps = alu, flag_temperature, max_steps
        self.ops = [dict(zip(MICRO_FIELDS, op)) for op in self.program.micro_ops]
        for pc, op in enumerate(self.ops):
            if KINDS[op["kind"]] not in SUPPORTED_KINDS:
                raise UnsupportedInstruction(pc, self.program.instructions[pc].text(self.program.label_at()))
        # Immediates as signed reals: `run(immediates=...)` may replace them with trainable tensors.
        self.immediates = torch.tensor([float(signed(torch.tensor(op["imm"])).item()) for op in self.ops],
                                       dtype=DTYPE)

    def __len__(self) -> int:
        return len(self.ops)

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
            default = float(STACK_TOP) if r == SP else 0.0
            v = torch.as_tensor(values.get(r, default), dtype=DTYPE)
            columns.append(v.expand(lanes) if v.dim() == 0 else v.reshape(lanes))
        return torch.stack(columns, 1)

    def _alu(self, name: str, a, b):
        if self.alu == "neural":
            return neural_op(name, a, b)
        return relaxed_op(name, a, b), None

    def _execute(self, pc: int, regs, flags, imm):
        """(registers, flags, jump probability) after instruction `pc` executes."""
        op = self.ops[pc]
        kind = KINDS[op["kind"]]
        if kind != "alu":
            jump = condition(op["cond"], flags) if kind == "jump" else None
            return regs, flags, jump
        name = ALU_NAMES[op["alu"]]
        zero = torch.zeros_like(regs[:, 0])
        a = regs[:, op["a"]] if op["a"] != NONE else zero
        b = regs[:, op["b"]] if op["b"] != NONE else imm[pc].expand_as(zero)
        result, carry = self._alu(name, a, b)
        new_flags = soft_flags(name, a, b, result, flags, op["flags"], self.flag_temperature, carry)
        if op["dst"] != NONE:
            regs = torch.cat([regs[:, :op["dst"]], result.unsqueeze(1), regs[:, op["dst"] + 1:]], 1)
        return regs, new_flags, None

    def step(self, regs, flags, pc, imm):
        """One step of the soft machine: every instruction's outcome mixed by its probability."""
        length = len(self.ops)
        halted = pc[:, length:]
        new_regs, new_flags = halted * regs, halted * flags
        new_pc = torch.zeros_like(pc)
        new_pc = new_pc + torch.nn.functional.pad(halted, (length, 0))
        mass = pc.detach().amax(0)
        for i, op in enumerate(self.ops):
            if mass[i] == 0 and not pc.requires_grad:
                continue
            w = pc[:, i:i + 1]
            r, f, jump = self._execute(i, regs, flags, imm)
            new_regs, new_flags = new_regs + w * r, new_flags + w * f
            kind = KINDS[op["kind"]]
            after = length if kind == "halt" else min(i + 1, length)
            stay = w[:, 0] if jump is None else w[:, 0] * (1 - jump)
            new_pc = new_pc + stay.unsqueeze(1) * torch.nn.functional.one_hot(
                torch.tensor(after), length + 1).to(pc.dtype)
            if jump is not None:
                target = min(op["target"], length)
                new_pc = new_pc + (w[:, 0] * jump).unsqueeze(1) * torch.nn.functional.one_hot(
                    torch.tensor(target), length + 1).to(pc.dtype)
        return new_regs, new_flags, new_pc

    def run(self, registers: dict | None = None, *, lanes: int | None = None, max_steps: int | None = None,
            immediates: torch.Tensor | dict | None = None, record: bool = False) -> SoftRun:
        """Run from PC 0 until every lane has halted (or `max_steps`).

        registers   initial values: numbers, or tensors of shape (lanes,) (with requires_grad to
                    differentiate with respect to them)
        immediates  replaces the program's immediate operands: a (len,) tensor, or {index: value}
        record      keep every step's registers (with retained gradients) for `gradient_flow`
        """
        regs = self.initial_registers(registers, lanes)
        n = regs.shape[0]
        imm = self.immediates
        if isinstance(immediates, dict):
            imm = torch.stack([torch.as_tensor(immediates.get(i, imm[i]), dtype=DTYPE) for i in range(len(self))])
        elif immediates is not None:
            imm = immediates
        flags = torch.zeros(n, len(FLAGS), dtype=DTYPE)
        pc = torch.zeros(n, len(self.ops) + 1, dtype=DTYPE)
        pc[:, 0] = 1.0
        history = []
        if record:
            regs = regs.clone().requires_grad_(True) if not regs.requires_grad else regs.clone()
            regs.retain_grad()
            history.append(regs)
        budget = self.max_steps if max_steps is None else max_steps
        steps = 0
        executed = []
        while steps < budget and pc.detach()[:, -1].min() < 1.0:
            if record:
                executed.append(int(pc.detach()[0].argmax()))
            regs, flags, pc = self.step(regs, flags, pc, imm)
            steps += 1
            if record:
                regs.retain_grad()
                history.append(regs)
        return SoftRun(self.program, self.alu, regs, flags, pc, steps, history, executed)

    def __repr__(self) -> str:
        return f"<DifferentiableEngine {self.program.name}: {len(self)} instructions, {self.alu} ALU>"

    def _repr_html_(self) -> str:
        return html.view(f"DifferentiableEngine ({self.alu} ALU, flag temperature {self.flag_temperature})",
                         self.program.listing_html())

