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
A `SoftProgram` (trainable distributions over each slot's instruction) runs too, slot after slot.

The engine is a machine of the protocol (`ncpu_nb.MachineProtocol`): it holds a current soft state
(registers, flags, the PC distribution, cycles) that `step`, `run`, `reset`, `snapshot` and
`restore` move, so `engine.debugger()` opens the debugger on it. What only this machine has
(`values`, `gradients`, the PC distribution, a soft program's choices) reaches the view through
`debug_extras`. Lane 0 is the one the protocol's properties describe; `run` moves every lane.
"""
from __future__ import annotations

import time
import warnings
from collections import deque
from dataclasses import dataclass, field

import numpy as np
import torch

from ncpu_nb import html
from ncpu_nb.differentiable.soft_alu import condition, integers, relaxed_op, signed, soft_flags, straight_through
from ncpu_nb.differentiable.soft_program import SoftProgram
from ncpu_nb.errors import CycleBudgetExceeded, NcpuError
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.encoding import MICRO_FIELDS, NONE
from ncpu_nb.ncpu.program import Program
from ncpu_nb.ncpu.table import ALU_NAMES, FLAGS, KINDS, REGISTERS, SP
from ncpu_nb.protocol import (Bar, Breakpoints, DebugExtras, DebugLayout, Panel, RegisterGroup, RunResult, Snapshot,
                              Trace, TraceStep, Watchpoints)

ALUS = ("fast", "neural")
SUPPORTED_KINDS = ("nop", "halt", "alu", "jump")
DTYPE = torch.float64
STACK_TOP = 65536  # SP's initial value, as on the CPU with its default memory size
NO_MEMORY = "the differentiable engine has no data memory yet (it runs register programs only)"


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



@dataclass(frozen=True, kw_only=True)
class SoftRun(RunResult):
    """What `DifferentiableEngine.run` did (see `RunResult`; `pc` is lane 0's most likely
    instruction, `len(program)` once halted) and the state it left, every tensor batched over lanes.

    registers        (lanes, 9) real values, columns R0-R7, SP
    flags            (lanes, 4) ZF SF CF OF
    pc_distribution  (lanes, len(program) + 1) probability of each instruction; the last column is "halted"
    history          register tensors before the first and after each step (with `record=True`), for
                     gradient flow; `executed` the instruction index lane 0 ran at each step
    """

    program: Program | SoftProgram
    alu: str
    registers: torch.Tensor
    flags: torch.Tensor
    pc_distribution: torch.Tensor
    history: list = field(default_factory=list)
    executed: list = field(default_factory=list)

    def __getitem__(self, name: str) -> torch.Tensor:
        return self.registers[:, REGISTERS.index(name.upper())]

    @property
    def halt_probability(self) -> torch.Tensor:
        """Probability that each lane has halted."""
        return self.pc_distribution[:, -1]

    def _repr_html_(self) -> str:
        lanes = self.registers.shape[0]
        shown = min(lanes, 4)
        values = self.registers.detach()[:shown]
        rows = [[name] + [f"{values[l, r].item():.6g}" for l in range(shown)] for r, name in enumerate(REGISTERS)]
        rows += [[flag] + [f"{self.flags[l, f].item():.3g}" for l in range(shown)] for f, flag in enumerate(FLAGS)]
        title = (f"Soft run of {self.program.name} ({self.alu} ALU): {self.steps} steps, "
                 f"halted {self.halt_probability.detach().mean().item():.3f}" + (f", {lanes} lanes" if lanes > 1 else ""))
        return html.view(title, html.table([""] + [f"lane {l}" for l in range(shown)], rows, numeric=tuple(
            range(1, shown + 1))))

    def __repr__(self) -> str:
        regs = " ".join(f"{n}={self[n][0].item():.6g}" for n in REGISTERS[:8])
        return f"<SoftRun {self.program.name}: {self.stop} after {self.steps} steps | lane 0: {regs}>"


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
    status: str
    trace: tuple


class DifferentiableEngine:
    """Runs an nCPU program (or a `SoftProgram`) with real-valued registers, differentiably.

        engine = DifferentiableEngine("MOV R1, 3\\nMUL R2, R0, R1\\nHALT", inputs={"R0": 5.0})
        engine.run()["R2"]            # tensor([15.])
        engine.gradients()["R2"]      # {"R0": 3.0}: d R2 / d R0
        x = torch.tensor([5.0, 2.0], dtype=torch.float64, requires_grad=True)
        engine.run(inputs={"R0": x})["R2"].sum().backward()      # x.grad == [3, 3]

    inputs            initial registers: numbers (each becomes a leaf tensor that requires grad),
                      or tensors of shape (lanes,) (used as they are)
    alu               'fast' (differentiable tensor arithmetic) or 'neural' (the trained networks
                      forward, straight-through gradients backward)
    flag_temperature  width of the flags' sigmoid surrogates (None: flags carry no gradient)
    soft_branches     flags take their surrogates' values forward too (needs a temperature): a
                      branch on a value near its threshold splits the PC distribution, and the
                      registers become the mixture of both paths (no longer the CPU's answer)
    max_steps         step budget of `run` (a step moves every lane by one instruction)
    trace_depth       steps kept in `trace` (0 turns tracing off)
    """

    def __init__(self, program: str | Program | SoftProgram, *, inputs: dict | None = None, alu: str = "fast",
                 flag_temperature: float | None = 1.0, soft_branches: bool = False, max_steps: int = 10_000,
                 trace_depth: int = 256):
        if alu not in ALUS:
            raise ValueError(f"unknown ALU {alu!r}; choose one of {', '.join(ALUS)}")
        if soft_branches and not flag_temperature:
            raise ValueError("soft_branches needs a flag_temperature: the surrogates' width")
        self.soft = isinstance(program, SoftProgram)
        if self.soft and alu != "fast":
            raise ValueError("a SoftProgram runs on the fast ALU: its mixture needs every operation's gradient")
        self.program = program if isinstance(program, (Program, SoftProgram)) else assemble(program)
        self.alu, self.flag_temperature, self.max_steps = alu, flag_temperature, max_steps
        self.soft_branches = soft_branches
        self.ops = [] if self.soft else [dict(zip(MICRO_FIELDS, op)) for op in self.program.micro_ops]
        for pc, op in enumerate(self.ops):
            if KINDS[op["kind"]] not in SUPPORTED_KINDS:
                raise UnsupportedInstruction(pc, self.program.instructions[pc].text(self.program.label_at()))
        # Immediates as signed reals: `run(immediates=...)` may replace them with trainable tensors.
        self.immediates = torch.tensor([float(signed(torch.tensor(op["imm"])).item()) for op in self.ops]
                                       if not self.soft else [0.0] * len(self.program), dtype=DTYPE)
        self.breakpoints = Breakpoints(self._code_index, lambda index, on: None)  # `run` looks at the set itself
        self.watchpoints = Watchpoints(self._no_memory, lambda w, on: None, word=4)
        self._trace: deque = deque(maxlen=trace_depth)
        self._inputs, self._lanes, self._imm = {}, None, self.immediates
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
            default = float(STACK_TOP) if r == SP else 0.0
            v = torch.as_tensor(values.get(r, default), dtype=DTYPE)
            columns.append(v.expand(lanes) if v.dim() == 0 else v.reshape(lanes))
        return torch.stack(columns, 1)

    @staticmethod
    def _as_inputs(inputs: dict) -> dict[str, torch.Tensor]:
        """Register name -> tensor; a number becomes a leaf that requires grad (see `gradients`)."""
        if not isinstance(inputs, dict):
            raise TypeError(f"inputs are a dict of register -> value, not {type(inputs).__name__}")
        for k in inputs:
            if not isinstance(k, str) or k.upper() not in REGISTERS:
                raise KeyError(f"no register {k!r}; registers are {', '.join(REGISTERS)}")
        return {k.upper(): v if isinstance(v, torch.Tensor) else torch.tensor(float(v), dtype=DTYPE, requires_grad=True)
                for k, v in inputs.items()}

    def _immediates(self, immediates) -> torch.Tensor:
        if isinstance(immediates, dict):
            return torch.stack([torch.as_tensor(immediates.get(i, self.immediates[i]), dtype=DTYPE)
                                for i in range(len(self))])
        return self.immediates if immediates is None else immediates

    def reset(self, inputs: dict | None = None, *, lanes: int | None = None,
              immediates: torch.Tensor | dict | None = None) -> None:
        """Back to PC 0 with the engine's inputs. What is given replaces the engine's: `inputs`
        (and with them the number of lanes, unless `lanes` says), `immediates` (a (len,) tensor or
        {index: value}, replacing the program's immediate operands)."""
        if inputs is not None:
            self._inputs, self._lanes = self._as_inputs(inputs), lanes
        elif lanes is not None:
            self._lanes = lanes
        if immediates is not None:
            self._imm = self._immediates(immediates)
        self._regs = self.initial_registers(self._inputs, self._lanes)
        n = self._regs.shape[0]
        self._flags = torch.zeros(n, len(FLAGS), dtype=DTYPE)
        self._pc = torch.zeros(n, len(self) + 1, dtype=DTYPE)
        self._pc[:, 0] = 1.0
        self._cycles, self._status = 0, "halted" if len(self) == 0 else "running"
        self._trace.clear()

    @property
    def inputs(self) -> dict[str, torch.Tensor]:
        """The registers the engine starts from (register -> tensor); `gradients` are taken with respect to them."""
        return dict(self._inputs)

    # --- the soft machine -----------------------------------------------------------------------------
    def _alu(self, name: str, a, b):
        if self.alu == "neural":
            return neural_op(name, a, b)
        return relaxed_op(name, a, b), None

    def _execute(self, pc: int, regs, flags, imm):
        """(registers, flags, jump probability) after instruction `pc` executes."""
        if self.soft:
            return self.program.execute(pc, regs), flags, None
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
        new_flags = soft_flags(name, a, b, result, flags, op["flags"], self.flag_temperature, carry,
                               soft_forward=self.soft_branches)
        if op["dst"] != NONE:
            regs = torch.cat([regs[:, :op["dst"]], result.unsqueeze(1), regs[:, op["dst"] + 1:]], 1)
        return regs, new_flags, None

    def _falls_to(self, pc: int) -> int:
        """Where instruction `pc` goes when it does not jump (`len(self)`: the halted slot)."""
        length = len(self)
        return length if not self.soft and KINDS[self.ops[pc]["kind"]] == "halt" else min(pc + 1, length)

    def soft_step(self, regs, flags, pc, imm):
        """One step of the soft machine, a pure function: every instruction's outcome mixed by its probability."""
        length = len(self)
        halted = pc[:, length:]
        new_regs, new_flags = halted * regs, halted * flags
        new_pc = torch.zeros_like(pc)
        new_pc = new_pc + torch.nn.functional.pad(halted, (length, 0))
        mass = pc.detach().amax(0)
        for i in range(length):
            if mass[i] == 0 and not pc.requires_grad:
                continue
            w = pc[:, i:i + 1]
            r, f, jump = self._execute(i, regs, flags, imm)
            new_regs, new_flags = new_regs + w * r, new_flags + w * f
            stay = w[:, 0] if jump is None else w[:, 0] * (1 - jump)
            new_pc = new_pc + stay.unsqueeze(1) * torch.nn.functional.one_hot(
                torch.tensor(self._falls_to(i)), length + 1).to(pc.dtype)
            if jump is not None:
                target = min(self.ops[i]["target"], length)
                new_pc = new_pc + (w[:, 0] * jump).unsqueeze(1) * torch.nn.functional.one_hot(
                    torch.tensor(target), length + 1).to(pc.dtype)
        return new_regs, new_flags, new_pc

    def _halted_lanes(self) -> torch.Tensor:
        """Per lane: no probability left on any instruction (exact: mass that has moved to the
        halted slot may sum to a hair under 1 there)."""
        return (self._pc.detach()[:, :-1] == 0).all(1)

    def _advance(self) -> None:
        """One step of every lane, traced (lane 0) if the trace is on."""
        before = (self.pc, self.registers, self._flag_text()) if self._trace.maxlen else None
        self._regs, self._flags, self._pc = self.soft_step(self._regs, self._flags, self._pc, self._imm)
        if before is not None:
            pc, registers, flags = before
            changes = {name: (registers[name], value) for name, value in self.registers.items()
                       if registers[name] != value}
            self._trace.append(TraceStep(self._cycles, pc, self._instruction_text(pc), self.pc, changes, flags,
                                         self._flag_text()))
        self._cycles += 1

    def step(self, n: int = 1) -> int:
        """`n` steps of every lane (breakpoints do not stop a step; halted lanes stay halted).
        Returns how many ran."""
        ran = 0
        while ran < n and not self._halted_lanes().all():
            self._advance()
            ran += 1
        self._status = "halted" if self._halted_lanes()[0] else "running"
        return ran

    def run(self, max_steps: int | None = None, *, inputs: dict | None = None, lanes: int | None = None,
            immediates: torch.Tensor | dict | None = None, record: bool = False, check: bool = True) -> SoftRun:
        """Run until every lane has halted, lane 0's most likely instruction is on a breakpoint
        (stopping before it; a run that starts there goes over it), or `max_steps` steps (default
        `self.max_steps`). Giving `inputs`, `lanes` or `immediates` first resets to them (see `reset`);
        without them the run goes on from the current state.

        record  keep every step's registers (with retained gradients) for `gradient_flow`
        check   an exhausted budget raises CycleBudgetExceeded; without, it is the result's stop 'budget'
        """
        if isinstance(max_steps, dict):  # the old form, run({"R0": x})
            warnings.warn("DifferentiableEngine.run({...}) is now run(inputs={...})", DeprecationWarning, stacklevel=2)
            if inputs is not None:
                raise TypeError("give the inputs once: run(inputs={...})")
            inputs, max_steps = max_steps, None
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
            if self._halted_lanes().all():
                stop = "halted"
                break
            if ran > 0 and self.pc in self.breakpoints:
                stop = "breakpoint"
                break
            if record:
                executed.append(self.pc)
            self._advance()
            ran += 1
            if record:
                self._regs.retain_grad()
                history.append(self._regs)
        else:
            stop = "halted" if self._halted_lanes().all() else "budget"
        seconds = time.perf_counter() - t0
        self._status = "breakpoint" if stop == "breakpoint" else "halted" if self._halted_lanes()[0] else "running"
        if check and stop == "budget":
            raise CycleBudgetExceeded(budget, self.pc, self._instruction_text(self.pc),
                                      int((~self._halted_lanes()).sum()))
        return SoftRun(stop, ran, seconds, self.pc, program=self.program, alu=self.alu, registers=self._regs,
                       flags=self._flags, pc_distribution=self._pc, history=history, executed=executed)

    # --- the protocol's view of lane 0 ------------------------------------------------------------------
    @property
    def registers(self) -> dict[str, int]:
        """Lane 0's registers rounded to integers."""
        return {name: int(round(v)) for name, v in self.values().items()}

    def values(self) -> dict[str, float]:
        """Lane 0's registers as the real numbers they are."""
        return dict(zip(REGISTERS, self._regs.detach()[0].tolist()))

    def gradients(self) -> dict[str, dict[str, float]]:
        """For each register, d(its value now) / d(each input), lane 0 (0 where no path leads from the input)."""
        wrt = {k: v for k, v in self._inputs.items() if v.requires_grad}
        grads = {}
        for r, name in enumerate(REGISTERS):
            value, row = self._regs[0, r], dict.fromkeys(self._inputs, 0.0)
            if wrt and value.requires_grad:
                found = torch.autograd.grad(value, list(wrt.values()), retain_graph=True, allow_unused=True)
                row.update((k, float(g.reshape(-1)[0])) for k, g in zip(wrt, found) if g is not None)
            grads[name] = row
        return grads

    @property
    def pc(self) -> int:
        """Lane 0's most likely instruction (`len(program)`: the halted slot)."""
        return int(self._pc.detach()[0].argmax())

    def pc_distribution(self) -> list[float]:
        """Lane 0's probability of each instruction, then of having halted."""
        return self._pc.detach()[0].tolist()

    @property
    def flags(self) -> dict[str, bool]:
        """Lane 0's flags, each set when its (soft) value is over one half."""
        return {name: value > 0.5 for name, value in zip(FLAGS, self._flags.detach()[0].tolist())}

    def _flag_text(self) -> str:
        return "".join(name[0] for name, on in self.flags.items() if on)

    @property
    def cycles(self) -> int:
        return self._cycles

    @property
    def status(self) -> str:
        """'running', 'breakpoint' (a run stopped before lane 0's most likely instruction) or 'halted' (lane 0)."""
        return self._status

    @property
    def stop_detail(self) -> str:
        return ""

    @property
    def trace(self) -> Trace:
        """Recent steps of lane 0 (its most likely instruction, its rounded registers' changes)."""
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

    @staticmethod
    def _no_memory(where) -> int:
        raise ValueError(f"nothing to watch at {where!r}: {NO_MEMORY}")

    def read_memory(self, address: int, n: int) -> bytes:
        if n > 0:
            raise ValueError(f"cannot read {n} bytes at {address}: {NO_MEMORY}")
        return b""

    def memory_map(self) -> list[tuple[int, int, str]]:
        return []

    def snapshot(self) -> Snapshot:
        """The inputs and the soft state (tensors are never changed in place: a snapshot holds them as they are)."""
        return Snapshot(self._cycles, _State(dict(self._inputs), self._lanes, self._imm, self._regs, self._flags,
                                             self._pc, self._status, tuple(self._trace)))

    def restore(self, snapshot: Snapshot) -> None:
        self.restore_keeping_trace(snapshot)
        self._trace = deque(snapshot.state.trace, maxlen=self._trace.maxlen)

    def restore_keeping_trace(self, snapshot: Snapshot) -> None:
        s = snapshot.state
        self._inputs, self._lanes, self._imm = dict(s.inputs), s.lanes, s.immediates
        self._regs, self._flags, self._pc, self._status = s.registers, s.flags, s.pc, s.status
        self._cycles = snapshot.cycles

    # --- how the debugger shows it ------------------------------------------------------------------------
    def _instruction_text(self, pc: int) -> str:
        if pc >= len(self):
            return "(halted)"
        if self.soft:
            text, probability = self.program.most_likely(pc)
            return f"{text}    p={probability:.2f}"
        return self.program.instructions[pc].text(self.program.label_at())

    def disassemble(self, start: int | None = None, n: int = 8) -> list[tuple[int, str]]:
        """(index, text) from `start` (default: the PC); the row after the last instruction is the
        halted slot. A soft program's slot shows its most likely instruction and that one's probability."""
        start = self.pc if start is None else start
        return [(i, self._instruction_text(i)) for i in range(max(0, start), min(len(self) + 1, start + n))]

    def code_labels(self) -> dict[int, str]:
        return {} if self.soft else self.program.label_at()

    def debug_layout(self) -> DebugLayout:
        """R0-R7 and SP (lane 0, rounded), 32 bits; code locations are instruction indices."""
        return DebugLayout((RegisterGroup("registers", REGISTERS, 32),))

    @property
    def title(self) -> str:
        """'<name> · differentiable, fast ALU'."""
        name = self.program.name if not self.program.name.startswith("<") else f"{len(self)} instructions"
        return f"{name} · differentiable, {self.alu} ALU"

    def debug_extras(self) -> DebugExtras:
        """Lane 0's PC distribution (a bar on each listing row, the halted slot's too), each register's
        real value with its gradient with respect to each input, and a soft program's likeliest choices."""
        weights = dict(enumerate(self.pc_distribution()))
        values, grads = self.values(), self.gradients()
        inputs = list(self._inputs)
        rows = tuple((name, f"{values[name]:.6g}", *(f"{grads[name][k]:.6g}" for k in inputs)) for name in REGISTERS)
        panels = [Panel("Values and gradients", ("register", "value", *(f"∂/∂{k}₀" for k in inputs)), rows)]
        if self.soft:
            panels.append(Panel("Slot choices", ("slot", "field", "most likely", "2nd", "3rd"), tuple(
                (str(slot), field, *(Bar(p, f"{choice} {p:.2f}") for choice, p in choices))
                for slot in range(len(self)) for field, choices in self.program.top_choices(slot).items())))
        return DebugExtras(weights, tuple(panels))

    def debugger(self, **options):
        """A live debugger: registers, the PC distribution on the listing, values and gradients, trace,
        and step / run / back / reset (see `ncpu_nb.views.Debugger` for the options)."""
        from ncpu_nb.views import Debugger  # imports anywidget: only when asked

        return Debugger(self, **options)

    def __repr__(self) -> str:
        return (f"<DifferentiableEngine {self.program.name}: {len(self)} instructions, {self.alu} ALU, "
                f"pc={self.pc} cycles={self.cycles} {self.status}>")

    def _repr_html_(self) -> str:
        listing = (html.table(["slot", "most likely"], [[str(i), text] for i, text in self.disassemble(0, len(self))])
                   if self.soft else self.program.listing_html())
        return html.view(f"DifferentiableEngine ({self.alu} ALU, flag temperature {self.flag_temperature})", listing)
