"""The float unit on torch lanes (fast mode): binary32 in the tensors' own IEEE arithmetic.

Registers are unsigned 32-bit values in int64; each float operation reinterprets them as float32
(a bit cast), computes on the device, and casts back, with the float unit's rules
(`ncpu_nb/ncpu/float_format.py`): every NaN result canonical, `ftoi` truncating and saturating (NaN
gives 0), `itof` rounding to nearest even. + - * / and sqrt are computed in float64 and rounded once
to float32, which is correctly rounded (53 >= 2 * 24 + 2 bits): torch's own float32 sqrt on an AVX-512
CPU is off by one unit in the last place for about 9% of operands.
"""
from __future__ import annotations

import torch

from ncpu_nb.ncpu.float_format import BINARY32, COMPARE_RESULTS
from ncpu_nb.ncpu.table import ALU_NAMES, MASK

FADD, FSUB, FMUL, FDIV, FSQRT, FCMP, ITOF, FTOI, FMOV = (ALU_NAMES.index(n) for n in (
    "fadd", "fsub", "fmul", "fdiv", "fsqrt", "fcmp", "itof", "ftoi", "fmov"))
FLOAT = frozenset({FADD, FSUB, FMUL, FDIV, FSQRT, FCMP, ITOF, FTOI, FMOV})


def _as_int32(v: torch.Tensor) -> torch.Tensor:
    return torch.where(v >= 1 << 31, v - (1 << 32), v).to(torch.int32)


def _float(v: torch.Tensor) -> torch.Tensor:
    return _as_int32(v).view(torch.float32)


def _bits(f: torch.Tensor) -> torch.Tensor:
    return torch.where(torch.isnan(f), BINARY32.nan, f.view(torch.int32).to(torch.int64) & MASK)


def float_alu(aop, x, y, present: frozenset, r, carry, over):
    """(result, carry, overflow) with every lane whose op is a float operation in `present` updated."""
    fx, fy = _float(x), _float(y)
    wide_x, wide_y = fx.to(torch.float64), fy.to(torch.float64)
    arithmetic = {FADD: torch.add, FSUB: torch.sub, FMUL: torch.mul, FDIV: torch.div}
    for op, fn in arithmetic.items():
        if op in present:
            r = torch.where(aop == op, _bits(fn(wide_x, wide_y).to(torch.float32)), r)
    if FSQRT in present:
        r = torch.where(aop == FSQRT, _bits(torch.sqrt(wide_x).to(torch.float32)), r)
    if ITOF in present:
        r = torch.where(aop == ITOF, _bits(_as_int32(x).to(torch.float32)), r)
    if FTOI in present:
        t = torch.trunc(wide_x).nan_to_num(nan=0.0).clamp(-2.0**31, 2.0**31 - 1)
        r = torch.where(aop == FTOI, t.to(torch.int64) & MASK, r)
    if FMOV in present:
        r = torch.where(aop == FMOV, y, r)
    if FCMP in present:
        on = aop == FCMP
        less, equal, greater = fx < fy, fx == fy, fx > fy
        (lw, lc, lo), (ew, _, _), (gw, _, _), (uw, uc, uo) = (COMPARE_RESULTS[k] for k in (
            "less", "equal", "greater", "unordered"))
        word = torch.where(less, lw, torch.where(equal, ew, torch.where(greater, gw, uw)))
        r = torch.where(on, word, r)
        carry = torch.where(on, less if lc else torch.zeros_like(less), carry)
        over = torch.where(on, ~(less | equal | greater) if uo else torch.zeros_like(less), over)
    return r, carry, over
