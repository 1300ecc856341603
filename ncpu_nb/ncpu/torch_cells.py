"""The trained cells as torch modules: for training (`ncpu_nb.train`), the torch wiring of the neural ALU
(`neural_alu.py`, on any torch device) and the curriculum. Loading and proving the weights is
`neural_cells.py`'s, without torch.
"""
from __future__ import annotations

from pathlib import Path

import torch

from ncpu_nb.ncpu.neural_cells import PARAMETERS, CellSpec, CellWeights, load_weights


class Cell(torch.nn.Module):
    def __init__(self, spec: CellSpec):
        super().__init__()
        self.spec = spec
        self.hidden = torch.nn.Linear(len(spec.inputs), spec.hidden)
        self.out = torch.nn.Linear(spec.hidden, len(spec.outputs))

    @classmethod
    def from_weights(cls, weights: CellWeights) -> "Cell":
        cell = cls(weights.spec)
        cell.load_state_dict({name: torch.from_numpy(array.copy()) for name, array in zip(PARAMETERS, (
            weights.hidden_weight, weights.hidden_bias, weights.out_weight, weights.out_bias))})
        return cell.eval()

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(torch.relu(self.hidden(x)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Bits in (..., inputs), bits out (..., outputs), as 0.0 / 1.0."""
        return (self.logits(x) > 0).to(x.dtype)

    def check(self) -> tuple[int, int]:
        """(patterns right, patterns in the domain) over the whole input domain."""
        with torch.no_grad():
            right = (self(torch.from_numpy(self.spec.domain())) == torch.from_numpy(self.spec.targets())).all(dim=1)
        return int(right.sum()), len(right)


def load_cell(name: str, directory: Path | None = None) -> Cell:
    """A trained cell as a torch module, loaded and checked as `neural_cells.load_weights` does."""
    return Cell.from_weights(load_weights(name, directory))
