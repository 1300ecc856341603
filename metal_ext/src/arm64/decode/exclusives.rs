//! Exclusives (LDXR/STXR and their acquire/release and pair forms), LDAR/STLR, and the
//! compare-and-swap atomics that share their encoding space (op0 = x1x0, bits 29..28 = 00,
//! bit 24 clear, general-purpose). The LORegion forms LDLAR/STLLR (FEAT_LOR) are left out.

use super::fields::{sp, zr};
use super::form::Insn;

pub(super) fn decode(word: u32) -> Option<Insn> {
    let size = 1u8 << (word >> 30);
    let load = word & (1 << 22) != 0;
    let o0 = word & (1 << 15) != 0;
    let (rs, rt, rt2, base) = (zr(word >> 16), zr(word), zr(word >> 10), sp(word >> 5));
    let rt2_ones = (word >> 10) & 31 == 31;
    match ((word >> 23) & 1, (word >> 21) & 1) {
        (0, pair) if pair == 0 || size >= 4 => {
            let pair = pair == 1;
            Some(if load {
                Insn::LoadExclusive { size, pair, acquire: o0, rt, rt2, rs, base }
            } else {
                Insn::StoreExclusive { size, pair, release: o0, rs, rt, rt2, base }
            })
        }
        (0, _) if rt2_ones => {
            // CASP: registers in even-numbered pairs, 4 or 8 bytes each (by bit 30).
            if (word >> 16) & 1 != 0 || word & 1 != 0 {
                return None;
            }
            let size = if word & (1 << 30) != 0 { 8 } else { 4 };
            Some(Insn::CompareSwapPair { size, acquire: load, release: o0, rs, rt, base })
        }
        (1, 1) if rt2_ones => Some(Insn::CompareSwap { size, acquire: load, release: o0, rs, rt, base }),
        (1, 0) if o0 => Some(if load {
            Insn::LoadAcquire { size, rt, rs, rt2, base }
        } else {
            Insn::StoreRelease { size, rt, rs, rt2, base }
        }),
        _ => None,
    }
}
