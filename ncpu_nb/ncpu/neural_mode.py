"""Neural mode: the Rust lane executor with the trained cells of weights/ as its ALU.

The executor's data path (ALU results, ZF as a NOR of the result bits, effective addresses,
stack pointer moves) goes through the networks, wired exactly as `ncpu_nb.ncpu.neural_alu` wires
them (`metal_ext/src/ncpu/neural.rs`); `ncpu-nb verify` checks both wirings against fast mode.
"""
from __future__ import annotations

from ncpu_nb import _metal
from ncpu_nb.ncpu.neural_cells import Cell, load_cell

CELL_ORDER = ("logic", "combine", "full_adder", "mux")


def cell_weights(cell: Cell) -> tuple:
    """(inputs, outputs, W1, b1, W2, b2) with the weight matrices flattened row-major."""
    flat = lambda t: t.detach().reshape(-1).tolist()  # noqa: E731
    return (cell.hidden.in_features, cell.out.out_features, flat(cell.hidden.weight), flat(cell.hidden.bias),
            flat(cell.out.weight), flat(cell.out.bias))


def use_networks(executor: _metal.NcpuLanes, directory=None) -> None:
    """Make `executor` compute with the trained cells (their files checked against the manifest)."""
    executor.use_networks(*(cell_weights(load_cell(name, directory)) for name in CELL_ORDER))
