"""`ProgramOptimizer`: gradient descent on a program's inputs, its constants, or an array in its memory.

Both searches run the program on the differentiable engine, step an optimiser on the loss, and
after every step round the parameters to integers and run the program on the exact CPU: they stop
as soon as the rounded answer is exactly right, so a reported success is a checked fact.

Float programs (FMOV literals, float inputs) descend on the engine's float64 relaxation
(`soft_float.float64_forward`): rounded to binary32, the loss is a staircase whose ulp-sized steps stall
a line search a hair from the answer. Each candidate is then rounded to binary32 and checked on the
CPU, as integer ones are rounded to integers.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from html import escape

import torch

from ncpu_nb import html
from ncpu_nb.differentiable.engine import DTYPE, DifferentiableEngine
from ncpu_nb.differentiable.soft_float import float64_forward
from ncpu_nb.ncpu.neural_alu import torch_device
from ncpu_nb.ncpu.exact_check import MEMORY, float_bits, passing, passing_with_code_in_memory
from ncpu_nb.ncpu.float_format import BINARY32
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.encoding import Instruction
from ncpu_nb.ncpu.program import Program

IMMEDIATE_KINDS = ("imm16", "imm20", "lit", "float")  # "float": FMOV's literal, fitted as a binary32 number


def sparkline(values: list[float], width: int = 240, height: int = 48) -> str:
    """A static SVG polyline of log10(loss) (no JavaScript)."""
    if len(values) < 2:
        return ""
    logs = [torch.log10(torch.tensor(max(v, 1e-12))).item() for v in values]
    lo, hi = min(logs), max(logs)
    span = (hi - lo) or 1.0
    points = " ".join(f"{i * width / (len(logs) - 1):.1f},{height - 2 - (v - lo) / span * (height - 4):.1f}"
                      for i, v in enumerate(logs))
    return (f"<svg width='{width}' height='{height}' style='border:1px solid #ddd'>"
            f"<polyline fill='none' stroke='#3b6fb6' stroke-width='1.5' points='{points}'/></svg>"
            f"<div class='dim'>log10 loss: {hi:.2f} → {lo:.2f} over {len(values)} steps</div>")


@dataclass
class OptimizationResult:
    """What an optimisation found, with its loss history and the exact check.

    values    the integer answer (register -> value, instruction index -> constant, or address -> array value)
    solved    True only if the exact CPU agreed on every training example (and every held-out one)
    program   the program run (with the fitted constants for `fit_constants`)
    """

    task: str
    values: dict
    solved: bool
    steps: int
    seconds: float
    losses: list = field(default_factory=list)
    program: Program | None = None
    held_out: tuple[int, int] | None = None  # (passed, total) on examples never used for fitting
    real_values: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        state = "solved" if self.solved else "not solved"
        return f"<OptimizationResult {self.task}: {state} in {self.steps} steps, {self.values}>"

    def _repr_html_(self) -> str:
        rows = [[escape(str(k)), str(v), f"{self.real_values.get(k, float('nan')):.4f}"]
                for k, v in self.values.items()]
        facts = [["result", "solved (checked on the exact CPU)" if self.solved else "not solved"],
                 ["steps", str(self.steps)], ["time", f"{self.seconds:.3f} s"],
                 ["final loss", f"{self.losses[-1]:.3g}" if self.losses else "-"]]
        if self.held_out:
            facts.append(["held-out examples", f"{self.held_out[0]} / {self.held_out[1]} exact"])
        parts = [html.box(html.table(["", ""], facts)), html.box(html.table(["parameter", "integer", "real"], rows)),
                 html.box(sparkline(self.losses))]
        if self.program is not None and self.task == "fit_constants":
            parts.append(self.program.listing_html())
        return html.view(f"Optimisation: {self.task}", *parts)


def with_immediates(program: Program, values: dict[int, int | float]) -> Program:
    """The program with the immediate operand of instruction i replaced by values[i] (a float
    literal by the binary32 nearest to values[i])."""
    labels = program.label_at()
    lines = []
    for i, instr in enumerate(program.instructions):
        if i in values:
            ops = [(float_bits(values[i]) if kind == "float" else values[i]) if kind in IMMEDIATE_KINDS else v
                   for (_, kind, _), v in zip(instr.form.operands, instr.values)]
            instr = Instruction(instr.form, tuple(ops))
        lines.append((f"{labels[i]}: " if i in labels else "") + instr.text(labels))
    end = [f"{name}:" for name, index in (program.code_labels or {}).items() if index == len(program)]
    return assemble("\n".join(lines + end), name=program.name)


def immediate_indices(program: Program) -> list[int]:
    """Instructions whose operands include an immediate (constants that can be fitted)."""
    return [i for i, instr in enumerate(program.instructions)
            if any(kind in IMMEDIATE_KINDS for _, kind, _ in instr.form.operands)]


def _binary32(x: float) -> float:
    return BINARY32.to_float(float_bits(x))


def _constant(program: Program, i: int, c: float) -> int | float:
    """The value a fitted constant takes in instruction i: the nearest binary32 for a float literal, else
    the nearest integer."""
    if any(kind == "float" for _, kind, _ in program.instructions[i].form.operands):
        return _binary32(c)
    return int(round(c))


def as_lanes(examples: list[tuple[dict, dict]], device: str | torch.device = "cpu"):
    """Examples as one batch, an example per lane: (inputs, targets) register -> (examples,) tensor
    on `device`, and the loss of a run: the squared error, scaled by the targets' size so that big
    and small targets weigh alike."""
    inputs = {k: torch.tensor([float(i[k]) for i, _ in examples], dtype=DTYPE, device=device) for k in examples[0][0]}
    targets = {k: torch.tensor([float(o[k]) for _, o in examples], dtype=DTYPE, device=device) for k in examples[0][1]}
    scale = sum((t ** 2).mean() for t in targets.values()) + 1.0
    return inputs, targets, lambda run: sum(((run[k] - t) ** 2).mean() for k, t in targets.items()) / scale


class ProgramOptimizer:
    """Gradient descent through program execution.

    alu        'fast' or 'neural' (see DifferentiableEngine)
    max_steps  optimisation steps before giving up
    device     the torch device the runs (and `optimize_inputs`' restarts, its lanes) compute on: cpu
               (default) or cuda; random starts are drawn on the CPU, so a seed gives the same on each
    """

    def __init__(self, alu: str = "fast", max_steps: int = 500, device: str | torch.device = "cpu"):
        self.alu, self.max_steps, self.device = alu, max_steps, torch_device(device)

    def _engine(self, program, **options) -> DifferentiableEngine:
        return DifferentiableEngine(program, alu=self.alu, device=self.device, **options)

    def optimize_inputs(self, program: str | Program, targets: dict[str, int], inputs: list[str], *,
                        fixed: dict | None = None, init: dict | None = None, lr: float = 1.0,
                        restarts: int = 1, seed: int = 0, tolerance: float = 0.0) -> OptimizationResult:
        """Find integer values of the `inputs` registers that make the program end with `targets`
        (binary32 numbers for registers that hold floats, `engine.float_registers`).

        fixed     other registers' initial values
        init      starting values (default 0; with `restarts` > 1, lanes after the first start at
                  random values in ±|largest target|), every restart a lane of one batch
        tolerance how far a float target may be missed (default 0: the target rounded to binary32)
        """
        engine = self._engine(program)
        floats = engine.float_registers
        as_value = lambda name, v: _binary32(v) if name in floats else int(round(v))  # noqa: E731
        generator = torch.Generator(device="cpu").manual_seed(seed)
        scale = max([abs(v) for v in targets.values()] + [1])
        start = torch.zeros(restarts, len(inputs), dtype=DTYPE, device="cpu")
        for j, name in enumerate(inputs):
            start[:, j] = float((init or {}).get(name, 0))
        if restarts > 1:
            draw = torch.rand(restarts - 1, len(inputs), generator=generator, dtype=DTYPE, device="cpu")
            start[1:] = (draw * 2 - 1) * scale
        x = start.to(self.device, copy=True).requires_grad_(True)
        opt = torch.optim.Adam([x], lr=lr)
        want = {k: torch.tensor(float(v), dtype=DTYPE, device=self.device) for k, v in targets.items()}
        losses, t0 = [], time.perf_counter()
        for step in range(1, self.max_steps + 1):
            with float64_forward():
                run = engine.run(inputs={**(fixed or {}), **{n: x[:, j] for j, n in enumerate(inputs)}},
                                 lanes=restarts, check=False)
            per_lane = sum((run[k] - v) ** 2 for k, v in want.items())
            loss = per_lane.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(per_lane.detach().min().item())
            found = self._check_inputs(engine.program, x, inputs, fixed, targets, floats, tolerance)
            if found is not None:
                values = {n: as_value(n, x[found, j].item()) for j, n in enumerate(inputs)}
                return OptimizationResult("optimize_inputs", values, True, step, time.perf_counter() - t0, losses,
                                          engine.program, real_values={n: x[found, j].item()
                                                                       for j, n in enumerate(inputs)})
        best = int(per_lane.detach().argmin())
        return OptimizationResult("optimize_inputs", {n: as_value(n, x[best, j].item()) for j, n in enumerate(inputs)},
                                  False, self.max_steps, time.perf_counter() - t0, losses, engine.program,
                                  real_values={n: x[best, j].item() for j, n in enumerate(inputs)})

    @staticmethod
    def _check_inputs(program, x, inputs, fixed, targets, floats=(), tolerance=0.0) -> int | None:
        """The first lane whose rounded inputs (binary32 for a float register) the exact CPU confirms, or None."""
        values = x.detach()
        candidates = [{**(fixed or {}), **{n: _binary32(float(values[lane, j])) if n in floats else
                                           int(torch.round(values[lane, j])) for j, n in enumerate(inputs)}}
                      for lane in range(values.shape[0])]
        ok = passing(program, [(c, targets) for c in candidates], floats=floats, tolerance=tolerance)
        return int(ok.argmax()) if ok.any() else None

    def fit_memory(self, program: str | Program, examples: list[tuple[dict, dict]], address: int, length: int, *,
                   width: int = 4, held_out: list[tuple[dict, dict]] = (), lr: float = 1.0,
                   init: list | None = None, code_at: int | None = None) -> OptimizationResult:
        """Find the `length` values (`width` bytes each) of an array at `address` in data memory that
        make every example's inputs produce its outputs — gradient descent through the loads that
        read it (L-BFGS on the squared error, as `fit_constants`), from `init` (default zeros).
        Solved means: the rounded array, placed in memory, is exact on every example and every
        `held_out` one, checked on the CPU. With `code_at` the program's code lives in memory
        (see `DifferentiableEngine`), so the array may be instructions the program copies into its
        code; the check then runs on the reference interpreter, which runs such code."""
        engine = self._engine(program, memory_width=width, code_at=code_at)
        if init is not None and len(init) != length:
            raise ValueError(f"init has {len(init)} values for an array of {length}")
        array = torch.tensor([float(v) for v in (init or [0] * length)], dtype=DTYPE, device=self.device,
                             requires_grad=True)
        inputs, targets, loss_of = as_lanes(examples, self.device)
        opt = torch.optim.LBFGS([array], lr=lr, max_iter=1, line_search_fn="strong_wolfe")
        losses, t0 = [], time.perf_counter()

        def closure():
            opt.zero_grad()
            run = engine.run(inputs={**inputs, MEMORY: {address: array}}, lanes=len(examples), check=False)
            loss = loss_of(run)
            loss.backward()
            return loss

        def placed(pairs):
            values = [int(round(v)) for v in array.detach().tolist()]
            return [({**i, MEMORY: {address: values}}, o) for i, o in pairs]

        def passes(pairs):
            if code_at is None:
                return passing(engine.program, placed(pairs), width=width)
            return passing_with_code_in_memory(engine.program, placed(pairs), code_at, width=width)

        solved = False
        for step in range(1, self.max_steps + 1):
            losses.append(opt.step(closure).item())
            if passes(examples).all():
                solved = True
                break
        held = None
        if held_out:
            kept = passes(held_out)
            held = (int(kept.sum()), len(held_out))
            solved = solved and held[0] == held[1]
        rounded = [int(round(v)) for v in array.detach().tolist()]
        return OptimizationResult("fit_memory", {address + i * width: v for i, v in enumerate(rounded)}, solved,
                                  step, time.perf_counter() - t0, losses, engine.program, held,
                                  {address + i * width: v for i, v in enumerate(array.detach().tolist())})

    def fit_constants(self, program: str | Program, examples: list[tuple[dict, dict]], *,
                      held_out: list[tuple[dict, dict]] = (), which: list[int] | None = None,
                      lr: float = 1.0, tolerance: float = 0.0) -> OptimizationResult:
        """Fit the program's immediate operands (instructions `which`, default every one that has an
        immediate, FMOV's float literals included) so that each example's inputs produce its outputs;
        L-BFGS on the squared error, scaled by the targets' size. Solved means: the constants rounded
        (to integers; a float literal to binary32) exact on every example and on every `held_out`
        example, checked on the CPU; a float output within `tolerance` of its target counts as exact
        (default 0: the target rounded to binary32). Without a solution it runs `max_steps` steps and
        returns the constants it ended with."""
        engine = self._engine(program)
        floats = engine.float_registers
        if which is None:  # not a MOV of bits into a float register: those bits are not a number to fit
            which = [i for i in immediate_indices(engine.program) if i not in engine.floats.immediates
                     or any(kind == "float" for _, kind, _ in engine.program.instructions[i].form.operands)]
        constants = engine.immediates[which].clone().requires_grad_(True)
        inputs, targets, loss_of = as_lanes(examples, self.device)
        # a float fit's loss may be tiny (1e-8 and below) and still improving: no stopping on small changes
        small = dict(tolerance_grad=0.0, tolerance_change=0.0) if floats else {}
        opt = torch.optim.LBFGS([constants], lr=lr, max_iter=1, line_search_fn="strong_wolfe", **small)
        losses, t0 = [], time.perf_counter()

        def closure():
            opt.zero_grad()
            imm = engine.immediates.index_put((torch.tensor(which, dtype=torch.long, device=self.device),), constants)
            with float64_forward():  # a float program descends on its smooth relaxation (see the module docstring)
                run = engine.run(inputs=inputs, immediates=imm, check=False)
            loss = loss_of(run)
            loss.backward()
            return loss

        fitted, solved = engine.program, False
        for step in range(1, self.max_steps + 1):
            losses.append(opt.step(closure).item())
            values = {i: _constant(engine.program, i, c) for i, c in zip(which, constants.detach().tolist())}
            try:
                fitted = with_immediates(engine.program, values)
            except Exception:  # a constant outside its field's range: keep descending
                continue
            if passing(fitted, list(examples), floats=floats, tolerance=tolerance).all():
                solved = True
                break
        values = {i: _constant(engine.program, i, c) for i, c in zip(which, constants.detach().tolist())}
        real = dict(zip(which, constants.detach().tolist()))
        kept = passing(fitted, list(held_out), floats=floats, tolerance=tolerance) if held_out else None
        held = (int(kept.sum()), len(held_out)) if held_out else None
        solved = solved and (held is None or held[0] == held[1])
        return OptimizationResult("fit_constants", values, solved, step, time.perf_counter() - t0, losses, fitted,
                                  held, real)
