//! The immediates that take more than a field: logical and bitfield masks, and move-wide.

use crate::arm64::exec::alu::ones;

/// MOVN, MOVZ and MOVK's (opc, shift, imm16 << shift); None for the unallocated opc 1 and for
/// a shift past 16 in 32-bit forms.
#[inline(always)]
pub fn move_wide(word: u32) -> Option<(u32, u32, u64)> {
    let (sf, opc, hw) = (word >> 31 == 1, (word >> 29) & 3, (word >> 21) & 3);
    if opc == 1 || (!sf && hw >= 2) {
        return None;
    }
    Some((opc, 16 * hw, (((word >> 5) & 0xFFFF) as u64) << (16 * hw)))
}

/// DecodeBitMasks of the Arm ARM: (wmask, tmask) for N:immr:imms at `datasize` bits, or None
/// for a reserved encoding. `immediate` rejects the all-ones element that logical immediates
/// cannot encode.
pub fn decode_bit_masks(n: u32, imms: u32, immr: u32, immediate: bool, datasize: u32) -> Option<(u64, u64)> {
    let combined = (n << 6) | (!imms & 0x3F);
    if combined < 2 {
        return None;
    }
    let len = 31 - combined.leading_zeros();
    let esize = 1u32 << len;
    if esize > datasize {
        return None;
    }
    let levels = esize - 1;
    if immediate && imms & levels == levels {
        return None;
    }
    let s = imms & levels;
    let r = immr & levels;
    let d = s.wrapping_sub(r) & levels;
    let emask = ones(esize);
    let welem = ones(s + 1);
    let rotated = if r == 0 { welem } else { ((welem >> r) | (welem << (esize - r))) & emask };
    Some((replicate(rotated, esize), replicate(ones(d + 1), esize)))
}

/// Repeats the low `esize` bits of `v` across 64 bits.
#[inline(always)]
fn replicate(mut v: u64, mut esize: u32) -> u64 {
    while esize < 64 {
        v |= v << esize;
        esize *= 2;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitmask_immediates_match_known_encodings() {
        // and x0, x0, #0xff: N=1 immr=0 imms=7
        assert_eq!(decode_bit_masks(1, 7, 0, true, 64).unwrap().0, 0xff);
        // orr w0, wzr, #0x55555555: N=0 immr=0 imms=0b111100
        assert_eq!(decode_bit_masks(0, 0b111100, 0, true, 32).unwrap().0 as u32, 0x5555_5555);
        // #0x8000000000000000: N=1 immr=1 imms=0
        assert_eq!(decode_bit_masks(1, 0, 1, true, 64).unwrap().0, 1 << 63);
        // all ones is not a logical immediate, and 64-bit elements need 64-bit data
        assert!(decode_bit_masks(1, 63, 0, true, 64).is_none());
        assert!(decode_bit_masks(1, 0, 0, true, 32).is_none());
    }
}
