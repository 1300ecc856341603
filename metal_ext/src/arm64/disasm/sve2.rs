//! SVE2 integer forms: widening and narrowing arithmetic, long multiply-accumulate (by vector
//! and by element), complex integer arithmetic, bit permutes, shift-and-accumulate and matching.

use super::fields::{bit, bits, uimm};
use super::sve::{decode_forms, predicated_compare, Form, size, z, z3};

/// (mask, value, printer) rows; the first row whose fixed bits match prints the word.
pub(super) const FORMS: &[Form] = &[
    (0xff20_c000, 0x4500_0000, long_arithmetic),
    (0xff20_e000, 0x4500_4000, wide_arithmetic),
    (0xff20_e000, 0x4500_6000, long_multiply),
    (0xff20_e000, 0x4520_6000, narrow_high),
    (0xff20_f000, 0x4500_c000, absolute_difference_accumulate_long),
    (0xff20_f800, 0x4500_f800, absolute_difference_accumulate),
    (0xff20_f000, 0x4500_b000, bit_permute),
    (0xff20_f800, 0x4500_9000, interleaving_xor),
    (0xff20_e000, 0x4500_8000, interleaving_long),
    (0xff20_e010, 0x4520_8000, character_match),
    (0xff20_e010, 0x4520_8010, character_match),
    (0xff20_e000, 0x4520_c000, histogram_count),
    (0xff20_f000, 0x4500_e000, shift_accumulate),
    (0xff20_f800, 0x4500_f000, shift_insert),
    (0xff20_e000, 0x4400_4000, multiply_add_long),
    (0xff20_f000, 0x4400_6000, saturating_multiply_add_long),
    (0xff20_f800, 0x4400_0800, saturating_multiply_add_interleaved),
    (0xff20_f800, 0x4400_c000, clamp),
    (0xff20_f000, 0x4400_2000, complex_multiply_add),
    (0xff20_f000, 0x4400_3000, complex_multiply_add),
    (0xff20_f000, 0x4400_1000, complex_dot),
    (0xff20_f800, 0x4400_7000, rounding_multiply_add),
    (0xff20_f800, 0x4400_0000, dot_product),
];

pub fn decode(w: u32) -> Option<String> {
    decode_forms(FORMS, w)
}

/// "name zd.T, zn.Tn, zm.Tm" with the three element sizes given.
fn three(w: u32, name: &str, d: u32, n: u32, m: u32) -> Option<String> {
    Some(z3(name, w, d, n, m))
}

fn long_arithmetic(w: u32) -> Option<String> {
    const NAMES: [&str; 16] = [
        "saddlb", "saddlt", "uaddlb", "uaddlt", "ssublb", "ssublt", "usublb", "usublt", "", "", "", "",
        "sabdlb", "sabdlt", "uabdlb", "uabdlt",
    ];
    let name = NAMES[bits(w, 13, 10) as usize];
    let s = size(w);
    if name.is_empty() || s == 0 {
        return None;
    }
    three(w, name, s, s - 1, s - 1)
}

fn wide_arithmetic(w: u32) -> Option<String> {
    let name = [
        "saddwb", "saddwt", "uaddwb", "uaddwt", "ssubwb", "ssubwt", "usubwb", "usubwt",
    ][bits(w, 12, 10) as usize];
    let s = size(w);
    if s == 0 {
        return None;
    }
    three(w, name, s, s, s - 1)
}

fn long_multiply(w: u32) -> Option<String> {
    let name = [
        "sqdmullb", "sqdmullt", "pmullb", "pmullt", "smullb", "smullt", "umullb", "umullt",
    ][bits(w, 12, 10) as usize];
    let s = size(w);
    if name.starts_with("pmull") {
        // 64-bit polynomial products widen to a 128-bit ".q" element.
        return match s {
            0 => Some(format!(
                "{name} z{}.q, {}, {}",
                bits(w, 4, 0),
                z(bits(w, 9, 5), 3),
                z(bits(w, 20, 16), 3)
            )),
            1 | 3 => three(w, name, s, s - 1, s - 1),
            _ => None,
        };
    }
    if s == 0 {
        return None;
    }
    three(w, name, s, s - 1, s - 1)
}

fn narrow_high(w: u32) -> Option<String> {
    let name = [
        "addhnb", "addhnt", "raddhnb", "raddhnt", "subhnb", "subhnt", "rsubhnb", "rsubhnt",
    ][bits(w, 12, 10) as usize];
    let s = size(w);
    if s == 0 {
        return None;
    }
    three(w, name, s - 1, s, s)
}

fn absolute_difference_accumulate_long(w: u32) -> Option<String> {
    let name = ["sabalb", "sabalt", "uabalb", "uabalt"][bits(w, 11, 10) as usize];
    let s = size(w);
    if s == 0 {
        return None;
    }
    three(w, name, s, s - 1, s - 1)
}

fn absolute_difference_accumulate(w: u32) -> Option<String> {
    let name = if bit(w, 10) == 1 { "uaba" } else { "saba" };
    let s = size(w);
    three(w, name, s, s, s)
}

fn bit_permute(w: u32) -> Option<String> {
    let name = *["bext", "bdep", "bgrp"].get(bits(w, 11, 10) as usize)?;
    let s = size(w);
    three(w, name, s, s, s)
}

fn interleaving_xor(w: u32) -> Option<String> {
    let name = if bit(w, 10) == 1 { "eortb" } else { "eorbt" };
    let s = size(w);
    three(w, name, s, s, s)
}

fn interleaving_long(w: u32) -> Option<String> {
    let name = match bits(w, 12, 10) {
        0b000 => "saddlbt",
        0b010 => "ssublbt",
        0b011 => "ssubltb",
        _ => return None,
    };
    let s = size(w);
    if s == 0 {
        return None;
    }
    three(w, name, s, s - 1, s - 1)
}

fn character_match(w: u32) -> Option<String> {
    let s = size(w);
    if s > 1 {
        return None;
    }
    let name = if bit(w, 4) == 1 { "nmatch" } else { "match" };
    Some(predicated_compare(name, w, s, &z(bits(w, 20, 16), s)))
}

fn histogram_count(w: u32) -> Option<String> {
    let s = size(w);
    if s < 2 {
        return None;
    }
    Some(format!(
        "histcnt {}, p{}/z, {}, {}",
        z(bits(w, 4, 0), s),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s),
        z(bits(w, 20, 16), s)
    ))
}

/// Element size and the raw tsz:imm3 value of an SVE shift-by-immediate.
fn shift_fields(w: u32) -> Option<(u32, u32)> {
    let tsz = bits(w, 23, 22) << 2 | bits(w, 20, 19);
    if tsz == 0 {
        return None;
    }
    let size = 31 - tsz.leading_zeros();
    Some((size, tsz << 3 | bits(w, 18, 16)))
}

fn shift_accumulate(w: u32) -> Option<String> {
    let (s, raw) = shift_fields(w)?;
    let name = ["ssra", "usra", "srsra", "ursra"][bits(w, 11, 10) as usize];
    let amount = (16 << s) - raw;
    Some(format!(
        "{name} {}, {}, {}",
        z(bits(w, 4, 0), s),
        z(bits(w, 9, 5), s),
        uimm(amount as u64)
    ))
}

fn shift_insert(w: u32) -> Option<String> {
    let (s, raw) = shift_fields(w)?;
    let (name, amount) = if bit(w, 10) == 1 {
        ("sli", raw - (8 << s))
    } else {
        ("sri", (16 << s) - raw)
    };
    Some(format!(
        "{name} {}, {}, {}",
        z(bits(w, 4, 0), s),
        z(bits(w, 9, 5), s),
        uimm(amount as u64)
    ))
}

fn multiply_add_long(w: u32) -> Option<String> {
    let name = [
        "smlalb", "smlalt", "umlalb", "umlalt", "smlslb", "smlslt", "umlslb", "umlslt",
    ][bits(w, 12, 10) as usize];
    let s = size(w);
    if s == 0 {
        return None;
    }
    three(w, name, s, s - 1, s - 1)
}

fn saturating_multiply_add_long(w: u32) -> Option<String> {
    let name = ["sqdmlalb", "sqdmlalt", "sqdmlslb", "sqdmlslt"][bits(w, 11, 10) as usize];
    let s = size(w);
    if s == 0 {
        return None;
    }
    three(w, name, s, s - 1, s - 1)
}

fn saturating_multiply_add_interleaved(w: u32) -> Option<String> {
    let name = if bit(w, 10) == 1 { "sqdmlslbt" } else { "sqdmlalbt" };
    let s = size(w);
    if s == 0 || bit(w, 11) != 1 {
        return None;
    }
    three(w, name, s, s - 1, s - 1)
}

fn clamp(w: u32) -> Option<String> {
    let name = if bit(w, 10) == 1 { "uclamp" } else { "sclamp" };
    let s = size(w);
    three(w, name, s, s, s)
}

fn complex_multiply_add(w: u32) -> Option<String> {
    let name = if bit(w, 12) == 1 { "sqrdcmlah" } else { "cmla" };
    let s = size(w);
    let rotation = uimm(bits(w, 11, 10) as u64 * 90);
    Some(format!(
        "{name} {}, {}, {}, {rotation}",
        z(bits(w, 4, 0), s),
        z(bits(w, 9, 5), s),
        z(bits(w, 20, 16), s)
    ))
}

fn complex_dot(w: u32) -> Option<String> {
    let s = size(w);
    if s < 2 {
        return None;
    }
    let rotation = uimm(bits(w, 11, 10) as u64 * 90);
    Some(format!(
        "cdot {}, {}, {}, {rotation}",
        z(bits(w, 4, 0), s),
        z(bits(w, 9, 5), s - 2),
        z(bits(w, 20, 16), s - 2)
    ))
}

fn rounding_multiply_add(w: u32) -> Option<String> {
    let name = if bit(w, 10) == 1 { "sqrdmlsh" } else { "sqrdmlah" };
    let s = size(w);
    three(w, name, s, s, s)
}

fn dot_product(w: u32) -> Option<String> {
    let name = if bit(w, 10) == 1 { "udot" } else { "sdot" };
    let s = size(w);
    if s < 2 || bits(w, 15, 11) != 0 {
        return None;
    }
    three(w, name, s, s - 2, s - 2)
}
