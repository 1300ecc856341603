//! Arithmetic shared by the integer families: flags, conditions, shifts, extends and the
//! bitmask immediates of the logical and bitfield instructions.

pub const N_FLAG: u32 = 1 << 31;
pub const Z_FLAG: u32 = 1 << 30;
pub const C_FLAG: u32 = 1 << 29;
pub const V_FLAG: u32 = 1 << 28;

/// `v` cut to the operation's width: 64 bits when `sf`, else 32 (zero-extended).
#[inline(always)]
pub fn width(v: u64, sf: bool) -> u64 {
    if sf {
        v
    } else {
        v as u32 as u64
    }
}

/// Sign-extends the low `bits` bits of `v`.
#[inline(always)]
pub fn sign_extend(v: u64, bits: u32) -> u64 {
    let s = 64 - bits;
    (((v << s) as i64) >> s) as u64
}

/// x + y + carry at the operation's width, with the NZCV the flag-setting forms produce.
#[inline(always)]
pub fn add_with_carry(x: u64, y: u64, carry: bool, sf: bool) -> (u64, u32) {
    if sf {
        let (partial, c1) = x.overflowing_add(y);
        let (r, c2) = partial.overflowing_add(carry as u64);
        let v = ((x ^ r) & (y ^ r)) >> 63 != 0;
        (r, flags(r >> 63 != 0, r == 0, c1 | c2, v))
    } else {
        let (x, y) = (x as u32, y as u32);
        let wide = x as u64 + y as u64 + carry as u64;
        let r = wide as u32;
        let v = ((x ^ r) & (y ^ r)) >> 31 != 0;
        (r as u64, flags(r >> 31 != 0, r == 0, wide >> 32 != 0, v))
    }
}

#[inline(always)]
pub fn flags(n: bool, z: bool, c: bool, v: bool) -> u32 {
    (n as u32) << 31 | (z as u32) << 30 | (c as u32) << 29 | (v as u32) << 28
}

/// NZCV of a logical result (ANDS, BICS, TST): N and Z from the value, C and V clear.
#[inline(always)]
pub fn logic_flags(r: u64, sf: bool) -> u32 {
    let top = if sf { r >> 63 } else { (r >> 31) & 1 };
    flags(top != 0, r == 0, false, false)
}

/// Whether condition `cond` (the 4-bit field of B.cond, CSEL, CCMP...) holds for `nzcv`.
#[inline(always)]
pub fn condition_holds(cond: u32, nzcv: u32) -> bool {
    let n = nzcv & N_FLAG != 0;
    let z = nzcv & Z_FLAG != 0;
    let c = nzcv & C_FLAG != 0;
    let v = nzcv & V_FLAG != 0;
    let base = match (cond >> 1) & 7 {
        0 => z,
        1 => c,
        2 => n,
        3 => v,
        4 => c && !z,
        5 => n == v,
        6 => n == v && !z,
        _ => true,
    };
    // Odd conditions negate, except 0b1111 which is "always" like 0b1110.
    if cond & 1 == 1 && cond != 0b1111 {
        !base
    } else {
        base
    }
}

/// The logical operations by their opc field: AND (0, and ANDS 3), ORR (1), EOR (2), at width.
#[inline(always)]
pub fn logical(opc: u32, x: u64, y: u64, sf: bool) -> u64 {
    width(
        match opc {
            0 | 3 => x & y,
            1 => x | y,
            _ => x ^ y,
        },
        sf,
    )
}

/// EXTR: the register-width field of `hi:lo` starting at bit `lsb`.
#[inline(always)]
pub fn extract(hi: u64, lo: u64, lsb: u32, sf: bool) -> u64 {
    if !sf {
        ((((hi as u32 as u64) << 32) | lo as u32 as u64) >> lsb) as u32 as u64
    } else if lsb == 0 {
        lo
    } else {
        (lo >> lsb) | (hi << (64 - lsb))
    }
}

/// Shifts `v` (already at width) by `amount` < width: 0 LSL, 1 LSR, 2 ASR, 3 ROR.
#[inline(always)]
pub fn shift(v: u64, kind: u32, amount: u32, sf: bool) -> u64 {
    if sf {
        match kind & 3 {
            0 => v << amount,
            1 => v >> amount,
            2 => ((v as i64) >> amount) as u64,
            _ => v.rotate_right(amount),
        }
    } else {
        let w = v as u32;
        (match kind & 3 {
            0 => w << amount,
            1 => w >> amount,
            2 => ((w as i32) >> amount) as u32,
            _ => w.rotate_right(amount),
        }) as u64
    }
}

/// The extended-register operand: UXTB, UXTH, UXTW, UXTX, SXTB, SXTH, SXTW, SXTX, then LSL.
#[inline(always)]
pub fn extend(v: u64, option: u32, lsl: u32) -> u64 {
    let e = match option & 7 {
        0 => v as u8 as u64,
        1 => v as u16 as u64,
        2 => v as u32 as u64,
        3 => v,
        4 => v as i8 as u64,
        5 => v as i16 as u64,
        6 => v as i32 as u64,
        _ => v,
    };
    e << lsl
}

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

/// The low `n` bits set (n ≤ 64).
#[inline(always)]
pub fn ones(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
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

    #[test]
    fn flags_of_subtraction() {
        // 0 - 1 at 32 bits: negative, borrow (C clear)
        let (r, f) = add_with_carry(0, !1, true, false);
        assert_eq!((r, f), (0xffff_ffff, N_FLAG));
        // INT_MIN - 1 overflows
        let (_, f) = add_with_carry(1 << 63, !1, true, true);
        assert_eq!(f, C_FLAG | V_FLAG);
    }

    #[test]
    fn conditions() {
        assert!(condition_holds(0b1110, 0) && condition_holds(0b1111, 0));
        assert!(condition_holds(0, Z_FLAG) && !condition_holds(1, Z_FLAG));
        assert!(condition_holds(0b1011, N_FLAG)); // LT
        assert!(!condition_holds(0b1100, Z_FLAG)); // GT
    }
}
