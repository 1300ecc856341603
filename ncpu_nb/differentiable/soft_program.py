"""`SoftProgram`: a straight-line program whose every choice is a trainable distribution.

Each of `length` slots holds logits over an opcode (MOV, the register ALU operations the
differentiable engine relaxes, NOP), a destination register (R0-R7) and two operands, following
the ISA's form `OP Rd, Ra, Rb|imm`: `a` is a register, `b` a register or the slot's trainable
immediate. MOV reads `b` (`MOV Rd, Rs|imm`), NEG and NOT read `a`, NOP writes nothing.

`DifferentiableEngine(SoftProgram(n))` runs it one slot per step, each slot as the
probability-weighted mixture of every choice (operands mixed first, then every operation's result
mixed, then written to each destination with its probability), so the registers it ends with are
differentiable with respect to every logit. `argmax_source()` is the most likely program, in
assembly, to check on the exact CPU.
"""
from __future__ import annotations

import torch

from ncpu_nb.differentiable.soft_alu import relaxed_op
from ncpu_nb.ncpu.neural_alu import torch_device
from ncpu_nb.ncpu.table import REGISTERS

OPCODES = ("MOV", "ADD", "SUB", "MUL", "DIV", "MOD", "AND", "OR", "XOR", "SHL", "SHR", "SAR", "NEG", "NOT", "NOP")
UNARY = ("NEG", "NOT")  # read `a`
GENERAL = REGISTERS[:8]  # R0-R7: SP is not a choice
IMMEDIATE = "imm"
CHOICES = {"op": OPCODES, "dst": GENERAL, "a": GENERAL, "b": GENERAL + (IMMEDIATE,)}


class SoftProgram:
    """`length` slots of trainable choices (see the module docstring).

    seed   draws the initial logits (small, so every choice starts nearly equally likely)
    scale  their standard deviation
    device the torch device of its parameters (drawn on the CPU: a seed gives the same on each)
    """

    def __init__(self, length: int, *, seed: int = 0, scale: float = 0.1, name: str | None = None,
                 device: str | torch.device = "cpu"):
        if not isinstance(length, int) or length < 1:
            raise ValueError(f"a soft program has at least one slot, not {length!r}")
        self.device = torch_device(device)
        generator = torch.Generator(device="cpu").manual_seed(seed)
        draw = lambda n: torch.randn(length, n, generator=generator, dtype=torch.float64, device="cpu")  # noqa: E731
        self.logits = {field: (draw(len(choices)) * scale).to(self.device).requires_grad_(True)
                       for field, choices in CHOICES.items()}
        self.immediates = torch.zeros(length, dtype=torch.float64, device=self.device, requires_grad=True)
        self.name = name or f"soft program of {length} slot{'s' if length != 1 else ''}"

    def __len__(self) -> int:
        return self.immediates.shape[0]

    def parameters(self) -> list[torch.Tensor]:
        """Every trainable tensor: the logits of each field, and the immediates."""
        return [*self.logits.values(), self.immediates]

    def probabilities(self, slot: int) -> dict[str, torch.Tensor]:
        """Field -> the softmax of slot `slot`'s logits (over `CHOICES[field]`)."""
        return {field: torch.softmax(logits[slot], 0) for field, logits in self.logits.items()}

    def top_choices(self, slot: int, n: int = 3) -> dict[str, list[tuple[str, float]]]:
        """Field -> the `n` most likely (choice, probability) of slot `slot`, most likely first."""
        shown = {}
        for field, p in self.probabilities(slot).items():
            values, order = torch.sort(p.detach(), descending=True)
            shown[field] = [(self._choice_text(slot, field, int(i)), float(v)) for v, i in zip(values[:n], order[:n])]
        return shown

    def _choice_text(self, slot: int, field: str, index: int) -> str:
        choice = CHOICES[field][index]
        return str(round(float(self.immediates.detach()[slot]))) if choice == IMMEDIATE else choice

    def execute(self, slot: int, regs: torch.Tensor) -> torch.Tensor:
        """The (lanes, 9) registers after slot `slot`: the mixture of every choice."""
        p = self.probabilities(slot)
        general = regs[:, :len(GENERAL)]
        a = general @ p["a"]
        b = general @ p["b"][:len(GENERAL)] + p["b"][-1] * self.immediates[slot]
        results = torch.stack([b if op == "MOV" else relaxed_op(op.lower(), a, a if op in UNARY else b)
                               for op in OPCODES[:-1]], 1)
        computed = results @ p["op"][:-1]  # NOP's share (the last opcode) leaves the destination as it is
        written = general + p["dst"] * (computed.unsqueeze(1) - (1 - p["op"][-1]) * general)
        return torch.cat([written, regs[:, len(GENERAL):]], 1)

    def most_likely(self, slot: int) -> tuple[str, float]:
        """Slot `slot`'s most likely instruction as assembly, and its probability: the product of
        the probabilities of the choices it uses."""
        best = {field: choices[0] for field, choices in self.top_choices(slot, 1).items()}
        op = best["op"][0]
        used = [] if op == "NOP" else ["dst", "b"] if op == "MOV" else ["dst", "a"] if op in UNARY else ["dst", "a", "b"]
        probability = best["op"][1]
        for field in used:
            probability *= best[field][1]
        return " ".join([op, ", ".join(best[field][0] for field in used)]).strip(), probability

    def argmax_source(self) -> str:
        """The most likely program, one instruction per slot, then HALT: assembly for the exact CPU."""
        return "\n".join([self.most_likely(slot)[0] for slot in range(len(self))] + ["HALT"])

    def __repr__(self) -> str:
        return f"<SoftProgram {self.name}: {'; '.join(self.most_likely(s)[0] for s in range(len(self)))}>"
