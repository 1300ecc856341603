//! Advanced SIMD copy (bit 31 clear, bits 27..21 = 1110000, bit 15 clear, bit 10 set): DUP
//! (element, general; vector and scalar), INS (element, general), UMOV and SMOV. imm5's lowest
//! set bit gives the element size, the bits above it the index.

use super::simd_form::SimdInsn;

#[inline(always)]
pub(crate) fn decode(w: u32) -> Option<SimdInsn> {
    let (q, op, imm5, imm4) = (w >> 30 & 1 == 1, w >> 29 & 1 == 1, (w >> 16) & 31, (w >> 11) & 15);
    let (rd, rn) = ((w & 31) as u8, ((w >> 5) & 31) as u8);
    let size = imm5.trailing_zeros();
    if size > 3 {
        return None;
    }
    let index = (imm5 >> (size + 1)) as u8;
    let size8 = size as u8;
    if w >> 28 & 1 == 1 {
        // Scalar DUP (element), MOV Bd/Hd/Sd/Dd, Vn.T[i].
        return if op || imm4 != 0 {
            None
        } else {
            Some(SimdInsn::DupElement { scalar: true, q, size: size8, index, rd, rn })
        };
    }
    if op {
        // INS (element): imm4 holds the source index.
        return if q { Some(SimdInsn::InsElement { size: size8, index, from: (imm4 >> size) as u8, rd, rn }) } else { None };
    }
    match imm4 {
        0 | 1 if size == 3 && !q => None,
        0 => Some(SimdInsn::DupElement { scalar: false, q, size: size8, index, rd, rn }),
        1 => Some(SimdInsn::DupGeneral { q, size: size8, rd, rn }),
        3 if q => Some(SimdInsn::InsGeneral { size: size8, index, rd, rn }),
        // SMOV to W (bytes, halves) or X (also words); UMOV to W (up to words) or X (doublewords).
        5 if size < 2 || size == 2 && q => {
            Some(SimdInsn::MoveToGeneral { signed: true, sf: q, size: size8, index, rd, rn })
        }
        7 if (size == 3) == q => Some(SimdInsn::MoveToGeneral { signed: false, sf: q, size: size8, index, rd, rn }),
        _ => None,
    }
}
