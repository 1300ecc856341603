"""Neural mode: the Rust lane executor with the trained cells of weights/ as its ALU.

The executor's data path (ALU results, ZF as a NOR of the result bits, effective addresses,
stack pointer moves, every step of the float unit's microprogram) goes through the networks, wired
exactly as `ncpu_nb.ncpu.neural_alu` wires them (`metal_ext/src/ncpu/neural.rs`); `ncpu-nb verify`
checks both wirings against fast mode.
The weights load with numpy (no torch), and the core evaluates them.
"""
from __future__ import annotations

from ncpu_nb import _metal
from ncpu_nb.ncpu.neural_cells import load_weights

CELL_ORDER = ("logic", "combine", "full_adder", "mux")


def use_networks(executor: _metal.NcpuLanes, directory=None) -> None:
    """Make `executor` compute with the trained cells (their files checked against the manifest)."""
    executor.use_networks(*(load_weights(name, directory).flat() for name in CELL_ORDER))
