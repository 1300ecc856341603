"""IEEE 754 binary floating point on bit patterns, computed exactly: the float unit's oracle.

`FloatFormat(exponent_bits, mantissa_bits)` is any IEEE-style binary format of at most 32 bits
(binary32 is (8, 23), binary16 (5, 10), the 8-bit formats (4, 3) and (5, 2)). Every operation
takes and returns bit patterns (unsigned ints) and is computed on exact rationals (`Fraction`,
integer square roots), then rounded once to nearest, ties to even. No host float is involved, so
this is an oracle independent of the hardware that numpy and Rust's f32 use.

The rules every execution mode follows (fast, wired, neural, this oracle):
  * gradual underflow: subnormals in and out, nothing flushed to zero;
  * every NaN result is the canonical quiet NaN (sign 0, exponent all ones, top fraction bit set),
    whatever NaN payloads came in (as RISC-V does; x86 and ARM differ in payloads and signs);
  * no exception flags; x / ±0 is ±inf, 0 / 0, inf - inf, 0 * inf, sqrt(x < 0) are NaN,
    sqrt(-0) is -0, x - x is +0;
  * `ftoi` truncates toward zero and saturates to the int32 range, NaN gives 0 (ARM's FCVTZS);
  * `itof` rounds a signed 32-bit integer to nearest even;
  * `fcmp` orders its operands: (less, equal, greater, unordered), see `compare`.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import isqrt

LESS, EQUAL, GREATER, UNORDERED = "less", "equal", "greater", "unordered"


@dataclass(frozen=True)
class FloatFormat:
    exponent_bits: int
    mantissa_bits: int

    def __post_init__(self):
        if not (2 <= self.exponent_bits <= 8 and 1 <= self.mantissa_bits <= 23):
            raise ValueError(f"a format needs 2..8 exponent bits and 1..23 mantissa bits, "
                             f"got ({self.exponent_bits}, {self.mantissa_bits})")

    @property
    def name(self) -> str:
        return {(8, 23): "binary32", (5, 10): "binary16"}.get(
            (self.exponent_bits, self.mantissa_bits), f"e{self.exponent_bits}m{self.mantissa_bits}")

    @property
    def bits(self) -> int:
        return 1 + self.exponent_bits + self.mantissa_bits

    @property
    def bias(self) -> int:
        return (1 << (self.exponent_bits - 1)) - 1

    @property
    def exponent_mask(self) -> int:
        return (1 << self.exponent_bits) - 1

    @property
    def sign_bit(self) -> int:
        return 1 << (self.bits - 1)

    @property
    def nan(self) -> int:
        """The canonical quiet NaN."""
        return (self.exponent_mask << self.mantissa_bits) | (1 << (self.mantissa_bits - 1))

    def infinity(self, negative: bool = False) -> int:
        return (self.sign_bit if negative else 0) | (self.exponent_mask << self.mantissa_bits)

    # --- classification and decoding
    def fields(self, x: int) -> tuple[int, int, int]:
        """(sign, biased exponent, fraction) of bit pattern x."""
        return x >> (self.bits - 1) & 1, x >> self.mantissa_bits & self.exponent_mask, x & ((1 << self.mantissa_bits) - 1)

    def is_nan(self, x: int) -> bool:
        _, e, f = self.fields(x)
        return e == self.exponent_mask and f != 0

    def is_inf(self, x: int) -> bool:
        _, e, f = self.fields(x)
        return e == self.exponent_mask and f == 0

    def value(self, x: int) -> Fraction:
        """The exact value of a finite bit pattern (-0 and +0 are both 0)."""
        s, e, f = self.fields(x)
        magnitude = Fraction(f, 1 << self.mantissa_bits) * Fraction(2) ** (1 - self.bias) if e == 0 else \
            Fraction((1 << self.mantissa_bits) + f, 1 << self.mantissa_bits) * Fraction(2) ** (e - self.bias)
        return -magnitude if s else magnitude

    def to_float(self, x: int) -> float:
        """The Python float of a bit pattern (exact: every format here fits in a double)."""
        if self.is_nan(x):
            return float("nan")
        if self.is_inf(x):
            return float("-inf") if x & self.sign_bit else float("inf")
        v = float(self.value(x))
        return -0.0 if v == 0 and x & self.sign_bit else v

    # --- rounding
    def round(self, value: Fraction, negative_zero: bool = False) -> int:
        """The bit pattern nearest to an exact value, ties to even; overflow gives inf."""
        sign = self.sign_bit if value < 0 or (value == 0 and negative_zero) else 0
        v = abs(value)
        if v == 0:
            return sign
        m = self.mantissa_bits
        # the binade: 2**k <= v < 2**(k+1)
        k = v.numerator.bit_length() - v.denominator.bit_length()
        if Fraction(2) ** k > v:
            k -= 1
        exponent = max(k, 1 - self.bias)  # below the normal range the quantum stays 2**(1-bias-m)
        scaled = v / Fraction(2) ** (exponent - m)  # significand in units of the last place
        q, r = divmod(scaled.numerator, scaled.denominator)
        twice = 2 * r
        if twice > scaled.denominator or (twice == scaled.denominator and q & 1):
            q += 1
        if q >= 2 << m:  # rounding carried into the next binade
            q >>= 1
            exponent += 1
        if q < 1 << m:  # subnormal (or rounded up into the smallest normal below)
            return sign | q
        biased = exponent + self.bias
        if biased >= self.exponent_mask:
            return self.infinity(bool(sign))
        return sign | biased << m | (q - (1 << m))

    def from_float(self, x: float) -> int:
        """A Python float rounded to this format."""
        if x != x:
            return self.nan
        if x in (float("inf"), float("-inf")):
            return self.infinity(x < 0)
        return self.round(Fraction(x), negative_zero=str(x).startswith("-"))

    # --- operations (bit patterns in, bit pattern out)
    def add(self, a: int, b: int) -> int:
        if self.is_nan(a) or self.is_nan(b):
            return self.nan
        if self.is_inf(a) or self.is_inf(b):
            if self.is_inf(a) and self.is_inf(b) and (a ^ b) & self.sign_bit:
                return self.nan
            return a if self.is_inf(a) else b
        total = self.value(a) + self.value(b)
        both_negative = bool(a & b & self.sign_bit)
        return self.round(total, negative_zero=both_negative)  # an exact zero sum is +0 unless -0 + -0

    def sub(self, a: int, b: int) -> int:
        return self.add(a, b ^ self.sign_bit)

    def mul(self, a: int, b: int) -> int:
        negative = bool((a ^ b) & self.sign_bit)
        if self.is_nan(a) or self.is_nan(b):
            return self.nan
        if self.is_inf(a) or self.is_inf(b):
            other = b if self.is_inf(a) else a
            if not self.is_inf(other) and self.value(other) == 0:
                return self.nan
            return self.infinity(negative)
        return self.round(self.value(a) * self.value(b), negative_zero=negative)

    def div(self, a: int, b: int) -> int:
        negative = bool((a ^ b) & self.sign_bit)
        if self.is_nan(a) or self.is_nan(b) or (self.is_inf(a) and self.is_inf(b)):
            return self.nan
        if self.is_inf(a):
            return self.infinity(negative)
        if self.is_inf(b):
            return self.sign_bit if negative else 0
        if self.value(b) == 0:
            return self.nan if self.value(a) == 0 else self.infinity(negative)
        return self.round(self.value(a) / self.value(b), negative_zero=negative)

    def sqrt(self, a: int, _unused: int = 0) -> int:
        if self.is_nan(a):
            return self.nan
        v = self.value(a) if not self.is_inf(a) else None
        if a & self.sign_bit and (v is None or v != 0):
            return self.nan
        if v is None or v == 0:
            return a  # +inf, +0, -0
        # sqrt(v) = sqrt(n / d): with enough fraction bits, isqrt's floor plus a sticky bit rounds exactly
        shift = 2 * (self.mantissa_bits + 4 + self.bias + 64)
        n = v.numerator * v.denominator << shift  # sqrt(v) = sqrt(n) / (d * 2**(shift/2))
        root = isqrt(n)
        sticky = Fraction(1, 4) if root * root != n else 0  # a quarter unit keeps direction, never a tie
        return self.round((root + sticky) / (v.denominator * Fraction(2) ** (shift // 2)))

    def compare(self, a: int, b: int) -> str:
        if self.is_nan(a) or self.is_nan(b):
            return UNORDERED
        va = self.value(a) if not self.is_inf(a) else (-1 if a & self.sign_bit else 1) * Fraction(10) ** 400
        vb = self.value(b) if not self.is_inf(b) else (-1 if b & self.sign_bit else 1) * Fraction(10) ** 400
        return LESS if va < vb else EQUAL if va == vb else GREATER

    def to_int(self, a: int, _unused: int = 0) -> int:
        """Truncate toward zero to a signed 32-bit integer, saturating; NaN gives 0. Returns two's complement."""
        if self.is_nan(a):
            return 0
        if self.is_inf(a):
            return 0x8000_0000 if a & self.sign_bit else 0x7FFF_FFFF
        v = self.value(a)
        t = int(v)  # int() truncates a Fraction toward zero
        t = max(-(1 << 31), min((1 << 31) - 1, t))
        return t & 0xFFFF_FFFF

    def from_int(self, a: int, _unused: int = 0) -> int:
        """A signed 32-bit integer (two's complement bits) rounded to this format."""
        a &= 0xFFFF_FFFF
        return self.round(Fraction(a - (1 << 32) if a >> 31 else a))


BINARY32 = FloatFormat(8, 23)

# The word fcmp writes (its ZF and SF come from it) and its (CF, OF), per ordering. The flags are
# ARM's FCMP with CF as a borrow, so the integer branches read naturally after a float compare:
#   JZ equal · JS / JC less (ordered) · JG greater · JGE greater or equal · JL less or unordered
#   JLE less, equal or unordered · JO unordered · JA greater or unordered
COMPARE_RESULTS = {LESS: (0xFFFF_FFFF, 1, 0), EQUAL: (0, 0, 0), GREATER: (1, 0, 0), UNORDERED: (1, 0, 1)}
