"""What a run of the differentiable engine did, and the soft state it left: every tensor batched over lanes."""
from __future__ import annotations

from dataclasses import dataclass, field

import torch

from ncpu_nb import html
from ncpu_nb.differentiable.soft_memory import SoftMemory
from ncpu_nb.differentiable.soft_program import SoftProgram
from ncpu_nb.ncpu.program import Program
from ncpu_nb.ncpu.table import FLAGS, REGISTERS
from ncpu_nb.protocol import RunResult


@dataclass(frozen=True, kw_only=True)
class SoftRun(RunResult):
    """What `DifferentiableEngine.run` did (see `RunResult`; `pc` is the shown lane's most likely
    instruction, `len(program)` once halted) and the state it left, every tensor batched over lanes.

    registers        (lanes, 9) real values, columns R0-R7, SP
    flags            (lanes, 4) ZF SF CF OF
    pc_distribution  (lanes, len(program) + 1) probability of each instruction; the last column is "halted"
    memory           the data memory it left (`SoftMemory`: `read`, `bytes`)
    history          register tensors before the first and after each step (with `record=True`), for
                     gradient flow; `executed` the instruction index the shown lane ran at each step
    """

    program: Program | SoftProgram
    alu: str
    registers: torch.Tensor
    flags: torch.Tensor
    pc_distribution: torch.Tensor
    memory: SoftMemory | None = None
    history: list = field(default_factory=list)
    executed: list = field(default_factory=list)

    def __getitem__(self, name: str) -> torch.Tensor:
        return self.registers[:, REGISTERS.index(name.upper())]

    @property
    def halt_probability(self) -> torch.Tensor:
        """Probability that each lane has halted."""
        return self.pc_distribution[:, -1]

    def _repr_html_(self) -> str:
        lanes = self.registers.shape[0]
        shown = min(lanes, 4)
        values = self.registers.detach()[:shown]
        rows = [[name] + [f"{values[l, r].item():.6g}" for l in range(shown)] for r, name in enumerate(REGISTERS)]
        rows += [[flag] + [f"{self.flags[l, f].item():.3g}" for l in range(shown)] for f, flag in enumerate(FLAGS)]
        title = (f"Soft run of {self.program.name} ({self.alu} ALU): {self.steps} steps, "
                 f"halted {self.halt_probability.detach().mean().item():.3f}" + (f", {lanes} lanes" if lanes > 1 else ""))
        return html.view(title, html.table([""] + [f"lane {l}" for l in range(shown)], rows, numeric=tuple(
            range(1, shown + 1))))

    def __repr__(self) -> str:
        regs = " ".join(f"{n}={self[n][0].item():.6g}" for n in REGISTERS[:8])
        return f"<SoftRun {self.program.name}: {self.stop} after {self.steps} steps | lane 0: {regs}>"
