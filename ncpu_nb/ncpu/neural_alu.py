"""The neural ALU: every 32-bit operation is a fixed wiring of trained cells.

Data travels as bit tensors of shape (batch, 32), least significant bit first, values 0.0/1.0.
Nothing here adds, compares or shifts numbers: the only integer work is packing and unpacking
bits (`to_bits`, `from_bits`) and indexing, which is wiring. Every gate is a cell evaluation.

    add/sub  Kogge-Stone parallel prefix: propagate/generate from the logic cell, log2(32) = 5
             levels of carry-combine cells, sum bits from the logic cell
    mul      32 partial-product rows (logic cell AND), reduced by carry-save levels of
             full-adder cells, finished by the Kogge-Stone adder
    shifts   a barrel shifter: 5 levels of mux cells, the amount clamped to 0..31 by mux cells
    div/mod  signed restoring division: 32 neural subtractions choosing by mux cells
"""
from __future__ import annotations

import numpy as np
import torch

from ncpu_nb.errors import UnsupportedInstruction
from ncpu_nb.ncpu.torch_cells import PointwiseCell, load_cell

WIDTH = 32
_POWERS = 1 << np.arange(WIDTH, dtype=np.uint64)


def to_bits(values, device: str | torch.device = "cpu") -> torch.Tensor:
    """Unsigned or signed 32-bit integers -> (batch, 32) bits."""
    v = np.asarray(values, dtype=np.int64).astype(np.uint64) & np.uint64(0xFFFFFFFF)
    bits = ((v[:, None] >> np.arange(WIDTH, dtype=np.uint64)) & np.uint64(1)).astype(np.float32)
    return torch.from_numpy(bits).to(device)


def torch_device(name: str | torch.device) -> torch.device:
    """`name` as a torch device this host computes on, or a ValueError saying why not."""
    try:
        device = torch.device(name)
    except RuntimeError:
        raise ValueError(f"unknown torch device {str(name)!r}: cpu, or cuda where there is a GPU") from None
    try:
        torch.ones(1, device=device).cpu()  # a device torch knows but this host lacks fails here
    except (RuntimeError, NotImplementedError, AssertionError) as exc:
        reason = (str(exc).strip() or type(exc).__name__).splitlines()[0]
        raise ValueError(f"torch device {str(name)!r} cannot be used here: {reason}") from None
    return device


def from_bits(bits: torch.Tensor) -> np.ndarray:
    """(batch, 32) bits -> unsigned 32-bit integers (uint64 array)."""
    return (bits.cpu().numpy().astype(np.uint64) * _POWERS).sum(axis=1)


def _contiguous(compiled):
    """`compiled` given contiguous tensors: code compiled for a dense layout serves every call, where
    strided views (a slice of bits, a row of partial products) would each be compiled anew."""
    def call(*args):
        return compiled(*(a.contiguous() if isinstance(a, torch.Tensor) else a for a in args))
    return call


class NeuralALU:
    """The operations of `ncpu_nb.ncpu.table.ALU_OPS` on bit tensors, computed by trained cells.
    Each returns (result bits, carry bit, overflow bit), carry/overflow shaped (batch,).

    `device` places the cells and every batch: the CPU by default, "cuda" for a GPU, where large
    batches (many lanes, whole verification sets) run as one kernel launch per cell level.
    `fused` compiles the wiring with `torch.compile`, the cells evaluated element by element
    (`PointwiseCell`), so that an adder, a shifter, an OR tree or any one cell evaluation is a few
    kernels that never write a hidden layer to memory (compiled on first use, tens of seconds)."""

    def __init__(self, directory=None, device: str | torch.device = "cpu", fused: bool = False):
        self.device = torch_device(device)
        cell = (lambda name: PointwiseCell(load_cell(name, directory), compiled=True)) if fused else (
            lambda name: load_cell(name, directory).to(self.device))
        self.logic = cell("logic")
        self.combine = cell("combine")
        self.full_adder = cell("full_adder")
        self.mux_cell = cell("mux")
        if fused:  # the larger units, each compiled whole (the operations built from them call these)
            self.add_bits = _contiguous(torch.compile(self.add_bits, dynamic=True))
            self._shift = _contiguous(torch.compile(self._shift, dynamic=True))
            self.any_ = _contiguous(torch.compile(self.any_, dynamic=True))

    # --- gates: one cell evaluation each, over any batch shape
    def _logic(self, a, b, which: int):
        return self.logic(torch.stack([a, b], dim=-1))[..., which]

    def and_(self, a, b):
        return self._logic(a, b, 0)

    def or_(self, a, b):
        return self._logic(a, b, 1)

    def xor(self, a, b):
        return self._logic(a, b, 2)

    def not_(self, a):
        return self.xor(a, torch.ones_like(a))

    def mux(self, sel, x0, x1):
        """x1 where sel is 1, else x0 (sel broadcasts over the bit dimension)."""
        sel = sel.expand_as(x0) if sel.dim() == x0.dim() else sel.unsqueeze(-1).expand_as(x0)
        return self.mux_cell(torch.stack([sel, x0, x1], dim=-1))[..., 0]

    def any_(self, bits):
        """OR of the last dimension, as a tree of logic cells."""
        while bits.shape[-1] > 1:
            if bits.shape[-1] % 2:
                bits = torch.cat([bits, torch.zeros_like(bits[..., :1])], dim=-1)
            bits = self.or_(bits[..., 0::2], bits[..., 1::2])
        return bits[..., 0]

    # --- adder
    def add_bits(self, a, b, carry_in):
        """Kogge-Stone addition: (sum, carry out, carry into the top bit)."""
        gates = self.logic(torch.stack([a, b], dim=-1))
        g, p = gates[..., 0], gates[..., 2]
        G, P = g, p
        span = 1
        while span < WIDTH:  # after the level with span s, (G, P)[i] covers bits i-2s+1 .. i
            out = self.combine(torch.stack([G[:, span:], P[:, span:], G[:, :-span], P[:, :-span]], dim=-1))
            G = torch.cat([G[:, :span], out[..., 0]], dim=1)
            P = torch.cat([P[:, :span], out[..., 1]], dim=1)
            span *= 2
        # carry into bit i+1 = G[i] | P[i] & carry_in: one more combine with carry_in as a generate
        cin = carry_in.unsqueeze(1).expand_as(G)
        carries = self.combine(torch.stack([G, P, cin, torch.zeros_like(G)], dim=-1))[..., 0]
        into = torch.cat([carry_in.unsqueeze(1), carries[:, :-1]], dim=1)
        return self.xor(p, into), carries[:, -1], into[:, -1]

    def add(self, a, b):
        s, carry, into_top = self.add_bits(a, b, torch.zeros_like(a[:, 0]))
        return s, carry, self.xor(carry, into_top)

    def sub(self, a, b):
        s, carry, into_top = self.add_bits(a, self.not_(b), torch.ones_like(a[:, 0]))
        return s, self.not_(carry), self.xor(carry, into_top)  # CF is the borrow: no carry out

    def neg(self, a, b=None):
        return self.sub(torch.zeros_like(a), a)

    # --- logic
    def _flagless(self, r):
        zero = torch.zeros_like(r[:, 0])
        return r, zero, zero

    def pass_(self, a, b):
        return self._flagless(b)

    def bit_and(self, a, b):
        return self._flagless(self.and_(a, b))

    def bit_or(self, a, b):
        return self._flagless(self.or_(a, b))

    def bit_xor(self, a, b):
        return self._flagless(self.xor(a, b))

    def bit_not(self, a, b=None):
        return self._flagless(self.not_(a))

    # --- shifts
    def _amount(self, b):
        """The low 5 bits of the amount clamped to 0..31: negative -> 0, above 31 -> 31."""
        big = self.any_(b[:, 5:31])
        low = self.mux(big, b[:, :5], torch.ones_like(b[:, :5]))
        return self.mux(b[:, 31], low, torch.zeros_like(low))

    def _shift(self, a, b, left: bool, fill):
        amount = self._amount(b)
        for k in range(5):
            n = 1 << k
            pad = fill.unsqueeze(1).expand(-1, n)
            moved = torch.cat([pad, a[:, :-n]], 1) if left else torch.cat([a[:, n:], pad], 1)  # wiring
            a = self.mux(amount[:, k], a, moved)
        return a

    def shl(self, a, b):
        return self._flagless(self._shift(a, b, True, torch.zeros_like(a[:, 0])))

    def shr(self, a, b):
        return self._flagless(self._shift(a, b, False, torch.zeros_like(a[:, 0])))

    def sar(self, a, b):
        return self._flagless(self._shift(a, b, False, a[:, 31]))

    # --- multiplication: carry-save reduction of the partial products
    def mul(self, a, b):
        batch = a.shape[0]
        rows = []
        for j in range(WIDTH):  # row j: (a AND b_j) << j, keeping the low 32 bits (wiring)
            pp = self.and_(a[:, : WIDTH - j], b[:, j:j + 1].expand(-1, WIDTH - j))
            rows.append(torch.cat([a.new_zeros(batch, j), pp], 1))
        rows = torch.stack(rows, 1)  # (batch, 32 rows, 32 bits)
        while rows.shape[1] > 2:
            n = rows.shape[1] // 3 * 3
            x, y, z = rows[:, 0:n:3], rows[:, 1:n:3], rows[:, 2:n:3]
            out = self.full_adder(torch.stack([x, y, z], -1))
            carry = torch.cat([torch.zeros_like(out[..., :1, 1]), out[..., :-1, 1]], -1)  # carries move up a bit
            rows = torch.cat([out[..., 0], carry, rows[:, n:]], 1)
        return self._flagless(self.add_bits(rows[:, 0], rows[:, 1], a.new_zeros(batch))[0])

    # --- division: signed, truncating; x / 0 = 0 and x % 0 = x
    def _divmod(self, a, b):
        batch = a.shape[0]
        sa, sb = a[:, 31], b[:, 31]
        ua = self.mux(sa, a, self.neg(a)[0])
        ub = self.mux(sb, b, self.neg(b)[0])
        rem = a.new_zeros(batch, WIDTH)
        quotient = []
        for i in reversed(range(WIDTH)):  # restoring division, one quotient bit per step
            rem = torch.cat([ua[:, i:i + 1], rem[:, :-1]], 1)  # rem << 1 | next bit (wiring)
            diff, borrow, _ = self.sub(rem, ub)
            fits = self.not_(borrow)
            rem = self.mux(fits, rem, diff)
            quotient.append(fits)
        q = torch.stack(quotient[::-1], 1)
        q = self.mux(self.xor(sa, sb), q, self.neg(q)[0])
        r = self.mux(sa, rem, self.neg(rem)[0])
        zero = self.not_(self.any_(b))
        return self.mux(zero, q, torch.zeros_like(q)), self.mux(zero, r, a)

    def div(self, a, b):
        return self._flagless(self._divmod(a, b)[0])

    def mod(self, a, b):
        return self._flagless(self._divmod(a, b)[1])

    def op(self, name: str):
        """The method computing integer ALU operation `name` of the ISA table (the float unit's
        operations are a microprogram of the core, `metal_ext/src/ncpu/float.rs`, not wired here)."""
        methods = {"pass": self.pass_, "add": self.add, "sub": self.sub, "mul": self.mul, "div": self.div,
                   "mod": self.mod, "and": self.bit_and, "or": self.bit_or, "xor": self.bit_xor, "shl": self.shl,
                   "shr": self.shr, "sar": self.sar, "not": self.bit_not, "neg": self.neg}
        if name not in methods:
            raise UnsupportedInstruction(f"the torch wiring computes the integer operations ({', '.join(methods)}); "
                                         f"{name!r} is not one of them")
        return methods[name]

    @torch.no_grad()
    def compute(self, name: str, a, b) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Integers in, (result, carry, overflow) integer arrays out, through the networks."""
        r, c, v = self.op(name)(to_bits(a, self.device), to_bits(b, self.device))
        return from_bits(r), c.cpu().numpy().astype(np.uint8), v.cpu().numpy().astype(np.uint8)
