//! Advanced SIMD forms with an immediate operand: modified immediate (MOVI, MVNI, ORR, BIC, FMOV)
//! and shift by immediate (vector and scalar, including the fixed-point conversions).

use super::fields::{arrangement, bit, bits, byte_mask, elem, fp8_text, fp_arrangement, operand, uimm, v};
use crate::arm64::decode::{decode_simd_fp, SimdInsn, VectorImmOp};

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

/// Shift by immediate, vector and scalar, with the fixed-point conversions.
pub fn shift_immediate(w: u32, scalar: bool) -> Option<String> {
    let (q, u, immh, opcode) = (bit(w, 30), bit(w, 29), bits(w, 22, 19), bits(w, 15, 11));
    let (rn, rd) = (bits(w, 9, 5), bits(w, 4, 0));
    if immh == 0 {
        return None;
    }
    let size = 31 - immh.leading_zeros();
    let esize = 8u32 << size;
    let whole = bits(w, 22, 16);
    let right = 2 * esize - whole;
    let left = whole - esize;
    let arr = arrangement(size, q);
    let e = elem(size);
    let narrowing = (16..=19).contains(&opcode);
    let long = opcode == 20;
    if (narrowing || long) && size == 3 {
        return None;
    }
    if !narrowing && !long && size == 3 && q == 0 && !scalar {
        return None;
    }
    let name = match (u, opcode) {
        (0, 0) => "sshr",
        (1, 0) => "ushr",
        (0, 2) => "ssra",
        (1, 2) => "usra",
        (0, 4) => "srshr",
        (1, 4) => "urshr",
        (0, 6) => "srsra",
        (1, 6) => "ursra",
        (1, 8) => "sri",
        (0, 10) => "shl",
        (1, 10) => "sli",
        (1, 12) => "sqshlu",
        (0, 14) => "sqshl",
        (1, 14) => "uqshl",
        (0, 16) => "shrn",
        (1, 16) => "sqshrun",
        (0, 17) => "rshrn",
        (1, 17) => "sqrshrun",
        (0, 18) => "sqshrn",
        (1, 18) => "uqshrn",
        (0, 19) => "sqrshrn",
        (1, 19) => "uqrshrn",
        (0, 20) => "sshll",
        (1, 20) => "ushll",
        (0, 28) => "scvtf",
        (1, 28) => "ucvtf",
        (0, 31) => "fcvtzs",
        (1, 31) => "fcvtzu",
        _ => return None,
    };
    let is_left = matches!(opcode, 10 | 12 | 14 | 20);
    let amount = uimm(if is_left { left } else { right } as u64);
    if opcode >= 28 {
        let arr = match size {
            _ if scalar => "",
            1 => arrangement(1, q),
            2 | 3 => fp_arrangement(size - 2, q)?,
            _ => return None,
        };
        if size == 0 {
            return None;
        }
        let o = |n| operand(n, scalar, e, arr);
        return Some(format!("{name} {}, {}, {amount}", o(rd), o(rn)));
    }
    if scalar {
        if narrowing {
            if name == "shrn" || name == "rshrn" {
                return None;
            }
            return Some(format!("{name} {e}{rd}, {}{rn}, {amount}", elem(size + 1)));
        }
        if long || size != 3 && !matches!(opcode, 12 | 14) {
            return None;
        }
        return Some(format!("{name} {e}{rd}, {e}{rn}, {amount}"));
    }
    let name = if (narrowing || long) && q == 1 {
        format!("{name}2")
    } else {
        name.to_string()
    };
    Some(if narrowing {
        format!(
            "{name} {}, {}, {amount}",
            v(rd, arr),
            v(rn, arrangement(size + 1, 1))
        )
    } else if long {
        format!(
            "{name} {}, {}, {amount}",
            v(rd, arrangement(size + 1, 1)),
            v(rn, arr)
        )
    } else {
        format!("{name} {}, {}, {amount}", v(rd, arr), v(rn, arr))
    })
}
