"""Gradient flow figures: what they leave out is said, markers are drawn, the colour bar keeps clear
of the per-row bars, and titles name the program (not '<source>')."""
from __future__ import annotations

import numpy as np
import torch

import ncpu_nb
from ncpu_nb.differentiable.gradient_flow import plot_gradient_flow, plot_gradient_flow_plotly, trace_gradients


def vanishing_flow():
    engine = ncpu_nb.DifferentiableEngine("SHR R1, R0, 20\nSHR R1, R1, 10\nADD R2, R1, 1\nHALT")
    x = torch.tensor([3.0e6], dtype=torch.float64, requires_grad=True)
    return trace_gradients(engine, {"R0": x}, lambda run: run["R2"].sum())


def test_registers_no_gradient_reaches_are_left_out_and_said():
    flow = vanishing_flow()
    assert flow.registers == ("R0", "R1", "R2") and flow.hidden == ("R3", "R4", "R5", "R6", "R7")
    assert flow.title == "Gradient flow through a 4-instruction program (fast ALU)"
    assert "no gradient reaches R3, R4, R5, R6, R7" in flow._repr_html_()
    assert 0 < flow.grid[0, 0] <= 1e-8  # the input's gradient vanished through the shifts


def test_plotly_figure_marks_cells_and_keeps_the_colour_bar_clear_of_the_bars():
    fig = plot_gradient_flow_plotly(vanishing_flow())
    heatmap, marks, bars = fig.data
    assert heatmap.colorbar.x >= 1 and heatmap.colorbar.xanchor == "left"
    assert marks.mode == "text" and "v" in marks.text
    assert bars.orientation == "h" and "not shown" in fig.layout.title.text


def test_matplotlib_figure_says_what_it_leaves_out():
    fig = plot_gradient_flow(vanishing_flow())
    heat = fig.axes[0]
    assert "not shown" in heat.get_title() and [t.get_text() for t in heat.texts].count("v") >= 1
    assert np.isfinite(fig.axes[1].get_xlim()).all()


def test_overflowed_gradients_are_drawn_at_the_top_and_marked():
    flow = vanishing_flow()
    flow.grid[1, 1], flow.grid[2, 2] = np.inf, np.nan  # what an exploding loop can leave in float64
    fig = plot_gradient_flow(flow)
    fig.canvas.draw()  # rendering is where an infinite value failed
    assert "overflowed" in fig.axes[0].get_title() and [t.get_text() for t in fig.axes[0].texts].count("x") >= 2
    assert np.isfinite(fig.axes[1].get_xlim()).all()
    assert "overflowed" in plot_gradient_flow_plotly(flow).layout.title.text


def test_rows_no_gradient_reached_leave_the_bars_drawable():
    flow = vanishing_flow()
    flow.grid[0, :] = 0.0  # a step no gradient reached, beside steps of ordinary size
    fig = plot_gradient_flow(flow)
    fig.canvas.draw()
    low, high = fig.axes[1].get_xlim()
    assert 0 < low < high < np.inf
