"""Float programs in the differentiable engine: FADD FSUB FMUL FDIV FSQRT ITOF FTOI FCMP FMOV under autograd.

On the CPU a float is a binary32 bit pattern in an ordinary register. Bits are not differentiable,
so the engine keeps a float register's *value* instead (a float64 tensor that always holds a binary32
number, or ±inf, NaN, ±0), and reads and writes it as that value:

    inputs={"R1": 2.0}     R1 starts at 2.0 (rounded to binary32, straight-through)
    run["R1"]              the value R1 ends with (a tensor: gradients flow from it)
    engine.registers       lane 0 as the CPU holds it: a float register as its binary32 bits (signed,
                           as `CPU.registers` gives them), so `engine.registers == cpu.registers`;
                           `cpu_value(bits)` (`BINARY32.to_float`) turns the CPU's bits into the value

Which registers hold floats is decided once per program (`float_plan`): a register written by a float
result (FADD FSUB FMUL FDIV FSQRT ITOF FMOV) or read as a float (the float ops' sources, FTOI's, FCMP's)
holds floats everywhere; MOV Rd, Rs makes Rd and Rs the same kind; MOV Rd, imm into a float register
loads the float those bits are. A register both read or written as a float and as an integer (an
integer ALU operation, CMP/TEST, ITOF's source, FTOI's result, an address, a value stored, pushed or
popped) cannot be followed by the relaxation: the engine raises `UnsupportedInstruction` with the PC
and the instruction that mixes them.

The operations (forward exact, bit for bit the CPU's fast mode; backward documented):

    FADD FSUB FMUL FDIV FSQRT  computed in float64 and rounded once to binary32: for + - * / sqrt of
                               binary32 operands that is the correctly rounded result, so the forward
                               value is the CPU's (subnormals, ±inf, NaN, -0 included). Backward: the
                               exact float64 derivative (the rounding is straight-through); where the
                               result is not finite, or FDIV's divisor is 0, or FSQRT's operand <= 0,
                               no gradient flows (0), so a NaN never reaches a gradient.
    FMOV Rd, c                 the literal's value; trainable as an immediate (`run(immediates=...)`,
                               `ProgramOptimizer.fit_constants`), rounded to binary32 straight-through
    ITOF                       the integer rounded to binary32; straight-through (derivative 1)
    FTOI                       truncates toward zero, saturates to int32, NaN gives 0; straight-through
                               (derivative 1 inside the int32 range, 0 where it saturates), so a program
                               may go on computing with the integer and still pass gradient back
    MOV Rd, Rs / imm           the value (a MOV of bits into a float register: the float they are);
                               ZF and SF from the bits (ZF: +0, SF: the sign bit), exact, no gradient
    FCMP Rs, Rt                the flags of `COMPARE_RESULTS` (ZF equal, SF = CF less, OF unordered),
                               exact forward; with a flag temperature T, SF and CF carry the gradient of
                               sigmoid(-(Rs - Rt) / T) and ZF that of 2 sigmoid(-|Rs - Rt| / T)
                               (their values too, with soft_branches), OF none

NaN and ±inf are values like any other in the forward pass. The soft program counter mixes every
instruction's outcome by its probability; `mix` keeps that mixture exact for floats (a lane wholly
on one instruction takes that instruction's result as it is, -0 included, and a NaN on a path of
probability 0 does not leak into the others), with the ordinary mixture's gradient.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

import torch

from ncpu_nb.differentiable.soft_alu import integers, signed
from ncpu_nb.errors import UnsupportedInstruction
from ncpu_nb.ncpu.exact_check import float_bits as bits  # the binary32 bits of a value (NaN: canonical)
from ncpu_nb.ncpu.float_format import BINARY32
from ncpu_nb.ncpu.program import Program
from ncpu_nb.ncpu.table import ALU_NAMES, KINDS, MASK, REGISTERS, SP

INT32_MIN, INT32_MAX = -float(1 << 31), float((1 << 31) - 1)
FLOAT_RESULTS = {"fadd", "fsub", "fmul", "fdiv", "fsqrt", "itof", "fmov"}


class Exactly(torch.autograd.Function):
    """Forward `exact` as it is (NaN, ±inf, -0 included), backward the identity into `soft`: a
    straight-through estimator that never computes exact - soft (inf - inf is NaN, 0 + -0 is +0)."""

    @staticmethod
    def forward(ctx, soft, exact):
        return exact.detach().clone()

    @staticmethod
    def backward(ctx, grad):
        return grad, None


_ROUNDING = [True]


@contextmanager
def float64_forward():
    """Inside, the float operations skip the rounding to binary32: the execution is the smooth float64
    relaxation whose derivative the engine computes (what `torch.autograd.gradcheck` can check by finite
    differences; outside, the forward pass is the CPU's binary32, bit for bit)."""
    _ROUNDING.append(False)
    try:
        yield
    finally:
        _ROUNDING.pop()


def binary32(x: torch.Tensor) -> torch.Tensor:
    """x (float64, no gradient) rounded to the nearest binary32, ties to even, back in float64
    (unrounded inside `float64_forward`)."""
    return x.detach().to(torch.float32).to(x.dtype) if _ROUNDING[-1] else x.detach()


def rounded(x: torch.Tensor) -> torch.Tensor:
    """x rounded to binary32 forward, the identity backward."""
    return Exactly.apply(x, binary32(x))


def _safe(x: torch.Tensor) -> torch.Tensor:
    """x where it is finite, 0 where it is NaN or ±inf (and no gradient there)."""
    bad = ~torch.isfinite(x.detach())
    return torch.where(bad, torch.zeros_like(x), x) if bad.any() else x


def signed_bits(value: float) -> int:
    """The binary32 bits of a value as a signed 32-bit integer, as `CPU.registers` gives a register."""
    b = bits(value)
    return b - (1 << 32) if b >> 31 else b


def cpu_value(register_bits: int) -> float:
    """What a CPU register's bits are as a float (to compare with the engine's value)."""
    return BINARY32.to_float(int(register_bits) & MASK)


# --- which registers hold floats ------------------------------------------------------------------------------
@dataclass
class FloatPlan:
    """A program's float registers (indices), and the value each immediate is where it is a float
    (FMOV's literal, a MOV of bits into a float register)."""

    registers: frozenset = frozenset()
    immediates: dict = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(REGISTERS[r] for r in sorted(self.registers))

    def __bool__(self) -> bool:
        return bool(self.registers) or bool(self.immediates)


def _uses(op: dict) -> list[tuple[int, str]]:
    """(register, 'f' or 'i') for each register a micro-op reads or writes with a kind; MOV Rd, Rs
    is ('=', dst, src) and handled apart."""
    kind, none = KINDS[op["kind"]], len(REGISTERS)
    regs = lambda *names: [op[n] for n in names if op[n] < none]  # noqa: E731
    if kind == "alu":
        name = ALU_NAMES[op["alu"]]
        if name in ("fadd", "fsub", "fmul", "fdiv", "fsqrt", "fcmp"):
            return [(r, "f") for r in regs("dst", "a", "b")]
        if name == "fmov":
            return [(r, "f") for r in regs("dst")]
        if name == "itof":
            return [(r, "f") for r in regs("dst")] + [(r, "i") for r in regs("a")]
        if name == "ftoi":
            return [(r, "i") for r in regs("dst")] + [(r, "f") for r in regs("a")]
        if name == "pass":
            return []
        return [(r, "i") for r in regs("dst", "a", "b")]
    if kind in ("load", "store", "push", "pop", "call", "ret"):
        return [(r, "i") for r in regs("dst", "a", "b")] + [(SP, "i")] * (kind not in ("load", "store"))
    return []


def float_plan(program: Program, ops: list[dict]) -> FloatPlan:
    """Decide, once for the program, which registers hold floats (see the module docstring); raise
    `UnsupportedInstruction` at the first instruction that uses a float register's bits as an integer
    (or an integer register as a float)."""
    if not any(KINDS[op["kind"]] == "alu" and ALU_NAMES[op["alu"]] in FLOAT_RESULTS | {"ftoi", "fcmp"} for op in ops):
        return FloatPlan()
    parent = list(range(len(REGISTERS)))

    def root(r):
        while parent[r] != r:
            r = parent[r]
        return r

    for op in ops:  # MOV Rd, Rs: one kind for both
        if KINDS[op["kind"]] == "alu" and ALU_NAMES[op["alu"]] == "pass" and op["b"] < len(REGISTERS):
            if op["dst"] < len(REGISTERS):
                parent[root(op["dst"])] = root(op["b"])
    seen: dict[int, tuple[str, int]] = {}  # class -> (kind, first pc)
    for pc, op in enumerate(ops):
        for r, kind in _uses(op):
            c = root(r)
            if c in seen and seen[c][0] != kind:
                first_kind, first_pc = seen[c]
                what = {"f": "a float", "i": "an integer"}
                text = program.instructions[pc].text(program.label_at())
                raise UnsupportedInstruction(
                    f"{REGISTERS[r]} is used as {what[kind]} here and as {what[first_kind]} at PC={first_pc} "
                    f"({program.instructions[first_pc].text(program.label_at())}): the differentiable engine keeps a "
                    f"float register's value, not its bits, so it cannot follow a register used both ways", pc, text)
            seen.setdefault(c, (kind, pc))
    floats = frozenset(r for r in range(len(REGISTERS)) if seen.get(root(r), ("",))[0] == "f")
    immediates = {}
    for pc, op in enumerate(ops):
        if KINDS[op["kind"]] != "alu":
            continue
        name = ALU_NAMES[op["alu"]]
        if name == "fmov" or (name == "pass" and op["b"] >= len(REGISTERS) and op["dst"] in floats):
            immediates[pc] = BINARY32.to_float(op["imm"] & MASK)
    return FloatPlan(floats, immediates)


# --- the operations -------------------------------------------------------------------------------------------
def _flags(a, b, old_flags, temperature, soft_forward):
    """FCMP's flags (ZF, SF, CF, OF), see the module docstring."""
    ad, bd = a.detach(), b.detach()
    less, equal = (ad < bd).to(a.dtype), (ad == bd).to(a.dtype)
    unordered = (torch.isnan(ad) | torch.isnan(bd)).to(a.dtype)
    zf, sf = equal, less
    if temperature:
        d = _safe(a) - _safe(b)
        soft_zf, soft_sf = 2 * torch.sigmoid(-d.abs() / temperature), torch.sigmoid(-d / temperature)
        if soft_forward:
            zf, sf = torch.where(unordered > 0, zf, soft_zf), torch.where(unordered > 0, sf, soft_sf)
        else:
            zf, sf = Exactly.apply(soft_zf, zf), Exactly.apply(soft_sf, sf)
    return torch.stack([zf, sf, sf, unordered], -1)


def float_op(name: str, a: torch.Tensor, b: torch.Tensor, flags: torch.Tensor, temperature: float | None = None,
             soft_forward: bool = False) -> tuple[torch.Tensor | None, torch.Tensor]:
    """(result, flags) of float operation `name` on values a, b (float64 tensors, one per lane);
    FCMP's result is None, the others leave the flags as they were."""
    if name == "fcmp":
        return None, _flags(a, b, flags, temperature, soft_forward)
    if name == "pass":  # MOV into a float register: ZF and SF from the bits (+0 is zero, the sign bit), exact
        bd = b.detach()
        zf = ((bd == 0) & ~torch.signbit(bd)).to(b.dtype)
        sf = (torch.signbit(bd) & ~torch.isnan(bd)).to(b.dtype)
        return b, torch.stack([zf, sf, flags[..., 2], flags[..., 3]], -1)
    ad, bd = a.detach(), b.detach()
    if name == "fmov":
        return rounded(b), flags
    if name == "itof":
        return Exactly.apply(a, binary32(signed(integers(a)).to(a.dtype))), flags
    if name == "ftoi":
        exact = torch.where(torch.isnan(ad), torch.zeros_like(ad), torch.trunc(ad).clamp(INT32_MIN, INT32_MAX))
        return Exactly.apply(_safe(a).clamp(INT32_MIN, INT32_MAX), exact), flags
    if name == "fsqrt":
        exact = binary32(torch.sqrt(ad))
        positive = torch.isfinite(ad) & (ad > 0)
        return Exactly.apply(torch.sqrt(torch.where(positive, a, torch.ones_like(a))), exact), flags
    sa, sb = _safe(a), _safe(b)
    if name == "fadd":
        exact, soft = ad + bd, sa + sb
    elif name == "fsub":
        exact, soft = ad - bd, sa - sb
    elif name == "fmul":
        exact, soft = ad * bd, sa * sb
    elif name == "fdiv":
        exact = ad / bd
        zero = sb.detach() == 0
        soft = torch.where(zero, torch.zeros_like(sa), sa / torch.where(zero, torch.ones_like(sb), sb))
    else:
        raise ValueError(f"{name} is not a float operation")
    exact = binary32(exact)
    if not torch.isfinite(exact).all():  # no gradient where the result is not a finite number
        soft = torch.where(torch.isfinite(exact), soft, torch.zeros_like(soft))
    return Exactly.apply(soft, exact), flags


def mix(terms: list[tuple[torch.Tensor, torch.Tensor]]) -> torch.Tensor:
    """sum of w * x over (w (lanes, 1), x (lanes, n)) terms, as the soft PC mixes outcomes, kept exact for
    floats: a lane with all its probability on one term takes that term's x exactly (-0, ±inf, NaN); a
    NaN or inf with probability over 0 is the result; non-finite values on paths of probability 0 do not
    count. The gradient is the ordinary mixture's, with non-finite values read as 0."""
    soft = sum(w * _safe(x) for w, x in terms)
    exact = soft.detach().clone()
    for w, x in terms:
        wd, xd = w.detach(), x.detach()
        exact = torch.where((wd > 0) & ~torch.isfinite(xd), xd, exact)
    for w, x in terms:
        exact = torch.where(w.detach() == 1, x.detach(), exact)
    return Exactly.apply(soft, exact)
