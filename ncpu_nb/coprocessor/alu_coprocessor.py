"""The neural ALU as a transformer's coprocessor, hooked onto one layer's output.

At every token, from that layer's hidden state h (batch, T, d):

    decoders   role head (other / digit of A / digit of B / answer), digit head (0-9), op head
               (ADD SUB MUL LT GT): linear reads of h
    operands   the argmax digits of the tokens read as A (resp. B), in order, make A (resp. B): the
               decimal-to-word packing is numpy (wiring); words are 32 bits, so longer ones wrap
    ALU        `NeuralALU` computes A+B, A-B, A*B and both borrows (A<B, A>B) through its trained
               cells — exact integers, no gradient
    write      the answer character at the token's cursor (how many answer-role tokens so far),
               under every op, through a learned embedding, mixed by the op head's probabilities
    gate       g = sigmoid(w.h + b) * confidence, confidence = the op head's top probability times
               the least top probability of the role and digit reads so far: a token is routed
               (its ALU call made, its write added) only when g > `route_above` and its answer has
               begun (cursor >= 0: before `=` there is nothing to write)
    output     h + g * write

What gets gradient from the language-model loss: the gate (w, b), the write-back embedding, the op
head (through the mixture) and the role/digit heads (through the confidence). The ALU and the
argmax readings do not: they are exact and discrete. The decoders also learn from
`decoder_loss`, a cross-entropy on labels the tokenizer reads off the text (which operand a digit
belongs to, which op the problem is), because a discrete reading cannot learn from a signal that
passes around it.

`inject_ncpu_coprocessor(model, config)` works on any torch model whose `config.layer` submodule
(a dotted name, e.g. "layers.0" or "transformer.h.1") returns (batch, T, d_model) hidden states, or
a tuple that starts with them: a forward hook replaces that output with the coprocessor's.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from ncpu_nb.coprocessor.arithmetic_text import OPS, ROLES, STOI
from ncpu_nb.ncpu.neural_alu import NeuralALU, from_bits, to_bits

RESULT_CHARS = "0123456789-."  # what the coprocessor can write; index len() means "nothing yet"
NOTHING = len(RESULT_CHARS)
A_ROLE, B_ROLE, ANSWER_ROLE = ROLES.index("A"), ROLES.index("B"), ROLES.index("answer")


@dataclass
class CoprocessorConfig:
    d_model: int
    layer: str = "layers.0"   # the submodule whose output the coprocessor reads and rewrites
    route_above: float = 0.02  # gate value below which a token is not routed (no ALU call, no write)
    alu_results: bool = True   # False: the ablation — decoders, gate and labels kept, no ALU result written


class ALUCoprocessor(nn.Module):
    def __init__(self, config: CoprocessorConfig, alu: NeuralALU | None = None):
        super().__init__()
        d = config.d_model
        self.config = config
        self.role_head, self.digit_head = nn.Linear(d, len(ROLES)), nn.Linear(d, 10)
        self.op_head = nn.Linear(d, len(OPS))
        self.gate = nn.Linear(d, 1)
        self.write = nn.Embedding(len(RESULT_CHARS) + 1, d)
        nn.init.normal_(self.write.weight, std=0.1)
        self._alu = alu  # not a submodule: its cells are trained elsewhere and stay frozen
        self.last: dict = {}
        self.alu_rows = 0  # how many operand pairs the ALU has computed, for the curious

    @property
    def alu(self) -> NeuralALU:
        if self._alu is None:
            self._alu = NeuralALU()
        return self._alu

    def read(self, h: torch.Tensor):
        """The decoders' logits and the gate, all differentiable in h."""
        role, digit, op = self.role_head(h), self.digit_head(h), self.op_head(h)
        p_role, p_digit, p_op = role.softmax(-1), digit.softmax(-1), op.softmax(-1)
        is_digit = p_role[..., A_ROLE] + p_role[..., B_ROLE]  # a digit read only matters on operand tokens
        sure = p_role.max(-1).values * (1 - is_digit.detach() + is_digit.detach() * p_digit.max(-1).values)
        confidence = p_op.max(-1).values * torch.cummin(sure, dim=1).values
        gate = torch.sigmoid(self.gate(h)[..., 0]) * confidence
        return role, digit, op, gate

    def operands(self, role: torch.Tensor, digit: torch.Tensor):
        """Per token, the words A and B read so far and the answer cursor (numpy int64, (batch, T))."""
        r, d = role.argmax(-1).cpu().numpy(), digit.argmax(-1).cpu().numpy()
        a, b = np.zeros(r.shape, np.int64), np.zeros(r.shape, np.int64)
        va, vb = np.zeros(r.shape[0], np.int64), np.zeros(r.shape[0], np.int64)
        for t in range(r.shape[1]):  # packing decimal digits into words, wrapped to 32 bits
            va = np.where(r[:, t] == A_ROLE, (va * 10 + d[:, t]) & 0xFFFFFFFF, va)
            vb = np.where(r[:, t] == B_ROLE, (vb * 10 + d[:, t]) & 0xFFFFFFFF, vb)
            a[:, t], b[:, t] = va, vb
        cursor = np.cumsum(r == ANSWER_ROLE, axis=1) - 1
        return a, b, cursor

    def compute(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """(n,) word pairs -> (n, 5) results of OPS by the neural ALU (signed for SUB, 0/1 for LT, GT)."""
        alu = self.alu
        with torch.no_grad():
            x, y = to_bits(a, alu.device), to_bits(b, alu.device)
            total, diff, prod = alu.add(x, y)[0], alu.sub(x, y), alu.mul(x, y)[0]
            lt, gt = diff[1], alu.sub(y, x)[1]  # the subtractor's borrow: A < B, B < A (unsigned)
        signed = from_bits(diff[0]).astype(np.int64)
        signed = np.where(signed >= 2 ** 31, signed - 2 ** 32, signed)
        cols = (from_bits(total).astype(np.int64), signed, from_bits(prod).astype(np.int64),
                lt.cpu().numpy().astype(np.int64), gt.cpu().numpy().astype(np.int64))
        self.alu_rows += len(a)
        return np.stack(cols, 1)

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        role, digit, op, gate = self.read(h)
        a, b, cursor = self.operands(role, digit)
        routed = (gate.detach() > self.config.route_above).cpu().numpy() & (cursor >= 0)
        chars = np.full(cursor.shape + (len(OPS),), NOTHING, np.int64)
        if routed.any() and self.config.alu_results:
            pairs, inverse = np.unique(np.stack([a[routed], b[routed]], 1), axis=0, return_inverse=True)
            results = self.compute(pairs[:, 0], pairs[:, 1])[inverse.reshape(-1)]
            chars[routed] = [[_char_at(v, c) for v in row] for row, c in zip(results, cursor[routed])]
        written = self.write(torch.from_numpy(chars).to(h.device))  # (batch, T, ops, d)
        mixed = (op.softmax(-1).unsqueeze(-1) * written).sum(-2)
        g = gate * torch.from_numpy(routed).to(h.device)
        self.last = {"role": role, "digit": digit, "op": op, "gate": g, "routed": routed, "a": a, "b": b,
                     "chars": chars, "op_choice": op.argmax(-1).cpu().numpy()}
        return h + g.unsqueeze(-1) * mixed

    def decoder_loss(self, tokens: torch.Tensor, roles: torch.Tensor, ops: torch.Tensor) -> torch.Tensor:
        """Cross-entropy of the last forward's decoders against the labels read off the text."""
        role, digit, op = self.last["role"], self.last["digit"], self.last["op"]
        real = tokens != STOI["#"]
        loss = F.cross_entropy(role[real], roles[real])
        operand = (roles == A_ROLE) | (roles == B_ROLE)
        loss = loss + F.cross_entropy(digit[operand], tokens[operand] - STOI["0"])
        answer = roles == ANSWER_ROLE
        return loss + F.cross_entropy(op[answer], ops[:, None].expand_as(roles)[answer])


HAND_WIDTH = len(ROLES) + 10 + len(OPS) + 1  # role one-hot, digit one-hot, op one-hot, a constant 1


def hand_set(problems: list[tuple[str, int, int]], gate_bias: float = 5.0):
    """(coprocessor, hidden states, batch): decoders set by hand to read states laid out by hand —
    each token's true role, digit and op as one-hots — so the mechanism can be watched (and tested)
    apart from what a transformer learns. `gate_bias` opens (> 0) or closes (< 0) the gate."""
    from ncpu_nb.coprocessor.arithmetic_text import make_batch

    cop = ALUCoprocessor(CoprocessorConfig(HAND_WIDTH))
    with torch.no_grad():
        start = 0
        for head, n in ((cop.role_head, len(ROLES)), (cop.digit_head, 10), (cop.op_head, len(OPS))):
            head.weight.zero_(), head.bias.zero_()
            head.weight[:, start:start + n] = 20 * torch.eye(n)
            start += n
        cop.gate.weight.zero_(), cop.gate.bias.fill_(gate_bias)
    batch = make_batch(problems)
    h = torch.zeros(*batch.tokens.shape, HAND_WIDTH)
    rows, cols = np.nonzero(batch.tokens >= 0)
    tokens, role = batch.tokens[rows, cols], batch.roles[rows, cols]
    h[rows, cols, role] = 1
    digit = tokens < 10
    h[rows[digit], cols[digit], len(ROLES) + tokens[digit]] = 1
    h[rows, cols, len(ROLES) + 10 + batch.ops[rows]] = 1
    h[..., -1] = 1
    return cop, h, batch


def _char_at(value: int, cursor: int) -> int:
    text = f"{value}."
    return RESULT_CHARS.index(text[cursor]) if cursor < len(text) else RESULT_CHARS.index(".")


def inject_ncpu_coprocessor(model: nn.Module, config: CoprocessorConfig,
                            alu: NeuralALU | None = None) -> ALUCoprocessor:
    """Hook an `ALUCoprocessor` onto `model.get_submodule(config.layer)`: its output (or the first
    item of a tuple output) becomes the coprocessor's. The coprocessor is registered on the model as
    `ncpu_coprocessor`, so `model.parameters()` and `state_dict()` include it; `.handle.remove()`
    takes the hook off again."""
    target = model.get_submodule(config.layer)
    coprocessor = ALUCoprocessor(config, alu)
    model.add_module("ncpu_coprocessor", coprocessor)

    def hook(module, inputs, output):
        if isinstance(output, tuple):
            return (coprocessor(output[0]), *output[1:])
        return coprocessor(output)

    coprocessor.handle = target.register_forward_hook(hook)
    return coprocessor
