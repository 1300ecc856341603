"""The float unit's part of `ncpu-nb verify`: every float operation, in every mode, against IEEE 754.

Three executions of each operation (`metal_ext/src/ncpu/float.rs`):
  fast    the host's binary32 (Rust's f32), NaNs made canonical;
  wired   the float unit's microprogram over the exact integer ALU;
  neural  the same microprogram over the neural ALU: every step a wiring of trained cells.
Three oracles: numpy's float32 and float16 (the host's IEEE hardware), and `float_format` (exact
rationals, any format, no host float involved).

Checks, per operation:
  * the rational oracle = numpy float32 on the special values and a random sample (the oracles agree);
  * fast = numpy and wired = numpy on all pairs of special values (zeros, subnormals, the normal
    range's ends, infinities, NaNs with any payload, ties) and on 10,000,000 random pairs, half of
    them uniform bit patterns and half pairs close in exponent (cancellation, ties, carries);
  * wired = the rational oracle on every pair of the 8-bit formats e4m3 and e5m2 (exhaustive: the
    microprogram is the same code for every format), and = numpy float16 on random binary16 pairs;
  * neural = fast on the special pairs, every pair of e4m3, and a random sample (`--full`: as
    many random pairs as fast mode gets).

Why neural mode is then exact everywhere: the microprogram only ever asks the integer ALU for
operations (and reads their flags), and the integer checks prove the neural ALU equal to the exact
one on every operand pair of every operation. So, step by step, the neural execution receives and
produces the same words as the wired execution and takes the same branches: neural = wired on every
input, and wired is what the checks above compare with IEEE. The neural rows confirm it directly.

A mismatch is counted when the bit patterns differ (any NaN matches any NaN; the modes all return
the canonical one), or for `fcmp` when the ordering differs; `max ULP` is the largest distance in
units in the last place between a wrong result and the right one.
"""
from __future__ import annotations

import time

import numpy as np

from ncpu_nb import _metal
from ncpu_nb.ncpu.float_format import COMPARE_RESULTS, FloatFormat
from ncpu_nb.ncpu.table import ALU_NAMES
from ncpu_nb.verification_check import Check

FLOAT_CHECKED = ("fadd", "fsub", "fmul", "fdiv", "fsqrt", "fcmp", "itof", "ftoi")
UNARY = ("fsqrt", "itof", "ftoi")
RANDOM_PAIRS = 10_000_000
NEURAL_PAIRS = 10_000
ORACLE_SAMPLE = 2_000
SMALL_FORMATS = (FloatFormat(4, 3), FloatFormat(5, 2))
BINARY16 = FloatFormat(5, 10)
CHUNK = 1 << 20


def special_values(fmt: FloatFormat) -> np.ndarray:
    """Bit patterns of every class: zeros, subnormals, normal-range ends, ones, infinities, NaNs."""
    m, emask, sign = fmt.mantissa_bits, fmt.exponent_mask, fmt.sign_bit
    one = fmt.bias << m
    positive = [0, 1, 2, 3, (1 << m) - 1, 1 << m, (1 << m) + 1, one, one + 1, one - 1, one + (1 << (m - 1)),
                (fmt.bias + 1) << m, (fmt.bias - 1) << m, ((emask - 1) << m) | ((1 << m) - 1), (emask - 1) << m,
                emask << m, fmt.nan, (emask << m) | 1, ((fmt.bias + m) << m) | 1, (fmt.bias + m + 1) << m | 3]
    values = sorted({v for p in positive for v in (p, p | sign)})
    return np.array(values, dtype=np.uint32)


def integer_specials() -> np.ndarray:
    """int32 operands for itof: zero, ones, the ends, and values around binary32's integer precision."""
    values = [0, 1, 2, 3, 7, 255, (1 << 24) - 1, 1 << 24, (1 << 24) + 1, (1 << 24) + 3, (1 << 25) + 2,
              (1 << 25) + 6, (1 << 31) - 1, (1 << 31) - 64, (1 << 31) - 65, (1 << 31) - 128]
    return np.array(sorted({v & 0xFFFF_FFFF for x in values for v in (x, -x)}), dtype=np.uint32)


def random_pairs(rng: np.random.Generator, n: int, bits: int = 32) -> tuple[np.ndarray, np.ndarray]:
    """Half uniform bit patterns, half pairs whose exponents differ by at most 3 (and may share bits)."""
    a = rng.integers(0, 1 << bits, n, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 1 << bits, n, dtype=np.uint64).astype(np.uint32)
    close = slice(n // 2, n)
    m = {32: 23, 16: 10}[bits]
    shift = rng.integers(-3, 4, n - n // 2).astype(np.int64)
    low_bits = rng.integers(0, 1 << rng.integers(1, m + 1), n - n // 2, dtype=np.uint64).astype(np.uint32)
    near = (a[close].astype(np.int64) + (shift << m)) % (1 << bits)
    b[close] = (near.astype(np.uint32) ^ low_bits) & np.uint32((1 << bits) - 1)
    return a, b


def numpy_result(op: str, a: np.ndarray, b: np.ndarray, dtype=np.float32) -> tuple[np.ndarray, np.ndarray]:
    """(result bits, CF | OF << 1) of `op` by numpy in `dtype`, under the unit's rules."""
    uint = np.uint32 if dtype == np.float32 else np.uint16
    x, y = a.astype(uint).view(dtype), b.astype(uint).view(dtype)
    flags = np.zeros(len(a), dtype=np.uint8)
    with np.errstate(all="ignore"):
        if op == "fcmp":
            words = np.select([x < y, x == y, x > y], [COMPARE_RESULTS[k][0] for k in ("less", "equal", "greater")],
                              COMPARE_RESULTS["unordered"][0]).astype(np.uint32)
            flags = np.select([x < y, x == y, x > y], [1, 0, 0], 2).astype(np.uint8)
            return words, flags
        if op == "ftoi":
            t = np.trunc(x.astype(np.float64))
            t = np.where(np.isnan(t), 0, np.clip(t, -2.0**31, 2.0**31 - 1))
            return t.astype(np.int64).astype(np.uint32), flags
        if op == "itof":
            r = a.astype(np.uint32).view(np.int32).astype(dtype)
        else:
            r = {"fadd": np.add, "fsub": np.subtract, "fmul": np.multiply, "fdiv": np.divide}[op](x, y) \
                if op != "fsqrt" else np.sqrt(x)
        bits = r.view(uint).astype(np.uint32)
        nan = {np.float32: 0x7FC0_0000, np.float16: 0x7E00}[dtype]
        return np.where(np.isnan(r), np.uint32(nan), bits), flags


def oracle_result(fmt: FloatFormat, op: str, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(result bits, CF | OF << 1) by the exact rational oracle (slow: for small sets)."""
    words, flags = np.zeros(len(a), np.uint32), np.zeros(len(a), np.uint8)
    for i, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
        if op == "fcmp":
            word, cf, of = COMPARE_RESULTS[fmt.compare(x, y)]
            words[i], flags[i] = word, cf | of << 1
        else:
            method = {"fadd": fmt.add, "fsub": fmt.sub, "fmul": fmt.mul, "fdiv": fmt.div, "fsqrt": fmt.sqrt,
                      "itof": fmt.from_int, "ftoi": fmt.to_int}[op]
            words[i] = method(x, y)
    return words, flags


def executed(machine: _metal.NcpuLanes, op: str, a: np.ndarray, b: np.ndarray, fmt: FloatFormat | None = None,
             wired: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(result bits, CF | OF << 1) of `op` computed by `machine`'s float unit, in chunks."""
    fmt = fmt or FloatFormat(8, 23)
    words, flags = [], []
    for start in range(0, len(a), CHUNK):
        part = slice(start, start + CHUNK)
        w, f = machine.float_batch(ALU_NAMES.index(op), a[part].astype("<u4").tobytes(),
                                   b[part].astype("<u4").tobytes(), fmt.exponent_bits, fmt.mantissa_bits, wired)
        words.append(np.frombuffer(w, dtype="<u4"))
        flags.append(np.frombuffer(f, dtype=np.uint8))
    return np.concatenate(words) if words else np.zeros(0, np.uint32), \
        np.concatenate(flags) if flags else np.zeros(0, np.uint8)


def _ordered(bits: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    """Bit patterns mapped to integers in the order of their values (adjacent floats differ by 1)."""
    b = bits.astype(np.int64)
    sign = np.int64(fmt.sign_bit)
    return np.where(b & sign, -(b & (sign - 1)), b)


def mismatches(op: str, got, want, fmt: FloatFormat) -> tuple[int, int]:
    """(how many results differ, the largest ULP distance among them)."""
    (g, gf), (w, wf) = got, want
    if op == "fcmp":
        return int(((g != w) | (gf != wf)).sum()), 0
    if op == "ftoi":
        wrong = g != w
        return int(wrong.sum()), int(np.abs(g[wrong].view(np.int32).astype(np.int64)
                                            - w[wrong].view(np.int32).astype(np.int64)).max(initial=0))
    wrong = (g != w) & ~(_vector_nan(g, fmt) & _vector_nan(w, fmt))
    if not wrong.any():
        return 0, 0
    return int(wrong.sum()), int(np.abs(_ordered(g[wrong], fmt) - _ordered(w[wrong], fmt)).max())


def _vector_nan(bits: np.ndarray, fmt: FloatFormat) -> np.ndarray:
    exponent = (bits >> np.uint32(fmt.mantissa_bits)) & np.uint32(fmt.exponent_mask)
    return (exponent == fmt.exponent_mask) & ((bits & np.uint32((1 << fmt.mantissa_bits) - 1)) != 0)


def _operands(op: str, fmt: FloatFormat, rng: np.random.Generator, n: int):
    """(label, description, a, b) sets of one operation in binary32."""
    if op == "itof":
        s = integer_specials()
        yield "special", f"{len(s)} special int32 values", s, np.zeros_like(s)
        a = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
        yield "random", f"{n:,} random int32 values", a, np.zeros_like(a)
        return
    s = special_values(fmt)
    if op in UNARY:
        yield "special", f"{len(s)} special values", s, np.zeros_like(s)
    else:
        yield "special", f"all pairs of {len(s)} special values", np.repeat(s, len(s)), np.tile(s, len(s))
    a, b = random_pairs(rng, n)
    yield "random", f"{n:,} random {'values' if op in UNARY else 'pairs'}", a, b


def _small_format_operands(op: str, fmt: FloatFormat):
    every = np.arange(1 << fmt.bits, dtype=np.uint32)
    if op == "itof":
        ints = np.arange(-(1 << 15), 1 << 15, dtype=np.int64).astype(np.uint32)
        return f"all int16 values to {fmt.name}", ints, np.zeros_like(ints)
    if op in UNARY:
        return f"all {len(every)} {fmt.name} values", every, np.zeros_like(every)
    return f"all {len(every) ** 2:,} {fmt.name} pairs", np.repeat(every, len(every)), np.tile(every, len(every))


def float_operation(job: tuple) -> list:
    """The checks of one float operation: job is ("float", op, full, seed, random_pairs)."""
    from ncpu_nb.ncpu.neural_mode import use_networks

    _, op, full, seed, n = job
    fmt = FloatFormat(8, 23)
    fast = _metal.NcpuLanes(1, 0, 0, 0)
    neural = _metal.NcpuLanes(1, 0, 0, 0)
    use_networks(neural)
    rng = np.random.default_rng([seed, ALU_NAMES.index(op)])
    checks = []

    def check(what, domain, got_fn, want_fn, check_fmt=fmt):
        t0 = time.perf_counter()
        got, want = got_fn(), want_fn()
        bad, ulp = mismatches(op, got, want, check_fmt)
        checks.append(Check(f"{op} {what}", domain, len(got[0]), bad, time.perf_counter() - t0, max_ulp=ulp))

    for label, domain, a, b in _operands(op, fmt, rng, n):
        want = numpy_result(op, a, b)
        sample = slice(0, ORACLE_SAMPLE) if label == "random" else slice(None)
        check(f"oracle {label}", domain if label != "random" else f"{ORACLE_SAMPLE:,} of the random set",
              lambda: oracle_result(fmt, op, a[sample], b[sample]), lambda: (want[0][sample], want[1][sample]))
        check(f"fast {label}", domain, lambda: executed(fast, op, a, b), lambda: want)
        check(f"wired {label}", domain, lambda: executed(fast, op, a, b, wired=True), lambda: want)
        k = len(a) if label != "random" or full else min(NEURAL_PAIRS, len(a))
        check(f"neural {label}", domain if k == len(a) else f"the first {k:,} of the random set",
              lambda: executed(neural, op, a[:k], b[:k]), lambda: (want[0][:k], want[1][:k]))
    for small in SMALL_FORMATS:
        domain, a, b = _small_format_operands(op, small)
        reference = oracle_result(small, op, a, b)
        check(f"wired {small.name}", domain, lambda: executed(fast, op, a, b, small, wired=True), lambda: reference,
              small)
        if small is SMALL_FORMATS[0]:
            check(f"neural {small.name}", domain, lambda: executed(neural, op, a, b, small), lambda: reference, small)
    if op not in ("itof", "ftoi"):  # numpy's float16 converts through float32 for these
        a, b = random_pairs(rng, min(n, 1_000_000), bits=16)
        if op in UNARY:
            b = np.zeros_like(b)
        check("wired binary16", f"{len(a):,} random binary16 {'values' if op in UNARY else 'pairs'} vs numpy",
              lambda: executed(fast, op, a, b, BINARY16, wired=True), lambda: numpy_result(op, a, b, np.float16),
              BINARY16)
    return checks
