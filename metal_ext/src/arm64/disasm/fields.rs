//! Bit fields, register names, vector arrangements and the immediate encodings shared by every
//! group (the one module the decoders import from; none imports from another decoder).

use crate::arm64::decode::{Reg, ZR};

/// Bits `hi..=lo` of `w`.
pub fn bits(w: u32, hi: u32, lo: u32) -> u32 {
    (w >> lo) & (((1u64 << (hi - lo + 1)) - 1) as u32)
}

/// Bit `i` of `w`.
pub fn bit(w: u32, i: u32) -> u32 {
    (w >> i) & 1
}

/// Sign-extends the low `width` bits of `v`.
pub fn sext(v: u64, width: u32) -> i64 {
    let s = 64 - width;
    ((v << s) as i64) >> s
}

/// General register `n` where 31 is the zero register.
pub fn r(n: u32, x: bool) -> String {
    match (n, x) {
        (31, true) => "xzr".into(),
        (31, false) => "wzr".into(),
        (_, true) => format!("x{n}"),
        (_, false) => format!("w{n}"),
    }
}

/// A register of the decoded form: XZR/WZR for `ZR`, SP/WSP for 31.
pub fn reg(n: Reg, x: bool) -> String {
    if n == ZR {
        r(31, x)
    } else {
        rsp(n as u32, x)
    }
}

/// General register `n` where 31 is the stack pointer.
pub fn rsp(n: u32, x: bool) -> String {
    match (n, x) {
        (31, true) => "sp".into(),
        (31, false) => "wsp".into(),
        _ => r(n, x),
    }
}

/// Capstone's immediate style: decimal up to 9, hex above, sign in front.
pub fn imm(v: i64) -> String {
    if v >= 0 {
        uimm(v as u64)
    } else if v < -9 {
        format!("#-0x{:x}", v.unsigned_abs())
    } else {
        format!("#-{}", v.unsigned_abs())
    }
}

/// Unsigned immediate in capstone's style.
pub fn uimm(v: u64) -> String {
    if v > 9 {
        format!("#0x{v:x}")
    } else {
        format!("#{v}")
    }
}

/// A vector lane index, e.g. "[0xd]": capstone prints lane numbers like immediates.
pub fn lane(i: u32) -> String {
    let text = uimm(i as u64);
    format!("[{}]", &text[1..])
}

/// The `.inst` form of a word in a group the core does not execute, with the group's name.
pub fn not_executed(w: u32, group: &str) -> Option<String> {
    Some(format!(".inst 0x{w:08x} // {group}: not executed here"))
}

/// Arrangement specifier for element size `size` (0..=3) and register width `q`: "8b" .. "2d".
pub fn arrangement(size: u32, q: u32) -> &'static str {
    ["8b", "16b", "4h", "8h", "2s", "4s", "1d", "2d"][(size << 1 | q) as usize]
}

/// FP arrangement for single/double (`sz`) and width `q`; 1d is not a valid FP vector.
pub fn fp_arrangement(sz: u32, q: u32) -> Option<&'static str> {
    match (sz, q) {
        (0, 0) => Some("2s"),
        (0, 1) => Some("4s"),
        (1, 1) => Some("2d"),
        _ => None,
    }
}

/// Element letter of a size field: "b", "h", "s", "d".
pub fn elem(size: u32) -> &'static str {
    ["b", "h", "s", "d"][size as usize]
}

/// SIMD&FP register `n` viewed as `kind` ("b", "h", "s", "d", "q").
pub fn fp_reg(kind: &str, n: u32) -> String {
    format!("{kind}{n}")
}

/// Vector register `n` with arrangement `arr`, e.g. "v3.4s".
pub fn v(n: u32, arr: &str) -> String {
    format!("v{n}.{arr}")
}

/// An operand of a vector (`arr` set) or scalar (element letter `e`) form.
pub fn operand(n: u32, scalar: bool, e: &str, arr: &str) -> String {
    if scalar {
        format!("{e}{n}")
    } else {
        v(n, arr)
    }
}

/// Condition code names, indexed by the 4-bit field.
pub const COND: [&str; 16] = [
    "eq", "ne", "hs", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le", "al", "nv",
];

/// Shift names of shifted-register forms, indexed by the 2-bit field.
pub const SHIFT: [&str; 4] = ["lsl", "lsr", "asr", "ror"];

/// Extend names of extended-register forms, indexed by the 3-bit option.
pub const EXTEND: [&str; 8] = ["uxtb", "uxth", "uxtw", "uxtx", "sxtb", "sxth", "sxtw", "sxtx"];

/// The 8-bit floating-point immediate (`VFPExpandImm`) as a double.
pub fn fp8(imm8: u32) -> f64 {
    let sign = if imm8 & 0x80 != 0 { -1.0 } else { 1.0 };
    let exp = ((imm8 >> 4) & 7) as i32;
    let exp = if exp & 4 != 0 { exp - 8 } else { exp } + 1;
    let frac = 16 + (imm8 & 15) as i32;
    sign * frac as f64 / 16.0 * 2f64.powi(exp)
}

/// Capstone's text for an 8-bit floating-point immediate, e.g. "#1.00000000".
pub fn fp8_text(imm8: u32) -> String {
    format!("#{:.8}", fp8(imm8))
}

/// Expands the AdvSIMD "modified immediate" byte mask (each bit of `imm8` to a byte).
pub fn byte_mask(imm8: u32) -> u64 {
    (0..8).fold(0u64, |v, i| {
        if imm8 >> i & 1 != 0 {
            v | 0xff << (8 * i)
        } else {
            v
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp_immediates() {
        assert_eq!(fp8_text(0x70), "#1.00000000");
        assert_eq!(fp8_text(0x60), "#0.50000000");
        assert_eq!(fp8_text(0xf0), "#-1.00000000");
        assert_eq!(fp8(0x00), 2.0);
    }

    #[test]
    fn immediate_style() {
        assert_eq!(imm(9), "#9");
        assert_eq!(imm(10), "#0xa");
        assert_eq!(imm(-9), "#-9");
        assert_eq!(imm(-16), "#-0x10");
    }
}
