//! Scalar floating point, printed from the decoded form: conversions to and from integers and
//! fixed point, one-, two- and three-source arithmetic, compares, conditional compare and
//! select, and FMOV immediates.

use super::fields::{fp8_text, r, uimm, COND};
use crate::arm64::decode::{decode_simd_fp, FmovReg, FpUnaryOp, SimdInsn};

pub fn decode(w: u32) -> Option<String> {
    Some(match decode_simd_fp(w)? {
        SimdInsn::FpUnary { ty, op, rd, rn } => {
            let name = match op {
                FpUnaryOp::Mov => "fmov".to_string(),
                FpUnaryOp::Abs => "fabs".to_string(),
                FpUnaryOp::Neg => "fneg".to_string(),
                FpUnaryOp::Sqrt => "fsqrt".to_string(),
                FpUnaryOp::Round(mode) => format!("frint{}", mode.letter()),
                FpUnaryOp::RoundCurrent { exact } => (if exact { "frintx" } else { "frinti" }).to_string(),
                FpUnaryOp::RoundToInt { op } => {
                    ["frint32z", "frint32x", "frint64z", "frint64x"][op as usize].to_string()
                }
            };
            let t = ty.letter();
            format!("{name} {t}{rd}, {t}{rn}")
        }
        SimdInsn::FpConvert { from, to, rd, rn } => format!("fcvt {}{rd}, {}{rn}", to.letter(), from.letter()),
        SimdInsn::Bfcvt { rd, rn } => format!("bfcvt h{rd}, s{rn}"),
        SimdInsn::FpBinary { ty, op, rd, rn, rm } => {
            let t = ty.letter();
            format!("{} {t}{rd}, {t}{rn}, {t}{rm}", op.name())
        }
        SimdInsn::FpMulAdd { ty, negate, sub, rd, rn, rm, ra } => {
            let name = ["fmadd", "fmsub", "fnmadd", "fnmsub"][(negate as usize) << 1 | sub as usize];
            let t = ty.letter();
            format!("{name} {t}{rd}, {t}{rn}, {t}{rm}, {t}{ra}")
        }
        SimdInsn::FpCompare { ty, signaling, zero, rn, rm } => {
            let name = if signaling { "fcmpe" } else { "fcmp" };
            let t = ty.letter();
            if zero {
                format!("{name} {t}{rn}, #0.0")
            } else {
                format!("{name} {t}{rn}, {t}{rm}")
            }
        }
        SimdInsn::FpCondCompare { ty, signaling, cond, nzcv, rn, rm } => {
            let name = if signaling { "fccmpe" } else { "fccmp" };
            let t = ty.letter();
            format!("{name} {t}{rn}, {t}{rm}, {}, {}", uimm(nzcv as u64), COND[cond as usize])
        }
        SimdInsn::FpSelect { ty, cond, rd, rn, rm } => {
            let t = ty.letter();
            format!("fcsel {t}{rd}, {t}{rn}, {t}{rm}, {}", COND[cond as usize])
        }
        SimdInsn::FpMovImm { ty, imm8, rd } => format!("fmov {}{rd}, {}", ty.letter(), fp8_text(imm8 as u32)),
        SimdInsn::FpToInt { ty, sf, unsigned, round, fbits, rd, rn } => {
            let name = format!("fcvt{}{}", round.letter(), if unsigned { "u" } else { "s" });
            let fixed = if fbits == 0 { String::new() } else { format!(", {}", uimm(fbits as u64)) };
            format!("{name} {}, {}{rn}{fixed}", r(rd as u32, sf), ty.letter())
        }
        SimdInsn::IntToFp { ty, sf, unsigned, fbits, rd, rn } => {
            let name = if unsigned { "ucvtf" } else { "scvtf" };
            let fixed = if fbits == 0 { String::new() } else { format!(", {}", uimm(fbits as u64)) };
            format!("{name} {}{rd}, {}{fixed}", ty.letter(), r(rn as u32, sf))
        }
        SimdInsn::FmovGeneral { sf, fp, to_fp, rd, rn } => {
            let fp_reg = |n: u8| match fp {
                FmovReg::H => format!("h{n}"),
                FmovReg::S => format!("s{n}"),
                FmovReg::D => format!("d{n}"),
                FmovReg::Upper => format!("v{n}.d[1]"),
            };
            if to_fp {
                format!("fmov {}, {}", fp_reg(rd), r(rn as u32, sf))
            } else {
                format!("fmov {}, {}", r(rd as u32, sf), fp_reg(rn))
            }
        }
        SimdInsn::Fjcvtzs { rd, rn } => format!("fjcvtzs {}, d{rn}", r(rd as u32, false)),
        // Advanced SIMD forms: not a scalar FP word.
        _ => return None,
    })
}
