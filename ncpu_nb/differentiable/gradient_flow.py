"""Gradient flow through execution: how large the gradient is at every step and register.

    flow = trace_gradients(engine, {"R0": x}, loss=lambda run: run["R2"].sum())
    plot_gradient_flow(flow)            # matplotlib heatmap, step x register, plus per-instruction bars
    plot_gradient_flow_plotly(flow)     # the same, interactive

A cell is the mean |d loss / d register| over lanes just after that step. Exact zeros (no path
from that register to the loss) are white; cells above zero but under VANISHING are marked 'v'
(vanishing), cells over EXPLODING 'x' (exploding). For a synthesis result the
figure shows, per optimisation step, the gradient norm reaching each slot's distributions.
"""
from __future__ import annotations

import dataclasses

from dataclasses import dataclass

import numpy as np
import torch

from ncpu_nb.differentiable.engine import DifferentiableEngine
from ncpu_nb.ncpu.table import REGISTERS

VANISHING, EXPLODING = 1e-8, 1e6


@dataclass
class GradientFlow:
    """Gradient magnitudes of one backward pass: `grid[step, register]`; `labels[step]` is the
    instruction executed in that step (lane 0), row 0 the initial registers."""

    grid: np.ndarray
    labels: list
    registers: tuple
    title: str
    loss: float
    hidden: tuple = ()  # registers left out: no gradient reached them at any step

    @property
    def note(self) -> str:
        """What the figure leaves out, in words ('' if nothing)."""
        return f"no gradient reaches {', '.join(self.hidden)}: not shown" if self.hidden else ""

    def per_instruction(self) -> np.ndarray:
        """Total gradient magnitude reaching each step's registers."""
        return self.grid.sum(1)

    def _repr_html_(self) -> str:
        from ncpu_nb import html

        rows = [[str(i), label] + [f"{v:.2e}" for v in row] for i, (label, row) in enumerate(zip(self.labels,
                                                                                                   self.grid))]
        return html.view(self.title + (f" ({self.note})" if self.hidden else ""),
                         html.table(["step", "instruction", *self.registers], rows))


def trace_gradients(engine: DifferentiableEngine, registers: dict, loss, title: str | None = None) -> GradientFlow:
    """Run `engine` with recording, backpropagate `loss(run)`, and collect |gradient| per step x register."""
    run = engine.run(inputs=registers, record=True, check=False)
    value = loss(run)
    value.backward()
    grid = np.stack([(h.grad.abs().mean(0).cpu().numpy() if h.grad is not None else np.zeros(len(REGISTERS)))
                     for h in run.history])
    program = engine.program
    labels = ["(inputs)"] + [program.instructions[pc].text(program.label_at()) if pc < len(program) else "(halted)"
                             for pc in run.executed]
    shown = [i for i, name in enumerate(REGISTERS) if name != "SP"]
    reached = [i for i in shown if grid[:, i].any()] or shown  # all-zero columns would fill the figure
    name = program.name if not program.name.startswith("<") else f"a {len(program)}-instruction program"
    return GradientFlow(grid[:, reached], labels, tuple(REGISTERS[i] for i in reached),
                        title or f"Gradient flow through {name} ({engine.alu} ALU)", float(value.detach()),
                        tuple(REGISTERS[i] for i in shown if i not in reached))


def synthesis_flow(result) -> GradientFlow:
    """Per optimisation step, the gradient norm reaching each slot's four distributions (op, a, b,
    dst), for the program length that trained longest. Needs Synthesizer(record_gradients=True)."""
    stats = result.gradient if hasattr(result, "gradient") else result
    if stats is None or not stats.grad_norms:
        raise ValueError("no gradients were recorded: run the synthesizer with record_gradients=True")
    lengths = [len(g["op"]) for g in stats.grad_norms]
    length = max(set(lengths), key=lengths.count)
    rows = [g for g in stats.grad_norms if len(g["op"]) == length]
    every = -(-len(rows) // 60)  # at most 60 rows in a figure
    steps = list(range(0, len(rows), every))
    rows = [rows[i] for i in steps]
    columns = [f"slot {s} {name}" for s in range(length) for name in ("op", "a", "b", "dst")]
    grid = np.array([[g[name][s] for s in range(length) for name in ("op", "a", "b", "dst")] for g in rows])
    name = getattr(getattr(result, "spec", None), "name", "synthesis")
    return GradientFlow(grid, [f"step {i}" for i in steps], tuple(columns),
                        f"Gradient reaching each slot's distributions while synthesizing {name} "
                        f"(length {length})", float("nan"))


def _as_flow(result) -> GradientFlow:
    return result if isinstance(result, GradientFlow) else synthesis_flow(result)


def _drawable(flow: GradientFlow) -> GradientFlow:
    """The flow with gradients that overflowed float64 (inf, or NaN from inf - inf) drawn at the top of
    the scale: they are the exploding cells ('x'), and a figure cannot place an infinite value."""
    finite = np.isfinite(flow.grid)
    if finite.all():
        return flow
    top = max(flow.grid[finite].max() if finite.any() else 0.0, EXPLODING)
    return dataclasses.replace(flow, grid=np.where(finite, flow.grid, top),
                               title=flow.title + " (overflowed gradients drawn at the top of the scale)")


def plot_gradient_flow(result, ax=None):
    """Matplotlib figure: log10 |gradient| heatmap (step x register or slot distribution), vanishing
    and exploding cells marked, and per-step totals as bars. Returns the figure."""
    import matplotlib.pyplot as plt

    flow = _drawable(_as_flow(result))
    fig, (heat, bars) = plt.subplots(1, 2, figsize=(11, max(3.0, 0.32 * len(flow.labels) + 1.5)),
                                     gridspec_kw={"width_ratios": [3, 1]}, sharey=True)
    logs = np.log10(np.maximum(flow.grid, 1e-300))
    finite = logs[flow.grid > VANISHING]
    lo, hi = (finite.min(), finite.max()) if finite.size else (-8, 0)
    image = heat.imshow(np.where(flow.grid > VANISHING, logs, np.nan), aspect="auto", cmap="viridis",
                        vmin=lo, vmax=max(hi, lo + 1e-9))
    heat.set_facecolor("white")  # zero and vanishing cells (NaN) show the background
    for (r, c), v in np.ndenumerate(flow.grid):
        if 0 < v <= VANISHING:
            heat.text(c, r, "v", ha="center", va="center", fontsize=7, color="#555")
        elif v >= EXPLODING:
            heat.text(c, r, "x", ha="center", va="center", fontsize=8, color="red")
    heat.set_xticks(range(len(flow.registers)), flow.registers, rotation=90 if len(flow.registers) > 9 else 0)
    heat.set_yticks(range(len(flow.labels)), flow.labels if len(flow.labels) <= 40 else
                    [l if i % 5 == 0 else "" for i, l in enumerate(flow.labels)], fontsize=8)
    heat.set_title(flow.title + (f"\n({flow.note})" if flow.hidden else ""), fontsize=10)
    fig.colorbar(image, ax=heat, label="log10 mean |gradient|  (white: none, v: vanishing)")
    totals = flow.per_instruction()
    reached = totals[totals > 0]  # rows no gradient reached get no bar: a log axis cannot reach 0
    bars.barh(range(len(totals)), np.where(totals > 0, totals, np.nan), color="#3b6fb6")
    bars.set_xscale("log")
    if reached.size:
        bars.set_xlim(reached.min() / 2, reached.max() * 2)
    bars.set_title("total per row", fontsize=10)
    fig.tight_layout()
    return fig


def plot_gradient_flow_plotly(result):
    """The same view with plotly: hover shows each cell's exact magnitude. Returns the figure."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    flow = _drawable(_as_flow(result))
    logs = np.where(flow.grid > VANISHING, np.log10(np.maximum(flow.grid, 1e-300)), np.nan)
    rows = [f"{i}: {l}" for i, l in enumerate(flow.labels)]
    fig = make_subplots(rows=1, cols=2, column_widths=[0.75, 0.25], shared_yaxes=True, horizontal_spacing=0.02)
    # The colour bar stands right of the bars (in the heatmap's margin it covered them).
    fig.add_trace(go.Heatmap(z=logs, x=list(flow.registers), y=rows, colorscale="Viridis", customdata=flow.grid,
                             colorbar={"title": {"text": "log10 |grad|", "side": "right"}, "x": 1.02,
                                       "xanchor": "left"},
                             hovertemplate="%{y}<br>%{x}: %{customdata:.3e}<extra></extra>"), 1, 1)
    marks = [(c, rows[r], "v" if v <= VANISHING else "x") for (r, c), v in np.ndenumerate(flow.grid)
             if 0 < v <= VANISHING or v >= EXPLODING]
    if marks:
        fig.add_trace(go.Scatter(x=[flow.registers[c] for c, _, _ in marks], y=[r for _, r, _ in marks],
                                 text=[m for _, _, m in marks], mode="text", showlegend=False,
                                 textfont={"color": ["#555" if m == "v" else "red" for _, _, m in marks]},
                                 hoverinfo="skip"), 1, 1)
    fig.add_trace(go.Bar(x=flow.per_instruction(), y=rows, orientation="h", marker_color="#3b6fb6",
                         showlegend=False), 1, 2)
    fig.update_xaxes(type="log", row=1, col=2)
    fig.update_yaxes(autorange="reversed")
    title = flow.title + (f"<br><sub>{flow.note}; white: no path to the loss, v: vanishing, x: exploding</sub>"
                          if flow.hidden else "<br><sub>white: no path to the loss, v: vanishing, x: exploding</sub>")
    fig.update_layout(title=title, height=max(300, 22 * len(rows) + 140), margin={"l": 10, "r": 90})
    return fig


def compare_alus(program, registers: dict, loss,
                 device: str | torch.device = "cpu") -> tuple[GradientFlow, GradientFlow]:
    """The same program, inputs and loss through the fast and the neural ALU (runs on `device`)."""
    flows = []
    for alu in ("fast", "neural"):
        engine = DifferentiableEngine(program, alu=alu, device=device)
        inputs = {k: (v.detach().clone().requires_grad_(True) if isinstance(v, torch.Tensor) else v)
                  for k, v in registers.items()}
        flows.append(trace_gradients(engine, inputs, loss))
    return flows[0], flows[1]


def plot_alu_comparison(fast: GradientFlow, neural: GradientFlow):
    """Side-by-side log10 heatmaps and their ratio: where the neural ALU's straight-through gradient
    differs from the fast ALU's."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, max(3.0, 0.32 * len(fast.labels) + 1.5)), sharey=True)
    ratio = np.where((fast.grid > VANISHING) & (neural.grid > VANISHING), neural.grid / np.maximum(fast.grid, 1e-300),
                     np.nan)
    for ax, grid, title, cmap in ((axes[0], fast.grid, "fast ALU", "viridis"),
                                  (axes[1], neural.grid, "neural ALU (straight-through)", "viridis")):
        im = ax.imshow(np.where(grid > VANISHING, np.log10(np.maximum(grid, 1e-300)), np.nan), aspect="auto",
                       cmap=cmap)
        ax.set_facecolor("white")
        ax.set_title(title, fontsize=10)
        ax.set_xticks(range(len(fast.registers)), fast.registers)
        fig.colorbar(im, ax=ax, label="log10 mean |gradient|")
    im = axes[2].imshow(np.log10(ratio), aspect="auto", cmap="coolwarm", vmin=-1, vmax=1)
    axes[2].set_title("log10 (neural / fast)", fontsize=10)
    axes[2].set_xticks(range(len(fast.registers)), fast.registers)
    fig.colorbar(im, ax=axes[2])
    axes[0].set_yticks(range(len(fast.labels)), fast.labels, fontsize=8)
    fig.tight_layout()
    return fig
