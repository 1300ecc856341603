"""Trained cells: the small networks every neural ALU operation is wired from.

A cell maps a few input bits to a few output bits through one hidden ReLU layer; an output
bit is 1 where its logit is positive. Each cell's input domain is tiny (2^3 or 2^4 patterns),
so it is verified on *every* input; the 32-bit operations are fixed wirings of cells
(`neural_alu.py`), which is why exact cells give exact operations.
"""
from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass
from pathlib import Path

import torch

from ncpu_nb.errors import NcpuError
from ncpu_nb.resources import data_dir


class WeightsError(NcpuError):
    """A weight file is missing, tampered with, or does not match the manifest."""


@dataclass(frozen=True)
class CellSpec:
    """What a cell computes: `truth(bits) -> output bits`, on every pattern of `inputs` bits."""

    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    hidden: int
    seed: int
    truth: object  # function: tuple of input bits -> tuple of output bits

    def domain(self) -> torch.Tensor:
        """Every input pattern, one per row (2^n rows)."""
        return torch.tensor(list(itertools.product((0.0, 1.0), repeat=len(self.inputs))))

    def targets(self) -> torch.Tensor:
        return torch.tensor([self.truth(tuple(int(v) for v in row)) for row in self.domain().tolist()],
                            dtype=torch.float32)


CELLS = {
    spec.name: spec for spec in (
        # two-input gates, computed together: the bitwise ops, propagate/generate and sum bits
        CellSpec("logic", ("a", "b"), ("and", "or", "xor"), 6, 11,
                 lambda x: (x[0] & x[1], x[0] | x[1], x[0] ^ x[1])),
        # Kogge-Stone carry combine: (G, P) of a high span after a low span
        CellSpec("combine", ("g_hi", "p_hi", "g_lo", "p_lo"), ("g", "p"), 8, 12,
                 lambda x: (x[0] | (x[1] & x[2]), x[1] & x[3])),
        # full adder: the carry-save step of the multiplier
        CellSpec("full_adder", ("a", "b", "c"), ("sum", "carry"), 8, 13,
                 lambda x: (x[0] ^ x[1] ^ x[2], (x[0] & x[1]) | (x[2] & (x[0] ^ x[1])))),
        # 2:1 multiplexer: bit routing for shifts, selection for division and clamping
        CellSpec("mux", ("sel", "x0", "x1"), ("out",), 6, 14, lambda x: (x[2] if x[0] else x[1],)),
    )
}


class Cell(torch.nn.Module):
    def __init__(self, spec: CellSpec):
        super().__init__()
        self.spec = spec
        self.hidden = torch.nn.Linear(len(spec.inputs), spec.hidden)
        self.out = torch.nn.Linear(spec.hidden, len(spec.outputs))

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(torch.relu(self.hidden(x)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Bits in (..., inputs), bits out (..., outputs), as 0.0 / 1.0."""
        return (self.logits(x) > 0).to(x.dtype)

    def check(self) -> tuple[int, int]:
        """(patterns right, patterns in the domain) over the whole input domain."""
        with torch.no_grad():
            right = (self(self.spec.domain()) == self.spec.targets()).all(dim=1)
        return int(right.sum()), len(right)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_manifest(directory: Path | None = None) -> dict:
    path = (directory or data_dir("weights")) / "manifest.json"
    if not path.is_file():
        raise WeightsError(f"{path} is missing: rebuild the weights with `python -m ncpu_nb.train`")
    return json.loads(path.read_text())


def load_cell(name: str, directory: Path | None = None) -> Cell:
    """A trained cell from weights/, its file checked against the manifest's sha256."""
    from safetensors.torch import load_file

    directory = directory or data_dir("weights")
    entry = read_manifest(directory)["cells"].get(name)
    if entry is None:
        raise WeightsError(f"weights/manifest.json has no cell {name!r}")
    path = directory / entry["file"]
    if not path.is_file():
        raise WeightsError(f"weight file {path} is missing: rebuild with `python -m ncpu_nb.train`")
    if sha256(path) != entry["sha256"]:
        raise WeightsError(f"weight file {path} does not match its sha256 in manifest.json (tampered or stale)")
    cell = Cell(CELLS[name])
    cell.load_state_dict(load_file(str(path)))
    cell.eval()
    return cell
