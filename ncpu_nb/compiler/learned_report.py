"""How well the learned compiler does: exact match and execution accuracy by depth, beside the exact
compiler measured the same way (`score`, `LearnedCompilerReport`: a table in Jupyter, `plot()`).

exact match  the learned program is instruction for instruction the exact compiler's (NOPs dropped)
execution    the learned program, run on the nCPU (fast mode), gives Python's value on every one of
             the random input assignments (so an equivalent but different program counts)
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ncpu_nb import html

INPUT_SPAN = 50


@dataclass(frozen=True)
class Outcome:
    """One expression: the programs (as assembly lines) and whether each test held."""

    text: str
    depth: int
    learned: tuple
    exact: tuple
    exact_match: bool
    executes: bool
    exact_executes: bool
    first_wrong: str = ""


@dataclass(frozen=True)
class LearnedCompilerReport:
    """Per-expression outcomes; `by_depth()` and `overall()` summarise them."""

    outcomes: tuple
    inputs_each: int
    extra: dict = field(default_factory=dict)

    def by_depth(self) -> dict[int, dict[str, float]]:
        """depth -> {'n', 'exact_match', 'execution', 'exact_compiler'} (fractions)."""
        rows = {}
        for depth in sorted({o.depth for o in self.outcomes}):
            chosen = [o for o in self.outcomes if o.depth == depth]
            rows[depth] = _summary(chosen)
        return rows

    def overall(self) -> dict[str, float]:
        return _summary(list(self.outcomes))

    def failures(self, n: int = 5) -> list[Outcome]:
        """Up to `n` expressions whose learned program does not compute Python's value."""
        return [o for o in self.outcomes if not o.executes][:n]

    def text(self) -> str:
        lines = [f"{'depth':>5} {'n':>4} {'exact match':>12} {'execution':>10} {'exact compiler':>15}"]
        for depth, r in [*self.by_depth().items(), ("all", self.overall())]:
            lines.append(f"{depth!s:>5} {r['n']:>4} {r['exact_match']:>12.1%} {r['execution']:>10.1%} "
                         f"{r['exact_compiler']:>15.1%}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        rows = [[str(d), str(r["n"]), f"{r['exact_match']:.1%}", f"{r['execution']:.1%}", f"{r['exact_compiler']:.1%}"]
                for d, r in [*self.by_depth().items(), ("all", self.overall())]]
        table = html.table(["depth", "held-out expressions", "exact match", "execution accuracy",
                            "exact compiler (execution)"], rows, numeric=(1, 2, 3, 4))
        return html.view(f"Learned compiler on held-out expressions ({self.inputs_each} random inputs each)", table)

    def plot(self, ax=None, title: str = "Held-out accuracy by expression depth"):
        """Grouped bars by depth: learned exact match, learned execution, exact compiler."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(7, 3.5))
        rows = self.by_depth()
        depths = list(rows)
        x = np.arange(len(depths))
        bars = (("learned: exact match", "exact_match"), ("learned: execution", "execution"),
                ("exact compiler: execution", "exact_compiler"))
        for k, (label, key) in enumerate(bars):
            values = [rows[d][key] for d in depths]
            drawn = ax.bar(x + (k - 1) * 0.27, values, 0.27, label=label)
            ax.bar_label(drawn, [f"{v:.0%}" for v in values], fontsize=8)
        ax.set_xticks(x, [f"depth {d}\n({rows[d]['n']})" for d in depths])
        ax.set_ylim(0, 1.12)
        ax.set_ylabel("fraction of held-out expressions")
        ax.set_title(title)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, fontsize=8, frameon=False)
        return ax


def _summary(chosen: list[Outcome]) -> dict:
    n = len(chosen)
    mean = (lambda xs: float(np.mean(xs)) if n else float("nan"))  # noqa: E731
    return {"n": n, "exact_match": mean([o.exact_match for o in chosen]),
            "execution": mean([o.executes for o in chosen]),
            "exact_compiler": mean([o.exact_executes for o in chosen])}


def _wrap32(v: int) -> int:
    return ((v + 2 ** 31) % 2 ** 32) - 2 ** 31


def slot_text(slot: tuple) -> str:
    """A predicted slot (op, dst, a, b, imm) as the assembly line it stands for."""
    from ncpu_nb.differentiable.soft_program import IMMEDIATE  # torch: loaded already wherever slots are made

    op, dst, a, b, imm = slot
    operand = str(imm) if b == IMMEDIATE else b
    return f"MOV {dst}, {operand}" if op == "MOV" else f"{op} {dst}, {a}, {operand}"


def score(expressions, predicted, exact, program_for, inputs_each: int, seed: int) -> LearnedCompilerReport:
    """Run every learned program and every exact compiler program on the same random inputs."""
    from ncpu_nb.compiler.compiled import compile_python
    from ncpu_nb.compiler.expression_corpus import VARIABLES
    from ncpu_nb.errors import NcpuError

    rng = np.random.default_rng([seed, 2028])
    outcomes = []
    for expression, slots, gold in zip(expressions, predicted, exact):
        assignments = rng.integers(-INPUT_SPAN, INPUT_SPAN + 1, size=(inputs_each, len(VARIABLES))).tolist()
        learned = program_for(expression, slots)
        reference = compile_python(expression.statement, inputs=VARIABLES)
        executes = exact_executes = True
        wrong = ""
        for values in assignments:
            env = dict(zip(VARIABLES, values))
            want = _wrap32(expression.value(*values))
            try:
                got = learned.run(max_steps=100, **env)["result"]
            except NcpuError as error:
                got = f"error: {str(error).splitlines()[0]}"
            if got != want and executes:
                executes, wrong = False, f"{env}: {got}, Python {want}"
            exact_executes &= reference.run(**env)["result"] == want
        outcomes.append(Outcome(expression.text, expression.depth, tuple(slot_text(s) for s in slots),
                                tuple(slot_text(s) for s in gold), list(slots) == list(gold), executes,
                                exact_executes, wrong))
    return LearnedCompilerReport(tuple(outcomes), inputs_each)


__all__ = ["LearnedCompilerReport", "Outcome", "score"]
