//! Floating-point operations on raw bit patterns, following the Arm ARM's FPAdd, FPMul, FPDiv,
//! FPSqrt, FPMulAdd, FPMax/FPMin(Num), FPCompare, FPRoundInt, FPToFixed, FixedToFP and FPConvert:
//! NaN priority and quieting, invalid operations, and rounding through `FpEnv::round_pack`.

use super::fp_env::{shift_round, Fmt, FpEnv, Kind, Rounding, Unpacked, DZC, IOC, IXC};
use super::lanes::ones;

/// Where the value's top bit sits when it is finite: value in [2^top, 2^(top+1)).
fn top(mant: u128, exp: i32) -> i32 {
    exp + 127 - mant.leading_zeros() as i32
}

impl FpEnv {
    fn unpack2(&mut self, fmt: Fmt, a: u64, b: u64) -> (Unpacked, Unpacked, Option<u64>) {
        let ua = self.unpack(fmt, a);
        let ub = self.unpack(fmt, b);
        let nan = self.process_nans(fmt, &[(a, ua), (b, ub)]);
        (ua, ub, nan)
    }

    /// Rounds an exact sum of two finite-or-zero signed terms `m * 2^e` (either may be zero).
    fn round_sum(&mut self, fmt: Fmt, x: (bool, u128, i32), y: (bool, u128, i32)) -> u64 {
        let mode = self.rounding();
        let ((sx, mx, ex), (sy, my, ey)) = (x, y);
        if my == 0 {
            return self.round_pack(fmt, sx, ex, mx, false, mode);
        }
        if mx == 0 {
            return self.round_pack(fmt, sy, ey, my, false, mode);
        }
        // The term with the higher top bit goes to bit 125; the other is aligned to it, its
        // bits below the window folded into a sticky bit (it is then far smaller, so no
        // cancellation can expose them).
        let ((sa, ma, ea), (sb, mb, eb)) = if top(mx, ex) >= top(my, ey) { (x, y) } else { (y, x) };
        let up = ma.leading_zeros() as i32 - 2;
        let (ma, e) = (ma << up, ea - up);
        let shift = e - eb;
        let (mb, sticky) = if shift <= 0 {
            (mb << -shift, false)
        } else if shift >= 128 {
            (0, true)
        } else {
            (mb >> shift, mb & ((1u128 << shift) - 1) != 0)
        };
        if sa == sb {
            return self.round_pack(fmt, sa, e, ma + mb, sticky, mode);
        }
        let (diff, sign) = if ma >= mb { (ma - mb, sa) } else { (mb - ma, sb) };
        if diff == 0 && !sticky {
            return fmt.zero(mode == Rounding::MinusInf);
        }
        // Subtracting a truncated term: the true difference lies just below `diff`.
        if sticky {
            self.round_pack(fmt, sign, e, diff - 1, true, mode)
        } else {
            self.round_pack(fmt, sign, e, diff, false, mode)
        }
    }

    pub fn add(&mut self, fmt: Fmt, a: u64, b: u64, subtract: bool) -> u64 {
        let (ua, mut ub, nan) = self.unpack2(fmt, a, b);
        if let Some(n) = nan {
            return n;
        }
        ub.sign ^= subtract;
        match (ua.kind, ub.kind) {
            (Kind::Inf, Kind::Inf) if ua.sign != ub.sign => self.invalid(fmt),
            (Kind::Inf, _) => fmt.infinity(ua.sign),
            (_, Kind::Inf) => fmt.infinity(ub.sign),
            (Kind::Zero, Kind::Zero) => {
                let sign = if ua.sign == ub.sign { ua.sign } else { self.rounding() == Rounding::MinusInf };
                fmt.zero(sign)
            }
            _ => self.round_sum(fmt, term(&ua), term(&ub)),
        }
    }

    pub fn mul(&mut self, fmt: Fmt, a: u64, b: u64) -> u64 {
        let (ua, ub, nan) = self.unpack2(fmt, a, b);
        if let Some(n) = nan {
            return n;
        }
        let sign = ua.sign ^ ub.sign;
        match (ua.kind, ub.kind) {
            (Kind::Inf, Kind::Zero) | (Kind::Zero, Kind::Inf) => self.invalid(fmt),
            (Kind::Inf, _) | (_, Kind::Inf) => fmt.infinity(sign),
            (Kind::Zero, _) | (_, Kind::Zero) => fmt.zero(sign),
            (Kind::Finite { mant: m1, exp: e1 }, Kind::Finite { mant: m2, exp: e2 }) => {
                let mode = self.rounding();
                self.round_pack(fmt, sign, e1 + e2, m1 as u128 * m2 as u128, false, mode)
            }
            _ => unreachable!("NaNs handled above"),
        }
    }

    /// FMULX: like FMUL, but infinity times zero is 2 with the product's sign.
    pub fn mulx(&mut self, fmt: Fmt, a: u64, b: u64) -> u64 {
        let (ua, ub, nan) = self.unpack2(fmt, a, b);
        match (nan, ua.kind, ub.kind) {
            (None, Kind::Inf, Kind::Zero) | (None, Kind::Zero, Kind::Inf) => {
                let mode = self.rounding();
                self.round_pack(fmt, ua.sign ^ ub.sign, 1, 1, false, mode)
            }
            _ => self.mul(fmt, a, b),
        }
    }

    pub fn div(&mut self, fmt: Fmt, a: u64, b: u64) -> u64 {
        let (ua, ub, nan) = self.unpack2(fmt, a, b);
        if let Some(n) = nan {
            return n;
        }
        let sign = ua.sign ^ ub.sign;
        match (ua.kind, ub.kind) {
            (Kind::Inf, Kind::Inf) | (Kind::Zero, Kind::Zero) => self.invalid(fmt),
            (Kind::Inf, _) | (_, Kind::Zero) => {
                if ub.kind == Kind::Zero && ua.kind != Kind::Inf {
                    self.raise(DZC);
                }
                fmt.infinity(sign)
            }
            (Kind::Zero, _) | (_, Kind::Inf) => fmt.zero(sign),
            (Kind::Finite { mant: m1, exp: e1 }, Kind::Finite { mant: m2, exp: e2 }) => {
                // Normalise both to 64 bits so the quotient carries at least 64 significant bits.
                let (z1, z2) = (m1.leading_zeros() as i32, m2.leading_zeros() as i32);
                let n = (m1 as u128) << z1 << 64;
                let d = (m2 as u128) << z2;
                let (q, r) = (n / d, n % d);
                let mode = self.rounding();
                self.round_pack(fmt, sign, (e1 - z1 - 64) - (e2 - z2), q, r != 0, mode)
            }
            _ => unreachable!("NaNs handled above"),
        }
    }

    pub fn sqrt(&mut self, fmt: Fmt, a: u64) -> u64 {
        let ua = self.unpack(fmt, a);
        match ua.kind {
            Kind::QNaN | Kind::SNaN => self.process_nan(fmt, a, &ua),
            Kind::Zero => fmt.zero(ua.sign),
            _ if ua.sign => self.invalid(fmt),
            Kind::Inf => fmt.infinity(false),
            Kind::Finite { mant, exp } => {
                // Scale to an even exponent with the radicand near 2^126, so the root has 63 bits.
                let mut shift = mant.leading_zeros() as i32 + 62;
                if (exp - shift) % 2 != 0 {
                    shift -= 1;
                }
                let m = (mant as u128) << shift;
                let root = isqrt(m);
                let mode = self.rounding();
                self.round_pack(fmt, false, (exp - shift) / 2, root, root * root != m, mode)
            }
        }
    }

    /// FPMulAdd: `addend + n * m` with a single rounding. NaN priority is addend, n, m.
    pub fn mul_add(&mut self, fmt: Fmt, addend: u64, n: u64, m: u64) -> u64 {
        let ua = self.unpack(fmt, addend);
        let u1 = self.unpack(fmt, n);
        let u2 = self.unpack(fmt, m);
        let inf_times_zero = matches!((u1.kind, u2.kind), (Kind::Inf, Kind::Zero) | (Kind::Zero, Kind::Inf));
        if let Some(nan) = self.process_nans(fmt, &[(addend, ua), (n, u1), (m, u2)]) {
            if ua.kind == Kind::QNaN && inf_times_zero {
                return self.invalid(fmt);
            }
            return nan;
        }
        let sign_p = u1.sign ^ u2.sign;
        let inf_p = u1.kind == Kind::Inf || u2.kind == Kind::Inf;
        let inf_a = ua.kind == Kind::Inf;
        if inf_times_zero || (inf_a && inf_p && ua.sign != sign_p) {
            return self.invalid(fmt);
        }
        if inf_a {
            return fmt.infinity(ua.sign);
        }
        if inf_p {
            return fmt.infinity(sign_p);
        }
        let product = match (u1.kind, u2.kind) {
            (Kind::Finite { mant: m1, exp: e1 }, Kind::Finite { mant: m2, exp: e2 }) => {
                (sign_p, m1 as u128 * m2 as u128, e1 + e2)
            }
            _ => (sign_p, 0, 0),
        };
        if ua.kind == Kind::Zero && product.1 == 0 {
            let sign = if ua.sign == sign_p { sign_p } else { self.rounding() == Rounding::MinusInf };
            return fmt.zero(sign);
        }
        self.round_sum(fmt, term(&ua), product)
    }

    /// FRECPS (`2 - n*m`) and FRSQRTS (`(3 - n*m) / 2`) with one rounding; infinity times zero
    /// gives exactly 2 or 1.5.
    pub fn recip_step(&mut self, fmt: Fmt, n: u64, m: u64, sqrt: bool) -> u64 {
        let (u1, u2, nan) = self.unpack2(fmt, n ^ fmt.sign_bit(), m);
        if let Some(nan) = nan {
            return nan;
        }
        let mode = self.rounding();
        let (addend, halve) = if sqrt { (3, 1) } else { (2, 0) };
        match (u1.kind, u2.kind) {
            (Kind::Inf, Kind::Zero) | (Kind::Zero, Kind::Inf) => self.round_pack(fmt, false, -halve, addend, false, mode),
            (Kind::Inf, _) | (_, Kind::Inf) => fmt.infinity(u1.sign ^ u2.sign),
            (Kind::Finite { mant: m1, exp: e1 }, Kind::Finite { mant: m2, exp: e2 }) => {
                let product = (u1.sign ^ u2.sign, m1 as u128 * m2 as u128, e1 + e2 - halve);
                self.round_sum(fmt, (false, addend, -halve), product)
            }
            _ => self.round_pack(fmt, false, -halve, addend, false, mode),
        }
    }

    /// FMAX/FMIN (`max` selects which). Zeros of both signs compare so max is +0 and min is -0.
    pub fn max_min(&mut self, fmt: Fmt, a: u64, b: u64, max: bool) -> u64 {
        let (ua, ub, nan) = self.unpack2(fmt, a, b);
        if let Some(n) = nan {
            return n;
        }
        if ua.kind == Kind::Zero && ub.kind == Kind::Zero {
            return fmt.zero(if max { ua.sign && ub.sign } else { ua.sign || ub.sign });
        }
        let a_wins = (compare_values(&ua, &ub) == std::cmp::Ordering::Greater) == max;
        let (u, bits) = if a_wins { (ua, a) } else { (ub, b) };
        // An operand flushed to zero on input is returned as that zero.
        if u.kind == Kind::Zero {
            fmt.zero(u.sign)
        } else {
            bits
        }
    }

    /// FMAXNM/FMINNM: a single quiet NaN loses against a number.
    pub fn max_min_num(&mut self, fmt: Fmt, a: u64, b: u64, max: bool) -> u64 {
        let qa = is_quiet_nan(fmt, a);
        let qb = is_quiet_nan(fmt, b);
        let loser = fmt.infinity(max);
        match (qa, qb) {
            (true, false) => self.max_min(fmt, loser, b, max),
            (false, true) => self.max_min(fmt, a, loser, max),
            _ => self.max_min(fmt, a, b, max),
        }
    }

    /// FPCompare as NZCV: equal 0110, less 1000, greater 0010, unordered 0011. Signalling NaNs
    /// always raise Invalid Operation; quiet ones too when `signal_all` (FCMPE).
    pub fn compare(&mut self, fmt: Fmt, a: u64, b: u64, signal_all: bool) -> u32 {
        let ua = self.unpack(fmt, a);
        let ub = self.unpack(fmt, b);
        if ua.is_nan() || ub.is_nan() {
            if signal_all || ua.kind == Kind::SNaN || ub.kind == Kind::SNaN {
                self.raise(IOC);
            }
            return 0b0011;
        }
        match compare_values(&ua, &ub) {
            std::cmp::Ordering::Equal => 0b0110,
            std::cmp::Ordering::Less => 0b1000,
            std::cmp::Ordering::Greater => 0b0010,
        }
    }

    /// AdvSIMD compares (FCMEQ, FCMGE, FCMGT, FACGE, FACGT): true/false, NaN operands false.
    /// FCMEQ raises Invalid only for signalling NaNs; the ordered compares for any NaN.
    pub fn compare_lanes(&mut self, fmt: Fmt, a: u64, b: u64, cond: LaneCompare) -> bool {
        let (a, b) = if cond.absolute { (a & !fmt.sign_bit(), b & !fmt.sign_bit()) } else { (a, b) };
        let flags = self.compare(fmt, a, b, cond.op != CompareOp::Eq);
        match cond.op {
            CompareOp::Eq => flags == 0b0110,
            CompareOp::Ge => flags == 0b0110 || flags == 0b0010,
            CompareOp::Gt => flags == 0b0010,
        }
    }

    /// FPRoundInt: round to an integral value in the same format. `exact` (FRINTX) raises Inexact.
    pub fn round_int(&mut self, fmt: Fmt, a: u64, mode: Rounding, exact: bool) -> u64 {
        let ua = self.unpack(fmt, a);
        match ua.kind {
            Kind::QNaN | Kind::SNaN => self.process_nan(fmt, a, &ua),
            Kind::Zero => fmt.zero(ua.sign),
            Kind::Inf => a,
            Kind::Finite { exp, .. } if exp >= 0 => a,
            Kind::Finite { mant, exp } => {
                let (int, inexact) = shift_round(mant as u128, false, -exp, ua.sign, mode);
                if inexact && exact {
                    self.raise(IXC);
                }
                // An integer no wider than the input's significand: packing it is exact.
                self.round_pack(fmt, ua.sign, 0, int, false, Rounding::Zero)
            }
        }
    }

    /// FPToFixed: `a * 2^fbits` rounded to a `width`-bit integer, saturating. NaN gives 0; NaN,
    /// infinity and out-of-range values raise Invalid Operation, other inexact results Inexact.
    pub fn fp_to_fixed(&mut self, fmt: Fmt, a: u64, fbits: u32, unsigned: bool, width: u32, mode: Rounding) -> u64 {
        let ua = self.unpack(fmt, a);
        let (magnitude, inexact) = match ua.kind {
            Kind::QNaN | Kind::SNaN => {
                self.raise(IOC);
                return 0;
            }
            Kind::Zero => (0, false),
            Kind::Inf => (u128::MAX, false),
            Kind::Finite { mant, exp } => {
                let e = exp + fbits as i32;
                if e > 64 {
                    (u128::MAX, false)
                } else {
                    shift_round(mant as u128, false, -e, ua.sign, mode)
                }
            }
        };
        let (lo, hi): (i128, i128) = if unsigned {
            (0, (1i128 << width) - 1)
        } else {
            (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
        };
        let magnitude = magnitude.min(1u128 << 100) as i128;
        let value = if ua.sign { -magnitude } else { magnitude };
        let clamped = value.clamp(lo, hi);
        if clamped != value {
            self.raise(IOC);
        } else if inexact {
            self.raise(IXC);
        }
        clamped as u64 & ones(width)
    }

    /// FixedToFP: the `width`-bit integer `value` scaled by 2^-fbits, rounded to `fmt`.
    pub fn fixed_to_fp(&mut self, fmt: Fmt, value: u64, fbits: u32, unsigned: bool, width: u32, mode: Rounding) -> u64 {
        let value = value & ones(width);
        let negative = !unsigned && value >> (width - 1) & 1 == 1;
        let magnitude = if negative { (value.wrapping_neg() & ones(width)) as u128 } else { value as u128 };
        // Widen so a sticky-free exact value always has room below the rounding point.
        self.round_pack(fmt, negative, -(fbits as i32), magnitude, false, mode)
    }

    /// FPConvert between formats (FCVT, FCVTL, FCVTN). NaNs keep sign and top payload bits;
    /// half precision follows FPCR.AHP.
    pub fn convert(&mut self, from: Fmt, to: Fmt, a: u64, mode: Rounding) -> u64 {
        let half = self.half_format();
        let (from, to) = (if from == Fmt::H { half } else { from }, if to == Fmt::H { half } else { to });
        let ua = self.unpack(from, a);
        match ua.kind {
            // The alternative half format has neither NaNs nor infinities.
            Kind::QNaN | Kind::SNaN | Kind::Inf if to == Fmt::AltH => {
                self.raise(IOC);
                if ua.kind == Kind::Inf {
                    to.max_normal(ua.sign)
                } else {
                    to.zero(ua.sign)
                }
            }
            Kind::QNaN | Kind::SNaN => {
                let quieted = self.process_nan(from, a, &ua);
                if self.default_nan_mode() {
                    return to.default_nan();
                }
                let payload = quieted & ((1 << from.frac_bits()) - 1);
                let payload = if to.frac_bits() >= from.frac_bits() {
                    payload << (to.frac_bits() - from.frac_bits())
                } else {
                    payload >> (from.frac_bits() - to.frac_bits())
                };
                to.infinity(ua.sign) | payload
            }
            Kind::Zero => to.zero(ua.sign),
            Kind::Inf => to.infinity(ua.sign),
            Kind::Finite { mant, exp } => self.round_pack(to, ua.sign, exp, mant as u128, false, mode),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    Eq,
    Ge,
    Gt,
}

#[derive(Clone, Copy)]
pub struct LaneCompare {
    pub op: CompareOp,
    /// FACGE/FACGT compare magnitudes.
    pub absolute: bool,
}

fn is_quiet_nan(fmt: Fmt, bits: u64) -> bool {
    fmt.is_nan(bits) && bits & (1 << (fmt.frac_bits() - 1)) != 0
}

/// A finite-or-zero operand as a signed term for `round_sum`.
fn term(u: &Unpacked) -> (bool, u128, i32) {
    match u.kind {
        Kind::Finite { mant, exp } => (u.sign, mant as u128, exp),
        _ => (u.sign, 0, 0),
    }
}

/// Orders two non-NaN operands by value (both zeros equal).
fn compare_values(a: &Unpacked, b: &Unpacked) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    // Magnitude key: zero < finite (by top bit, then mantissa) < infinity.
    fn magnitude(u: &Unpacked) -> (u8, i32, u128) {
        match u.kind {
            Kind::Zero => (0, 0, 0),
            Kind::Finite { mant, exp } => {
                let z = mant.leading_zeros() as i32;
                (1, exp - z, (mant as u128) << z)
            }
            _ => (2, 0, 0),
        }
    }
    let (ma, mb) = (magnitude(a), magnitude(b));
    let (na, nb) = (a.sign && ma.0 != 0, b.sign && mb.0 != 0);
    match (na, nb) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => ma.cmp(&mb),
        (true, true) => mb.cmp(&ma),
    }
}

/// Integer square root (floor) of a u128.
fn isqrt(n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    // Newton's iteration from above converges to the floor in a few steps.
    let mut x = (n as f64).sqrt() as u128 + (1 << 12);
    loop {
        let y = (x + n / x) / 2;
        if y >= x {
            break;
        }
        x = y;
    }
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}
