//! Unit tests for the tricky parts: rounding in every mode, NaN priority, flags, conversions.

use super::fp_env::{Fmt, FpEnv, Rounding, DZC, IDC, IOC, IXC, OFC, UFC};

fn env(rmode: u32) -> FpEnv {
    FpEnv::new(rmode << 22)
}

fn f64_op(rmode: u32, f: impl FnOnce(&mut FpEnv) -> u64) -> (f64, u32) {
    let mut e = env(rmode);
    let r = f(&mut e);
    (f64::from_bits(r), e.flags)
}

#[test]
fn round_to_nearest_matches_host_arithmetic() {
    let samples = [1.0f64, 3.0, 0.1, -7.25, 1e300, 1e-300, 5e-324, 2.5e-310, 123456.789, -0.0, 1.0 / 3.0];
    for &a in &samples {
        for &b in &samples {
            let (x, y) = (a.to_bits(), b.to_bits());
            assert_eq!(f64_op(0, |e| e.add(Fmt::D, x, y, false)).0.to_bits(), (a + b).to_bits(), "{a} + {b}");
            assert_eq!(f64_op(0, |e| e.add(Fmt::D, x, y, true)).0.to_bits(), (a - b).to_bits(), "{a} - {b}");
            assert_eq!(f64_op(0, |e| e.mul(Fmt::D, x, y)).0.to_bits(), (a * b).to_bits(), "{a} * {b}");
            if b != 0.0 {
                assert_eq!(f64_op(0, |e| e.div(Fmt::D, x, y)).0.to_bits(), (a / b).to_bits(), "{a} / {b}");
            }
            let c = 0.7f64;
            let fused = a.mul_add(b, c);
            let got = f64_op(0, |e| e.mul_add(Fmt::D, c.to_bits(), x, y)).0;
            assert_eq!(got.to_bits(), fused.to_bits(), "{a} * {b} + {c}");
        }
        if a >= 0.0 {
            assert_eq!(f64_op(0, |e| e.sqrt(Fmt::D, a.to_bits())).0.to_bits(), a.sqrt().to_bits(), "sqrt {a}");
        }
    }
}

#[test]
fn directed_rounding_brackets_the_exact_result() {
    let (one, three) = (1.0f64.to_bits(), 3.0f64.to_bits());
    let (up, _) = f64_op(1, |e| e.div(Fmt::D, one, three));
    let (down, flags) = f64_op(2, |e| e.div(Fmt::D, one, three));
    let (zero, _) = f64_op(3, |e| e.div(Fmt::D, one, three));
    assert_eq!(up.to_bits(), down.to_bits() + 1);
    assert_eq!(zero, down);
    assert_eq!(flags, IXC);
    // x - x is -0 only when rounding toward minus infinity.
    assert_eq!(f64_op(2, |e| e.add(Fmt::D, one, one, true)).0.to_bits(), (-0.0f64).to_bits());
    assert_eq!(f64_op(0, |e| e.add(Fmt::D, one, one, true)).0.to_bits(), 0);
}

#[test]
fn overflow_and_underflow_flags() {
    let big = f64::MAX.to_bits();
    let (r, flags) = f64_op(0, |e| e.add(Fmt::D, big, big, false));
    assert!(r.is_infinite() && flags == OFC | IXC);
    let (r, _) = f64_op(3, |e| e.add(Fmt::D, big, big, false));
    assert_eq!(r, f64::MAX);
    let tiny = f64::MIN_POSITIVE.to_bits();
    let half = 0.5f64.to_bits();
    // Exact subnormal result: no flags. Inexact tiny result: Underflow and Inexact.
    assert_eq!(f64_op(0, |e| e.mul(Fmt::D, tiny, half)).1, 0);
    let third = (1.0f64 / 3.0).to_bits();
    assert_eq!(f64_op(0, |e| e.mul(Fmt::D, tiny, third)).1, UFC | IXC);
    // FZ flushes the tiny result to zero, raising only Underflow.
    let mut e = FpEnv::new(1 << 24);
    assert_eq!(e.mul(Fmt::D, tiny, half), 0);
    assert_eq!(e.flags, UFC);
    // ...and flushes denormal inputs, raising Input Denormal.
    let mut e = FpEnv::new(1 << 24);
    assert_eq!(e.add(Fmt::D, 1, 1.0f64.to_bits(), false), 1.0f64.to_bits());
    assert_eq!(e.flags, IDC);
    assert_eq!(f64_op(0, |e| e.div(Fmt::D, 1.0f64.to_bits(), 0)).1, DZC);
}

#[test]
fn nan_priority_and_quieting() {
    let snan = 0x7FF0_0000_0000_0001u64;
    let qnan = 0xFFF8_0000_0000_0002u64;
    let one = 1.0f64.to_bits();
    let mut e = env(0);
    // The signalling NaN wins even as the second operand, and comes back quiet.
    assert_eq!(e.add(Fmt::D, qnan, snan, false), 0x7FF8_0000_0000_0001);
    assert_eq!(e.flags, IOC);
    let mut e = env(0);
    assert_eq!(e.mul(Fmt::D, one, qnan), qnan);
    assert_eq!(e.flags, 0);
    // Default NaN mode.
    let mut e = FpEnv::new(1 << 25);
    assert_eq!(e.add(Fmt::D, qnan, one, false), Fmt::D.default_nan());
    // Fused multiply-add: the addend comes first; a quiet addend with inf*0 is invalid.
    let mut e = env(0);
    assert_eq!(e.mul_add(Fmt::D, qnan, f64::INFINITY.to_bits(), 0), Fmt::D.default_nan());
    assert_eq!(e.flags, IOC);
    // FMAXNM prefers the number to a quiet NaN.
    let mut e = env(0);
    assert_eq!(e.max_min_num(Fmt::D, qnan, one, true), one);
    assert_eq!(e.max_min(Fmt::D, qnan, one, true), qnan);
}

#[test]
fn conversions_saturate_and_round_by_mode() {
    let x = (-2.5f64).to_bits();
    let cvt = |mode, unsigned| {
        let mut e = env(0);
        (e.fp_to_fixed(Fmt::D, x, 0, unsigned, 32, mode) as u32 as i32, e.flags)
    };
    assert_eq!(cvt(Rounding::TiesEven, false), (-2, IXC));
    assert_eq!(cvt(Rounding::TiesAway, false), (-3, IXC));
    assert_eq!(cvt(Rounding::PlusInf, false), (-2, IXC));
    assert_eq!(cvt(Rounding::MinusInf, false), (-3, IXC));
    assert_eq!(cvt(Rounding::Zero, false), (-2, IXC));
    assert_eq!(cvt(Rounding::Zero, true), (0, IOC));
    let mut e = env(0);
    assert_eq!(e.fp_to_fixed(Fmt::D, 1e20f64.to_bits(), 0, false, 64, Rounding::Zero), i64::MAX as u64);
    assert_eq!(e.flags, IOC);
    let mut e = env(0);
    assert_eq!(e.fp_to_fixed(Fmt::D, f64::NAN.to_bits(), 0, false, 64, Rounding::Zero), 0);
    // Fixed point: 1.5 with 4 fraction bits is 24.
    assert_eq!(env(0).fp_to_fixed(Fmt::D, 1.5f64.to_bits(), 4, false, 32, Rounding::Zero), 24);
    assert_eq!(env(0).fixed_to_fp(Fmt::D, 24, 4, false, 32, Rounding::TiesEven), 1.5f64.to_bits());
    // u64::MAX to single rounds up to 2^64 in round-to-nearest, down toward zero.
    assert_eq!(env(0).fixed_to_fp(Fmt::S, u64::MAX, 0, true, 64, Rounding::TiesEven), 18446744073709551616f32.to_bits() as u64);
    assert_eq!(env(0).fixed_to_fp(Fmt::S, u64::MAX, 0, true, 64, Rounding::Zero), 18446742974197923840f32.to_bits() as u64);
    // Double to half: 65520 overflows to infinity, 65519 rounds to 65504.
    assert_eq!(env(0).convert(Fmt::D, Fmt::H, 65520f64.to_bits(), Rounding::TiesEven), 0x7C00);
    assert_eq!(env(0).convert(Fmt::D, Fmt::H, 65519f64.to_bits(), Rounding::TiesEven), 0x7BFF);
}

#[test]
fn round_to_integral() {
    let r = |v: f64, mode| f64::from_bits(env(0).round_int(Fmt::D, v.to_bits(), mode, false));
    assert_eq!(r(2.5, Rounding::TiesEven), 2.0);
    assert_eq!(r(2.5, Rounding::TiesAway), 3.0);
    assert_eq!(r(-0.4, Rounding::TiesEven).to_bits(), (-0.0f64).to_bits());
    assert_eq!(r(-1.1, Rounding::MinusInf), -2.0);
    assert_eq!(r(1.1, Rounding::PlusInf), 2.0);
    assert_eq!(r(4503599627370497.0, Rounding::Zero), 4503599627370497.0);
    let mut e = env(0);
    e.round_int(Fmt::D, 0.5f64.to_bits(), Rounding::TiesEven, true);
    assert_eq!(e.flags, IXC);
}

#[test]
fn aes_round_matches_fips_197() {
    use crate::arm64::state::CpuState;
    // FIPS-197 appendix B, round 1: the state before SubBytes, after ShiftRows, after MixColumns.
    let start = [0x19, 0x3d, 0xe3, 0xbe, 0xa0, 0xf4, 0xe2, 0x2b, 0x9a, 0xc6, 0x8d, 0x2a, 0xe9, 0xf8, 0x48, 0x08];
    let shifted = [0xd4, 0xbf, 0x5d, 0x30, 0xe0, 0xb4, 0x52, 0xae, 0xb8, 0x41, 0x11, 0xf1, 0x1e, 0x27, 0x98, 0xe5];
    let mixed = [0x04, 0x66, 0x81, 0xe5, 0xe0, 0xcb, 0x19, 0x9a, 0x48, 0xf8, 0xd3, 0x7a, 0x28, 0x06, 0x26, 0x4c];
    let mut cpu = CpuState::default();
    cpu.v[0] = u128::from_le_bytes(start);
    super::execute(&mut cpu, 0x4E28_4820).unwrap(); // aese v0.16b, v1.16b (v1 = 0)
    assert_eq!(cpu.v[0].to_le_bytes(), shifted);
    super::execute(&mut cpu, 0x4E28_6802).unwrap(); // aesmc v2.16b, v0.16b
    assert_eq!(cpu.v[2].to_le_bytes(), mixed);
    super::execute(&mut cpu, 0x4E28_7843).unwrap(); // aesimc v3.16b, v2.16b
    assert_eq!(cpu.v[3], cpu.v[0]);
    super::execute(&mut cpu, 0x4E28_5820).unwrap(); // aesd v0.16b, v1.16b
    assert_eq!(cpu.v[0].to_le_bytes(), start);
}
