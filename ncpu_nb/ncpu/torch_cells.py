"""The trained cells as torch modules: for training (`ncpu_nb.train`), the torch wiring of the neural ALU
(`neural_alu.py`, on any torch device) and the curriculum. Loading and proving the weights is
`neural_cells.py`'s, without torch.
"""
from __future__ import annotations

from pathlib import Path

import torch

from ncpu_nb.errors import WeightsError
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


class PointwiseCell:
    """A trained cell evaluated element by element, its weights as constants: the same network as
    `Cell` (called the same way, bits (..., inputs) in, bits (..., outputs) out), written so that
    `torch.compile` fuses a whole wiring of cells into a few kernels and no hidden layer is ever
    written to memory. Its sums run in another order than `Cell`'s matrix products; that cannot
    change an output bit, because every logit of a trained cell is at least MARGIN from zero on its
    whole domain (the inputs are exact 0/1), which is checked here along with the truth table."""

    MARGIN = 0.5

    def __init__(self, cell: Cell, compiled: bool = False):
        self.spec = cell.spec
        self.w1, self.b1 = cell.hidden.weight.tolist(), cell.hidden.bias.tolist()
        self.w2, self.b2 = cell.out.weight.tolist(), cell.out.bias.tolist()
        with torch.no_grad():
            domain = torch.from_numpy(self.spec.domain())
            logits = self.logits(domain)
            right = bool(((logits > 0).float() == torch.from_numpy(self.spec.targets())).all())
        if not right or float(logits.abs().min()) < self.MARGIN:
            raise WeightsError(f"the {self.spec.name} cell is not exact with a margin of {self.MARGIN} on its domain, "
                               "so its element-wise form could differ from the network: use the unfused wiring")
        self._compiled = torch.compile(self.bits, dynamic=True) if compiled else None

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        inputs = x.unbind(-1)
        hidden = [torch.relu(sum(w * v for w, v in zip(row, inputs)) + b) for row, b in zip(self.w1, self.b1)]
        return torch.stack([sum(w * h for w, h in zip(row, hidden)) + b for row, b in zip(self.w2, self.b2)], -1)

    def bits(self, x: torch.Tensor) -> torch.Tensor:
        return (self.logits(x) > 0).to(x.dtype)

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        if self._compiled is None:
            return self.bits(x)
        # compiled for one layout, (patterns, inputs) and dense, whatever the batch's shape
        return self._compiled(x.reshape(-1, x.shape[-1]).contiguous()).view(*x.shape[:-1], -1)

    def to(self, device) -> "PointwiseCell":
        return self  # constants only: it computes on whatever device its inputs are
