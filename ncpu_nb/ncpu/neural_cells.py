"""Trained cells: the small networks every neural ALU operation is wired from.

A cell maps a few input bits to a few output bits through one hidden ReLU layer; an output
bit is 1 where its logit is positive. Each cell's input domain is tiny (2^3 or 2^4 patterns),
so it is verified on *every* input; the 32-bit operations are fixed wirings of cells
(`neural_alu.py`), which is why exact cells give exact operations.

What is trusted: a weights folder's manifest.json records each file's sha256, so a corrupt, stale
or swapped file is refused; but whoever can write the folder can update the manifest too. So the
kit's own cells are also proven right on their whole input domain each time they load (a tampered
cell that still computes its truth table is harmless), and `ncpu-nb verify` proves every 32-bit
operation wired from them. A folder passed as `directory` is the caller's own (retrained or
perturbed on purpose): it loads as its manifest says. Manifest file names stay inside the folder.
"""
from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass
from pathlib import Path

import torch

from ncpu_nb.errors import WeightsError
from ncpu_nb.resources import data_dir


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
    """A weights folder's manifest.json: {"cells": {name: {"file", "sha256", ...}}}."""
    path = Path(directory or data_dir("weights")) / "manifest.json"
    if not path.is_file():
        raise WeightsError(f"{path} is missing: rebuild the weights with `python -m ncpu_nb.train`")
    try:
        manifest = json.loads(path.read_text())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WeightsError(f"{path} is not valid JSON: {exc}") from None
    if not (isinstance(manifest, dict) and isinstance(manifest.get("cells"), dict)):
        raise WeightsError(f'{path} has no "cells" table')
    return manifest


def load_cell(name: str, directory: Path | None = None) -> Cell:
    """A trained cell from a weights folder (default: the kit's own), its file checked against the
    manifest's sha256 and, for the kit's own cells, proven right on the cell's whole input domain."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    folder = Path(directory or data_dir("weights"))
    path, digest = _weight_file(folder, name)
    if sha256(path) != digest:
        raise WeightsError(f"weight file {path} does not match its sha256 in manifest.json (tampered or stale)")
    cell = Cell(CELLS[name])
    try:
        cell.load_state_dict(load_file(str(path)))
    except (SafetensorError, RuntimeError) as exc:  # not safetensors, or tensors of other names or shapes
        raise WeightsError(f"weight file {path} is not a {name} cell: {str(exc).splitlines()[0]}") from None
    cell.eval()
    if folder.resolve() == data_dir("weights").resolve():
        _prove(cell, path)
    return cell


def _weight_file(folder: Path, name: str) -> tuple[Path, str]:
    """(path, sha256) of a cell's file as the manifest names it, refused unless it is a file in `folder`
    (before anything is read from it)."""
    entry = read_manifest(folder)["cells"].get(name)
    if entry is None:
        raise WeightsError(f"{folder / 'manifest.json'} has no cell {name!r}")
    file, digest = (entry.get("file"), entry.get("sha256")) if isinstance(entry, dict) else (None, None)
    if not (isinstance(file, str) and isinstance(digest, str)):
        raise WeightsError(f'{folder / "manifest.json"}: cell {name!r} needs a "file" and a "sha256"')
    path = folder / file
    if Path(file).name != file or file in ("", ".", "..") or not path.resolve().is_relative_to(folder.resolve()):
        raise WeightsError(f"{folder / 'manifest.json'}: cell {name!r} names {file!r}, not a file in {folder}")
    if not path.is_file():
        raise WeightsError(f"weight file {path} is missing: rebuild with `python -m ncpu_nb.train`")
    return path, digest


def _prove(cell: Cell, path: Path) -> None:
    right, total = cell.check()
    if right != total:
        raise WeightsError(f"weight file {path} is wrong on {total - right} of the {total} patterns of its cell: "
                           "restore the kit's weights or rebuild them with `python -m ncpu_nb.train`, then run "
                           "`ncpu-nb verify`")
