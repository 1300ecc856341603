//! SVE moves and immediates: DUP/CPY/FCPY/FDUP of an immediate, bitmask immediates (DUPM and
//! the logical forms), DUP of an element, CPY from a register, MOVPRFX, and the predicate
//! logical operations with their MOV/MOVS/NOT aliases.

use super::fields::{bit, bitmask, bits, fp8_text, imm, rsp, uimm};
use super::sve::{decode_forms, esize, Form, z};

pub(super) const FORMS: &[Form] = &[
    (0xff30_8000, 0x0510_0000, copy_immediate),
    (0xff30_e000, 0x0510_c000, copy_fp_immediate),
    (0xff3f_c000, 0x2538_c000, dup_immediate),
    (0xff3f_e000, 0x2539_c000, dup_fp_immediate),
    (0xff3c_0000, 0x0500_0000, bitmask_immediate),
    (0xff20_fc00, 0x0520_2000, dup_element),
    (0xff3f_e000, 0x0528_a000, copy_scalar),
    (0xff3f_e000, 0x0520_8000, copy_simd_scalar),
    (0xffff_fc00, 0x0420_bc00, prefix_unpredicated),
    (0xff3e_e000, 0x0410_2000, prefix_predicated),
    (0xff30_c000, 0x2500_4000, predicate_logical),
];

pub fn decode(w: u32) -> Option<String> {
    decode_forms(FORMS, w)
}

/// The 8-bit immediate of DUP/CPY with its optional LSL #8: capstone shows the shifted value
/// unsigned, except a zero with a shift, which keeps the shifter.
fn shifted_byte(w: u32, size: u32) -> Option<String> {
    let (shift, imm8) = (bit(w, 13), bits(w, 12, 5));
    if shift == 1 && size == 0 {
        return None;
    }
    Some(if shift == 1 && imm8 == 0 {
        "#0, lsl #8".into()
    } else {
        uimm((imm8 as u64) << (8 * shift))
    })
}

fn copy_immediate(w: u32) -> Option<String> {
    let s = bits(w, 23, 22);
    let value = shifted_byte(w, s)?;
    let mode = if bit(w, 14) == 1 { "m" } else { "z" };
    Some(format!(
        "mov {}, p{}/{mode}, {value}",
        z(bits(w, 4, 0), s),
        bits(w, 19, 16)
    ))
}

fn copy_fp_immediate(w: u32) -> Option<String> {
    let s = bits(w, 23, 22);
    if s == 0 {
        return None;
    }
    Some(format!(
        "fmov {}, p{}/m, {}",
        z(bits(w, 4, 0), s),
        bits(w, 19, 16),
        fp8_text(bits(w, 12, 5))
    ))
}

fn dup_immediate(w: u32) -> Option<String> {
    let s = bits(w, 23, 22);
    Some(format!("mov {}, {}", z(bits(w, 4, 0), s), shifted_byte(w, s)?))
}

fn dup_fp_immediate(w: u32) -> Option<String> {
    let s = bits(w, 23, 22);
    if s == 0 || bit(w, 13) != 0 {
        return None;
    }
    Some(format!(
        "fmov {}, {}",
        z(bits(w, 4, 0), s),
        fp8_text(bits(w, 12, 5))
    ))
}

/// Whether `value` (the element sign-extended from `width` bits) is a DUP/CPY immediate:
/// a signed byte, or a signed halfword that is a multiple of 256.
fn copyable(value: i64, width: u32) -> bool {
    let high = if width == 64 { 0 } else { !0i64 << width };
    if value & high != 0 && value & high != high {
        return false;
    }
    let narrow = |x: i64| {
        if width == 64 {
            x
        } else {
            (x << (64 - width)) >> (64 - width)
        }
    };
    if value & 0xff != 0 {
        return value as i8 as i64 == narrow(value);
    }
    if value & 0xff00 != 0 {
        return value as i16 as i64 == narrow(value);
    }
    value == 0
}

/// Whether every `width`-bit element of `value` is the same.
fn identical(value: u64, width: u32) -> bool {
    let mask = (1u64 << width) - 1;
    (0..64)
        .step_by(width as usize)
        .all(|s| (value >> s) & mask == value & mask)
}

/// LLVM's rule for showing DUPM as MOV: only when no DUP of an immediate builds the value.
fn mov_preferred(value: u64) -> bool {
    if copyable(value as i64, 64) {
        return false;
    }
    ![
        (32, value as i32 as i64),
        (16, value as i16 as i64),
        (8, value as i8 as i64),
    ]
    .iter()
    .any(|&(width, element)| identical(value, width) && copyable(element, width))
}

fn bitmask_immediate(w: u32) -> Option<String> {
    let (n, immr, imms) = (bit(w, 17), bits(w, 16, 11), bits(w, 10, 5));
    let value = bitmask(n, immr, imms, 64)?;
    // The element size is the repeat period of the pattern (at least a byte).
    let period = [8, 16, 32]
        .into_iter()
        .find(|&p| identical(value, p))
        .unwrap_or(64);
    let size = period.trailing_zeros() - 3;
    let rd = bits(w, 4, 0);
    let low32 = uimm(value & 0xffff_ffff);
    let plain = if size == 3 { uimm(value) } else { low32.clone() };
    match bits(w, 23, 22) {
        3 if mov_preferred(value) => {
            let size = if identical(value, 16) {
                1
            } else if identical(value, 32) {
                2
            } else {
                3
            };
            let element = if size == 1 {
                value & 0xffff
            } else {
                value & 0xffff_ffff
            };
            // capstone's printing: 16-bit elements (and 32-bit ones that fit 16 bits) as a
            // sign-extended halfword, wider ones as the whole 64-bit pattern.
            let text = if size == 3 {
                uimm(value)
            } else if element < 0x1_0000 {
                uimm(element as i16 as i32 as u32 as u64)
            } else {
                uimm(value)
            };
            Some(format!("mov {}, {text}", z(rd, size)))
        }
        3 => {
            let text = if size == 3 && value as i16 as i64 == value as i64 {
                imm(value as i64)
            } else {
                plain
            };
            Some(format!("dupm {}, {text}", z(rd, size)))
        }
        opc => {
            let name = ["orr", "eor", "and"][opc as usize];
            Some(format!("{name} {}, {}, {plain}", z(rd, size), z(rd, size)))
        }
    }
}

fn dup_element(w: u32) -> Option<String> {
    let tsz = bits(w, 20, 16);
    if tsz == 0 {
        return None;
    }
    let size = tsz.trailing_zeros();
    let index = (bits(w, 23, 22) << 5 | tsz) >> (size + 1);
    let kind = ["b", "h", "s", "d", "q"][size as usize];
    let (zn, zd) = (bits(w, 9, 5), bits(w, 4, 0));
    if index == 0 {
        return Some(format!("mov z{zd}.{kind}, {kind}{zn}"));
    }
    let i = uimm(index as u64);
    Some(format!("mov z{zd}.{kind}, z{zn}.{kind}[{}]", &i[1..]))
}

fn copy_scalar(w: u32) -> Option<String> {
    let s = bits(w, 23, 22);
    Some(format!(
        "mov {}, p{}/m, {}",
        z(bits(w, 4, 0), s),
        bits(w, 12, 10),
        rsp(bits(w, 9, 5), s == 3)
    ))
}

fn copy_simd_scalar(w: u32) -> Option<String> {
    let s = bits(w, 23, 22);
    Some(format!(
        "mov {}, p{}/m, {}{}",
        z(bits(w, 4, 0), s),
        bits(w, 12, 10),
        esize(s),
        bits(w, 9, 5)
    ))
}

fn prefix_unpredicated(w: u32) -> Option<String> {
    Some(format!("movprfx z{}, z{}", bits(w, 4, 0), bits(w, 9, 5)))
}

fn prefix_predicated(w: u32) -> Option<String> {
    let s = bits(w, 23, 22);
    let mode = if bit(w, 16) == 1 { "m" } else { "z" };
    Some(format!(
        "movprfx {}, p{}/{mode}, {}",
        z(bits(w, 4, 0), s),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

fn predicate_logical(w: u32) -> Option<String> {
    let (pm, pg, pn, pd) = (bits(w, 19, 16), bits(w, 13, 10), bits(w, 8, 5), bits(w, 3, 0));
    let setflags = bit(w, 22) == 1;
    let op = bit(w, 23) << 2 | bit(w, 9) << 1 | bit(w, 4);
    let s = if setflags { "s" } else { "" };
    let p = |n: u32| format!("p{n}.b");
    match op {
        3 if setflags => None,
        3 if pd == pm => Some(format!("mov {}, p{pg}/m, {}", p(pd), p(pn))),
        3 => Some(format!("sel {}, p{pg}, {}, {}", p(pd), p(pn), p(pm))),
        0 if pn == pm => Some(format!("mov{s} {}, p{pg}/z, {}", p(pd), p(pn))),
        4 if pn == pm && pm == pg => Some(format!("mov{s} {}, {}", p(pd), p(pn))),
        2 if pm == pg => Some(format!("not{s} {}, p{pg}/z, {}", p(pd), p(pn))),
        _ => {
            let name = ["and", "bic", "eor", "", "orr", "orn", "nor", "nand"][op as usize];
            Some(format!("{name}{s} {}, p{pg}/z, {}, {}", p(pd), p(pn), p(pm)))
        }
    }
}
