"""The differentiable ALU: every operation of `ncpu_nb.ncpu.table.ALU_OPS` on real-valued tensors.

Registers hold real numbers read as *signed* 32-bit values. Each operation returns a value whose
forward result is exactly the table's result whenever the inputs are integers, and whose gradient
is either the true derivative or a documented straight-through surrogate:

    pass add sub neg mul   real arithmetic, wrapped to 32 bits by a sawtooth (true derivative;
                           past 2**53 MUL's forward value is the exact low 32 bits of the
                           rounded inputs, where float64 would lose them)
    not                    ~a == -a - 1 exactly (true derivative -1)
    mod                    a - b*q with the quotient q held constant (the true derivative a.e.)
    div                    forward trunc(a/b); backward the derivative of a/b (straight-through)
    and or xor             forward exact on the rounded integers; backward each operand receives the
                           share of result bits that copy it: AND da = popcount(b)/32,
                           OR da = 1 - popcount(b)/32, XOR da = 1 - 2*popcount(b)/32 (and alike for b)
    shl shr sar            forward exact; backward the derivative of a * 2**(+-b), b clamped to 0..31

The first group (and NOT) is smooth on real, non-integer inputs too, so constants and inputs can
move continuously through it; the others compute on the rounded inputs. Straight-through means: value = surrogate + (exact - surrogate).detach(): the forward pass sees the
exact value, the backward pass the surrogate's gradient.
"""
from __future__ import annotations

import itertools

import torch

from ncpu_nb.ncpu.table import ALU_NAMES, CONDITION_NAMES, CONDITIONS, FLOAT_OPS, MASK

HALF = float(1 << 31)
MODULUS = float(1 << 32)
BYTE_POPCOUNT = torch.tensor([bin(i).count("1") for i in range(256)], dtype=torch.float64, device="cpu")


def wrap(x: torch.Tensor) -> torch.Tensor:
    """Real x -> the signed 32-bit value congruent to it (a sawtooth: derivative 1). Values already
    in range pass untouched: adding 2**31 would cost float64 precision on small values."""
    outside = (x.detach() < -HALF) | (x.detach() >= HALF)
    return torch.where(outside, torch.remainder(x + HALF, MODULUS) - HALF, x) if outside.any() else x


def integers(x: torch.Tensor) -> torch.Tensor:
    """The nearest integers as int64 (no gradient), unsigned 32-bit."""
    return torch.round(x.detach()).to(torch.int64) & MASK


def signed(u: torch.Tensor) -> torch.Tensor:
    """Unsigned 32-bit int64 -> signed int64."""
    return torch.where(u >= (1 << 31), u - (1 << 32), u)


def straight_through(surrogate: torch.Tensor, exact: torch.Tensor) -> torch.Tensor:
    return surrogate + (exact.to(surrogate.dtype) - surrogate).detach()


def popcount_share(u: torch.Tensor) -> torch.Tensor:
    """Fraction of set bits of unsigned 32-bit int64 values."""
    table = BYTE_POPCOUNT.to(u.device)  # the module's tables live on the CPU; a no-op there
    count = table[u & 255] + table[(u >> 8) & 255] + table[(u >> 16) & 255] + table[u >> 24]
    return count / 32.0


def _shift_amount(b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(exact amount as int64, its real surrogate), both clamped to 0..31 as the table does."""
    exact = signed(integers(b)).clamp(0, 31)
    return exact, b.clamp(0.0, 31.0)


def _bitwise(name, a, b):
    ua, ub = integers(a), integers(b)
    exact = signed({"and": ua & ub, "or": ua | ub, "xor": ua ^ ub}[name])
    pa, pb = popcount_share(ub).to(a.dtype), popcount_share(ua).to(a.dtype)
    share = {"and": (pa, pb), "or": (1 - pa, 1 - pb), "xor": (1 - 2 * pa, 1 - 2 * pb)}[name]
    return straight_through(a * share[0] + b * share[1], exact)


def _shift(name, a, b):
    amount, real_amount = _shift_amount(b)
    ua = integers(a)
    if name == "shl":
        exact, surrogate = signed((ua << amount) & MASK), a * torch.exp2(real_amount)
    elif name == "shr":
        exact, surrogate = signed(ua >> amount), a * torch.exp2(-real_amount)
    else:
        exact, surrogate = signed(ua) >> amount, a * torch.exp2(-real_amount)
    return straight_through(surrogate, exact)


def _divmod(a, b):
    """Exact truncating quotient and remainder of the rounded signed inputs (x/0 = 0, x%0 = x)."""
    sa, sb = signed(integers(a)), signed(integers(b))
    safe = torch.where(sb == 0, torch.ones_like(sb), sb)
    q = torch.where(sb == 0, torch.zeros_like(sa), torch.div(sa, safe, rounding_mode="trunc"))
    return q, sa - q * sb


def relaxed_op(name: str, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The result of ALU operation `name` (see the module docstring for its gradient)."""
    if name in FLOAT_OPS:
        raise ValueError(f"{name} is a float operation: see ncpu_nb.differentiable.soft_float")
    if name == "pass":
        return b
    if name in ("add", "sub"):
        return wrap(a + b if name == "add" else a - b)
    if name == "mul":  # past 2**53 float64 rounds the product: take its exact low 32 bits instead
        product = wrap(a * b)
        huge = (a * b).detach().abs() >= 2.0 ** 53
        if huge.any():
            product = torch.where(huge, straight_through(product, signed((integers(a) * integers(b)) & MASK)),
                                  product)
        return product
    if name == "neg":
        return wrap(-a)
    if name == "not":
        return -a - 1
    if name in ("and", "or", "xor"):
        return _bitwise(name, a, b)
    if name in ("shl", "shr", "sar"):
        return _shift(name, a, b)
    q, r = _divmod(a, b)
    if name == "mod":
        return straight_through(a - b * q.to(a.dtype), wrap(r.to(a.dtype)))
    zero = b.detach() == 0
    surrogate = torch.where(zero, torch.zeros_like(a), a / torch.where(zero, torch.ones_like(b), b))
    return straight_through(surrogate, wrap(q.to(a.dtype)))


def exact_op(name: str, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The table's result of ALU operation `name` on signed 32-bit int64 tensors, as signed int64:
    relaxed_op's forward value without its gradient machinery (searches over discrete programs
    run candidates this way)."""
    if name in FLOAT_OPS:
        raise ValueError(f"{name} is a float operation: see ncpu_nb.differentiable.soft_float")
    if name == "pass":
        return b
    if name == "not":
        return ~a
    if name in ("and", "or", "xor"):  # two's complement: signed operands give the signed result
        return a & b if name == "and" else a | b if name == "or" else a ^ b
    if name in ("shl", "shr", "sar"):
        amount = b.clamp(0, 31)
        if name == "sar":
            return a >> amount
        return signed(((a & MASK) << amount) & MASK if name == "shl" else (a & MASK) >> amount)
    if name in ("div", "mod"):
        safe = torch.where(b == 0, torch.ones_like(b), b)
        q = torch.where(b == 0, torch.zeros_like(a), torch.div(a, safe, rounding_mode="trunc"))
        return signed((q if name == "div" else a - q * b) & MASK)
    result = {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: (a * b) & MASK, "neg": lambda: -a}[name]()
    return signed(result & MASK)


def exact_carry_overflow(name: str, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Exact CF and OF of an arithmetic operation as 0./1. tensors (no gradient)."""
    ua, ub = integers(a), integers(b)
    if name == "neg":
        ua, ub = torch.zeros_like(ub), ua
    if name == "add":
        r = (ua + ub) & MASK
        carry, overflow = ua + ub > MASK, ((ua ^ r) & (ub ^ r) & (1 << 31)) != 0
    else:
        r = (ua - ub) & MASK
        carry, overflow = ua < ub, ((ua ^ ub) & (ua ^ r) & (1 << 31)) != 0
    return carry.to(a.dtype), overflow.to(a.dtype)


def soft_flags(name: str, a, b, result, old_flags, which: int, temperature: float | None, carry_overflow=None,
               soft_forward: bool = False):
    """The flags (ZF, SF, CF, OF) after an ALU instruction, shape (..., 4).

    `which` is the micro-op's flags field: 0 none, 1 ZF SF, 2 all four. Forward values are exact;
    with a `temperature` the backward pass sees sigmoid surrogates (ZF: |r| near 0, SF: r below 0,
    CF of a subtraction: a below b unsigned); without one, flags carry no gradient. With
    `soft_forward` (and a temperature) those flags take the surrogates' values forward too, so a
    branch on a value near its threshold holds with a probability strictly between 0 and 1.
    """
    if which == 0:
        return old_flags
    surrogate = (lambda soft, exact: soft) if soft_forward and temperature else straight_through
    exact_r = signed(integers(result)).to(result.dtype)
    zf, sf = (exact_r == 0).to(result.dtype), (exact_r < 0).to(result.dtype)
    if temperature:
        zf = surrogate(torch.sigmoid((0.5 - result.abs()) / temperature), zf)
        sf = surrogate(torch.sigmoid((-0.5 - result) / temperature), sf)
    if which == 1:
        return torch.stack([zf, sf, old_flags[..., 2], old_flags[..., 3]], -1)
    cf, of = carry_overflow if carry_overflow is not None else exact_carry_overflow(name, a, b)
    if temperature and name == "sub":
        unsigned_a, unsigned_b = torch.remainder(a, MODULUS), torch.remainder(b, MODULUS)
        cf = surrogate(torch.sigmoid((unsigned_b - unsigned_a - 0.5) / temperature), cf)
    return torch.stack([zf, sf, cf, of], -1)


# Every condition of the table, tabulated on the 16 flag combinations: a condition's soft value is
# the probability that it holds when each flag is set with its own probability (the multilinear
# extension), so it equals the table's answer on 0/1 flags.
_COMBOS = torch.tensor(list(itertools.product((0, 1), repeat=4)), dtype=torch.float64, device="cpu")
_TRUTH = torch.tensor([[float(bool(CONDITIONS[c](*map(int, combo)))) for combo in _COMBOS] for c in CONDITION_NAMES],
                      dtype=torch.float64, device="cpu")


def condition(index: int, flags: torch.Tensor) -> torch.Tensor:
    """Probability that condition number `index` (of CONDITION_NAMES) holds, flags shaped (..., 4)."""
    combos = _COMBOS.to(flags.device, flags.dtype)  # (16, 4)
    f = flags.unsqueeze(-2)  # (..., 1, 4)
    probs = (combos * f + (1 - combos) * (1 - f)).prod(-1)  # (..., 16)
    return probs @ _TRUTH[index].to(flags.device, flags.dtype)


def compare(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Which conditions (of CONDITION_NAMES, last axis) hold after CMP x, y on the rounded integer
    values, as exact float64 0./1. (no gradient); x and y broadcast, real or int64."""
    ux, uy = ((v & MASK) if not v.is_floating_point() else integers(v) for v in (x, y))
    r = (ux - uy) & MASK
    zf, sf, cf = (r == 0).to(torch.int64), r >> 31, (ux < uy).to(torch.int64)
    of = (((ux ^ uy) & (ux ^ r) & (1 << 31)) != 0).to(torch.int64)
    combo = zf * 8 + sf * 4 + cf * 2 + of  # the row of _COMBOS these flags are
    return _TRUTH.T.to(combo.device)[combo]


assert len(set(ALU_NAMES) - FLOAT_OPS) == 14, "a new table operation needs its relaxation here"
