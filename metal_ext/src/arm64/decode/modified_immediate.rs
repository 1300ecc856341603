//! Advanced SIMD modified immediate (bits 28..19 = 0111100000, bit 10 set): MOVI, MVNI, ORR, BIC
//! and FMOV (vector, immediate), with the immediate's shape worked out from op:cmode.

use super::simd_form::{SimdInsn, VectorImmOp};

#[inline(always)]
pub(crate) fn decode(w: u32) -> Option<SimdInsn> {
    let (q, op, cmode, o2) = (w >> 30 & 1 == 1, w >> 29 & 1 == 1, (w >> 12) & 15, w >> 11 & 1 == 1);
    let imm8 = ((w >> 16 & 7) << 5 | (w >> 5) & 31) as u8;
    let rd = (w & 31) as u8;
    let form = |op, esize, shift, msl| Some(SimdInsn::VectorImm { q, op, esize, shift, msl, imm8, rd });
    if o2 {
        // Half-precision FMOV (vector, immediate).
        return if cmode == 15 && !op { form(VectorImmOp::Fmov, 16, 0, false) } else { None };
    }
    match cmode {
        // 32-bit lanes shifted by 0, 8, 16 or 24; 16-bit lanes by 0 or 8.
        0..=11 => {
            let (esize, shift) = if cmode < 8 { (32, (cmode >> 1) * 8) } else { (16, (cmode >> 1 & 1) * 8) };
            let kind = match (cmode & 1, op) {
                (0, false) => VectorImmOp::Movi,
                (0, true) => VectorImmOp::Mvni,
                (_, false) => VectorImmOp::Orr,
                _ => VectorImmOp::Bic,
            };
            form(kind, esize, shift as u8, false)
        }
        // 32-bit lanes shifted by 8 or 16 with ones shifted in (MSL).
        12 | 13 => {
            let kind = if op { VectorImmOp::Mvni } else { VectorImmOp::Movi };
            form(kind, 32, ((cmode & 1) + 1) as u8 * 8, true)
        }
        14 if !op => form(VectorImmOp::Movi, 8, 0, false),
        // Each bit of imm8 a byte of ones or zeros.
        14 => form(VectorImmOp::Movi, 64, 0, false),
        _ => match (op, q) {
            (false, _) => form(VectorImmOp::Fmov, 32, 0, false),
            (true, true) => form(VectorImmOp::Fmov, 64, 0, false),
            _ => None,
        },
    }
}
