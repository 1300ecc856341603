//! Scalar floating point (bits 28..24 = 1111x, bit 30 = 0), executed from the decoded form:
//! data processing with one, two and three sources, compares, conditional compare and select,
//! immediates, and conversions to and from general registers and fixed point. `None` means the
//! instruction is not part of the implemented architecture (half-precision arithmetic, BFCVT,
//! FJCVTZS, FRINT32/64) and leaves the state untouched.

use super::fp_env::{with_fp_env, Fmt, Rounding};
use super::lanes::{read_x, write_x};
use crate::arm64::decode::{FmovReg, FpBinaryOp, FpType, FpUnaryOp, RoundMode, SimdInsn};
use crate::arm64::exec::alu::condition_holds;
use crate::arm64::state::CpuState;

/// Single or double precision; half precision arithmetic is not part of the implemented
/// architecture.
fn arith_fmt(ty: FpType) -> Option<Fmt> {
    match ty {
        FpType::S => Some(Fmt::S),
        FpType::D => Some(Fmt::D),
        FpType::H => None,
    }
}

/// Any precision, as FCVT between precisions takes them.
fn any_fmt(ty: FpType) -> Fmt {
    match ty {
        FpType::S => Fmt::S,
        FpType::D => Fmt::D,
        FpType::H => Fmt::H,
    }
}

fn rounding(mode: RoundMode) -> Rounding {
    match mode {
        RoundMode::N => Rounding::TiesEven,
        RoundMode::P => Rounding::PlusInf,
        RoundMode::M => Rounding::MinusInf,
        RoundMode::Z => Rounding::Zero,
        RoundMode::A => Rounding::TiesAway,
    }
}

fn get(cpu: &CpuState, n: u8, fmt: Fmt) -> u64 {
    cpu.v[n as usize] as u64 & super::lanes::ones(fmt.width())
}

/// Scalar writes clear the rest of the vector register.
fn put(cpu: &mut CpuState, d: u8, bits: u64) {
    cpu.v[d as usize] = bits as u128;
}

#[inline(always)]
pub fn execute(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    match insn {
        SimdInsn::FpUnary { ty, op, rd, rn } => {
            let fmt = arith_fmt(ty)?;
            let a = get(cpu, rn, fmt);
            let r = match op {
                FpUnaryOp::Mov => a,
                FpUnaryOp::Abs => a & !fmt.sign_bit(),
                FpUnaryOp::Neg => a ^ fmt.sign_bit(),
                FpUnaryOp::Sqrt => with_fp_env(cpu, |e| e.sqrt(fmt, a)),
                FpUnaryOp::Round(mode) => with_fp_env(cpu, |e| e.round_int(fmt, a, rounding(mode), false)),
                FpUnaryOp::RoundCurrent { exact } => {
                    let mode = Rounding::from_rmode(cpu.fpcr >> 22);
                    with_fp_env(cpu, |e| e.round_int(fmt, a, mode, exact))
                }
                FpUnaryOp::RoundToInt { .. } => return None,
            };
            put(cpu, rd, r);
        }
        // Half precision is allowed here as source or target.
        SimdInsn::FpConvert { from, to, rd, rn } => {
            let (from, to) = (any_fmt(from), any_fmt(to));
            let a = get(cpu, rn, from);
            let r = with_fp_env(cpu, |e| {
                let mode = e.rounding();
                e.convert(from, to, a, mode)
            });
            put(cpu, rd, r);
        }
        SimdInsn::FpBinary { ty, op, rd, rn, rm } => {
            let fmt = arith_fmt(ty)?;
            let (a, b) = (get(cpu, rn, fmt), get(cpu, rm, fmt));
            let r = with_fp_env(cpu, |e| match op {
                FpBinaryOp::Mul => e.mul(fmt, a, b),
                FpBinaryOp::Div => e.div(fmt, a, b),
                FpBinaryOp::Add => e.add(fmt, a, b, false),
                FpBinaryOp::Sub => e.add(fmt, a, b, true),
                FpBinaryOp::Max => e.max_min(fmt, a, b, true),
                FpBinaryOp::Min => e.max_min(fmt, a, b, false),
                FpBinaryOp::MaxNm => e.max_min_num(fmt, a, b, true),
                FpBinaryOp::MinNm => e.max_min_num(fmt, a, b, false),
                FpBinaryOp::Nmul => e.mul(fmt, a, b) ^ fmt.sign_bit(),
            });
            put(cpu, rd, r);
        }
        // FMADD, FMSUB, FNMADD, FNMSUB: negations are applied to the operands (NaNs included)
        // before the fused multiply-add, as the architecture specifies.
        SimdInsn::FpMulAdd { ty, negate, sub, rd, rn, rm, ra } => {
            let fmt = arith_fmt(ty)?;
            let s = fmt.sign_bit();
            let n = get(cpu, rn, fmt) ^ if negate != sub { s } else { 0 };
            let m = get(cpu, rm, fmt);
            let a = get(cpu, ra, fmt) ^ if negate { s } else { 0 };
            let r = with_fp_env(cpu, |e| e.mul_add(fmt, a, n, m));
            put(cpu, rd, r);
        }
        SimdInsn::FpCompare { ty, signaling, zero, rn, rm } => {
            let fmt = arith_fmt(ty)?;
            let a = get(cpu, rn, fmt);
            let b = if zero { 0 } else { get(cpu, rm, fmt) };
            let flags = with_fp_env(cpu, |e| e.compare(fmt, a, b, signaling));
            cpu.nzcv = flags << 28;
        }
        SimdInsn::FpCondCompare { ty, signaling, cond, nzcv, rn, rm } => {
            let fmt = arith_fmt(ty)?;
            let flags = if condition_holds(cond as u32, cpu.nzcv) {
                let (a, b) = (get(cpu, rn, fmt), get(cpu, rm, fmt));
                with_fp_env(cpu, |e| e.compare(fmt, a, b, signaling))
            } else {
                nzcv as u32
            };
            cpu.nzcv = flags << 28;
        }
        SimdInsn::FpSelect { ty, cond, rd, rn, rm } => {
            let fmt = arith_fmt(ty)?;
            let src = if condition_holds(cond as u32, cpu.nzcv) { rn } else { rm };
            let r = get(cpu, src, fmt);
            put(cpu, rd, r);
        }
        SimdInsn::FpMovImm { ty, imm8, rd } => put(cpu, rd, expand_fp_imm(imm8 as u32, arith_fmt(ty)?)),
        SimdInsn::FpToInt { ty, sf, unsigned, round, fbits, rd, rn } => {
            let fmt = arith_fmt(ty)?;
            let a = get(cpu, rn, fmt);
            let width = if sf { 64 } else { 32 };
            let r = with_fp_env(cpu, |e| e.fp_to_fixed(fmt, a, fbits as u32, unsigned, width, rounding(round)));
            write_x(cpu, rd as usize, r, sf);
        }
        SimdInsn::IntToFp { ty, sf, unsigned, fbits, rd, rn } => {
            let fmt = arith_fmt(ty)?;
            let x = read_x(cpu, rn as usize);
            let width = if sf { 64 } else { 32 };
            let r = with_fp_env(cpu, |e| {
                let mode = e.rounding();
                e.fixed_to_fp(fmt, x, fbits as u32, unsigned, width, mode)
            });
            put(cpu, rd, r);
        }
        SimdInsn::FmovGeneral { sf, fp, to_fp, rd, rn } => fmov_general(cpu, sf, fp, to_fp, rd as usize, rn as usize)?,
        _ => return None,
    }
    Some(())
}

/// VFPExpandImm: imm8 = a:b:c:d:e:f:g:h as sign a, exponent NOT(b):b..b:c:d, fraction efgh0…
pub fn expand_fp_imm(imm8: u32, fmt: Fmt) -> u64 {
    let sign = (imm8 >> 7) as u64;
    let b = (imm8 >> 6) as u64 & 1;
    let exp_bits = fmt.width() - 1 - fmt.frac_bits();
    let replicated = if b == 1 { (1u64 << (exp_bits - 3)) - 1 } else { 0 };
    let exp = ((b ^ 1) << (exp_bits - 1)) | (replicated << 2) | ((imm8 >> 4) as u64 & 3);
    let frac = ((imm8 & 0xF) as u64) << (fmt.frac_bits() - 4);
    sign << (fmt.width() - 1) | exp << fmt.frac_bits() | frac
}

/// FMOV (general): W to and from S, X to and from D, X to and from V.D[1].
fn fmov_general(cpu: &mut CpuState, sf: bool, fp: FmovReg, to_fp: bool, d: usize, n: usize) -> Option<()> {
    match fp {
        FmovReg::S | FmovReg::D => {
            if to_fp {
                let x = read_x(cpu, n);
                cpu.v[d] = (if sf { x } else { x & 0xFFFF_FFFF }) as u128;
            } else {
                write_x(cpu, d, cpu.v[n] as u64, sf);
            }
        }
        // The upper 64 bits of a vector register, V.D[1].
        FmovReg::Upper => {
            if to_fp {
                let x = read_x(cpu, n);
                cpu.v[d] = (cpu.v[d] & u64::MAX as u128) | (x as u128) << 64;
            } else {
                write_x(cpu, d, (cpu.v[n] >> 64) as u64, true);
            }
        }
        FmovReg::H => return None,
    }
    Some(())
}
