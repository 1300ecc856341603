//! AdvSIMD floating point: the FP opcodes of the "three same" and "two-register miscellaneous"
//! groups (vector and scalar), FP pairwise and across-lanes reductions, and FP by-element ops.
//! Every lane goes through the same `FpEnv` operations as scalar FP, so rounding, NaN rules and
//! FPSR flags agree.

use super::fp_env::{with_fp_env, Fmt, FpEnv, Rounding};
use super::fp_estimate::{unsigned_recip_estimate, unsigned_rsqrt_estimate};
use super::fp_ops::{CompareOp, LaneCompare};
use super::lanes::{from_lanes, lane, map_lanes, ones, unzip, write_v, Shape};
use crate::arm64::decode::{FpMiscOp, FpThreeSameOp, ReduceOp, RoundMode, SimdInsn};
use crate::arm64::state::CpuState;

/// A two-operand lane operation of the "three same" group (pairwise forms as their base
/// operation). `acc` is the destination lane (FMLA, FMLS).
fn binary(e: &mut FpEnv, fmt: Fmt, op: FpThreeSameOp, a: u64, b: u64, acc: u64) -> u64 {
    use FpThreeSameOp::*;
    let truth = |t: bool| if t { ones(fmt.width()) } else { 0 };
    let cmp = |op, absolute| LaneCompare { op, absolute };
    match op {
        MaxNum | MaxNumPairwise => e.max_min_num(fmt, a, b, true),
        MinNum | MinNumPairwise => e.max_min_num(fmt, a, b, false),
        MulAdd => e.mul_add(fmt, acc, a, b),
        MulSub => e.mul_add(fmt, acc, a ^ fmt.sign_bit(), b),
        Add | AddPairwise => e.add(fmt, a, b, false),
        Sub => e.add(fmt, a, b, true),
        AbsDiff => e.add(fmt, a, b, true) & !fmt.sign_bit(),
        Mulx => e.mulx(fmt, a, b),
        Mul => e.mul(fmt, a, b),
        CompareEqual => truth(e.compare_lanes(fmt, a, b, cmp(CompareOp::Eq, false))),
        CompareGreaterEqual => truth(e.compare_lanes(fmt, a, b, cmp(CompareOp::Ge, false))),
        CompareGreater => truth(e.compare_lanes(fmt, a, b, cmp(CompareOp::Gt, false))),
        AbsCompareGreaterEqual => truth(e.compare_lanes(fmt, a, b, cmp(CompareOp::Ge, true))),
        AbsCompareGreater => truth(e.compare_lanes(fmt, a, b, cmp(CompareOp::Gt, true))),
        Max | MaxPairwise => e.max_min(fmt, a, b, true),
        Min | MinPairwise => e.max_min(fmt, a, b, false),
        RecipStep => e.recip_step(fmt, a, b, false),
        RsqrtStep => e.recip_step(fmt, a, b, true),
        Div => e.div(fmt, a, b),
    }
}

/// Scalar or vector lanes of single or `double` precision.
fn fp_lanes(scalar: bool, q: bool, double: bool) -> (Shape, Fmt) {
    let esize = if double { 64 } else { 32 };
    let shape = if scalar { Shape::scalar(esize) } else { Shape { esize, lanes: (if q { 128 } else { 64 } / esize) as usize } };
    (shape, Fmt::of_bits(esize))
}

/// FP "three same", from the decoded form.
#[inline(always)]
pub fn three_same(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    let SimdInsn::FpThreeSame { op, scalar, q, double, rd, rn, rm } = insn else {
        return None;
    };
    let (shape, fmt) = fp_lanes(scalar, q, double);
    let (va, vb, vd) = (cpu.v[rn as usize], cpu.v[rm as usize], cpu.v[rd as usize]);
    // FMAXNMP, FADDP, FMAXP (and the MIN forms) work on adjacent pairs of Vm:Vn.
    let pairwise = matches!(
        op,
        FpThreeSameOp::MaxNumPairwise
            | FpThreeSameOp::MinNumPairwise
            | FpThreeSameOp::AddPairwise
            | FpThreeSameOp::MaxPairwise
            | FpThreeSameOp::MinPairwise
    );
    let (va, vb) = if pairwise { (unzip(va, vb, shape, 0), unzip(va, vb, shape, 1)) } else { (va, vb) };
    let r = with_fp_env(cpu, |env| map_lanes(shape, va, vb, vd, |a, b, acc| binary(env, fmt, op, a, b, acc)));
    write_v(cpu, rd as usize, r, shape.bits());
    Some(())
}

/// A one-operand lane operation of the "two-register miscellaneous" group.
fn unary(cpu: &mut CpuState, rd: u8, rn: u8, (shape, fmt): (Shape, Fmt), op: impl Fn(&mut FpEnv, Fmt, u64) -> u64) {
    let va = cpu.v[rn as usize];
    let r = with_fp_env(cpu, |env| map_lanes(shape, va, 0, 0, |x, _, _| op(env, fmt, x)));
    write_v(cpu, rd as usize, r, shape.bits());
}

/// FP "two-register miscellaneous", from the decoded form. BFCVTN and FRINT32/64 (later than
/// Armv8.0) are undefined here.
pub fn two_reg_misc(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    let SimdInsn::FpTwoRegMisc { op, unsigned, scalar, q, double, rd, rn } = insn else {
        return None;
    };
    let lanes = fp_lanes(scalar, q, double);
    let fpcr_mode = Rounding::from_rmode(cpu.fpcr >> 22);
    let rounding = |mode: RoundMode| match mode {
        RoundMode::N => Rounding::TiesEven,
        RoundMode::P => Rounding::PlusInf,
        RoundMode::M => Rounding::MinusInf,
        RoundMode::Z => Rounding::Zero,
        RoundMode::A => Rounding::TiesAway,
    };
    let truth = |t: bool, f: Fmt| if t { ones(f.width()) } else { 0 };
    let zero_compare = |op, swap: bool| {
        // The LE and LT forms compare 0 against x.
        let cond = LaneCompare { op, absolute: false };
        move |e: &mut FpEnv, f: Fmt, x: u64| {
            truth(if swap { e.compare_lanes(f, 0, x, cond) } else { e.compare_lanes(f, x, 0, cond) }, f)
        }
    };
    match op {
        FpMiscOp::Narrow | FpMiscOp::NarrowOdd | FpMiscOp::Widen => {
            convert_precision(cpu, op, scalar, q, double, rd, rn);
        }
        FpMiscOp::Bfcvtn | FpMiscOp::RoundToInt { .. } => return None,
        FpMiscOp::Round(mode) => {
            let mode = rounding(mode);
            unary(cpu, rd, rn, lanes, |e, f, x| e.round_int(f, x, mode, false))
        }
        FpMiscOp::RoundCurrent { exact } => unary(cpu, rd, rn, lanes, |e, f, x| e.round_int(f, x, fpcr_mode, exact)),
        FpMiscOp::ToInt(mode) => {
            let mode = rounding(mode);
            unary(cpu, rd, rn, lanes, |e, f, x| e.fp_to_fixed(f, x, 0, unsigned, f.width(), mode))
        }
        FpMiscOp::FromInt => unary(cpu, rd, rn, lanes, |e, f, x| {
            let mode = e.rounding();
            e.fixed_to_fp(f, x, 0, unsigned, f.width(), mode)
        }),
        FpMiscOp::CompareGreaterZero => unary(cpu, rd, rn, lanes, zero_compare(CompareOp::Gt, false)),
        FpMiscOp::CompareGreaterEqualZero => unary(cpu, rd, rn, lanes, zero_compare(CompareOp::Ge, false)),
        FpMiscOp::CompareEqualZero => unary(cpu, rd, rn, lanes, zero_compare(CompareOp::Eq, false)),
        FpMiscOp::CompareLessEqualZero => unary(cpu, rd, rn, lanes, zero_compare(CompareOp::Ge, true)),
        FpMiscOp::CompareLessZero => unary(cpu, rd, rn, lanes, zero_compare(CompareOp::Gt, true)),
        FpMiscOp::Abs => unary(cpu, rd, rn, lanes, |_, f, x| x & !f.sign_bit()),
        FpMiscOp::Neg => unary(cpu, rd, rn, lanes, |_, f, x| x ^ f.sign_bit()),
        FpMiscOp::Sqrt => unary(cpu, rd, rn, lanes, |e, f, x| e.sqrt(f, x)),
        FpMiscOp::RecipExponent => unary(cpu, rd, rn, lanes, |e, f, x| e.recip_exponent(f, x)),
        FpMiscOp::RsqrtEstimate => unary(cpu, rd, rn, lanes, |e, f, x| e.rsqrt_estimate(f, x)),
        FpMiscOp::RecipEstimate => unary(cpu, rd, rn, lanes, |e, f, x| e.recip_estimate(f, x)),
        FpMiscOp::UnsignedRecipEstimate => unary(cpu, rd, rn, lanes, |_, _, x| unsigned_recip_estimate(x)),
        FpMiscOp::UnsignedRsqrtEstimate => unary(cpu, rd, rn, lanes, |_, _, x| unsigned_rsqrt_estimate(x)),
    }
    Some(())
}

/// FCVTL/FCVTL2 (widen), FCVTN/FCVTN2 (narrow) and FCVTXN (narrow, round to odd); `double`
/// picks single/double rather than half/single.
fn convert_precision(cpu: &mut CpuState, op: FpMiscOp, scalar: bool, q: bool, double: bool, rd: u8, rn: u8) {
    let (narrow, wide) = if double { (Fmt::S, Fmt::D) } else { (Fmt::H, Fmt::S) };
    let (ne, we) = (narrow.width(), wide.width());
    let (d, va, vd) = (rd as usize, cpu.v[rn as usize], cpu.v[rd as usize]);
    if op == FpMiscOp::Widen {
        let src = if q { va >> 64 } else { va };
        let r = with_fp_env(cpu, |e| {
            let mode = e.rounding();
            from_lanes((128 / we) as usize, we, |i| e.convert(narrow, wide, lane(src, i, ne), mode))
        });
        write_v(cpu, d, r, 128);
        return;
    }
    let count = if scalar { 1 } else { (128 / we) as usize };
    let r = with_fp_env(cpu, |e| {
        let mode = if op == FpMiscOp::NarrowOdd { Rounding::Odd } else { e.rounding() };
        from_lanes(count, ne, |i| e.convert(wide, narrow, lane(va, i, we), mode))
    });
    if scalar {
        write_v(cpu, d, r, ne);
    } else if q {
        write_v(cpu, d, (vd & u64::MAX as u128) | r << 64, 128);
    } else {
        write_v(cpu, d, r, 64);
    }
}

/// Reduces lanes pairwise as a balanced tree (Arm's Reduce), so NaN choice and flags match.
fn reduce(e: &mut FpEnv, fmt: Fmt, xs: &[u64], op: &impl Fn(&mut FpEnv, Fmt, u64, u64) -> u64) -> u64 {
    if xs.len() == 1 {
        return xs[0];
    }
    let (lo, hi) = xs.split_at(xs.len() / 2);
    let a = reduce(e, fmt, lo, op);
    let b = reduce(e, fmt, hi, op);
    op(e, fmt, a, b)
}

/// The max/min operation of FMAXNMV, FMINNMV, FMAXV, FMINV and the scalar pairwise forms.
fn max_min_op(num: bool, max: bool) -> impl Fn(&mut FpEnv, Fmt, u64, u64) -> u64 {
    move |e, f, a, b| if num { e.max_min_num(f, a, b, max) } else { e.max_min(f, a, b, max) }
}

/// FMAXV, FMINV, FMAXNMV, FMINNMV (single precision, 4S) of Vn into Sd.
pub fn across(cpu: &mut CpuState, op: ReduceOp, d: usize, n: usize) -> Option<()> {
    let va = cpu.v[n];
    let xs: Vec<u64> = (0..4).map(|i| lane(va, i, 32)).collect();
    let op = max_min_op(matches!(op, ReduceOp::FMaxNm | ReduceOp::FMinNm), matches!(op, ReduceOp::FMax | ReduceOp::FMaxNm));
    let r = with_fp_env(cpu, |e| reduce(e, Fmt::S, &xs, &op));
    write_v(cpu, d, r as u128, 32);
    Some(())
}

/// Scalar pairwise FP: FADDP, FMAXP, FMINP, FMAXNMP, FMINNMP on the two lanes of Vn, single or
/// `double` precision.
pub fn scalar_pairwise(cpu: &mut CpuState, op: ReduceOp, double: bool, d: usize, n: usize) {
    let fmt = if double { Fmt::D } else { Fmt::S };
    let e = fmt.width();
    let va = cpu.v[n];
    let (a, b) = (lane(va, 0, e), lane(va, 1, e));
    let r = match op {
        ReduceOp::FAdd => with_fp_env(cpu, |env| env.add(fmt, a, b, false)),
        ReduceOp::FMaxNm | ReduceOp::FMinNm => {
            with_fp_env(cpu, |env| max_min_op(true, op == ReduceOp::FMaxNm)(env, fmt, a, b))
        }
        _ => with_fp_env(cpu, |env| max_min_op(false, op == ReduceOp::FMax)(env, fmt, a, b)),
    };
    write_v(cpu, d, r as u128, e);
}

/// FP by element: FMLA, FMLS, FMUL, FMULX (vector and scalar), with element `index` of Vm;
/// half precision (`size` 0, Armv8.2) is undefined here.
pub fn by_element(cpu: &mut CpuState, op: FpThreeSameOp, scalar: bool, q: bool, size: u8, index: u8, [rd, rn, rm]: [u8; 3]) -> Option<()> {
    if size == 0 {
        return None;
    }
    let (shape, fmt) = fp_lanes(scalar, q, size == 3);
    let elem = lane(cpu.v[rm as usize], index as usize, shape.esize);
    let (va, vd) = (cpu.v[rn as usize], cpu.v[rd as usize]);
    let r = with_fp_env(cpu, |env| map_lanes(shape, va, 0, vd, |a, _, acc| binary(env, fmt, op, a, elem, acc)));
    write_v(cpu, rd as usize, r, shape.bits());
    Some(())
}
