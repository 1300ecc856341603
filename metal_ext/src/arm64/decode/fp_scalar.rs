//! Scalar floating point (bits 28..24 = 1111x, bit 30 = 0): data processing with one, two and
//! three sources, compares, conditional compare and select, FMOV immediates, and conversions to
//! and from general registers and fixed point. Bit 29 (S) is 0 throughout, and bit 31 (sf) too
//! outside the conversions.

use super::simd_form::{FmovReg, FpBinaryOp, FpType, FpUnaryOp, RoundMode, SimdInsn, VReg};

#[inline(always)]
fn field(w: u32, lo: u32, len: u32) -> u32 {
    (w >> lo) & ((1 << len) - 1)
}

#[inline(always)]
fn bit(w: u32, n: u32) -> bool {
    w >> n & 1 == 1
}

#[inline(always)]
fn reg(w: u32, lo: u32) -> VReg {
    field(w, lo, 5) as VReg
}

/// The precision field (bits 23..22); 10 is unallocated.
#[inline(always)]
fn fp_type(w: u32) -> Option<FpType> {
    match field(w, 22, 2) {
        0 => Some(FpType::S),
        1 => Some(FpType::D),
        3 => Some(FpType::H),
        _ => None,
    }
}

const ROUND: [RoundMode; 4] = [RoundMode::N, RoundMode::P, RoundMode::M, RoundMode::Z];

#[inline(always)]
pub(super) fn decode(w: u32) -> Option<SimdInsn> {
    if bit(w, 30) || bit(w, 29) {
        return None;
    }
    let conversion = !bit(w, 24) && (!bit(w, 21) || field(w, 10, 6) == 0);
    if bit(w, 31) && !conversion {
        return None;
    }
    let (rd, rn, rm) = (reg(w, 0), reg(w, 5), reg(w, 16));
    if bit(w, 24) {
        let (ty, negate, sub, ra) = (fp_type(w)?, bit(w, 21), bit(w, 15), reg(w, 10));
        return Some(SimdInsn::FpMulAdd { ty, negate, sub, rd, rn, rm, ra });
    }
    if !bit(w, 21) {
        return fixed_point(w);
    }
    let cond = field(w, 12, 4) as u8;
    match field(w, 10, 2) {
        0b01 => {
            let (ty, signaling, nzcv) = (fp_type(w)?, bit(w, 4), field(w, 0, 4) as u8);
            Some(SimdInsn::FpCondCompare { ty, signaling, cond, nzcv, rn, rm })
        }
        0b10 => {
            const OPS: [FpBinaryOp; 9] = [
                FpBinaryOp::Mul,
                FpBinaryOp::Div,
                FpBinaryOp::Add,
                FpBinaryOp::Sub,
                FpBinaryOp::Max,
                FpBinaryOp::Min,
                FpBinaryOp::MaxNm,
                FpBinaryOp::MinNm,
                FpBinaryOp::Nmul,
            ];
            let (ty, op) = (fp_type(w)?, *OPS.get(cond as usize)?);
            Some(SimdInsn::FpBinary { ty, op, rd, rn, rm })
        }
        0b11 => Some(SimdInsn::FpSelect { ty: fp_type(w)?, cond, rd, rn, rm }),
        _ if bit(w, 12) => {
            if rn != 0 {
                return None;
            }
            Some(SimdInsn::FpMovImm { ty: fp_type(w)?, imm8: field(w, 13, 8) as u8, rd })
        }
        _ if bit(w, 13) => {
            if field(w, 14, 2) != 0 || field(w, 0, 3) != 0 {
                return None;
            }
            let (ty, signaling, zero) = (fp_type(w)?, bit(w, 4), bit(w, 3));
            Some(SimdInsn::FpCompare { ty, signaling, zero, rn, rm })
        }
        _ if bit(w, 14) => one_source(w, rd, rn),
        _ if field(w, 10, 6) == 0 => int_convert(w, rd, rn),
        _ => None,
    }
}

#[inline(always)]
fn one_source(w: u32, rd: VReg, rn: VReg) -> Option<SimdInsn> {
    let opcode = field(w, 15, 6);
    if field(w, 22, 2) == 1 && opcode == 0b000110 {
        return Some(SimdInsn::Bfcvt { rd, rn });
    }
    let ty = fp_type(w)?;
    let op = match opcode {
        0b000000 => FpUnaryOp::Mov,
        0b000001 => FpUnaryOp::Abs,
        0b000010 => FpUnaryOp::Neg,
        0b000011 => FpUnaryOp::Sqrt,
        0b000100 | 0b000101 | 0b000111 => {
            let to = [FpType::S, FpType::D, FpType::H, FpType::H][(opcode & 3) as usize];
            if to == ty {
                return None;
            }
            return Some(SimdInsn::FpConvert { from: ty, to, rd, rn });
        }
        0b001000..=0b001011 => FpUnaryOp::Round(ROUND[(opcode & 3) as usize]),
        0b001100 => FpUnaryOp::Round(RoundMode::A),
        0b001110 => FpUnaryOp::RoundCurrent { exact: true },
        0b001111 => FpUnaryOp::RoundCurrent { exact: false },
        0b010000..=0b010011 if ty != FpType::H => FpUnaryOp::RoundToInt { op: (opcode & 3) as u8 },
        _ => return None,
    };
    Some(SimdInsn::FpUnary { ty, op, rd, rn })
}

/// Conversions between FP and general registers, FMOV (general) and FJCVTZS.
#[inline(always)]
fn int_convert(w: u32, rd: VReg, rn: VReg) -> Option<SimdInsn> {
    let sf = bit(w, 31);
    let (ftype, rmode, opcode) = (field(w, 22, 2), field(w, 19, 2), field(w, 16, 3));
    if opcode >= 0b110 {
        let fp = match (sf, ftype, rmode) {
            (false, 0b00, 0b00) => FmovReg::S,
            (true, 0b01, 0b00) => FmovReg::D,
            (_, 0b11, 0b00) => FmovReg::H,
            (true, 0b10, 0b01) => FmovReg::Upper,
            (false, 0b01, 0b11) if opcode == 0b110 => return Some(SimdInsn::Fjcvtzs { rd, rn }),
            _ => return None,
        };
        return Some(SimdInsn::FmovGeneral { sf, fp, to_fp: opcode == 0b111, rd, rn });
    }
    let ty = fp_type(w)?;
    let unsigned = opcode & 1 == 1;
    match (opcode >> 1, rmode) {
        (0b00, _) => Some(SimdInsn::FpToInt { ty, sf, unsigned, round: ROUND[rmode as usize], fbits: 0, rd, rn }),
        (0b01, 0) => Some(SimdInsn::IntToFp { ty, sf, unsigned, fbits: 0, rd, rn }),
        (0b10, 0) => Some(SimdInsn::FpToInt { ty, sf, unsigned, round: RoundMode::A, fbits: 0, rd, rn }),
        _ => None,
    }
}

/// SCVTF/UCVTF/FCVTZS/FCVTZU with a fixed-point scale (fbits = 64 - scale).
#[inline(always)]
fn fixed_point(w: u32) -> Option<SimdInsn> {
    let (ty, sf, scale) = (fp_type(w)?, bit(w, 31), field(w, 10, 6));
    if !sf && scale < 32 {
        return None;
    }
    let (fbits, rd, rn) = ((64 - scale) as u8, reg(w, 0), reg(w, 5));
    match (field(w, 19, 2), field(w, 16, 3)) {
        (0b00, op @ (0b010 | 0b011)) => Some(SimdInsn::IntToFp { ty, sf, unsigned: op == 0b011, fbits, rd, rn }),
        (0b11, op @ (0b000 | 0b001)) => {
            Some(SimdInsn::FpToInt { ty, sf, unsigned: op == 0b001, round: RoundMode::Z, fbits, rd, rn })
        }
        _ => None,
    }
}
