"""The learned compiler's network, and the soft program it emits.

`SlotTransformer` reads an expression's tokens (a transformer encoder) and writes a program of
`SLOTS` instruction slots, one slot after another (a transformer decoder, each slot seeing the
slots before it). Each slot is five distributions, the fields of a `SoftProgram` slot restricted to
what the exact compiler emits for this grammar:

    op    MOV ADD SUB MUL NOP        (NOP pads a program shorter than SLOTS)
    dst   R0-R7
    a     R0-R7                      (ALU operations' first operand)
    b     R0-R7 or the immediate     (MOV's source, ALU operations' second operand)
    imm   the literals 1-9           (the immediate's value: its expected value when soft)

`EmittedProgram` is those distributions as the engine's `SoftProgram` (a `CompiledSoftProgram`,
with the exact compiler's register layout: a, b, c in R0-R2, result in R3), one distribution per
lane — so `ExecutionLoss` runs a whole batch of different programs in one differentiable run, each
on its own input assignments, and its loss backpropagates into the network.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from ncpu_nb.compiler.execution_loss import CompiledSoftProgram
from ncpu_nb.compiler.expression_corpus import LITERALS, MAX_TOKENS, TOKENS
from ncpu_nb.differentiable.soft_alu import relaxed_op
from ncpu_nb.differentiable.soft_program import GENERAL, IMMEDIATE

SLOTS = 11  # the longest exact-compiler program of a depth-3 expression: 7 operations, 4 literals moved
            # into registers first, e.g. (1 * a + 2 * b) * (3 * c + 4 * a)
OPS = ("MOV", "ADD", "SUB", "MUL", "NOP")
FIELDS = {"op": OPS, "dst": GENERAL, "a": GENERAL, "b": GENERAL + (IMMEDIATE,), "imm": tuple(str(v) for v in LITERALS)}
NOP = OPS.index("NOP")
MAX_NESTING = 7


@dataclass(frozen=True)
class ModelConfig:
    """The network's shape."""

    d_model: int = 96
    heads: int = 4
    encoder_layers: int = 4
    decoder_layers: int = 2
    nesting: bool = True  # add an embedding of each token's parenthesis depth to what the encoder reads


class SlotTransformer(nn.Module):
    """Tokens (batch, n) -> per-field logits (batch, SLOTS, choices); see the module docstring.

    `forward(tokens, given=...)` with the exact program's slots (one-hot, teacher forcing) runs the
    decoder once; without, it writes slot after slot feeding back its own distributions (`hard`:
    their argmax one-hot, for compiling; else the probabilities themselves, differentiable)."""

    def __init__(self, config: ModelConfig = ModelConfig()):
        super().__init__()
        d = config.d_model
        self.config = config
        self.token = nn.Embedding(len(TOKENS), d, padding_idx=0)
        self.position = nn.Embedding(MAX_TOKENS, d)
        self.slot = nn.Embedding(SLOTS, d)
        self.nesting = nn.Embedding(MAX_NESTING + 1, d) if config.nesting else None
        self.start = nn.Parameter(torch.zeros(d))
        self.feed = nn.ModuleDict({f: nn.Linear(len(c), d, bias=False) for f, c in FIELDS.items()})
        layer = dict(d_model=d, nhead=config.heads, dim_feedforward=4 * d, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(**layer), config.encoder_layers,
                                             enable_nested_tensor=False)
        self.decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(**layer), config.decoder_layers)
        self.heads = nn.ModuleDict({f: nn.Linear(d, len(c)) for f, c in FIELDS.items()})
        self.register_buffer("causal", torch.triu(torch.full((SLOTS, SLOTS), float("-inf")), 1), persistent=False)

    def encode(self, tokens: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        padding = tokens == 0
        positions = torch.arange(tokens.shape[1], device=tokens.device)
        x = self.token(tokens) + self.position(positions)
        if self.nesting is not None:
            x = x + self.nesting(nesting(tokens))
        return self.encoder(x, src_key_padding_mask=padding), padding

    def _decode(self, memory, padding, previous: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        """Logits of slots 0..n-1 given the distributions of slots 0..n-2 (previous: (batch, n-1, choices))."""
        batch = memory.shape[0]
        fed = sum(self.feed[f](p) for f, p in relevant(previous).items())
        n = fed.shape[1] + 1
        inputs = torch.cat([self.start.expand(batch, 1, -1), fed], 1) + self.slot.weight[:n]
        hidden = self.decoder(inputs, memory, tgt_mask=self.causal[:n, :n], memory_key_padding_mask=padding)
        return {f: head(hidden) for f, head in self.heads.items()}

    def forward(self, tokens: torch.Tensor, given: dict[str, torch.Tensor] | None = None,
                hard: bool = False) -> dict[str, torch.Tensor]:
        memory, padding = self.encode(tokens)
        if given is not None:
            return self._decode(memory, padding, {f: given[f][:, :-1] for f in FIELDS})
        batch = tokens.shape[0]
        previous = {f: memory.new_zeros(batch, 0, len(c)) for f, c in FIELDS.items()}
        logits = None
        for n in range(1, SLOTS + 1):
            logits = self._decode(memory, padding, previous)
            if n < SLOTS:
                last = {f: l[:, -1] for f, l in logits.items()}
                step = {f: (nn.functional.one_hot(l.argmax(-1), l.shape[-1]).to(l.dtype) if hard else l.softmax(-1))
                        for f, l in last.items()}
                previous = {f: torch.cat([previous[f], step[f].unsqueeze(1)], 1) for f in FIELDS}
        return logits


def nesting(tokens: torch.Tensor) -> torch.Tensor:
    """Each token's parenthesis depth (a parenthesis counts as inside), capped at MAX_NESTING."""
    opens, closes = (tokens == TOKENS.index("(")).long(), (tokens == TOKENS.index(")")).long()
    return (opens.cumsum(1) - closes.cumsum(1) + closes).clamp(0, MAX_NESTING)


def _no_denormals(p: torch.Tensor) -> torch.Tensor:
    """Probabilities under 1e-30 set to exactly 0: a confident network's softmax otherwise leaves values
    near 1e-300 that make every float64 operation on them (the whole relaxed run) many times slower."""
    return torch.where(p < 1e-30, torch.zeros_like(p), p)


def relevant(dists: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Slot distributions with each field weighted by the probability that the slot uses it (dst and b:
    not a NOP; a: an ALU operation; imm: b is the immediate), so what the decoder is fed of a slot is
    the same whether the slot came from the exact program (unused fields absent) or from itself."""
    op = dists["op"]
    live = 1 - op[..., NOP:NOP + 1]
    alu = live - op[..., OPS.index("MOV"):OPS.index("MOV") + 1]
    uses_imm = live * dists["b"][..., -1:]
    return {"op": op, "dst": dists["dst"] * live, "a": dists["a"] * alu, "b": dists["b"] * live,
            "imm": dists["imm"] * uses_imm}


class EmittedProgram(CompiledSoftProgram):
    """A batch of emitted programs as one `SoftProgram` for the engine (see the module docstring):
    `logits` field -> (programs, SLOTS, choices); each program runs on `lanes_each` consecutive lanes.
    The distributions are the network's outputs (not leaves): gradients of a loss on the run reach
    the network's parameters."""

    def __init__(self, logits: dict[str, torch.Tensor], lanes_each: int, layout):
        # CompiledSoftProgram's own __init__ peaks leaves on a compiled program; here the network decides.
        self.compiled, self.sharpness, self.name = layout, None, "learned compiler's soft programs"
        self.registers = {name: v.register for name, v in layout.variables.items()}
        probabilities = {f: _no_denormals(torch.softmax(l.to(torch.float64), -1)) for f, l in logits.items()}
        self.device = probabilities["op"].device  # the network's: the engine runs these lanes there
        self.programs = probabilities["op"].shape[0]
        self.lanes_each = lanes_each
        self.lane_probabilities = {f: p.repeat_interleave(lanes_each, 0).transpose(0, 1) for f, p in probabilities.items()}
        values = torch.tensor([float(v) for v in LITERALS], dtype=torch.float64, device=self.device)
        self.immediates = self.lane_probabilities["imm"] @ values  # (SLOTS, lanes): the immediate's expected value
        self.logits = {f: l.detach()[0] for f, l in logits.items()}  # program 0's, for display

    def __len__(self) -> int:
        return self.immediates.shape[0]

    def parameters(self) -> list[torch.Tensor]:
        return []  # the network's parameters are the trainable ones

    def probabilities(self, slot: int) -> dict[str, torch.Tensor]:
        """Lane 0's distributions of slot `slot` (what the debugger and `most_likely` show)."""
        return {f: p[slot, 0] for f, p in self.lane_probabilities.items() if f != "imm"}

    def _choice_text(self, slot: int, field: str, index: int) -> str:
        choice = FIELDS[field][index]
        if choice == IMMEDIATE:
            return FIELDS["imm"][int(self.lane_probabilities["imm"][slot, 0].argmax())]
        return choice

    def execute(self, slot: int, regs: torch.Tensor) -> torch.Tensor:
        """The (lanes, 9) registers after slot `slot`: every lane its own program's mixture."""
        p = {f: q[slot] for f, q in self.lane_probabilities.items()}
        general = regs[:, :len(GENERAL)]
        a = (general * p["a"]).sum(1)
        b = (general * p["b"][:, :len(GENERAL)]).sum(1) + p["b"][:, -1] * self.immediates[slot]
        results = torch.stack([b, relaxed_op("add", a, b), relaxed_op("sub", a, b), relaxed_op("mul", a, b)], 1)
        computed = (results * p["op"][:, :NOP]).sum(1)
        keep = (1 - p["op"][:, NOP]).unsqueeze(1)
        written = general + p["dst"] * (computed.unsqueeze(1) - keep * general)
        return torch.cat([written, regs[:, len(GENERAL):]], 1)

    def constant_gradients(self) -> dict:
        return {}  # the literals are the network's choices, not trainable constants

    def choice_gradients(self) -> dict:
        return {}

    def __repr__(self) -> str:
        return f"<EmittedProgram: {self.programs} programs of {len(self)} slots, {self.lanes_each} lanes each>"


__all__ = ["SlotTransformer", "ModelConfig", "EmittedProgram", "SLOTS", "OPS", "FIELDS"]
