//! Advanced SIMD permutes, extract and table lookup (bits 31, 28..24 = 0, 01110, bit 21, 15
//! and 10 clear): UZP1/2, TRN1/2, ZIP1/2, EXT, TBL, TBX.

use super::simd_form::{PermuteOp, SimdInsn};

#[inline(always)]
pub(super) fn decode(w: u32) -> Option<SimdInsn> {
    let (q, size) = (w >> 30 & 1 == 1, ((w >> 22) & 3) as u8);
    let (rd, rn, rm) = ((w & 31) as u8, ((w >> 5) & 31) as u8, ((w >> 16) & 31) as u8);
    match (w >> 29 & 1, (w >> 10) & 3) {
        (0, 2) => {
            let opcode = (w >> 12) & 7;
            let op = match opcode & 3 {
                1 => PermuteOp::Uzp,
                2 => PermuteOp::Trn,
                3 => PermuteOp::Zip,
                _ => return None,
            };
            if size == 3 && !q {
                return None;
            }
            Some(SimdInsn::Permute { op, second: opcode >> 2 == 1, q, size, rd, rn, rm })
        }
        (0, 0) if size == 0 => {
            let (tbx, len) = (w >> 12 & 1 == 1, ((w >> 13) & 3) as u8 + 1);
            Some(SimdInsn::Table { q, tbx, len, rd, rn, rm })
        }
        (1, 0 | 2) if size == 0 => {
            let index = ((w >> 11) & 15) as u8;
            if !q && index >= 8 {
                return None;
            }
            Some(SimdInsn::Extract { q, index, rd, rn, rm })
        }
        _ => None,
    }
}
