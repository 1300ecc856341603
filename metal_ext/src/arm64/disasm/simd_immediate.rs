//! Advanced SIMD forms with an immediate operand: modified immediate (MOVI, MVNI, ORR, BIC, FMOV)
//! and shift by immediate (vector and scalar, including the fixed-point conversions).

use super::fields::{arrangement, byte_mask, elem, fp8_text, fp_arrangement, operand, uimm, v};
use crate::arm64::decode::{decode_simd_fp, ShiftImmOp, SimdInsn, VectorImmOp};

/// AdvSIMD modified immediate: MOVI, MVNI, ORR, BIC and FMOV (vector, immediate), printed from
/// the decoded form.
pub fn modified_immediate(w: u32) -> Option<String> {
    let SimdInsn::VectorImm { q, op, esize, shift, msl, imm8, rd } = decode_simd_fp(w)? else {
        return None;
    };
    let (rd, q) = (rd as u32, q as u32);
    let arr = arrangement((esize / 8).trailing_zeros(), q);
    let name = match op {
        VectorImmOp::Fmov => return Some(format!("fmov {}, {}", v(rd, arr), fp8_text(imm8 as u32))),
        _ if esize == 64 => {
            let mask = byte_mask(imm8 as u32);
            // capstone formats this mask with C's "%#016llx": zero-padded to 16 characters
            // including the "0x", which C leaves out for zero.
            let text = if mask == 0 {
                "0".repeat(16)
            } else {
                format!("{mask:#016x}")
            };
            return Some(if q == 0 {
                format!("movi d{rd}, #{text}")
            } else {
                format!("movi {}, #{text}", v(rd, "2d"))
            });
        }
        VectorImmOp::Movi => "movi",
        VectorImmOp::Mvni => "mvni",
        VectorImmOp::Orr => "orr",
        VectorImmOp::Bic => "bic",
    };
    let kind = if msl { "msl" } else { "lsl" };
    Some(shifted(name, &v(rd, arr), &uimm(imm8 as u64), kind, shift as u32))
}

/// "name reg, #imm" with ", lsl #n" only when the shift is nonzero.
fn shifted(name: &str, reg: &str, value: &str, kind: &str, shift: u32) -> String {
    if shift == 0 {
        format!("{name} {reg}, {value}")
    } else {
        format!("{name} {reg}, {value}, {kind} #{shift}")
    }
}

/// Shift by immediate, vector and scalar, with the fixed-point conversions, printed from the
/// decoded form.
pub fn shift_immediate(w: u32) -> Option<String> {
    let SimdInsn::ShiftImm { op, unsigned, scalar, q, size, shift, rd, rn } = decode_simd_fp(w)? else {
        return None;
    };
    let (q, size, rd, rn) = (q as u32, size as u32, rd as u32, rn as u32);
    let sign = if unsigned { "u" } else { "s" };
    let name = match op {
        ShiftImmOp::ShiftRight { round, accumulate } => {
            format!("{sign}{}{}", if round { "r" } else { "" }, if accumulate { "sra" } else { "shr" })
        }
        ShiftImmOp::ShiftRightInsert => "sri".into(),
        ShiftImmOp::ShiftLeft => "shl".into(),
        ShiftImmOp::ShiftLeftInsert => "sli".into(),
        ShiftImmOp::SatShiftLeftUnsigned => "sqshlu".into(),
        ShiftImmOp::SatShiftLeft => format!("{sign}qshl"),
        ShiftImmOp::ShiftRightNarrow { round } => format!("{}shrn", if round { "r" } else { "" }),
        ShiftImmOp::SatShiftRightNarrowUnsigned { round } => format!("sq{}shrun", if round { "r" } else { "" }),
        ShiftImmOp::SatShiftRightNarrow { round } => format!("{sign}q{}shrn", if round { "r" } else { "" }),
        ShiftImmOp::ShiftLeftLong => format!("{sign}shll"),
        ShiftImmOp::FixedToFp => format!("{sign}cvtf"),
        ShiftImmOp::FpToFixed => format!("fcvtz{sign}"),
    };
    let amount = uimm(shift as u64);
    let (arr, e) = (arrangement(size, q), elem(size));
    let narrowing = matches!(
        op,
        ShiftImmOp::ShiftRightNarrow { .. } | ShiftImmOp::SatShiftRightNarrowUnsigned { .. } | ShiftImmOp::SatShiftRightNarrow { .. }
    );
    let long = op == ShiftImmOp::ShiftLeftLong;
    if matches!(op, ShiftImmOp::FixedToFp | ShiftImmOp::FpToFixed) {
        let arr = match size {
            _ if scalar => "",
            1 => arrangement(1, q),
            _ => fp_arrangement(size - 2, q)?,
        };
        let o = |n| operand(n, scalar, e, arr);
        return Some(format!("{name} {}, {}, {amount}", o(rd), o(rn)));
    }
    if scalar {
        let source = if narrowing { elem(size + 1) } else { e };
        return Some(format!("{name} {e}{rd}, {source}{rn}, {amount}"));
    }
    let name = if (narrowing || long) && q == 1 { format!("{name}2") } else { name };
    Some(if narrowing {
        format!("{name} {}, {}, {amount}", v(rd, arr), v(rn, arrangement(size + 1, 1)))
    } else if long {
        format!("{name} {}, {}, {amount}", v(rd, arrangement(size + 1, 1)), v(rn, arr))
    } else {
        format!("{name} {}, {}, {amount}", v(rd, arr), v(rn, arr))
    })
}
