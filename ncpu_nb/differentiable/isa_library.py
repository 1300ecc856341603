"""What ISA discovery builds from and is judged on: primitive circuits and benchmarks.

A *primitive* is a 2-input, 32-bit circuit: its exact result on integers, its relaxed form under
autograd (from `soft_alu` where the nCPU has the operation), a cost (a rough size of the circuit:
a bitwise gate row 1, an adder 4, a multiplier 24) and, where one nCPU instruction computes it, that
instruction. The library holds the ALU's +, −, × and bitwise operations among near misses that agree
with them on some inputs (a+b+1, a|b and a^b against +, max, min, the average, a·a, 2a+b), so that an
op which is "+" on a held-out grid had to become "+".

A *benchmark* is a set of target functions of (a, b): programs for them must be short in the
learned instruction set, which is the pressure that shapes it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch

from ncpu_nb.differentiable.soft_alu import MASK, relaxed_op, signed, straight_through, wrap


def _wrapped(x: torch.Tensor) -> torch.Tensor:
    """Signed 32-bit int64 of int64 values (wrap-around, as the CPU)."""
    return signed(x & MASK)


@dataclass(frozen=True)
class Primitive:
    """name      how tables show it (in a and b)
    exact     int64 tensors (signed 32-bit values) -> the signed 32-bit result
    relaxed   float64 tensors -> a float64 tensor under autograd, exact in value on integers
    cost      the circuit's rough size
    ncpu      the nCPU instruction as a format string over {d} {a} {b}, or None"""

    name: str
    exact: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
    relaxed: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
    cost: float
    ncpu: str | None = None


def _alu(op: str, cost: float, name: str, ncpu: str) -> Primitive:
    from ncpu_nb.differentiable.soft_alu import exact_op

    return Primitive(name, lambda a, b: exact_op(op, a, b), lambda a, b: relaxed_op(op, a, b), cost, ncpu)


def _average(a, b):  # floor((a+b)/2): the surrogate is the real mean
    return straight_through((a + b) / 2, torch.div(torch.round(a.detach() + b.detach()), 2, rounding_mode="floor"))


PRIMITIVES = (
    Primitive("a", lambda a, b: a, lambda a, b: a, 0.0, "MOV {d}, {a}"),
    Primitive("b", lambda a, b: b, lambda a, b: b, 0.0, "MOV {d}, {b}"),
    _alu("add", 4.0, "a+b", "ADD {d}, {a}, {b}"),
    _alu("sub", 4.0, "a-b", "SUB {d}, {a}, {b}"),
    _alu("mul", 24.0, "a*b", "MUL {d}, {a}, {b}"),
    Primitive("a*a", lambda a, b: _wrapped(a * a), lambda a, b: relaxed_op("mul", a, a), 24.0, "MUL {d}, {a}, {a}"),
    _alu("neg", 2.0, "-a", "NEG {d}, {a}"),
    _alu("not", 1.0, "~a", "NOT {d}, {a}"),
    _alu("and", 1.0, "a&b", "AND {d}, {a}, {b}"),
    _alu("or", 1.0, "a|b", "OR {d}, {a}, {b}"),
    _alu("xor", 1.0, "a^b", "XOR {d}, {a}, {b}"),
    Primitive("a&~b", lambda a, b: a & ~b, lambda a, b: relaxed_op("and", a, relaxed_op("not", b, b)), 2.0),
    Primitive("a+b+1", lambda a, b: _wrapped(a + b + 1), lambda a, b: wrap(a + b + 1), 4.0),
    Primitive("2a+b", lambda a, b: _wrapped(2 * a + b), lambda a, b: wrap(2 * a + b), 5.0),
    Primitive("(a+b)>>1", lambda a, b: torch.div(a + b, 2, rounding_mode="floor"), _average, 5.0),
    Primitive("min", torch.minimum, torch.minimum, 6.0),
    Primitive("max", torch.maximum, torch.maximum, 6.0),
)
PRIMITIVE_NAMES = tuple(p.name for p in PRIMITIVES)


@dataclass(frozen=True)
class Benchmark:
    """name          "arithmetic" or "bitwise" (or your own)
    targets       target name -> its exact function of int64 tensors (a, b)
    train_range   inputs drawn from this inclusive range while training
    grid          (low, high): the held-out grid is every pair in [low, high]² outside the training square
    reference     the operations the learned set should recover: symbol -> primitive name"""

    name: str
    targets: dict
    train_range: tuple[int, int]
    grid: tuple[int, int]
    reference: dict

    def grid_pairs(self) -> tuple[torch.Tensor, torch.Tensor]:
        """(a, b) int64 vectors: every pair of the grid that training never drew."""
        lo, hi = self.grid
        values = torch.arange(lo, hi + 1, dtype=torch.int64, device="cpu")  # the exact checks run on the CPU
        a, b = torch.meshgrid(values, values, indexing="ij")
        a, b = a.reshape(-1), b.reshape(-1)
        t_lo, t_hi = self.train_range
        seen = (a >= t_lo) & (a <= t_hi) & (b >= t_lo) & (b <= t_hi)
        return a[~seen], b[~seen]


ARITHMETIC = Benchmark(
    "arithmetic",
    {"a+b": lambda a, b: a + b, "a-b": lambda a, b: a - b, "a*b": lambda a, b: a * b,
     "2a+b": lambda a, b: 2 * a + b, "a*a-b": lambda a, b: a * a - b, "(a+b)*a": lambda a, b: (a + b) * a,
     "a*b-a": lambda a, b: a * b - a, "(a-b)*(a+b)": lambda a, b: (a - b) * (a + b)},
    train_range=(-8, 8), grid=(-64, 64), reference={"+": "a+b", "-": "a-b", "*": "a*b"})

BITWISE = Benchmark(
    "bitwise",
    {"a&b": lambda a, b: a & b, "a|b": lambda a, b: a | b, "a^b": lambda a, b: a ^ b,
     "~a&b": lambda a, b: ~a & b, "(a^b)&a": lambda a, b: (a ^ b) & a, "~(a|b)": lambda a, b: ~(a | b),
     "(a&b)|(a^b)": lambda a, b: (a & b) | (a ^ b)},
    train_range=(0, 63), grid=(-200, 200), reference={"&": "a&b", "|": "a|b", "^": "a^b"})

BENCHMARKS = {"arithmetic": ARITHMETIC, "bitwise": BITWISE}


def benchmark(which: str | Benchmark) -> Benchmark:
    """A benchmark by name, or the one given."""
    if isinstance(which, Benchmark):
        return which
    if not isinstance(which, str):
        raise TypeError(f"benchmark must be a name ({', '.join(BENCHMARKS)}) or a Benchmark, "
                        f"not {type(which).__name__}")
    if which not in BENCHMARKS:
        raise ValueError(f"no benchmark {which!r}; there are: {', '.join(BENCHMARKS)}")
    return BENCHMARKS[which]
