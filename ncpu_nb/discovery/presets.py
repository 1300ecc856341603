"""Ready-made example sets for `discover`: each is a definition in plain Python, turned into
training examples and held-out examples (larger inputs the search never sees)."""
from __future__ import annotations

from dataclasses import dataclass
from math import gcd


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    rule: callable  # inputs -> outputs (tuples of ints)
    train: tuple
    held_out: tuple

    def pairs(self, rows) -> list[tuple[list[int], list[int]]]:
        return [(list(row), list(self.rule(*row))) for row in rows]


def _fib_table(count: int) -> list[int]:
    seq = [0, 1]
    while len(seq) < count:
        seq.append(seq[-1] + seq[-2])
    return seq


FIB = _fib_table(40)


def _factorial(n: int) -> int:
    out = 1
    for k in range(2, n + 1):
        out *= k
    return out


def _collatz_steps(n: int) -> int:
    steps = 0
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


PRESETS = {p.name: p for p in [
    Preset("fib", "the next Fibonacci number from the two before it: R0, R1 -> R2",
           lambda a, b: (a + b,), tuple(zip(FIB[1:9], FIB[2:10])), tuple(zip(FIB[20:23], FIB[21:24]))),
    Preset("fib_n", "the n-th Fibonacci number: R0 = n -> R1 = fib(n) (a loop)",
           lambda n: (FIB[n],), tuple((n,) for n in range(10)), ((14,), (20,), (25,))),
    Preset("factorial", "R0 = n -> R1 = n! (a loop)", lambda n: (_factorial(n),),
           tuple((n,) for n in range(7)), ((9,), (12,))),
    Preset("squares", "R0 = n -> R1 = n²", lambda n: (n * n,), tuple((n,) for n in range(8)), ((25,), (300,))),
    Preset("triangular", "R0 = n -> R1 = 0 + 1 + … + n", lambda n: (n * (n + 1) // 2,),
           tuple((n,) for n in range(8)), ((30,), (100,))),
    Preset("powers", "powers of two: R0 = n -> R1 = 2^n", lambda n: (1 << n,), tuple((n,) for n in range(8)),
           ((16,), (30,))),
    Preset("gcd", "R0, R1 -> R2 = their greatest common divisor (a loop)", lambda a, b: (gcd(a, b),),
           ((12, 18), (7, 5), (100, 75), (9, 27), (0, 4), (17, 51), (21, 6), (8, 8)), ((48, 36), (1071, 462))),
    Preset("max", "R0, R1 -> R2 = the larger", lambda a, b: (max(a, b),),
           ((3, 5), (5, 3), (-4, 2), (0, 0), (-7, -9), (100, 99), (1, -1)), ((1234, -5), (8, 80))),
    Preset("abs", "R0 -> R1 = |R0|", lambda n: (abs(n),), ((0,), (5,), (-5,), (17,), (-100,), (1,), (-1,)),
           ((-12345,), (999,))),
    Preset("popcount", "R0 -> R1 = its number of set bits (a loop)", lambda n: (bin(n).count("1"),),
           ((0,), (1,), (2,), (3,), (7,), (8,), (255,), (1000,)), ((65535,), (123456,))),
    Preset("collatz", "R0 -> R1 = Collatz steps to reach 1 (a loop)", lambda n: (_collatz_steps(n),),
           ((1,), (2,), (3,), (6,), (7,), (9,), (12,), (5,)), ((27,), (97,))),
    Preset("digits", "digit sum: R0 -> R1 = the sum of its decimal digits (a loop)",
           lambda n: (sum(map(int, str(n))),), ((0,), (7,), (10,), (59,), (123,), (999,), (4005,), (81,)),
           ((98765,), (3210,))),
]}
