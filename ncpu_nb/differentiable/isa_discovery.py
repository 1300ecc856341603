"""`ISADiscovery`: learn a small instruction set from the programs it has to express.

The instruction set is k learnable ops. Op i is a soft mixture over the primitive circuits of
`isa_library` (softmax of its logits at a temperature annealed towards zero, so it ends as one
circuit); its cost is the expected size of its circuit, so the cost is learned with it.

Benchmark pressure: each target function of the benchmark must be computed by a short straight-line
program over the k ops. Programs of up to three instructions are few (`isa_search`), so rather than
learning each program's choices we take them all: a target's loss is the *softmin* over every program
of its error plus a price per instruction, and the softmin's weights are the target's soft choice of
program. Gradients reach the ops through the programs that use them, weighted by how good those
programs are. (Learning program choices as logits too was tried first: the mixtures settled in
fractional states where a blend of pass-throughs fits half a target and no op became −.)

The loss adds the ISA's area: each op's cost times the chance that some target's program uses it. So
an op that no program needs drifts to a free circuit, and a costly fused op (2a+b, a·a) survives only
if the programs it shortens pay for it.

After training each op is snapped to its likeliest circuit, each target to its best program over the
snapped ops, and both are checked exactly: every op on a held-out integer grid against the benchmark's
reference operations, every program on the grid, and programs whose ops are nCPU instructions on the
exact CPU. The fixed nCPU ALU's shortest programs (by the same enumeration) are the comparison.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from html import escape

import torch

from ncpu_nb import html
from ncpu_nb.differentiable import isa_search
from ncpu_nb.differentiable.isa_library import PRIMITIVES, Benchmark, benchmark as find_benchmark
from ncpu_nb.differentiable.soft_alu import exact_op
from ncpu_nb.ncpu.neural_alu import torch_device

DTYPE = torch.float64
FIXED_ISA = ("add", "sub", "mul", "div", "mod", "and", "or", "xor", "shl", "shr", "sar", "neg", "not")


@dataclass
class LearnedOp:
    """One op of the learned set, snapped: its circuit, how sure the mixture was, its cost, and its
    agreement with each reference operation on the held-out grid (symbol -> fraction)."""

    circuit: str
    probability: float
    cost: float
    used: bool
    agreement: dict


@dataclass
class TargetProgram:
    """A benchmark target's best program over the snapped ops, and the fixed ISA's shortest."""

    target: str
    lines: list
    grid_exact: bool          # the program is right on every pair of the held-out grid
    cpu_checked: bool | None  # right on the exact nCPU CPU (None: an op has no nCPU instruction)
    fixed_lines: list | None  # the nCPU ALU's shortest program (None: more than 3 instructions)

    @property
    def length(self) -> int:
        return len(self.lines)

    @property
    def fixed_length(self) -> int | None:
        return None if self.fixed_lines is None else len(self.fixed_lines)


def sparkline_svg(series: list[list[float]], colours: list[str], width: int = 260, height: int = 60,
                  log: bool = True) -> str:
    """Static SVG polylines (no JavaScript), all on one scale; log10 if `log`."""
    clean = [[max(v, 1e-12) for v in s] for s in series if len(s) > 1]
    if not clean:
        return ""
    values = [[torch.log10(torch.tensor(v)).item() if log else v for v in s] for s in clean]
    lo, hi = min(map(min, values)), max(map(max, values))
    span = (hi - lo) or 1.0
    lines = []
    for s, colour in zip(values, colours):
        points = " ".join(f"{i * width / (len(s) - 1):.1f},{height - 2 - (v - lo) / span * (height - 4):.1f}"
                          for i, v in enumerate(s))
        lines.append(f"<polyline fill='none' stroke='{colour}' stroke-width='1.5' points='{points}'/>")
    return f"<svg width='{width}' height='{height}' style='border:1px solid #ddd'>{''.join(lines)}</svg>"


@dataclass
class ISAResult:
    """What a discovery run learned, checked exactly.

    ops          the k learned ops (LearnedOp), snapped to their likeliest circuits
    recovered    reference symbol -> whether some learned op agrees with it on >= 99 % of the grid
    programs     one TargetProgram per benchmark target
    history      per step: "loss" (the softmin fit), "entropy" (mean entropy of the ops' mixtures at that step's temperature, nats),
                 "cost" (each op's expected circuit cost), "area" (the area term)
    """

    benchmark: str
    seed: int
    ops: list
    recovered: dict
    programs: list
    history: dict
    seconds: float
    grid_size: int
    settings: dict = field(default_factory=dict)

    @property
    def recovers_all(self) -> bool:
        return all(self.recovered.values())

    def agreement(self, symbol: str) -> float:
        """The best agreement of any learned op with reference `symbol` on the held-out grid."""
        return max(op.agreement[symbol] for op in self.ops)

    def __repr__(self) -> str:
        ops = ", ".join(op.circuit for op in self.ops)
        got = " ".join(f"{s}{'✔' if ok else '✘'}" for s, ok in self.recovered.items())
        return (f"<ISAResult {self.benchmark} seed {self.seed}: ops [{ops}], recovered {got}, "
                f"{self.seconds:.1f} s>")

    def _repr_html_(self) -> str:
        symbols = list(self.recovered)
        op_rows = [[f"op{i}", escape(op.circuit), f"{op.probability:.3f}", f"{op.cost:g}",
                    "yes" if op.used else "no", *(f"{100 * op.agreement[s]:.2f} %" for s in symbols)]
                   for i, op in enumerate(self.ops)]
        ops = html.table(["op", "circuit", "p", "cost", "used", *(f"agrees with {s}" for s in symbols)], op_rows)
        program_rows = [[escape(p.target), escape("; ".join(p.lines)), str(p.length),
                         "✔" if p.grid_exact else "✘",
                         "-" if p.cpu_checked is None else "✔" if p.cpu_checked else "✘",
                         escape("; ".join(p.fixed_lines)) if p.fixed_lines else "> 3",
                         str(p.fixed_length or "> 3")] for p in self.programs]
        programs = html.table(["target", "program (learned ops)", "length", "grid", "CPU",
                               "fixed nCPU ISA", "length"], program_rows)
        got = ", ".join(f"{s} {'✔' if ok else '✘'}" for s, ok in self.recovered.items())
        facts = html.table(["", ""], [["benchmark", escape(self.benchmark)], ["seed", str(self.seed)],
                                      ["recovered (≥ 99 % of grid)", got], ["held-out grid", f"{self.grid_size} pairs"],
                                      ["steps", str(len(self.history["loss"]))], ["time", f"{self.seconds:.1f} s"]])
        curves = (sparkline_svg([self.history["loss"]], ["#3b6fb6"])
                  + f"<div class='dim'>fit loss (log10) {self.history['loss'][0]:.3g} → {self.history['loss'][-1]:.3g}</div>"
                  + sparkline_svg([self.history["entropy"]], ["#c0392b"], log=False)
                  + f"<div class='dim'>op entropy (nats) {self.history['entropy'][0]:.2f} → "
                    f"{self.history['entropy'][-1]:.2f}</div>")
        return html.view(f"ISA discovery: {self.benchmark}", html.box(facts), html.box(curves),
                         "<div>" + ops + "</div>", "<div>" + programs + "</div>")


class ISADiscovery:
    """Learn `ops` instructions from the programs a benchmark needs (see the module docstring).

    benchmark     "arithmetic", "bitwise" or an `isa_library.Benchmark`
    ops           how many learnable ops (k)
    steps         Adam steps on the ops' logits, per restart
    restarts      independent starts of the ops; the one with the lowest final training loss is kept
                  (the held-out grid plays no part in the choice)
    program_length  instructions per program while training (each target's softmin runs over all of
                  them); after training the check searches up to 3
    area_cost     weight of the ISA's area (each used op's expected circuit cost)
    length_cost   price of one instruction in a program, in units of the normalised error
    examples      training pairs, drawn once from the benchmark's training range
    seed          draws the examples and the ops' initial logits: the same seed, the same result
    device        the torch device the restarts train on (cpu, cuda); the numbers are drawn on the CPU,
                  so a seed gives the same result on each; snapping and the exact checks run on the CPU
    """

    def __init__(self, benchmark: str | Benchmark = "arithmetic", *, ops: int = 6, steps: int = 300,
                 restarts: int = 2, program_length: int = 2, lr: float = 0.1, area_cost: float = 0.01,
                 length_cost: float = 0.01, examples: int = 24, seed: int = 0,
                 device: str | torch.device = "cpu"):
        self.benchmark = find_benchmark(benchmark)
        for name, value, low in (("ops", ops, 1), ("steps", steps, 1), ("restarts", restarts, 1),
                                 ("program_length", program_length, 1), ("examples", examples, 4)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"{name} must be a whole number, not {type(value).__name__}")
            if value < low:
                raise ValueError(f"{name} must be at least {low}, not {value}")
        if ops > 8:
            raise ValueError(f"at most 8 ops: every program is evaluated, and there are 36·k² of 2 instructions")
        if program_length > 3:
            raise ValueError(f"programs of at most 3 instructions (252·k³ of them), not {program_length}")
        for name, value in (("lr", lr), ("area_cost", area_cost), ("length_cost", length_cost)):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise TypeError(f"{name} must be a number, not {type(value).__name__}")
            if value < 0 or (name == "lr" and value == 0):
                raise ValueError(f"{name} must be {'positive' if name == 'lr' else 'at least 0'}, not {value}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be a whole number, not {type(seed).__name__}")
        self.k, self.steps, self.restarts, self.length, self.lr = ops, steps, restarts, program_length, float(lr)
        self.area_cost, self.length_cost, self.examples, self.seed = float(area_cost), float(length_cost), examples, seed
        self.device = torch_device(device)

    # --- training ----------------------------------------------------------------------------------

    def _training_pairs(self, generator) -> tuple[torch.Tensor, torch.Tensor]:
        lo, hi = self.benchmark.train_range
        draw = lambda: torch.randint(lo, hi + 1, (self.examples,), generator=generator, device="cpu")  # noqa: E731
        return draw(), draw()

    def fit(self, progress: bool = False) -> ISAResult:
        """Train the ops from every restart, keep the restart with the lowest final training loss,
        snap it and check everything exactly; `progress` shows a tqdm bar."""
        torch.manual_seed(self.seed)
        generator = torch.Generator(device="cpu").manual_seed(self.seed)  # the CPU's: the same draws on any device
        a, b = self._training_pairs(generator)
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=self.steps * self.restarts, desc=f"ISA discovery ({self.benchmark.name}, seed {self.seed})")
        started = time.perf_counter()
        runs = [self._train(a.to(self.device), b.to(self.device), generator, bar) for _ in range(self.restarts)]
        if bar is not None:
            bar.close()
        logits, history = min(runs, key=lambda run: run[1]["loss"][-1])
        history["restart_losses"] = [run[1]["loss"][-1] for run in runs]
        return self._snap(logits.cpu(), a, b, history, time.perf_counter() - started)

    def _train(self, a, b, generator, bar) -> tuple[torch.Tensor, dict]:
        """One restart: Adam on the ops' logits; returns them and the learning curves."""
        targets = torch.stack([f(a, b) for f in self.benchmark.targets.values()]).to(DTYPE)  # (T, E)
        scale = targets.pow(2).mean(1) + 1.0  # each target's error relative to its size
        # distinct random preferences: ops that start alike receive alike gradients and stay alike
        device = self.device
        logits = torch.randn(self.k, len(PRIMITIVES), generator=generator, dtype=DTYPE, device="cpu")
        logits = logits.to(device).requires_grad_(True)
        costs = torch.tensor([p.cost for p in PRIMITIVES], dtype=DTYPE, device=device)
        sizes = range(1, self.length + 1)
        uses = [isa_search.uses(n, self.k, device).to(DTYPE) for n in sizes]
        lengths = torch.cat([torch.full((len(u),), float(n), dtype=DTYPE, device=device) for n, u in zip(sizes, uses)])
        uses = torch.cat(uses)
        optimizer = torch.optim.Adam([logits], lr=self.lr)
        history = {"loss": [], "entropy": [], "cost": [], "area": []}
        for step in range(self.steps):
            share = step / max(1, self.steps - 1)
            op_temperature = 0.02 ** share                      # 1 -> 0.02: mixtures end one-hot
            softmin_temperature = 0.3 * 0.01 ** share           # 0.3 -> 0.003: each target ends on its best program
            mixture = torch.softmax(logits / op_temperature, 1)  # (k, P)
            apply = lambda x, y: torch.stack([p.relaxed(x, y) for p in PRIMITIVES], -1) @ mixture.T  # noqa: E731
            values = torch.cat(list(isa_search.levels(apply, a.to(DTYPE), b.to(DTYPE), self.length)))  # (N, E)
            error = ((values.unsqueeze(1) - targets) ** 2).mean(2) / scale               # (N, T)
            score = error + self.length_cost * lengths.unsqueeze(1)
            weights = torch.softmax(-score / softmin_temperature, 0)                       # (N, T)
            fit = -softmin_temperature * torch.logsumexp(-score / softmin_temperature, 0)
            op_cost = mixture @ costs                                                     # (k,)
            used = 1 - torch.prod(1 - (weights.T @ uses).clamp(0, 1), 0)                  # (k,)
            area = (used * op_cost).sum() / costs.max()
            loss = fit.mean() + self.area_cost * area
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            with torch.no_grad():
                history["loss"].append(error.min(0).values.mean().item())
                history["entropy"].append(-(mixture * mixture.clamp_min(1e-30).log()).sum(1).mean().item())
                history["cost"].append(op_cost.tolist())
                history["area"].append(area.item())
            if bar is not None:
                bar.update(1)
                bar.set_postfix(loss=f"{history['loss'][-1]:.3g}")
        return logits.detach(), history

    # --- snapping and checking ---------------------------------------------------------------------

    def _snap(self, logits, a, b, history, seconds) -> ISAResult:
        chosen = logits.argmax(1).tolist()
        probability = torch.softmax(logits, 1).max(1).values.tolist()
        circuits = [PRIMITIVES[i] for i in chosen]
        exact = lambda x, y: torch.stack([c.exact(x, y) for c in circuits], -1)  # noqa: E731
        ga, gb = self.benchmark.grid_pairs()
        references = {s: next(p for p in PRIMITIVES if p.name == name).exact(ga, gb)
                      for s, name in self.benchmark.reference.items()}
        targets = {name: f(a, b) for name, f in self.benchmark.targets.items()}
        found = isa_search.shortest(exact, a, b, targets, self.k)
        used_ops = {ins.op for program in found.values() if program for ins in program}
        ops = [LearnedOp(c.name, p, c.cost, i in used_ops,
                         {s: (c.exact(ga, gb) == r).double().mean().item() for s, r in references.items()})
               for i, (c, p) in enumerate(zip(circuits, probability))]
        fixed = fixed_isa_programs(self.benchmark)
        names = [c.name for c in circuits]
        programs = []
        for name, f in self.benchmark.targets.items():
            program = found[name]
            if program is None:
                programs.append(TargetProgram(name, ["(none in 3 instructions)"], False, None, fixed[name]))
                continue
            grid_exact = bool((run_program(program, exact, ga, gb) == f(ga, gb)).all())
            programs.append(TargetProgram(name, isa_search.listing(program, names), grid_exact,
                                          cpu_check(program, circuits, f, ga, gb), fixed[name]))
        recovered = {s: max(op.agreement[s] for op in ops) >= 0.99 for s in self.benchmark.reference}
        settings = {"ops": self.k, "steps": self.steps, "restarts": self.restarts, "program_length": self.length,
                    "lr": self.lr, "area_cost": self.area_cost,
                    "length_cost": self.length_cost, "examples": self.examples}
        return ISAResult(self.benchmark.name, self.seed, ops, recovered, programs, history, seconds, len(ga),
                         settings)


def run_program(program, exact, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """A program's result on int64 inputs, with `exact(x, y)` giving every op's result."""
    regs = [a, b]
    for ins in program:
        regs.append(exact(regs[ins.a], regs[ins.b])[..., ins.op])
    return regs[-1]


CPU_SAMPLE = 2048  # grid pairs run on the exact CPU (lanes of one run)


def cpu_check(program, circuits, f, a, b) -> bool | None:
    """Run the program as nCPU assembly (a in R0, b in R1, instruction i writes R(2+i)) on the exact
    CPU on a spread sample of the grid; None if one of its ops is no nCPU instruction."""
    from ncpu_nb.ncpu import assemble
    from ncpu_nb.ncpu.exact_check import passing

    regs = ["R0", "R1", "R2", "R3", "R4"]
    lines = []
    for i, ins in enumerate(program):
        template = circuits[ins.op].ncpu
        if template is None:
            return None
        lines.append(template.format(d=regs[i + 2], a=regs[ins.a], b=regs[ins.b]))
    pick = torch.linspace(0, len(a) - 1, min(CPU_SAMPLE, len(a)), device="cpu").long()
    want = f(a[pick], b[pick])
    out = regs[len(program) + 1]
    cases = [({"R0": int(x), "R1": int(y)}, {out: int(w)}) for x, y, w in zip(a[pick], b[pick], want)]
    return bool(passing(assemble("\n".join(lines + ["HALT"])), cases).all())


_FIXED: dict = {}


def fixed_isa_programs(bench: Benchmark) -> dict:
    """Target -> the nCPU ALU's shortest register-only program as lines (None: more than 3), found by
    the same enumeration over ADD SUB MUL DIV MOD AND OR XOR SHL SHR SAR NEG NOT, confirmed on the grid."""
    if bench.name in _FIXED:
        return _FIXED[bench.name]
    generator = torch.Generator(device="cpu").manual_seed(1234)
    lo, hi = bench.train_range
    a = torch.randint(lo, hi + 1, (24,), generator=generator, device="cpu")
    b = torch.randint(lo, hi + 1, (24,), generator=generator, device="cpu")
    exact = lambda x, y: torch.stack([exact_op(op, x, y) for op in FIXED_ISA], -1)  # noqa: E731
    found = isa_search.shortest(exact, a, b, {n: f(a, b) for n, f in bench.targets.items()}, len(FIXED_ISA))
    ga, gb = bench.grid_pairs()
    names = [op.upper() for op in FIXED_ISA]
    result = {}
    for name, f in bench.targets.items():
        program = found[name]
        exact_on_grid = program is not None and bool((run_program(program, exact, ga, gb) == f(ga, gb)).all())
        result[name] = isa_search.listing(program, names) if exact_on_grid else None
    _FIXED[bench.name] = result
    return result
