"""Arithmetic as text, one character a token: `347+589=936.`, `12<7=0.`, `5-81=-76.`

A problem is (op, a, b) with non-negative operands; the answer follows `=` and ends with `.`.
Comparisons answer `1` (true) or `0`. The split is fixed by a hash of the problem: about one
problem in seven is held out and never drawn for training, and every problem with an operand longer
than the training lengths is held out by construction.

Besides the tokens, each example carries per-token labels for the coprocessor's operand decoders
(which operand a digit belongs to, which operation the problem is): they are read off the text,
the way a tokenizer reads it, and train the decoders only (see `alu_coprocessor`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

OPS = ("+", "-", "*", "<", ">")
OP_NAMES = {"+": "ADD", "-": "SUB", "*": "MUL", "<": "LT", ">": "GT"}
VOCAB = "0123456789+-*<>=.#"  # '#' pads
STOI = {c: i for i, c in enumerate(VOCAB)}
PAD = STOI["#"]
ROLES = ("other", "A", "B", "answer")  # a token's role, as the operand decoders learn to read it
TRAIN_LENGTHS = (1, 2, 3)


def answer_text(op: str, a: int, b: int) -> str:
    """The answer string, the reference the model is trained and scored against."""
    value = {"+": a + b, "-": a - b, "*": a * b, "<": int(a < b), ">": int(a > b)}[op]
    return f"{value}."


def problem_text(op: str, a: int, b: int) -> str:
    return f"{a}{op}{b}="


def held_out(op: str, a: int, b: int) -> bool:
    """The fixed split: a problem whose hash falls in one seventh never appears in training."""
    return (a * 1_000_003 + b * 9_176 + OPS.index(op) * 77) % 7 == 3


def encode(text: str) -> list[int]:
    return [STOI[c] for c in text]


def decode(ids) -> str:
    return "".join(VOCAB[int(i)] for i in ids)


def roles(text: str) -> list[int]:
    """Per token: 1 for a digit of A, 2 for a digit of B, 3 for '=' and the answer, else 0."""
    out, state = [], 1
    for c in text:
        if c in OPS and state == 1:
            out.append(0)
            state = 2
        elif c == "=":
            out.append(3)
            state = 3
        else:
            out.append(state if (c.isdigit() or state == 3) else 0)
    return out


def _operand(rng: np.random.Generator, length: int) -> int:
    if length == 1:
        return int(rng.integers(0, 10))
    return int(rng.integers(10 ** (length - 1), 10 ** length))


@dataclass
class Batch:
    tokens: np.ndarray   # (batch, T) int64, padded with PAD
    loss_mask: np.ndarray  # (batch, T) bool: positions whose NEXT token is part of an answer
    roles: np.ndarray    # (batch, T) int64 role labels (ROLES)
    ops: np.ndarray      # (batch,) index into OPS


def make_batch(problems: list[tuple[str, int, int]]) -> Batch:
    texts = [problem_text(*p) + answer_text(*p) for p in problems]
    T = max(map(len, texts))
    tokens = np.full((len(texts), T), PAD, dtype=np.int64)
    mask = np.zeros((len(texts), T), dtype=bool)
    role = np.zeros((len(texts), T), dtype=np.int64)
    for i, (p, text) in enumerate(zip(problems, texts)):
        tokens[i, :len(text)] = encode(text)
        role[i, :len(text)] = roles(text)
        start = len(problem_text(*p))
        mask[i, start - 1:len(text) - 1] = True  # predict every answer character, '.' included
    return Batch(tokens, mask, role, np.array([OPS.index(p[0]) for p in problems]))


def training_problems(rng: np.random.Generator, n: int, lengths=TRAIN_LENGTHS) -> list[tuple[str, int, int]]:
    """`n` problems of the training split: op uniform, each operand's length uniform in `lengths`."""
    out = []
    while len(out) < n:
        op = OPS[int(rng.integers(len(OPS)))]
        a = _operand(rng, int(rng.choice(lengths)))
        b = _operand(rng, int(rng.choice(lengths)))
        if not held_out(op, a, b):
            out.append((op, a, b))
    return out


def held_out_problems(op: str, length: int, n: int, seed: int = 1234) -> list[tuple[str, int, int]]:
    """`n` held-out problems of `op` with both operands `length` digits long (distinct where the
    held-out part of that length has enough of them)."""
    rng = np.random.default_rng([seed, OPS.index(op), length])
    out, seen, tries = [], set(), 0
    while len(out) < n and tries < 200_000:
        tries += 1
        a, b = _operand(rng, length), _operand(rng, length)
        if (length in TRAIN_LENGTHS and not held_out(op, a, b)) or ((a, b) in seen and tries < 100_000):
            continue
        seen.add((a, b))
        out.append((op, a, b))
    return out
