//! Reciprocal and reciprocal square root estimates (FRECPE, FRSQRTE, URECPE, URSQRTE) and FRECPX,
//! computed as the Arm ARM defines them: 8-bit estimates from a 9-bit scaled input.

use super::fp_env::{Fmt, FpEnv, Kind, Rounding, DZC, IXC, OFC, UFC};

/// 1/a for a in [256, 512) units of 1/512, as a 9-bit estimate in units of 1/256.
fn recip_estimate(a: u64) -> u64 {
    let a = a * 2 + 1;
    let b = (1 << 19) / a;
    b.div_ceil(2)
}

/// 1/sqrt(a) for a in [128, 512), as a 9-bit estimate in units of 1/256.
fn rsqrt_estimate(a: u64) -> u64 {
    let a = if a < 256 { a * 2 + 1 } else { ((a >> 1) << 1) * 2 + 2 };
    let mut b = 512u64;
    while a * (b + 1) * (b + 1) < 1 << 28 {
        b += 1;
    }
    b.div_ceil(2)
}

/// URECPE on one 32-bit lane.
pub fn unsigned_recip_estimate(x: u64) -> u64 {
    if x >> 31 == 0 {
        0xFFFF_FFFF
    } else {
        recip_estimate(x >> 23) << 23
    }
}

/// URSQRTE on one 32-bit lane.
pub fn unsigned_rsqrt_estimate(x: u64) -> u64 {
    if x >> 30 == 0 {
        0xFFFF_FFFF
    } else {
        rsqrt_estimate(x >> 23) << 23
    }
}

/// Fraction (as 52 bits) and biased exponent of a single or double operand.
fn fraction_and_exp(fmt: Fmt, a: u64) -> (u64, i64) {
    let fb = fmt.frac_bits();
    let frac = (a & ((1 << fb) - 1)) << (52 - fb);
    let exp = ((a & !fmt.sign_bit()) >> fb) as i64;
    (frac, exp)
}

impl FpEnv {
    pub fn recip_estimate(&mut self, fmt: Fmt, a: u64) -> u64 {
        let u = self.unpack(fmt, a);
        let sign = u.sign;
        let fb = fmt.frac_bits();
        let (bias_twice, tiny_exp, big_exp) = match fmt {
            Fmt::S => (253, -128, 126),
            _ => (2045, -1024, 1022),
        };
        match u.kind {
            Kind::QNaN | Kind::SNaN => return self.process_nan(fmt, a, &u),
            Kind::Inf => return fmt.zero(sign),
            Kind::Zero => {
                self.raise(DZC);
                return fmt.infinity(sign);
            }
            Kind::Finite { mant, exp } => {
                let top = exp + 63 - mant.leading_zeros() as i32;
                if top < tiny_exp {
                    self.raise(OFC | IXC);
                    let to_inf = match self.rounding() {
                        Rounding::TiesEven => true,
                        Rounding::PlusInf => !sign,
                        Rounding::MinusInf => sign,
                        _ => false,
                    };
                    return if to_inf { fmt.infinity(sign) } else { fmt.max_normal(sign) };
                }
                if self.fpcr & (1 << 24) != 0 && top >= big_exp {
                    self.raise(UFC);
                    return fmt.zero(sign);
                }
            }
        }
        let (mut frac, mut exp) = fraction_and_exp(fmt, a);
        if exp == 0 {
            if frac >> 51 & 1 == 0 {
                exp = -1;
                frac = (frac << 2) & ((1 << 52) - 1);
            } else {
                frac = (frac << 1) & ((1 << 52) - 1);
            }
        }
        let estimate = recip_estimate(1 << 8 | frac >> 44);
        let mut result_exp = bias_twice - exp;
        let mut frac = (estimate & 0xFF) << 44;
        if result_exp == 0 {
            frac = 1 << 51 | frac >> 1;
        } else if result_exp == -1 {
            frac = 1 << 50 | frac >> 2;
            result_exp = 0;
        }
        (sign as u64) << (fmt.width() - 1) | (result_exp as u64) << fb | frac >> (52 - fb)
    }

    pub fn rsqrt_estimate(&mut self, fmt: Fmt, a: u64) -> u64 {
        let u = self.unpack(fmt, a);
        match u.kind {
            Kind::QNaN | Kind::SNaN => return self.process_nan(fmt, a, &u),
            Kind::Zero => {
                self.raise(DZC);
                return fmt.infinity(u.sign);
            }
            _ if u.sign => return self.invalid(fmt),
            Kind::Inf => return fmt.zero(false),
            Kind::Finite { .. } => {}
        }
        let (mut frac, mut exp) = fraction_and_exp(fmt, a);
        if exp == 0 {
            while frac >> 51 & 1 == 0 {
                frac <<= 1;
                exp -= 1;
            }
            frac = (frac << 1) & ((1 << 52) - 1);
        }
        let scaled = if exp & 1 == 0 { 1 << 8 | frac >> 44 } else { 1 << 7 | frac >> 45 };
        let twice_bias = if fmt == Fmt::S { 380 } else { 3068 };
        let result_exp = (twice_bias - exp).div_euclid(2) as u64;
        let estimate = rsqrt_estimate(scaled);
        let fb = fmt.frac_bits();
        result_exp << fb | ((estimate & 0xFF) << 44) >> (52 - fb)
    }

    /// FRECPX: the exponent inverted, fraction cleared (zeros and denormals get the largest).
    pub fn recip_exponent(&mut self, fmt: Fmt, a: u64) -> u64 {
        let u = self.unpack(fmt, a);
        if u.is_nan() {
            return self.process_nan(fmt, a, &u);
        }
        let fb = fmt.frac_bits();
        let exp_mask = (fmt.sign_bit() - 1) >> fb;
        let exp = (a >> fb) & exp_mask;
        let new_exp = if exp == 0 { exp_mask - 1 } else { !exp & exp_mask };
        (u.sign as u64) << (fmt.width() - 1) | new_exp << fb
    }
}
