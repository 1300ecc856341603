//! SVE data processing: integer and floating-point arithmetic, compares into predicates,
//! multiply-accumulate, complex arithmetic and selects. Each form is a (mask, value, printer)
//! row; the first row whose fixed bits match prints the word.

use super::fields::{bit, bits, sext, uimm};
use super::sve::{decode_forms, esize, predicated_compare, Form, size, z};

/// (mask, value, printer) rows.
pub(super) const FORMS: &[Form] = &[
    (0xff20_4000, 0x2400_0000, compare_vectors),
    (0xff20_4000, 0x2400_4000, compare_wide),
    (0xff20_0000, 0x2420_0000, compare_unsigned_immediate),
    (0xff20_4000, 0x2500_0000, compare_signed_immediate),
    (0xff20_c000, 0x0520_c000, select),
    (0xff20_4000, 0x0400_4000, multiply_add),
    (0xff20_0000, 0x6520_0000, fp_fused),
    (0xff20_8000, 0x6400_0000, fp_complex_multiply_add),
    (0xff20_4000, 0x6500_4000, fp_compare_vectors),
    (0xff3c_e000, 0x6510_2000, fp_compare_zero),
    (0xff30_e000, 0x6500_8000, fp_arithmetic_predicated),
    (0xff20_e000, 0x6500_0000, fp_arithmetic_unpredicated),
    (0xff20_e000, 0x0400_0000, integer_binary_predicated),
    (0xff20_e000, 0x0420_0000, integer_add_unpredicated),
    (0xff20_fc00, 0x0420_3000, logical_unpredicated),
];

pub fn decode(w: u32) -> Option<String> {
    decode_forms(FORMS, w)
}

/// Zd/Zn/Zm at bits 4:0, 9:5 and 20:16.
fn zd(w: u32) -> u32 {
    bits(w, 4, 0)
}
fn zn(w: u32) -> u32 {
    bits(w, 9, 5)
}
fn zm(w: u32) -> u32 {
    bits(w, 20, 16)
}
/// Governing predicate at bits 12:10.
fn pg(w: u32) -> u32 {
    bits(w, 12, 10)
}

fn compare_vectors(w: u32) -> Option<String> {
    let index = bit(w, 15) << 2 | bit(w, 13) << 1 | bit(w, 4);
    let name = [
        "cmphs", "cmphi", "cmpeq", "cmpne", "cmpge", "cmpgt", "cmpeq", "cmpne",
    ][index as usize];
    let wide = index == 2 || index == 3;
    if wide && size(w) == 3 {
        return None;
    }
    let s = size(w);
    Some(predicated_compare(name, w, s, &z(zm(w), if wide { 3 } else { s })))
}

fn compare_wide(w: u32) -> Option<String> {
    let index = bit(w, 15) << 2 | bit(w, 13) << 1 | bit(w, 4);
    let name = [
        "cmpge", "cmpgt", "cmplt", "cmple", "cmphs", "cmphi", "cmplo", "cmpls",
    ][index as usize];
    let s = size(w);
    if s == 3 {
        return None;
    }
    Some(predicated_compare(name, w, s, &z(zm(w), 3)))
}

fn compare_unsigned_immediate(w: u32) -> Option<String> {
    let name = ["cmphs", "cmphi", "cmplo", "cmpls"][(bit(w, 13) << 1 | bit(w, 4)) as usize];
    let s = size(w);
    Some(predicated_compare(name, w, s, &uimm(bits(w, 20, 14) as u64)))
}

fn compare_signed_immediate(w: u32) -> Option<String> {
    let index = bit(w, 15) << 2 | bit(w, 13) << 1 | bit(w, 4);
    let name = *["cmpge", "cmpgt", "cmplt", "cmple", "cmpeq", "cmpne"].get(index as usize)?;
    let s = size(w);
    // capstone shows a negative immediate as its 64-bit two's complement.
    let value = uimm(sext(bits(w, 20, 16) as u64, 5) as u64);
    Some(predicated_compare(name, w, s, &value))
}

fn select(w: u32) -> Option<String> {
    let s = size(w);
    let pv = bits(w, 13, 10);
    if zd(w) == zm(w) {
        return Some(format!("mov {}, p{pv}/m, {}", z(zd(w), s), z(zn(w), s)));
    }
    Some(format!(
        "sel {}, p{pv}, {}, {}",
        z(zd(w), s),
        z(zn(w), s),
        z(zm(w), s)
    ))
}

fn multiply_add(w: u32) -> Option<String> {
    let s = size(w);
    let (name, a, b) = match (bit(w, 15), bit(w, 13)) {
        (0, 0) => ("mla", zn(w), zm(w)),
        (0, _) => ("mls", zn(w), zm(w)),
        (_, 0) => ("mad", zm(w), zn(w)),
        _ => ("msb", zm(w), zn(w)),
    };
    Some(format!(
        "{name} {}, p{}/m, {}, {}",
        z(zd(w), s),
        pg(w),
        z(a, s),
        z(b, s)
    ))
}

fn fp_fused(w: u32) -> Option<String> {
    let s = size(w);
    if s == 0 {
        return None;
    }
    let opc = bits(w, 14, 13) as usize;
    let (name, a, b) = if bit(w, 15) == 0 {
        (["fmla", "fmls", "fnmla", "fnmls"][opc], zn(w), zm(w))
    } else {
        (["fmad", "fmsb", "fnmad", "fnmsb"][opc], zn(w), zm(w))
    };
    Some(format!(
        "{name} {}, p{}/m, {}, {}",
        z(zd(w), s),
        pg(w),
        z(a, s),
        z(b, s)
    ))
}

fn fp_complex_multiply_add(w: u32) -> Option<String> {
    let s = size(w);
    if s == 0 {
        return None;
    }
    Some(format!(
        "fcmla {}, p{}/m, {}, {}, {}",
        z(zd(w), s),
        pg(w),
        z(zn(w), s),
        z(zm(w), s),
        uimm(bits(w, 14, 13) as u64 * 90)
    ))
}

fn fp_compare_vectors(w: u32) -> Option<String> {
    let index = bit(w, 15) << 2 | bit(w, 13) << 1 | bit(w, 4);
    let name = ["fcmge", "fcmgt", "fcmeq", "fcmne", "fcmuo", "facge", "", "facgt"][index as usize];
    let s = size(w);
    if name.is_empty() || s == 0 {
        return None;
    }
    Some(predicated_compare(name, w, s, &z(zm(w), s)))
}

fn fp_compare_zero(w: u32) -> Option<String> {
    let index = bit(w, 17) << 2 | bit(w, 16) << 1 | bit(w, 4);
    let name = ["fcmge", "fcmgt", "fcmlt", "fcmle", "fcmeq", "", "fcmne", ""][index as usize];
    let s = size(w);
    if name.is_empty() || s == 0 {
        return None;
    }
    Some(format!(
        "{name} p{}.{}, p{}/z, {}, #0.0",
        bits(w, 3, 0),
        esize(s),
        pg(w),
        z(zn(w), s)
    ))
}

fn fp_arithmetic_predicated(w: u32) -> Option<String> {
    const NAMES: [&str; 16] = [
        "fadd", "fsub", "fmul", "fsubr", "fmaxnm", "fminnm", "fmax", "fmin", "fabd", "fscale", "fmulx", "",
        "fdivr", "fdiv", "", "",
    ];
    let name = NAMES[bits(w, 19, 16) as usize];
    let s = size(w);
    if name.is_empty() || s == 0 {
        return None;
    }
    let d = z(zd(w), s);
    Some(format!("{name} {d}, p{}/m, {d}, {}", pg(w), z(zn(w), s)))
}

fn fp_arithmetic_unpredicated(w: u32) -> Option<String> {
    let name = ["fadd", "fsub", "fmul", "ftsmul", "", "", "frecps", "frsqrts"][bits(w, 12, 10) as usize];
    let s = size(w);
    if name.is_empty() || s == 0 {
        return None;
    }
    Some(format!(
        "{name} {}, {}, {}",
        z(zd(w), s),
        z(zn(w), s),
        z(zm(w), s)
    ))
}

fn integer_binary_predicated(w: u32) -> Option<String> {
    const NAMES: [&str; 32] = [
        "add", "sub", "", "subr", "", "", "", "", "smax", "umax", "smin", "umin", "sabd", "uabd", "", "",
        "mul", "", "smulh", "umulh", "sdiv", "udiv", "sdivr", "udivr", "orr", "eor", "and", "bic", "", "",
        "", "",
    ];
    let op = bits(w, 20, 16);
    let name = NAMES[op as usize];
    let s = size(w);
    if name.is_empty() || (20..=23).contains(&op) && s < 2 {
        return None;
    }
    let d = z(zd(w), s);
    Some(format!("{name} {d}, p{}/m, {d}, {}", pg(w), z(zn(w), s)))
}

fn integer_add_unpredicated(w: u32) -> Option<String> {
    let name = ["add", "sub", "", "", "sqadd", "uqadd", "sqsub", "uqsub"][bits(w, 12, 10) as usize];
    let s = size(w);
    if name.is_empty() {
        return None;
    }
    Some(format!(
        "{name} {}, {}, {}",
        z(zd(w), s),
        z(zn(w), s),
        z(zm(w), s)
    ))
}

fn logical_unpredicated(w: u32) -> Option<String> {
    let name = ["and", "orr", "eor", "bic"][size(w) as usize];
    if name == "orr" && zn(w) == zm(w) {
        return Some(format!("mov {}, {}", z(zd(w), 3), z(zn(w), 3)));
    }
    Some(format!(
        "{name} {}, {}, {}",
        z(zd(w), 3),
        z(zn(w), 3),
        z(zm(w), 3)
    ))
}
