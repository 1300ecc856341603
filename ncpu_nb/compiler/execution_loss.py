"""Execution as a training signal: compile, relax, run differentiably, compare, backpropagate.

    parser = CodeToISAParser()
    loss_fn = ExecutionLoss(engine=DifferentiableEngine)       # the class, an engine, or None
    result = parser.parse_block("result = a * b + c", arg_names=["a", "b", "c"])
    r = loss_fn.compute_soft(result.to_soft_program(), inputs={"a": 3, "b": 5, "c": 2},
                             expected={"result": 17.0})
    r.total_loss.backward()     # gradients through every ALU operation
    r.gradients()               # {'a': ..., 'b': ..., 'c': ...}

`to_soft_program()` makes one of two things. A straight-line compiled block (ALU instructions on
registers only) becomes a `CompiledSoftProgram`: the engine's `SoftProgram`, one slot per
instruction, its distributions peaked on the compiled choices (`sharpness`: the logit of the chosen
opcode, registers and immediate; 20 puts all but ~1e-8 of each distribution on it) and the
literals as its trainable immediates — so the loss reaches inputs, constants *and* instruction
choices, and the relaxed value is within ~1e-6 of the exact one. Anything with branches, loops,
calls or memory becomes a `TrainableProgram`: the exact compiled program on the differentiable
engine (soft PC, soft memory) with every Python literal a trainable immediate — gradients reach
inputs and constants (through branch conditions, via the flags' surrogates), while the
instructions themselves stay what the compiler chose.

This lives with the compiler (not in `differentiable`) because it reads what only the compiler
knows: which register or address holds each Python variable, and which immediate is which literal.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch

from ncpu_nb.compiler.compiled import CompiledPython, compile_python
from ncpu_nb.compiler.scopes import LIST
from ncpu_nb.differentiable.engine import DifferentiableEngine
from ncpu_nb.differentiable.gradient_flow import GradientFlow
from ncpu_nb.differentiable.soft_program import CHOICES, IMMEDIATE, OPCODES, SoftProgram
from ncpu_nb.ncpu.table import REGISTERS

DTYPE = torch.float64
ENGINE_OPTIONS = ("alu", "flag_temperature", "soft_branches", "max_steps", "memory_size")


class CompiledSoftProgram(SoftProgram):
    """A `SoftProgram` peaked on a compiled straight-line block; `registers` maps each Python variable
    to the register holding it, `compiled` is the exact program it came from."""

    def __init__(self, compiled: CompiledPython, slots: list[dict], sharpness: float):
        super().__init__(len(slots), scale=0.0, name=f"soft {compiled.program.name}")
        self.compiled, self.sharpness = compiled, sharpness
        self.registers = {name: v.register for name, v in compiled.variables.items()}
        with torch.no_grad():
            for slot, choice in enumerate(slots):
                for name, value in choice.items():
                    if name == "imm":
                        self.immediates[slot] = float(value)
                    else:
                        self.logits[name][slot, CHOICES[name].index(value)] = sharpness

    def constant_gradients(self) -> dict:
        """(line, column, value) of each literal -> d loss / d its immediate (after backward)."""
        grad = self.immediates.grad
        return {origin: (float(grad[slot]) if grad is not None else 0.0)
                for slot, origin in self.compiled.constants.items()}

    def choice_gradients(self) -> dict[str, np.ndarray]:
        """Field -> (slots, choices) d loss / d logit (after backward): the gradient to instruction choices."""
        return {name: (l.grad.numpy().copy() if l.grad is not None else np.zeros(tuple(l.shape)))
                for name, l in self.logits.items()}


class TrainableProgram:
    """A compiled program as the engine runs it, every distinct Python literal one trainable
    parameter (`constants`, in the order of `origins`)."""

    def __init__(self, compiled: CompiledPython):
        self.compiled = compiled
        self.origins = sorted({origin[:2]: origin for origin in compiled.constants.values()}.values())
        self.constants = torch.tensor([float(v) for _, _, v in self.origins], dtype=DTYPE, requires_grad=True)
        self._slot = {origin[:2]: k for k, origin in enumerate(self.origins)}

    def parameters(self) -> list[torch.Tensor]:
        return [self.constants]

    def immediates(self, engine: DifferentiableEngine) -> torch.Tensor:
        """The engine's immediates with each literal's replaced by its trainable parameter."""
        base = engine.immediates
        columns = [self.constants[self._slot[self.compiled.constants[i][:2]]] if i in self.compiled.constants
                   else base[i] for i in range(len(base))]
        return torch.stack(columns) if columns else base

    def constant_gradients(self) -> dict:
        grad = self.constants.grad
        return {origin: (float(grad[k]) if grad is not None else 0.0) for k, origin in enumerate(self.origins)}

    def __repr__(self) -> str:
        return f"<TrainableProgram: {len(self.compiled.program)} instructions, {len(self.origins)} trainable literals>"


@dataclass
class ParsedBlock:
    """What `CodeToISAParser.parse_block` gives: the compiled program and its relaxations."""

    compiled: CompiledPython

    @property
    def program(self):
        return self.compiled.program

    def to_soft_program(self, sharpness: float = 20.0):
        """A `CompiledSoftProgram` for a straight-line block, else a `TrainableProgram` (module docstring)."""
        slots = straight_line_slots(self.compiled)
        if slots is None:
            return TrainableProgram(self.compiled)
        return CompiledSoftProgram(self.compiled, slots, sharpness)

    def _repr_html_(self) -> str:
        return self.compiled._repr_html_()


def straight_line_slots(compiled: CompiledPython) -> list[dict] | None:
    """The SoftProgram choices (op, dst, a, b, imm) of each instruction before the final HALT, or None
    if the program is not straight-line register arithmetic."""
    program = compiled.program
    if any(v.register is None for v in compiled.variables.values()) or not len(program) \
            or program.instructions[-1].mnemonic != "HALT":
        return None
    slots = []
    for instruction in program.instructions[:-1]:
        mnemonic, kinds = instruction.mnemonic, [t for _, t, _ in instruction.form.operands]
        values = list(instruction.values)
        if mnemonic not in OPCODES or mnemonic == "NOP" or kinds[0] != "reg" or values[0] > 7:
            return None
        choice = {"op": mnemonic, "dst": REGISTERS[values[0]]}
        rest = list(zip(kinds[1:], values[1:]))
        if mnemonic in ("NEG", "NOT"):
            choice["a"] = REGISTERS[rest[0][1]]
        else:
            if mnemonic != "MOV":
                if rest[0][0] != "reg" or rest[0][1] > 7:
                    return None
                choice["a"] = REGISTERS[rest[0][1]]
                rest = rest[1:]
            kind, value = rest[0]
            if kind == "reg":
                if value > 7:
                    return None
                choice["b"] = REGISTERS[value]
            else:
                choice["b"], choice["imm"] = IMMEDIATE, value
        slots.append(choice)
    return slots


class CodeToISAParser:
    """Python source -> nCPU program (`ncpu_nb.compile_python`), wrapped for the differentiable engine."""

    def parse_block(self, source: str, arg_names=()) -> ParsedBlock:
        return ParsedBlock(compile_python(source, inputs=arg_names))


@dataclass
class ExecutionLossResult:
    """One loss evaluation: `total_loss` (a tensor to backpropagate), `losses` per expected output,
    `outputs` (what the relaxed execution computed), `inputs` (the leaf tensors given), the engine's
    `run`, the `program` run."""

    total_loss: torch.Tensor
    losses: dict
    outputs: dict
    inputs: dict
    run: object
    program: object
    engine: DifferentiableEngine = field(repr=False, default=None)

    def gradients(self) -> dict[str, float]:
        """d total_loss / d each input (after `total_loss.backward()`)."""
        return {name: (float(t.grad.sum()) if t.grad is not None else 0.0) for name, t in self.inputs.items()}

    def constant_gradients(self) -> dict:
        """(line, column, value) of each Python literal -> d total_loss / d it (after backward)."""
        return self.program.constant_gradients()

    def gradient_flow(self, title: str | None = None) -> GradientFlow:
        """|d loss / d register| after every step (needs `compute_soft(..., record=True)` and backward):
        feed it to `ncpu_nb.plot_gradient_flow`. Each row is labelled with the instruction and its Python line."""
        history = self.run.history
        if not history:
            raise ValueError("no steps were recorded: call compute_soft(..., record=True), then backward()")
        grid = np.stack([(h.grad.abs().mean(0).numpy() if h.grad is not None else np.zeros(len(REGISTERS)))
                         for h in history])
        compiled = getattr(self.program, "compiled", None)
        labels = ["(inputs)"]
        for pc in self.run.executed:
            if isinstance(self.program, SoftProgram):
                text = self.program.most_likely(pc)[0] if pc < len(self.program) else "(halted)"
            else:
                program = compiled.program
                text = program.instructions[pc].text(program.label_at()) if pc < len(program) else "(halted)"
            line = compiled.program.source_line(pc) if compiled is not None and pc < len(compiled.program) else ""
            labels.append(f"{text}   | {line}" if line else text)
        shown = [i for i, name in enumerate(REGISTERS) if name != "SP"]
        reached = [i for i in shown if grid[:, i].any()] or shown
        return GradientFlow(grid[:, reached], labels, tuple(REGISTERS[i] for i in reached),
                            title or "Gradient flow through a compiled Python program",
                            float(self.total_loss.detach()), tuple(REGISTERS[i] for i in shown if i not in reached))


class ExecutionLoss:
    """Squared error between what a compiled program computes, run differentiably, and what is expected.

    engine  how to build the engine: None (defaults), the `DifferentiableEngine` class or any callable
            taking the program, or an engine whose options (ALU, flag temperature, soft branches,
            step budget, memory size) are copied
    """

    def __init__(self, engine=None):
        if isinstance(engine, DifferentiableEngine):
            options = {name: getattr(engine, name) for name in ENGINE_OPTIONS}
            self.make = lambda program: DifferentiableEngine(program, **options)  # noqa: E731
        elif engine is None:
            self.make = DifferentiableEngine
        elif callable(engine):
            self.make = engine
        else:
            raise TypeError(f"engine is None, the DifferentiableEngine class (or a factory), or an engine; "
                            f"not {type(engine).__name__}")

    def compute_soft(self, program, inputs: dict, expected: dict, *, record: bool = False) -> ExecutionLossResult:
        """Run `program` (a `to_soft_program()` result, a parsed block or a CompiledPython) on `inputs`
        (variable -> number or tensor) and compare each variable of `expected` (a number, or a list for a
        list variable) by squared error. `record` keeps every step for `gradient_flow`."""
        if isinstance(program, ParsedBlock):
            program = program.to_soft_program()
        if isinstance(program, CompiledPython):
            program = TrainableProgram(program)
        compiled = program.compiled
        unknown = (set(inputs) - set(compiled.inputs)) | (set(expected) - set(compiled.variables))
        if unknown:
            raise KeyError(f"not a variable of this program's inputs/outputs: {', '.join(sorted(unknown))}")
        leaves = {name: value if isinstance(value, torch.Tensor) else
                  torch.tensor(float(value), dtype=DTYPE, requires_grad=True) for name, value in inputs.items()}
        registers, arrays = {}, {}
        for name, leaf in leaves.items():
            variable = compiled.variables[name]
            if variable.register:
                registers[variable.register] = leaf
            else:
                arrays[variable.address] = leaf.reshape(-1)
        if isinstance(program, CompiledSoftProgram):
            engine = self.make(program)
            run = engine.run(inputs=registers, record=record)
        else:
            engine = self.make(compiled.program)
            engine.reset(immediates=program.immediates(engine))
            run = engine.run(inputs={**registers, **({"memory": arrays} if arrays else {})}, record=record)
        outputs = {name: read_variable(run, compiled, name) for name in expected}
        losses = {}
        for name, want in expected.items():
            target = torch.as_tensor(want, dtype=DTYPE)
            got = outputs[name]
            if got.shape[-1:] != target.shape[-1:] and target.dim():
                raise ValueError(f"{name} has {got.shape[-1]} elements, expected {target.shape[-1]}")
            losses[name] = ((got - target) ** 2).sum(-1).mean() if target.dim() else ((got - target) ** 2).mean()
        total = torch.stack(list(losses.values())).sum() if losses else torch.zeros((), dtype=DTYPE)
        return ExecutionLossResult(total, losses, outputs, leaves, run, program, engine)

    __call__ = compute_soft


def read_variable(run, compiled: CompiledPython, name: str) -> torch.Tensor:
    """A module variable at the end of a differentiable run: (lanes,) for an int, (lanes, n) for a list
    (its address and length read exactly, its elements differentiably)."""
    variable = compiled.variables[name]
    if variable.register:
        value = run[variable.register]
    else:
        value = run.memory.read(torch.full((run.registers.shape[0],), float(variable.address), dtype=DTYPE), 4)
    if variable.type != LIST:
        return value
    address = int(round(float(value.detach()[0])))
    length = int(round(float(run.memory.read(torch.tensor([address - 4.0], dtype=DTYPE), 4).detach()[0])))
    lanes = run.registers.shape[0]
    return torch.stack([run.memory.read(torch.full((lanes,), float(address + 4 * k), dtype=DTYPE), 4)
                        for k in range(length)], 1)
