//! AdvSIMD integer arithmetic, logic and compares: "three same", "two-register miscellaneous" and
//! "three different" groups, in vector and scalar forms. The dispatcher (`simd_fp`) sends the
//! floating-point opcodes of the same groups to `simd_float`; the two never call each other.

use super::fp_env::QC;
use super::lanes::{from_lanes, lane, map_lanes, ones, sext, unzip, write_v, Shape};
use crate::arm64::decode::{BitwiseOp, MiscOp, SimdInsn, ThreeDifferentOp, ThreeSameOp};
use crate::arm64::state::CpuState;

/// An element read as a signed or unsigned integer.
pub fn int_of(x: u64, esize: u32, signed: bool) -> i128 {
    if signed {
        sext(x, esize) as i128
    } else {
        x as i128
    }
}

/// SatQ: clamps `v` to an `esize`-bit signed or unsigned range, noting saturation.
pub fn saturate(v: i128, esize: u32, signed: bool, qc: &mut bool) -> u64 {
    let (lo, hi) = if signed {
        (-(1i128 << (esize - 1)), (1i128 << (esize - 1)) - 1)
    } else {
        (0, (1i128 << esize) - 1)
    };
    let c = v.clamp(lo, hi);
    *qc |= c != v;
    c as u64 & ones(esize)
}

fn all_ones_if(cond: bool, esize: u32) -> u64 {
    if cond {
        ones(esize)
    } else {
        0
    }
}

/// Shift by a signed register amount (SSHL, USHL, SRSHL, URSHL and the saturating forms).
pub fn shift_by_reg(a: u64, amount: u64, esize: u32, signed: bool, round: bool, sat: bool, qc: &mut bool) -> u64 {
    let x = int_of(a, esize, signed);
    let shift = sext(amount & 0xFF, 8) as i32;
    if shift >= 0 {
        if shift as u32 >= esize {
            return if sat && x != 0 { saturate(x.signum() << 100, esize, signed, qc) } else { 0 };
        }
        let v = x << shift;
        return if sat { saturate(v, esize, signed, qc) } else { v as u64 & ones(esize) };
    }
    let n = (-shift).min(100) as u32;
    let bias = if round { 1i128 << (n - 1) } else { 0 };
    ((x + bias) >> n) as u64 & ones(esize)
}

/// Polynomial (carry-less) multiplication over GF(2).
pub fn poly_mul(a: u64, b: u64) -> u128 {
    (0..64).filter(|i| b >> i & 1 == 1).fold(0, |acc, i| acc ^ (a as u128) << i)
}

/// AND, BIC, ORR, ORN, EOR, BSL, BIT, BIF, from the decoded form.
#[inline(always)]
pub fn bitwise(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    let SimdInsn::Bitwise { op, q, rd, rn, rm } = insn else {
        return None;
    };
    let (va, vb, vd) = (cpu.v[rn as usize], cpu.v[rm as usize], cpu.v[rd as usize]);
    let r = match op {
        BitwiseOp::And => va & vb,
        BitwiseOp::Bic => va & !vb,
        BitwiseOp::Orr => va | vb,
        BitwiseOp::Orn => va | !vb,
        BitwiseOp::Eor => va ^ vb,
        BitwiseOp::Bsl => (vd & va) | (!vd & vb),
        BitwiseOp::Bit => (vd & !vb) | (va & vb),
        BitwiseOp::Bif => (vd & vb) | (va & !vb),
    };
    write_v(cpu, rd as usize, r, if q { 128 } else { 64 });
    Some(())
}

/// Integer "three same", from the decoded form.
#[inline(always)]
pub fn three_same(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    let SimdInsn::ThreeSame { rm, .. } = insn else {
        return None;
    };
    let vb = cpu.v[rm as usize];
    three_same_with(cpu, insn, vb)
}

/// Integer "three same" with the second operand given (by-element forms pass a broadcast lane).
#[inline(always)]
pub fn three_same_with(cpu: &mut CpuState, insn: SimdInsn, vb: u128) -> Option<()> {
    let SimdInsn::ThreeSame { op, unsigned, scalar, q, size, rd, rn, .. } = insn else {
        return None;
    };
    let d = rd as usize;
    let (va, vd) = (cpu.v[rn as usize], cpu.v[d]);
    let shape = if scalar { Shape::scalar(8 << size) } else { Shape::vector(size as u32, q) };
    let e = shape.esize;
    let signed = !unsigned;
    let mut qc = false;
    use ThreeSameOp::*;
    // Pairwise forms combine adjacent lanes of Vm:Vn: the even lanes with the odd ones.
    let (va, vb) = if matches!(op, MaxPairwise | MinPairwise | AddPairwise) {
        (unzip(va, vb, shape, 0), unzip(va, vb, shape, 1))
    } else {
        (va, vb)
    };
    let s = |x: u64| int_of(x, e, signed);
    // Each arm instantiates its own lane loop, so the operation is chosen once per instruction.
    let r = match op {
        HalvingAdd => map_lanes(shape, va, vb, vd, |a, b, _| ((s(a) + s(b)) >> 1) as u64),
        SatAdd => map_lanes(shape, va, vb, vd, |a, b, _| saturate(s(a) + s(b), e, signed, &mut qc)),
        RoundingHalvingAdd => map_lanes(shape, va, vb, vd, |a, b, _| ((s(a) + s(b) + 1) >> 1) as u64),
        HalvingSub => map_lanes(shape, va, vb, vd, |a, b, _| ((s(a) - s(b)) >> 1) as u64),
        SatSub => map_lanes(shape, va, vb, vd, |a, b, _| saturate(s(a) - s(b), e, signed, &mut qc)),
        CompareGreater => map_lanes(shape, va, vb, vd, |a, b, _| all_ones_if(s(a) > s(b), e)),
        CompareGreaterEqual => map_lanes(shape, va, vb, vd, |a, b, _| all_ones_if(s(a) >= s(b), e)),
        ShiftLeft | SatShiftLeft | RoundingShiftLeft | SatRoundingShiftLeft => {
            let (round, sat) = (matches!(op, RoundingShiftLeft | SatRoundingShiftLeft), matches!(op, SatShiftLeft | SatRoundingShiftLeft));
            map_lanes(shape, va, vb, vd, |a, b, _| shift_by_reg(a, b, e, signed, round, sat, &mut qc))
        }
        Max | MaxPairwise => map_lanes(shape, va, vb, vd, |a, b, _| s(a).max(s(b)) as u64),
        Min | MinPairwise => map_lanes(shape, va, vb, vd, |a, b, _| s(a).min(s(b)) as u64),
        AbsDiff => map_lanes(shape, va, vb, vd, |a, b, _| (s(a) - s(b)).unsigned_abs() as u64),
        AbsDiffAcc => map_lanes(shape, va, vb, vd, |a, b, acc| acc.wrapping_add((s(a) - s(b)).unsigned_abs() as u64)),
        Sub => map_lanes(shape, va, vb, vd, |a, b, _| a.wrapping_sub(b)),
        Add | AddPairwise => map_lanes(shape, va, vb, vd, |a, b, _| a.wrapping_add(b)),
        CompareEqual => map_lanes(shape, va, vb, vd, |a, b, _| all_ones_if(a == b, e)),
        Test => map_lanes(shape, va, vb, vd, |a, b, _| all_ones_if(a & b != 0, e)),
        MulSub => map_lanes(shape, va, vb, vd, |a, b, acc| acc.wrapping_sub(a.wrapping_mul(b))),
        MulAcc => map_lanes(shape, va, vb, vd, |a, b, acc| acc.wrapping_add(a.wrapping_mul(b))),
        PolyMul => map_lanes(shape, va, vb, vd, |a, b, _| poly_mul(a, b) as u64),
        Mul => map_lanes(shape, va, vb, vd, |a, b, _| a.wrapping_mul(b)),
        DoublingMulHigh | RoundingDoublingMulHigh => {
            // SQDMULH, SQRDMULH: the high half of the doubled product.
            let round = if op == RoundingDoublingMulHigh { 1i128 << (e - 1) } else { 0 };
            map_lanes(shape, va, vb, vd, |a, b, _| {
                saturate((2 * int_of(a, e, true) * int_of(b, e, true) + round) >> e, e, true, &mut qc)
            })
        }
    };
    write_v(cpu, d, r, shape.bits());
    if qc {
        cpu.fpsr |= QC;
    }
    Some(())
}

/// Integer "two-register miscellaneous", from the decoded form.
#[inline(always)]
pub fn two_reg_misc(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    let SimdInsn::TwoRegMisc { op, unsigned: u, scalar, q, size, rd, rn } = insn else {
        return None;
    };
    let (d, size) = (rd as usize, size as u32);
    let (va, vd) = (cpu.v[rn as usize], cpu.v[d]);
    let signed = !u;
    let mut qc = false;
    let shape = if scalar { Shape::scalar(8 << size) } else { Shape::vector(size, q) };
    use MiscOp::*;
    let result: (u128, u32) = match op {
        // REV64, REV32, REV16: reverse elements inside containers.
        Rev64 | Rev32 | Rev16 => {
            let container = match op {
                Rev64 => 64,
                Rev32 => 32,
                _ => 16,
            };
            let per = (container / shape.esize) as usize;
            let r = from_lanes(shape.lanes, shape.esize, |i| {
                let base = i - i % per;
                lane(va, base + per - 1 - i % per, shape.esize)
            });
            (r, shape.bits())
        }
        AddLongPairwise | AddAccLongPairwise => {
            let e = shape.esize;
            let accumulate = op == AddAccLongPairwise;
            let r = from_lanes(shape.lanes / 2, 2 * e, |i| {
                let sum = int_of(lane(va, 2 * i, e), e, signed) + int_of(lane(va, 2 * i + 1, e), e, signed);
                let acc = if accumulate { lane(vd, i, 2 * e) as i128 } else { 0 };
                (sum + acc) as u64
            });
            (r, shape.bits())
        }
        SatAccumulateOther => {
            let e = shape.esize;
            let r = from_lanes(shape.lanes, e, |i| {
                let v = int_of(lane(va, i, e), e, !signed) + int_of(lane(vd, i, e), e, signed);
                saturate(v, e, signed, &mut qc)
            });
            (r, shape.bits())
        }
        CountLeadingSign | CountLeadingZeros => {
            let e = shape.esize;
            let r = from_lanes(shape.lanes, e, |i| {
                let x = lane(va, i, e) << (64 - e);
                if op == CountLeadingZeros {
                    x.leading_zeros().min(e) as u64
                } else {
                    let y = if (x as i64) < 0 { !x } else { x };
                    (y.leading_zeros().min(e) - 1) as u64
                }
            });
            (r, shape.bits())
        }
        PopCount => (from_lanes(shape.lanes, 8, |i| lane(va, i, 8).count_ones() as u64), shape.bits()),
        Not | ReverseBits => {
            let bytes = Shape::vector(0, q);
            let r = if op == Not { !va } else { from_lanes(bytes.lanes, 8, |i| (lane(va, i, 8) as u8).reverse_bits() as u64) };
            (r, bytes.bits())
        }
        SatAbs | SatNeg => {
            let e = shape.esize;
            let r = from_lanes(shape.lanes, e, |i| {
                let x = sext(lane(va, i, e), e) as i128;
                saturate(if op == SatNeg { -x } else { x.abs() }, e, true, &mut qc)
            });
            (r, shape.bits())
        }
        CompareGreaterZero => (test_lanes(shape, va, |x| x > 0), shape.bits()),
        CompareEqualZero => (test_lanes(shape, va, |x| x == 0), shape.bits()),
        CompareLessZero => (test_lanes(shape, va, |x| x < 0), shape.bits()),
        CompareGreaterEqualZero => (test_lanes(shape, va, |x| x >= 0), shape.bits()),
        CompareLessEqualZero => (test_lanes(shape, va, |x| x <= 0), shape.bits()),
        Abs | Neg => {
            let e = shape.esize;
            let r = from_lanes(shape.lanes, e, |i| {
                let x = sext(lane(va, i, e), e);
                if op == Neg {
                    x.wrapping_neg() as u64
                } else {
                    x.wrapping_abs() as u64
                }
            });
            (r, shape.bits())
        }
        // XTN, SQXTN, UQXTN, SQXTUN: narrow to the low or (Q=1, "2") high half.
        ExtractNarrow | SatExtractUnsignedNarrow | SatExtractNarrow => {
            let e = 8 << size;
            let count = if scalar { 1 } else { (64 / e) as usize };
            let narrowed = from_lanes(count, e, |i| {
                let x = lane(va, i, 2 * e);
                match op {
                    ExtractNarrow => x,
                    SatExtractUnsignedNarrow => saturate(sext(x, 2 * e) as i128, e, false, &mut qc),
                    _ => saturate(int_of(x, 2 * e, signed), e, signed, &mut qc),
                }
            });
            if scalar {
                (narrowed, e)
            } else if q {
                ((vd & u64::MAX as u128) | narrowed << 64, 128)
            } else {
                (narrowed, 64)
            }
        }
        // SHLL, SHLL2: widen and shift by the element size.
        ShiftLeftLong => {
            let e = 8 << size;
            let src = if q { va >> 64 } else { va };
            (from_lanes((64 / e) as usize, 2 * e, |i| lane(src, i, e) << e), 128)
        }
    };
    write_v(cpu, d, result.0, result.1);
    if qc {
        cpu.fpsr |= QC;
    }
    Some(())
}

/// All ones in the lanes whose signed value passes `test`, zeros elsewhere.
fn test_lanes(shape: Shape, va: u128, test: impl Fn(i64) -> bool) -> u128 {
    let e = shape.esize;
    map_lanes(shape, va, 0, 0, |a, _, _| all_ones_if(test(sext(a, e)), e))
}

/// The "three different" group, from the decoded form: long, wide and narrowing-high forms.
#[inline(always)]
pub fn three_different(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    let SimdInsn::ThreeDifferent { rm, .. } = insn else {
        return None;
    };
    let vb = cpu.v[rm as usize];
    three_different_with(cpu, insn, vb)
}

/// "Three different" with the second operand given (by-element forms pass a broadcast lane).
pub fn three_different_with(cpu: &mut CpuState, insn: SimdInsn, vb: u128) -> Option<()> {
    let SimdInsn::ThreeDifferent { op, unsigned: u, scalar, q, size, rd, rn, .. } = insn else {
        return None;
    };
    let (n, d) = (rn as usize, rd as usize);
    let (va, vd) = (cpu.v[n], cpu.v[d]);
    let signed = !u;
    let e = 8 << size;
    let half = |v: u128| if q { v >> 64 } else { v & u64::MAX as u128 };
    let mut qc = false;
    if matches!(op, ThreeDifferentOp::AddHighNarrow | ThreeDifferentOp::SubHighNarrow) {
        // ADDHN, RADDHN, SUBHN, RSUBHN: wide operands, the high halves of the results.
        let round = if u { 1u128 << (e - 1) } else { 0 };
        let narrowed = from_lanes((64 / e) as usize, e, |i| {
            let (x, y) = (lane(va, i, 2 * e) as u128, lane(vb, i, 2 * e) as u128);
            let v = if op == ThreeDifferentOp::AddHighNarrow { x + y } else { x.wrapping_sub(y) };
            (v.wrapping_add(round) >> e) as u64
        });
        let r = if q { (vd & u64::MAX as u128) | narrowed << 64 } else { narrowed };
        write_v(cpu, d, r, if q { 128 } else { 64 });
        return Some(());
    }
    if op == ThreeDifferentOp::PolyMulLong && size == 3 {
        write_v(cpu, d, poly_mul(half(va) as u64, half(vb) as u64), 128);
        return Some(());
    }
    let count = if scalar { 1 } else { (64 / e) as usize };
    let (ha, hb) = if scalar { (va, vb) } else { (half(va), half(vb)) };
    let wide_first = matches!(op, ThreeDifferentOp::AddWide | ThreeDifferentOp::SubWide);
    let r = from_lanes(count, 2 * e, |i| {
        let x = if wide_first { int_of(lane(va, i, 2 * e), 2 * e, signed) } else { int_of(lane(ha, i, e), e, signed) };
        let y = int_of(lane(hb, i, e), e, signed);
        let acc = int_of(lane(vd, i, 2 * e), 2 * e, signed);
        let v = match op {
            ThreeDifferentOp::AddLong | ThreeDifferentOp::AddWide => x + y,
            ThreeDifferentOp::SubLong | ThreeDifferentOp::SubWide => x - y,
            ThreeDifferentOp::AbsDiffAccLong => acc + (x - y).abs(),
            ThreeDifferentOp::AbsDiffLong => (x - y).abs(),
            ThreeDifferentOp::MulAccLong => acc + x * y,
            ThreeDifferentOp::MulSubLong => acc - x * y,
            ThreeDifferentOp::MulLong => x * y,
            ThreeDifferentOp::PolyMulLong => poly_mul(lane(ha, i, e), lane(hb, i, e)) as i128,
            _ => {
                let product = saturate(2 * x * y, 2 * e, true, &mut qc) as i128;
                let product = sext(product as u64, 2 * e) as i128;
                match op {
                    ThreeDifferentOp::SatDoublingMulAccLong => saturate(acc + product, 2 * e, true, &mut qc) as i128,
                    ThreeDifferentOp::SatDoublingMulSubLong => saturate(acc - product, 2 * e, true, &mut qc) as i128,
                    _ => product,
                }
            }
        };
        v as u64 & ones(2 * e)
    });
    write_v(cpu, d, r, if scalar { 2 * e } else { 128 });
    if qc {
        cpu.fpsr |= QC;
    }
    Some(())
}
