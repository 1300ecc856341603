//! Arithmetic shared by the integer families: flags, conditions, shifts and extends. (The
//! bitmask and move-wide immediates are decoding: `arm64::decode`.)

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

/// The low `n` bits set (n ≤ 64).
#[inline(always)]
pub fn ones(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
