"""`LearnedCompiler`: a small sequence model that compiles expressions to nCPU programs, trained
through execution.

    compiler = LearnedCompiler.load()                 # the shipped model (weights/learned_compiler)
    compiled = compiler.compile("result = (a - 3) * b")
    compiled.run(a=7, b=2)["result"]                  # 8: the program runs on the nCPU
    compiler.evaluate()                               # held-out exact match and execution accuracy, by depth

    fresh = LearnedCompiler(TrainConfig(steps=300, seed=1))
    fresh.train(progress=True)                        # seeded: the same seed gives the same weights

What it reads and writes: `expression_corpus` (+ - * over a, b, c and literals 1-9, depth 1-3) in,
programs of `slot_model.SLOTS` instruction slots out, in the exact compiler's register layout
(a, b, c in R0-R2, the result in R3, temporaries from R4).

How it learns (every step, a fresh batch of training expressions, none of them held out):

* execution: the network writes each program slot after slot from its own soft distributions
  (`SlotTransformer` without teacher forcing), the first `execution_batch` expressions of the batch
  become one `EmittedProgram`, and `ExecutionLoss` runs it on the differentiable engine on
  `lanes_each` random assignments of a, b, c (each in [-input_range, input_range]) per expression.
  The term is log(1 + e²) of each relative error e = (result - Python's value) / (1 + |Python's
  value|): the squared error where it is small, while a soft mixture whose products run away (values
  hundreds of times too large happen) cannot swamp the step. Its gradient reaches every parameter
  of the network through the engine.
* supervision (for the first `supervised_steps` steps; all of them by default): cross-entropy of
  each slot's fields against the exact compiler's program, teacher-forced (the decoder fed the
  exact program's earlier slots). Fields a slot does not use (a NOP's registers, a MOV's `a`, the
  immediate of a register operand) are not scored.

The loss is supervision + `execution_weight` x execution; Adam, gradients clipped to norm 1, the
learning rate warmed up over the first 100 steps (a tenth of a shorter run) and then brought down to
zero along a cosine. `TrainConfig(execution_weight=0)` is the supervised-only model and
`supervised_steps=0` the execution-only one: `ncpu-nb bench learned-compiler` trains all three, and
the shipped manifest records all three's held-out figures. The weight is 0.1 because, while choosing
it, the same seed-0 run with weight 1.0 did worse on held-out depth-3 expressions: the execution
term does not (yet) pay for itself here, and the comparison says by how much.
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field, replace

import numpy as np
import torch

from ncpu_nb.compiler.compiled import CompiledPython, compile_python
from ncpu_nb.compiler.execution_loss import ExecutionLoss, straight_line_slots
from ncpu_nb.compiler.expression_corpus import (DEPTHS, LITERALS, RESULT, VARIABLES, Expression, held_out_expressions,
                                                parse_expression, training_expression)
from ncpu_nb.compiler.learned_report import LearnedCompilerReport, score, slot_text
from ncpu_nb.compiler.slot_model import FIELDS, NOP, OPS, SLOTS, EmittedProgram, ModelConfig, SlotTransformer
from ncpu_nb.differentiable.engine import DifferentiableEngine
from ncpu_nb.differentiable.soft_program import IMMEDIATE
from ncpu_nb.errors import ExpressionError

IGNORE = -100
METADATA_KEY = "learned_compiler"


@dataclass(frozen=True)
class TrainConfig:
    """Everything a training run depends on (the seed draws the initial weights and the data)."""

    steps: int = 1500
    batch: int = 48
    lr: float = 2e-3
    seed: int = 0
    execution_weight: float = 0.1
    supervised_steps: int | None = None  # None: every step
    execution_batch: int = 16  # the execution term runs on the first this many expressions of each batch
    lanes_each: int = 4  # input assignments per expression in the execution term
    input_range: int = 6  # a, b, c drawn uniformly from [-input_range, input_range] for the execution term
    d_model: int = 96
    heads: int = 4
    encoder_layers: int = 4
    decoder_layers: int = 2
    nesting: bool = True

    def model_config(self) -> ModelConfig:
        return ModelConfig(self.d_model, self.heads, self.encoder_layers, self.decoder_layers, self.nesting)


@dataclass
class TrainingHistory:
    """Per step: the supervised loss (None once it is off), the execution loss; seconds in all."""

    supervised: list = field(default_factory=list)
    execution: list = field(default_factory=list)
    seconds: float = 0.0

    def curve(self, every: int = 25) -> list[list]:
        """[step, mean supervised, mean execution] over each `every` steps (for the manifest and plots)."""
        rows = []
        for start in range(0, len(self.execution), every):
            sup = [v for v in self.supervised[start:start + every] if v is not None]
            rows.append([start + every, round(float(np.mean(sup)), 5) if sup else None,
                         round(float(np.mean(self.execution[start:start + every])), 5)])
        return rows


# --- the exact compiler's programs as targets ------------------------------------------------------------
_LAYOUT: CompiledPython | None = None


def layout() -> CompiledPython:
    """The exact compiler's register layout for this grammar: a, b, c in R0-R2, result in R3."""
    global _LAYOUT
    if _LAYOUT is None:
        _LAYOUT = compile_python(f"{RESULT} = a + b + c", inputs=VARIABLES)
    return _LAYOUT


def exact_slots(expression: Expression) -> list[tuple]:
    """The exact compiler's program of `expression` as slot tuples (op, dst, a, b, imm), unused fields None."""
    slots = straight_line_slots(compile_python(expression.statement, inputs=VARIABLES))
    found = []
    for s in slots:
        op = s["op"]
        found.append((op, s["dst"], s.get("a") if op != "MOV" else None, s["b"], s.get("imm")))
    return found


def _targets(slots: list[tuple]) -> dict[str, list[int]]:
    """Field -> SLOTS class indices of an exact program (NOP-padded); IGNORE where a field is unused."""
    if len(slots) > SLOTS:
        raise ValueError(f"an exact program of {len(slots)} instructions: the network writes at most {SLOTS}")
    rows = {f: [] for f in FIELDS}
    for k in range(SLOTS):
        op, dst, a, b, imm = slots[k] if k < len(slots) else ("NOP", None, None, None, None)
        rows["op"].append(OPS.index(op))
        rows["dst"].append(FIELDS["dst"].index(dst) if dst else IGNORE)
        rows["a"].append(FIELDS["a"].index(a) if a else IGNORE)
        rows["b"].append(FIELDS["b"].index(b) if b else IGNORE)
        rows["imm"].append(LITERALS.index(imm) if imm is not None else IGNORE)
    return rows


def _pad(tokens: list[tuple]) -> torch.Tensor:
    width = max(len(t) for t in tokens)
    return torch.tensor([list(t) + [0] * (width - len(t)) for t in tokens], dtype=torch.long)


class LearnedCompiler:
    """A trainable compiler from expressions to nCPU programs (see the module docstring)."""

    def __init__(self, config: TrainConfig = TrainConfig()):
        self.config = config
        with torch.random.fork_rng():  # seeded initial weights, leaving the caller's torch RNG as it was
            torch.manual_seed(config.seed)
            self.model = SlotTransformer(config.model_config())
        self.history = TrainingHistory()
        self.steps_trained = 0
        self._targets: dict[str, tuple[list, dict]] = {}

    # --- programs -----------------------------------------------------------------------------------
    def _exact(self, expression: Expression) -> tuple[list, dict]:
        if expression.text not in self._targets:
            slots = exact_slots(expression)
            self._targets[expression.text] = (slots, _targets(slots))
        return self._targets[expression.text]

    def predict_slots(self, expressions: list[Expression]) -> list[list[tuple]]:
        """The argmax program of each expression (greedy, slot after slot), NOP slots dropped."""
        if not expressions:
            return []
        self.model.eval()
        with torch.no_grad():
            logits = self.model(_pad([e.tokens for e in expressions]), hard=True)
        picked = {f: l.argmax(-1).tolist() for f, l in logits.items()}
        programs = []
        for i in range(len(expressions)):
            slots = []
            for k in range(SLOTS):
                op = OPS[picked["op"][i][k]]
                if op == "NOP":
                    continue
                b = FIELDS["b"][picked["b"][i][k]]
                slots.append((op, FIELDS["dst"][picked["dst"][i][k]],
                              None if op == "MOV" else FIELDS["a"][picked["a"][i][k]], b,
                              LITERALS[picked["imm"][i][k]] if b == IMMEDIATE else None))
            programs.append(slots)
        return programs

    def program_for(self, expression: Expression, slots: list[tuple]) -> CompiledPython:
        """A CompiledPython running `slots` (runnable, debuggable, listed) in the exact compiler's layout."""
        base = layout()
        data = base.assembly[base.assembly.index("\n.data"):]
        assembly = "\n".join(f"    {slot_text(s)}" for s in slots) + "\n    HALT" + data
        from ncpu_nb.ncpu.assembler import assemble

        program = assemble(assembly, name="<learned>")
        source = f"{expression.statement}\n# (learned compiler: the final HALT)\n"
        program = replace(program, source=source, lines=(1,) * len(slots) + (2,))
        return CompiledPython(expression.statement + "\n", program, assembly, dict(base.variables), VARIABLES, {})

    def compile(self, source: str) -> CompiledPython:
        """Compile one expression (or `result = <expression>`) with the network; the result runs on the
        nCPU (`.run(a=..., b=..., c=...)`). Outside the grammar: ExpressionError, located."""
        expression = parse_expression(source)
        return self.program_for(expression, self.predict_slots([expression])[0])

    def soft_program(self, sources: list[str], lanes_each: int = 1, hard: bool = False) -> EmittedProgram:
        """The network's soft programs for `sources` as one `EmittedProgram` (for `ExecutionLoss`), written
        slot after slot from its own distributions: differentiable with respect to the network."""
        expressions = [parse_expression(s) for s in sources]
        self.model.train()
        logits = self.model(_pad([e.tokens for e in expressions]), hard=hard)
        return EmittedProgram(logits, lanes_each, layout())

    # --- training -----------------------------------------------------------------------------------
    def execution_loss(self, expressions: list[Expression], rng: np.random.Generator,
                       loss_fn: ExecutionLoss | None = None):
        """The execution term (module docstring) of a batch, and the ExecutionLoss result it came from."""
        k, span = self.config.lanes_each, self.config.input_range
        values = rng.integers(-span, span + 1, size=(len(expressions) * k, len(VARIABLES)))
        logits = self.model(_pad([e.tokens for e in expressions]))
        program = EmittedProgram(logits, k, layout())
        want = torch.tensor([expressions[i // k].value(*row) for i, row in enumerate(values.tolist())],
                            dtype=torch.float64)
        inputs = {v: torch.tensor(values[:, j], dtype=torch.float64) for j, v in enumerate(VARIABLES)}
        loss_fn = loss_fn or ExecutionLoss(engine=lambda p: DifferentiableEngine(p, trace_depth=0))
        result = loss_fn.compute_soft(program, inputs=inputs, expected={RESULT: want})
        got = result.outputs[RESULT]
        error = (got - want) / (1 + want.abs())
        return torch.log1p(error ** 2).mean(), result

    def supervised_loss(self, expressions: list[Expression]) -> torch.Tensor:
        targets = [self._exact(e)[1] for e in expressions]
        gold = {f: torch.tensor([t[f] for t in targets], dtype=torch.long) for f in FIELDS}
        given = {f: torch.nn.functional.one_hot(g.clamp(min=0), len(FIELDS[f])).to(torch.float32)
                 * (g != IGNORE).unsqueeze(-1) for f, g in gold.items()}
        logits = self.model(_pad([e.tokens for e in expressions]), given=given)
        return sum(torch.nn.functional.cross_entropy(logits[f].reshape(-1, len(FIELDS[f])), gold[f].reshape(-1),
                                                     ignore_index=IGNORE) for f in FIELDS)

    def train(self, steps: int | None = None, progress: bool = False, callback=None,
              threads: int | None = 1) -> TrainingHistory:
        """Train for `steps` (default: the config's) more steps; seeded by the config (numpy
        default_rng([seed, 2026, steps already trained]) for the data). `callback(step, compiler)` runs
        every step if given. `threads`: torch's CPU threads while training (restored after; None leaves
        them): one is fastest for a network this small, and on a shared machine several threads waiting
        on each other are many times slower. Returns the history (also `self.history`)."""
        before = torch.get_num_threads()
        if threads:
            torch.set_num_threads(threads)
        try:
            return self._train(steps, progress, callback)
        finally:
            torch.set_num_threads(before)

    def _train(self, steps, progress, callback) -> TrainingHistory:
        c = self.config
        steps = c.steps if steps is None else steps
        rng = np.random.default_rng([c.seed, 2026, self.steps_trained])  # the only randomness: no dropout
        optimizer = torch.optim.Adam(self.model.parameters(), lr=c.lr)
        warmup = min(100, max(1, steps // 10))
        schedule = torch.optim.lr_scheduler.LambdaLR(  # linear warm-up, then a cosine down to zero at `steps`
            optimizer, lambda s: min(1.0, (s + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * min(s, steps) / steps)))
        loss_fn = ExecutionLoss(engine=lambda p: DifferentiableEngine(p, trace_depth=0))
        supervised_steps = c.steps if c.supervised_steps is None else c.supervised_steps
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=steps, desc="learned compiler")
        t0 = time.perf_counter()
        self.model.train()
        for _ in range(steps):
            depths = rng.choice(DEPTHS, size=c.batch)
            expressions = [parse_expression(training_expression(rng, int(d))) for d in depths]
            loss = torch.zeros((), dtype=torch.float64)
            supervised = None
            if self.steps_trained < supervised_steps:
                sup = self.supervised_loss(expressions)
                loss = loss + sup
                supervised = float(sup.detach())
            execution = None
            if c.execution_weight:
                term, _ = self.execution_loss(expressions[:c.execution_batch], rng, loss_fn)
                loss = loss + c.execution_weight * term
                execution = float(term.detach())
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            self.history.supervised.append(supervised)
            self.history.execution.append(execution if execution is not None else float("nan"))
            self.steps_trained += 1
            if bar is not None:
                bar.update(1)
                bar.set_postfix(supervised=supervised, execution=execution)
            if callback is not None:
                callback(self.steps_trained, self)
        if bar is not None:
            bar.close()
        self.history.seconds += time.perf_counter() - t0
        self.model.eval()
        return self.history

    # --- evaluation -----------------------------------------------------------------------------------
    def evaluate(self, held_out: dict[int, list[str]] | list[str] | None = None, inputs_each: int = 8,
                 seed: int = 0) -> LearnedCompilerReport:
        """Exact match and execution accuracy on held-out expressions (default: `held_out_expressions()`),
        by depth, beside the exact compiler's (measured the same way). Execution: the argmax program run
        on the nCPU (fast mode) on `inputs_each` random assignments of a, b, c in [-50, 50] (numpy
        default_rng([seed, 2028])); an expression counts when every assignment gives Python's value."""
        if held_out is None:
            held_out = held_out_expressions()
        expressions = [parse_expression(t) for t in (held_out if isinstance(held_out, list)
                                                     else [t for d in sorted(held_out) for t in held_out[d]])]
        predicted = self.predict_slots(expressions)
        return score(expressions, predicted, [exact_slots(e) for e in expressions], self.program_for,
                     inputs_each, seed)

    # --- weights -------------------------------------------------------------------------------------
    def save(self, path) -> None:
        """The weights as safetensors, the config and steps trained in its metadata (one key, so that
        the same weights always make the same bytes: retraining from the seed reproduces the sha256)."""
        import json

        from safetensors.torch import save_file

        meta = {METADATA_KEY: json.dumps({"config": asdict(self.config), "steps_trained": self.steps_trained},
                                         sort_keys=True)}
        save_file({k: v.contiguous() for k, v in self.model.state_dict().items()}, str(path), metadata=meta)

    @classmethod
    def load(cls, path=None) -> "LearnedCompiler":
        """A saved model (a .safetensors file); without a path, the shipped one (checked against its
        sha256 in weights/learned_compiler/manifest.json)."""
        import json

        from safetensors import safe_open
        from safetensors.torch import load_file

        if path is None:
            from ncpu_nb.compiler.learned_shipped import shipped_file

            path = shipped_file()
        with safe_open(str(path), "pt") as f:
            meta = f.metadata() or {}
        if METADATA_KEY not in meta:
            from ncpu_nb.errors import WeightsError

            raise WeightsError(f"{path} has no learned-compiler config in its metadata")
        saved = json.loads(meta[METADATA_KEY])
        compiler = cls(TrainConfig(**saved["config"]))
        compiler.model.load_state_dict(load_file(str(path)))
        compiler.steps_trained = int(saved["steps_trained"])
        compiler.model.eval()
        return compiler

    def __repr__(self) -> str:
        params = sum(p.numel() for p in self.model.parameters())
        return f"<LearnedCompiler: {params:,} parameters, {self.steps_trained} steps trained, seed {self.config.seed}>"


__all__ = ["LearnedCompiler", "TrainConfig", "TrainingHistory", "ExpressionError", "exact_slots", "slot_text"]
