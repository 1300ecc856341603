//! The float unit: binary32 `fadd fsub fmul fdiv fsqrt fcmp itof ftoi` (and `fmov`, a plain move),
//! with the rules of `ncpu_nb/ncpu/float_format.py` (round to nearest even, subnormals kept,
//! one canonical NaN, saturating `ftoi`).
//!
//! Two implementations: `native` (`float_native.rs`: the host's IEEE arithmetic, fast mode) and, here,
//! `wired`: a microprogram over an integer `Alu`, for any IEEE-style format of at most 32 bits.
//! Every step on data (unpacking fields, aligning, adding significands, multiplying in 16-bit
//! halves, dividing and square-rooting digit by digit, normalising, rounding, packing) is an
//! operation of the `Alu`; the microprogram's branches read bits those operations produced.
//! Over the neural ALU that is neural mode: every bit of a float result comes out of the
//! trained cells. Over the exact ALU it checks the microprogram itself, fast, on every format.

use super::alu::Alu;
pub use super::float_native::{native, CANONICAL_NAN, FIRST};
use super::float_native::{EQUAL, FADD, FCMP, FDIV, FMUL, FSQRT, FSUB, FTOI, GREATER, ITOF, LESS, UNORDERED};

// Integer ALU operation indices (ALU_NAMES).
const ADD: u8 = 1;
const SUB: u8 = 2;
const MUL: u8 = 3;
const AND: u8 = 6;
const OR: u8 = 7;
const XOR: u8 = 8;
const SHL: u8 = 9;
const SHR: u8 = 10;
const SAR: u8 = 11;
const NEG: u8 = 13;

/// An IEEE-style binary format: 1 sign bit, `e` exponent bits, `m` fraction bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    pub e: u32,
    pub m: u32,
}

pub const BINARY32: Format = Format { e: 8, m: 23 };

impl Format {
    pub fn new(e: u32, m: u32) -> Result<Self, String> {
        if (2..=8).contains(&e) && (1..=23).contains(&m) {
            Ok(Format { e, m })
        } else {
            Err(format!("a format needs 2..8 exponent bits and 1..23 fraction bits, got ({e}, {m})"))
        }
    }
    fn bias(&self) -> u32 {
        (1 << (self.e - 1)) - 1
    }
    fn emask(&self) -> u32 {
        (1 << self.e) - 1
    }
    fn sign_bit(&self) -> u32 {
        1 << (self.e + self.m)
    }
    fn nan(&self) -> u32 {
        self.emask() << self.m | 1 << (self.m - 1)
    }
}

/// A float operand's fields, unpacked by the ALU.
struct Parts {
    sign: bool,
    exp: u32,  // biased exponent field
    frac: u32, // fraction field
    max_exp: bool,
    zero_exp: bool,
    zero_frac: bool,
}

impl Parts {
    fn nan(&self) -> bool {
        self.max_exp && !self.zero_frac
    }
    fn inf(&self) -> bool {
        self.max_exp && self.zero_frac
    }
    fn zero(&self) -> bool {
        self.zero_exp && self.zero_frac
    }
}

/// The microprogram: a format and the integer ALU that does every step.
struct Unit<'a, A: Alu> {
    alu: &'a A,
    f: Format,
}

impl<A: Alu> Unit<'_, A> {
    fn op(&self, op: u8, a: u32, b: u32) -> u32 {
        self.alu.op(op, a, b).0
    }
    fn add(&self, a: u32, b: u32) -> u32 {
        self.op(ADD, a, b)
    }
    fn add_carry(&self, a: u32, b: u32) -> (u32, bool) {
        let (r, c, _) = self.alu.op(ADD, a, b);
        (r, c)
    }
    fn sub(&self, a: u32, b: u32) -> u32 {
        self.op(SUB, a, b)
    }
    fn and(&self, a: u32, b: u32) -> u32 {
        self.op(AND, a, b)
    }
    fn or(&self, a: u32, b: u32) -> u32 {
        self.op(OR, a, b)
    }
    fn shl(&self, a: u32, n: u32) -> u32 {
        self.op(SHL, a, n)
    }
    fn shr(&self, a: u32, n: u32) -> u32 {
        self.op(SHR, a, n)
    }
    fn zero(&self, a: u32) -> bool {
        self.alu.is_zero(a)
    }
    fn bit(&self, a: u32, k: u32) -> bool {
        !self.zero(self.and(a, 1 << k))
    }
    fn eq(&self, a: u32, b: u32) -> bool {
        self.zero(self.op(XOR, a, b))
    }
    /// a < b as unsigned words: the subtraction borrows.
    fn below(&self, a: u32, b: u32) -> bool {
        self.alu.op(SUB, a, b).1
    }
    /// a < b as signed words: the difference's sign differs from its overflow.
    fn less(&self, a: u32, b: u32) -> bool {
        let (r, _, overflow) = self.alu.op(SUB, a, b);
        self.bit(r, 31) != overflow
    }

    fn unpack(&self, x: u32) -> Parts {
        let f = self.f;
        let exp = self.and(self.shr(x, f.m), f.emask());
        let frac = self.and(x, (1 << f.m) - 1);
        Parts {
            sign: self.bit(x, f.e + f.m),
            max_exp: self.eq(exp, f.emask()),
            zero_exp: self.zero(exp),
            zero_frac: self.zero(frac),
            exp,
            frac,
        }
    }

    /// (exponent, significand with its leading one at bit m) of a finite non-zero operand;
    /// a subnormal is normalised, its exponent going to 0 and below.
    fn significand(&self, p: &Parts) -> (u32, u32) {
        if p.zero_exp {
            let (sig, shifted) = self.normalize(p.frac, self.f.m);
            (self.sub(1, shifted), sig)
        } else {
            (p.exp, self.or(p.frac, 1 << self.f.m))
        }
    }

    /// Shifts a non-zero `x` below 2^(top+1) left until bit `top` is set: (x, the shift), found by
    /// halving the distance (16, 8, 4, 2, 1) and testing whether the top bits are clear.
    fn normalize(&self, mut x: u32, top: u32) -> (u32, u32) {
        let mut shifted = 0;
        for k in [16u32, 8, 4, 2, 1] {
            if k > top {
                continue; // a shift that far would leave no bit set below `top`
            }
            let top_bits = ((1u32 << k) - 1) << (top + 1 - k);
            if self.zero(self.and(x, top_bits)) {
                x = self.shl(x, k);
                shifted = self.add(shifted, k);
            }
        }
        (x, shifted)
    }

    /// x >> n with every bit shifted out ORed into bit 0 (the sticky bit); any n.
    fn shift_right_jam(&self, x: u32, n: u32) -> u32 {
        if self.below(n, 31) {
            let lost = self.and(x, self.sub(self.shl(1, n), 1));
            self.or(self.shr(x, n), !self.zero(lost) as u32)
        } else {
            !self.zero(x) as u32
        }
    }

    fn pack(&self, sign: bool, exp: u32, sig: u32) -> u32 {
        let magnitude = self.add(self.shl(exp, self.f.m), sig); // sig's leading one adds 1 to exp
        if sign {
            self.or(magnitude, self.f.sign_bit())
        } else {
            magnitude
        }
    }

    fn infinity(&self, sign: bool) -> u32 {
        self.pack(sign, self.f.emask(), 0)
    }

    /// The result `sig * 2^(exp + 1 - bias - 30)` rounded to nearest even and packed; `sig` has
    /// its leading one at bit 30 (bits below the fraction are guard and sticky bits), `exp` is
    /// a signed word one below the biased exponent. Overflow gives inf, underflow a subnormal.
    fn round_pack(&self, sign: bool, mut exp: u32, mut sig: u32) -> u32 {
        let f = self.f;
        let round_bits = 30 - f.m;
        let half = 1 << (round_bits - 1);
        if !self.below(exp, f.emask() - 2) {
            // exp is negative (a huge unsigned word) or near the top of the range
            if self.less(exp, 0) {
                sig = self.shift_right_jam(sig, self.op(NEG, exp, 0));
                exp = 0;
            } else if self.less(f.emask() - 2, exp) || self.bit(self.add(sig, half), 31) {
                return self.infinity(sign);
            }
        }
        let dropped = self.and(sig, (1 << round_bits) - 1);
        sig = self.shr(self.add(sig, half), round_bits);
        if self.eq(dropped, half) {
            sig = self.and(sig, !1); // a tie: to even
        }
        if self.zero(sig) {
            exp = 0;
        }
        self.pack(sign, exp, sig)
    }

    fn add_floats(&self, a: u32, b: u32, negate_b: bool) -> u32 {
        let f = self.f;
        let (pa, mut pb) = (self.unpack(a), self.unpack(b));
        pb.sign ^= negate_b;
        if pa.nan() || pb.nan() {
            return f.nan();
        }
        if pa.inf() || pb.inf() {
            if pa.inf() && pb.inf() && pa.sign != pb.sign {
                return f.nan();
            }
            return self.infinity(if pa.inf() { pa.sign } else { pb.sign });
        }
        // the operand of larger magnitude first (magnitudes order as their bit patterns do)
        let magnitude = (1 << (f.e + f.m)) - 1;
        let (big, small) = if self.below(self.and(a, magnitude), self.and(b, magnitude)) { (pb, pa) } else { (pa, pb) };
        // significands with their leading one at bit 29 (subnormals: exponent 1, no leading one)
        let aligned = |p: &Parts| {
            let exp = if p.zero_exp { 1 } else { p.exp };
            let sig = if p.zero_exp { p.frac } else { self.or(p.frac, 1 << f.m) };
            (exp, self.shl(sig, 29 - f.m))
        };
        let ((exp, big_sig), (small_exp, small_sig)) = (aligned(&big), aligned(&small));
        let small_sig = self.shift_right_jam(small_sig, self.sub(exp, small_exp));
        let sig = if big.sign == small.sign {
            let sum = self.add(big_sig, small_sig);
            if self.zero(sum) {
                return self.pack(big.sign, 0, 0); // +0 + +0, -0 + -0
            }
            sum
        } else {
            let difference = self.sub(big_sig, small_sig);
            if self.zero(difference) {
                return 0; // x - x is +0
            }
            difference
        };
        let (sig, shifted) = self.normalize(sig, 30);
        self.round_pack(big.sign, self.sub(exp, shifted), sig)
    }

    fn mul(&self, a: u32, b: u32) -> u32 {
        let f = self.f;
        let (pa, pb) = (self.unpack(a), self.unpack(b));
        let sign = pa.sign != pb.sign;
        if pa.nan() || pb.nan() || (pa.inf() && pb.zero()) || (pa.zero() && pb.inf()) {
            return f.nan();
        }
        if pa.inf() || pb.inf() {
            return self.infinity(sign);
        }
        if pa.zero() || pb.zero() {
            return self.pack(sign, 0, 0);
        }
        let ((ea, sa), (eb, sb)) = (self.significand(&pa), self.significand(&pb));
        let x = self.shl(sa, 30 - f.m); // leading one at bit 30
        let y = self.shl(sb, 31 - f.m); // leading one at bit 31
        // the 64-bit product from four 16 x 16-bit products
        let (xl, xh, yl, yh) = (self.and(x, 0xFFFF), self.shr(x, 16), self.and(y, 0xFFFF), self.shr(y, 16));
        let (low, high) = (self.op(MUL, xl, yl), self.op(MUL, xh, yh));
        let (middle, carry_middle) = self.add_carry(self.op(MUL, xl, yh), self.op(MUL, xh, yl));
        let (low, carry_low) = self.add_carry(low, self.shl(middle, 16));
        let high = self.add(self.add(high, self.shr(middle, 16)), self.add((carry_middle as u32) << 16, carry_low as u32));
        let mut sig = self.or(high, !self.zero(low) as u32); // the low word only matters as sticky
        let mut exp = self.sub(self.add(ea, eb), f.bias());
        if !self.bit(sig, 30) {
            sig = self.shl(sig, 1);
            exp = self.sub(exp, 1);
        }
        self.round_pack(sign, exp, sig)
    }

    fn div(&self, a: u32, b: u32) -> u32 {
        let f = self.f;
        let (pa, pb) = (self.unpack(a), self.unpack(b));
        let sign = pa.sign != pb.sign;
        if pa.nan() || pb.nan() || (pa.inf() && pb.inf()) || (pa.zero() && pb.zero()) {
            return f.nan();
        }
        if pa.inf() || pb.zero() {
            return self.infinity(sign);
        }
        if pa.zero() || pb.inf() {
            return self.pack(sign, 0, 0);
        }
        let ((ea, mut sa), (eb, sb)) = (self.significand(&pa), self.significand(&pb));
        let mut exp = self.sub(self.add(ea, f.bias() - 1), eb);
        if self.below(sa, sb) {
            sa = self.shl(sa, 1);
            exp = self.sub(exp, 1);
        }
        // restoring division, one quotient bit per step: q = floor(sa * 2^30 / sb)
        let (mut rem, mut q) = (sa, 0);
        for i in (0..=30).rev() {
            let (difference, borrow, _) = self.alu.op(SUB, rem, sb);
            if !borrow {
                rem = difference;
                q = self.or(q, 1 << i);
            }
            rem = self.shl(rem, 1);
        }
        self.round_pack(sign, exp, self.or(q, !self.zero(rem) as u32))
    }

    fn sqrt(&self, a: u32) -> u32 {
        let f = self.f;
        let p = self.unpack(a);
        if p.nan() || (p.sign && !p.zero()) {
            return f.nan();
        }
        if p.inf() || p.zero() {
            return a; // +inf, +0, -0
        }
        let (exp, mut sig) = self.significand(&p);
        // value = (sig / 2^m) * 2^unbiased; make the exponent even
        let mut unbiased = self.sub(exp, f.bias());
        if self.bit(unbiased, 0) {
            sig = self.shl(sig, 1);
            unbiased = self.sub(unbiased, 1);
        }
        // root = isqrt(sig * 2^(m+4)), two radicand bits per step: m + 3 bits, leading one at m + 2
        let (mut rem, mut root) = (0u32, 0u32);
        for i in (0..f.m + 3).rev() {
            let low = 2 * i; // the radicand's bits low, low + 1 are sig's bits low - m - 4, ...
            let pair = if low >= f.m + 4 {
                self.and(self.shr(sig, low - f.m - 4), 3)
            } else if low + 1 == f.m + 4 {
                self.and(self.shl(sig, 1), 2)
            } else {
                0
            };
            rem = self.or(self.shl(rem, 2), pair);
            let trial = self.or(self.shl(root, 2), 1);
            let (difference, borrow, _) = self.alu.op(SUB, rem, trial);
            root = self.shl(root, 1);
            if !borrow {
                rem = difference;
                root = self.or(root, 1);
            }
        }
        let sig = self.or(self.shl(root, 28 - f.m), !self.zero(rem) as u32);
        let exp = self.add(self.op(SAR, unbiased, 1), f.bias() - 1);
        self.round_pack(false, exp, sig)
    }

    fn compare(&self, a: u32, b: u32) -> (u32, bool, bool) {
        let (pa, pb) = (self.unpack(a), self.unpack(b));
        if pa.nan() || pb.nan() {
            return UNORDERED;
        }
        let magnitude = self.f.sign_bit() - 1;
        let (ma, mb) = (self.and(a, magnitude), self.and(b, magnitude));
        if (self.zero(ma) && self.zero(mb)) || self.eq(a, b) {
            return EQUAL; // -0 == +0
        }
        let a_below = if pa.sign != pb.sign {
            pa.sign
        } else if pa.sign {
            self.below(mb, ma) // both negative: the larger magnitude is the smaller number
        } else {
            self.below(ma, mb)
        };
        if a_below {
            LESS
        } else {
            GREATER
        }
    }

    fn int_to_float(&self, a: u32) -> u32 {
        let f = self.f;
        if self.zero(a) {
            return 0;
        }
        let sign = self.bit(a, 31);
        let magnitude = if sign { self.op(NEG, a, 0) } else { a };
        // value = sig * 2^(exp + 1 - bias - 30), the leading one at bit 30
        let (sig, exp) = if self.bit(magnitude, 31) {
            (self.shr(magnitude, 1), f.bias() + 30) // -2^31, exactly
        } else {
            let (sig, shifted) = self.normalize(magnitude, 30);
            (sig, self.sub(f.bias() + 29, shifted))
        };
        self.round_pack(sign, exp, sig)
    }

    fn float_to_int(&self, a: u32) -> u32 {
        let f = self.f;
        let p = self.unpack(a);
        if p.nan() {
            return 0;
        }
        let saturated = if p.sign { 0x8000_0000 } else { 0x7FFF_FFFF };
        if p.inf() {
            return saturated;
        }
        if p.zero_exp {
            return 0; // zeros and subnormals truncate to 0
        }
        let unbiased = self.sub(p.exp, f.bias());
        if self.less(unbiased, 0) {
            return 0;
        }
        if !self.less(unbiased, 31) {
            return saturated;
        }
        let sig = self.or(p.frac, 1 << f.m);
        let magnitude = if self.less(unbiased, f.m) {
            self.shr(sig, self.sub(f.m, unbiased))
        } else {
            self.shl(sig, self.sub(unbiased, f.m))
        };
        if p.sign {
            self.op(NEG, magnitude, 0)
        } else {
            magnitude
        }
    }
}

/// Float operation `op` (an index into ALU_NAMES) in format `f`, every step computed by `alu`.
pub fn wired<A: Alu>(alu: &A, f: Format, op: u8, a: u32, b: u32) -> (u32, bool, bool) {
    let unit = Unit { alu, f };
    let value = |r: u32| (r, false, false);
    match op {
        FADD => value(unit.add_floats(a, b, false)),
        FSUB => value(unit.add_floats(a, b, true)),
        FMUL => value(unit.mul(a, b)),
        FDIV => value(unit.div(a, b)),
        FSQRT => value(unit.sqrt(a)),
        FCMP => unit.compare(a, b),
        ITOF => value(unit.int_to_float(a)),
        FTOI => value(unit.float_to_int(a)),
        _ => value(b),
    }
}

#[cfg(test)]
mod tests {
    use super::super::alu::FastAlu;
    use super::*;

    fn both(op: u8, a: u32, b: u32) {
        assert_eq!(wired(&FastAlu, BINARY32, op, a, b), native(op, a, b), "op {op} on {a:#010x}, {b:#010x}");
    }

    #[test]
    fn the_wired_unit_equals_the_host_on_special_and_random_operands() {
        let special: Vec<u32> = vec![
            0, 0x8000_0000, 1, 0x8000_0001, 0x007F_FFFF, 0x0080_0000, 0x3F80_0000, 0xBF80_0000, 0x7F7F_FFFF,
            0xFF7F_FFFF, 0x7F80_0000, 0xFF80_0000, 0x7FC0_0000, 0x7F80_0001, 0xFFC0_1234, 0x4000_0000, 0x3F00_0000,
            0x4F00_0000, 0xCF00_0000, 0x4EFF_FFFF, 0x34000000, 0x3FFF_FFFF, 0x33800000, 0x00400000,
        ];
        for op in FIRST..=FTOI {
            for &a in &special {
                for &b in &special {
                    both(op, a, b);
                }
            }
        }
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        for _ in 0..20_000 {
            let (a, b) = (next(), next());
            for op in FIRST..=FTOI {
                both(op, a, b);
            }
        }
    }

    #[test]
    fn fcmp_orders_floats_as_arm_does_with_a_borrow() {
        assert_eq!(native(FCMP, 0xBF80_0000, 0x3F80_0000), LESS);
        assert_eq!(native(FCMP, 0x8000_0000, 0), EQUAL);
        assert_eq!(native(FCMP, 0x7F80_0000, 0x7F7F_FFFF), GREATER);
        assert_eq!(native(FCMP, CANONICAL_NAN, 0), UNORDERED);
    }
}
