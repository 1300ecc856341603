"""The tiny transformer both arms share: character tokens, sinusoidal positions, a stack of
standard `nn.TransformerEncoderLayer`s under a causal mask, a linear head. Nothing in it knows
about arithmetic; the coprocessor, where there is one, is hooked onto `layers[k]` from outside."""
from __future__ import annotations

import math

import torch
from torch import nn


def sinusoids(length: int, width: int) -> torch.Tensor:
    position = torch.arange(length, dtype=torch.float32)[:, None]
    rate = torch.exp(torch.arange(0, width, 2, dtype=torch.float32) * (-math.log(10_000.0) / width))
    table = torch.zeros(length, width)
    table[:, 0::2], table[:, 1::2] = torch.sin(position * rate), torch.cos(position * rate)
    return table


class TinyTransformer(nn.Module):
    def __init__(self, vocab: int, d_model: int = 64, layers: int = 2, heads: int = 4, max_len: int = 64):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.register_buffer("positions", sinusoids(max_len, d_model), persistent=False)
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(d_model, heads, 4 * d_model, dropout=0.0, batch_first=True, norm_first=True)
            for _ in range(layers))
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """(batch, T) token ids -> (batch, T, vocab) logits for the next token."""
        T = tokens.shape[1]
        h = self.embed(tokens) + self.positions[:T]
        causal = torch.triu(torch.full((T, T), float("-inf"), device=tokens.device), diagonal=1)
        for layer in self.layers:
            h = layer(h, src_mask=causal)
        return self.head(self.norm(h))
