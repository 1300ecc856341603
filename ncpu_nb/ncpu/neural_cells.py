"""Trained cells: the small networks every neural ALU operation is wired from.

A cell maps a few input bits to a few output bits through one hidden ReLU layer; an output
bit is 1 where its logit is positive. Each cell's input domain is tiny (2^3 or 2^4 patterns),
so it is verified on *every* input; the 32-bit operations are fixed wirings of cells
(`neural_alu.py`), which is why exact cells give exact operations.

This file needs no torch: neural mode reads the weights with safetensors' numpy loader and the Rust
core evaluates them. The same cells as torch modules, for training and the torch wiring, are in
`torch_cells.py`.

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

import numpy as np

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

    def domain(self) -> np.ndarray:
        """Every input pattern, one per row (2^n rows), as float32 0.0 / 1.0."""
        return np.array(list(itertools.product((0.0, 1.0), repeat=len(self.inputs))), dtype=np.float32)

    def targets(self) -> np.ndarray:
        return np.array([self.truth(tuple(int(v) for v in row)) for row in self.domain()], dtype=np.float32)


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


PARAMETERS = ("hidden.weight", "hidden.bias", "out.weight", "out.bias")  # the names in a cell's file


@dataclass(frozen=True)
class CellWeights:
    """A trained cell's parameters (float32, the weight matrices (out, in) as torch stores them)."""

    spec: CellSpec
    hidden_weight: np.ndarray
    hidden_bias: np.ndarray
    out_weight: np.ndarray
    out_bias: np.ndarray

    def forward(self, x: np.ndarray) -> np.ndarray:
        """Bits in (..., inputs), bits out (..., outputs), as 0.0 / 1.0."""
        hidden = np.maximum(x @ self.hidden_weight.T + self.hidden_bias, 0)
        return (hidden @ self.out_weight.T + self.out_bias > 0).astype(np.float32)

    def check(self) -> tuple[int, int]:
        """(patterns right, patterns in the domain) over the whole input domain."""
        right = (self.forward(self.spec.domain()) == self.spec.targets()).all(axis=1)
        return int(right.sum()), len(right)

    def flat(self) -> tuple:
        """(inputs, outputs, W1, b1, W2, b2), the matrices flattened row-major: what the Rust core takes."""
        return (len(self.spec.inputs), len(self.spec.outputs), *(a.reshape(-1).tolist() for a in (
            self.hidden_weight, self.hidden_bias, self.out_weight, self.out_bias)))


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
    except RecursionError:  # arrays in arrays beyond the parser's depth: no manifest nests so
        raise WeightsError(f"{path} nests deeper than a manifest does (the JSON parser's limit)") from None
    if not (isinstance(manifest, dict) and isinstance(manifest.get("cells"), dict)):
        raise WeightsError(f'{path} has no "cells" table')
    return manifest


def load_weights(name: str, directory: Path | None = None) -> CellWeights:
    """A trained cell from a weights folder (default: the kit's own), its file checked against the
    manifest's sha256 and, for the kit's own cells, proven right on the cell's whole input domain."""
    from safetensors import SafetensorError
    from safetensors.numpy import load_file

    folder = Path(directory or data_dir("weights"))
    path, digest = _weight_file(folder, name)
    if sha256(path) != digest:
        raise WeightsError(f"weight file {path} does not match its sha256 in manifest.json (tampered or stale)")
    spec = CELLS[name]
    try:
        tensors = load_file(str(path))
    except (SafetensorError, OSError) as exc:
        raise WeightsError(f"weight file {path} is not a {name} cell: {str(exc).splitlines()[0]}") from None
    shapes = {"hidden.weight": (spec.hidden, len(spec.inputs)), "hidden.bias": (spec.hidden,),
              "out.weight": (len(spec.outputs), spec.hidden), "out.bias": (len(spec.outputs),)}
    found = {k: tuple(v.shape) for k, v in tensors.items()}
    if found != shapes:
        raise WeightsError(f"weight file {path} is not a {name} cell: it holds {found}, a {name} cell is {shapes}")
    weights = CellWeights(spec, *(tensors[k].astype(np.float32) for k in PARAMETERS))
    if folder.resolve() == data_dir("weights").resolve():
        _prove(weights, path)
    return weights


def __getattr__(name: str):
    if name in ("Cell", "load_cell"):  # the torch face lives in torch_cells.py (imports torch); this name goes next release
        import warnings

        from ncpu_nb.ncpu import torch_cells

        warnings.warn(f"ncpu_nb.ncpu.neural_cells.{name} is now ncpu_nb.ncpu.torch_cells.{name}", DeprecationWarning,
                      stacklevel=2)
        return getattr(torch_cells, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


def _prove(cell: CellWeights, path: Path) -> None:
    right, total = cell.check()
    if right != total:
        raise WeightsError(f"weight file {path} is wrong on {total - right} of the {total} patterns of its cell: "
                           "restore the kit's weights or rebuild them with `python -m ncpu_nb.train`, then run "
                           "`ncpu-nb verify`")
