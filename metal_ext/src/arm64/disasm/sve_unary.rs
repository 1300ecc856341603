//! SVE predicated unary operations and reductions, the SVE2 predicated integer forms (halving,
//! saturating, pairwise), and the matrix-multiply, histogram and SM4/SHA-3 forms.

use super::fields::{bit, bits, uimm};
use super::sve::esize;
use super::sve_misc::Printer;

pub(super) const FORMS: &[(u32, u32, Printer)] = &[
    (0xff38_e000, 0x0418_a000, integer_unary),
    (0xff38_e000, 0x0410_a000, extend_or_negate),
    (0xff20_e000, 0x0400_2000, integer_reduction),
    (0xff20_e000, 0x6500_2000, fp_reduction),
    (0xff3f_e000, 0x6518_2000, fp_ordered_add),
    (0xff38_e000, 0x4410_8000, halving),
    (0xff38_e000, 0x4418_8000, saturating),
    (0xff38_e000, 0x4410_a000, pairwise),
    (0xff3e_e000, 0x4404_a000, pairwise_accumulate_long),
    (0xff3e_e000, 0x4408_a000, saturating_unary),
    (0xff3e_e000, 0x4400_a000, reciprocal_estimate),
    (0xff38_e000, 0x6410_8000, fp_pairwise),
    (0xff38_e3c0, 0x6518_8000, fp_arithmetic_immediate),
    (0xffff_f800, 0x04bf_5000, read_vector_length),
    (0xff3f_c200, 0x2520_8000, count_predicate),
    (0xff20_fc00, 0x4520_a000, histogram_segment),
    (0xffe0_f800, 0x4520_f000, sm4_sha3),
    (0xff20_fc00, 0x4500_9800, matrix_multiply),
    (0xffe0_fc00, 0x6460_e400, bfloat_matrix_multiply),
    (0xffe0_fc00, 0x6460_4000, bfloat_dot_indexed),
    (0xffbf_e000, 0x05a1_8000, compact),
];

pub fn decode(w: u32) -> Option<String> {
    FORMS.iter().filter(|(mask, value, _)| w & mask == *value).find_map(|(_, _, print)| print(w))
}

fn z(n: u32, size: u32) -> String {
    format!("z{n}.{}", esize(size))
}

fn size(w: u32) -> u32 {
    bits(w, 23, 22)
}

/// "name zd, pg/m, zn" with one element size.
fn unary(w: u32, name: &str, s: u32) -> Option<String> {
    Some(format!("{name} {}, p{}/m, {}", z(bits(w, 4, 0), s), bits(w, 12, 10), z(bits(w, 9, 5), s)))
}

/// "name zdn, pg/m, zdn, zm".
fn destructive(w: u32, name: &str) -> Option<String> {
    let s = size(w);
    let d = z(bits(w, 4, 0), s);
    Some(format!("{name} {d}, p{}/m, {d}, {}", bits(w, 12, 10), z(bits(w, 9, 5), s)))
}

fn integer_unary(w: u32) -> Option<String> {
    let s = size(w);
    let name = ["cls", "clz", "cnt", "cnot", "fabs", "fneg", "not", ""][bits(w, 18, 16) as usize];
    if name.is_empty() || name.starts_with('f') && s == 0 {
        return None;
    }
    unary(w, name, s)
}

fn extend_or_negate(w: u32) -> Option<String> {
    let s = size(w);
    let (name, smallest) = [("sxtb", 1), ("uxtb", 1), ("sxth", 2), ("uxth", 2), ("sxtw", 3), ("uxtw", 3), ("abs", 0), ("neg", 0)]
        [bits(w, 18, 16) as usize];
    if s < smallest {
        return None;
    }
    unary(w, name, s)
}

fn integer_reduction(w: u32) -> Option<String> {
    let s = size(w);
    let (name, result) = match bits(w, 20, 16) {
        0b00000 if s < 3 => ("saddv", 3),
        0b00001 => ("uaddv", 3),
        0b01000 => ("smaxv", s),
        0b01001 => ("umaxv", s),
        0b01010 => ("sminv", s),
        0b01011 => ("uminv", s),
        0b11000 => ("orv", s),
        0b11001 => ("eorv", s),
        0b11010 => ("andv", s),
        _ => return None,
    };
    Some(format!("{name} {}{}, p{}, {}", esize(result), bits(w, 4, 0), bits(w, 12, 10), z(bits(w, 9, 5), s)))
}

fn fp_reduction(w: u32) -> Option<String> {
    let s = size(w);
    let name = match bits(w, 20, 16) {
        0b00000 => "faddv",
        0b00100 => "fmaxnmv",
        0b00101 => "fminnmv",
        0b00110 => "fmaxv",
        0b00111 => "fminv",
        _ => return None,
    };
    if s == 0 {
        return None;
    }
    Some(format!("{name} {}{}, p{}, {}", esize(s), bits(w, 4, 0), bits(w, 12, 10), z(bits(w, 9, 5), s)))
}

fn fp_ordered_add(w: u32) -> Option<String> {
    let s = size(w);
    if s == 0 {
        return None;
    }
    let v = format!("{}{}", esize(s), bits(w, 4, 0));
    Some(format!("fadda {v}, p{}, {v}, {}", bits(w, 12, 10), z(bits(w, 9, 5), s)))
}

fn halving(w: u32) -> Option<String> {
    let name = ["shadd", "uhadd", "shsub", "uhsub", "srhadd", "urhadd", "shsubr", "uhsubr"][bits(w, 18, 16) as usize];
    destructive(w, name)
}

fn saturating(w: u32) -> Option<String> {
    let name = ["sqadd", "uqadd", "sqsub", "uqsub", "suqadd", "usqadd", "sqsubr", "uqsubr"][bits(w, 18, 16) as usize];
    destructive(w, name)
}

fn pairwise(w: u32) -> Option<String> {
    let name = ["", "addp", "", "", "smaxp", "umaxp", "sminp", "uminp"][bits(w, 18, 16) as usize];
    if name.is_empty() {
        return None;
    }
    destructive(w, name)
}

fn pairwise_accumulate_long(w: u32) -> Option<String> {
    let s = size(w);
    if s == 0 {
        return None;
    }
    let name = if bit(w, 16) == 1 { "uadalp" } else { "sadalp" };
    Some(format!("{name} {}, p{}/m, {}", z(bits(w, 4, 0), s), bits(w, 12, 10), z(bits(w, 9, 5), s - 1)))
}

fn saturating_unary(w: u32) -> Option<String> {
    unary(w, if bit(w, 16) == 1 { "sqneg" } else { "sqabs" }, size(w))
}

fn reciprocal_estimate(w: u32) -> Option<String> {
    if size(w) != 2 {
        return None;
    }
    unary(w, if bit(w, 16) == 1 { "ursqrte" } else { "urecpe" }, 2)
}

fn fp_pairwise(w: u32) -> Option<String> {
    let name = ["faddp", "", "", "", "fmaxnmp", "fminnmp", "fmaxp", "fminp"][bits(w, 18, 16) as usize];
    if name.is_empty() || size(w) == 0 {
        return None;
    }
    destructive(w, name)
}

fn count_predicate(w: u32) -> Option<String> {
    Some(format!(
        "cntp {}, p{}, p{}.{}",
        super::fields::r(bits(w, 4, 0), true),
        bits(w, 13, 10),
        bits(w, 8, 5),
        esize(size(w))
    ))
}

fn histogram_segment(w: u32) -> Option<String> {
    if size(w) != 0 {
        return None;
    }
    Some(format!("histseg {}, {}, {}", z(bits(w, 4, 0), 0), z(bits(w, 9, 5), 0), z(bits(w, 20, 16), 0)))
}

fn sm4_sha3(w: u32) -> Option<String> {
    let (name, s) = if bit(w, 10) == 1 { ("rax1", 3) } else { ("sm4ekey", 2) };
    Some(format!("{name} {}, {}, {}", z(bits(w, 4, 0), s), z(bits(w, 9, 5), s), z(bits(w, 20, 16), s)))
}

fn matrix_multiply(w: u32) -> Option<String> {
    let name = *["smmla", "", "usmmla", "ummla"].get(size(w) as usize)?;
    if name.is_empty() {
        return None;
    }
    Some(format!("{name} {}, {}, {}", z(bits(w, 4, 0), 2), z(bits(w, 9, 5), 0), z(bits(w, 20, 16), 0)))
}

fn bfloat_matrix_multiply(w: u32) -> Option<String> {
    Some(format!("bfmmla {}, {}, {}", z(bits(w, 4, 0), 2), z(bits(w, 9, 5), 1), z(bits(w, 20, 16), 1)))
}

fn bfloat_dot_indexed(w: u32) -> Option<String> {
    let index = uimm(bits(w, 20, 19) as u64);
    Some(format!("bfdot {}, {}, z{}.h[{}]", z(bits(w, 4, 0), 2), z(bits(w, 9, 5), 1), bits(w, 18, 16), &index[1..]))
}

fn compact(w: u32) -> Option<String> {
    let s = if bit(w, 22) == 1 { 3 } else { 2 };
    Some(format!("compact {}, p{}, {}", z(bits(w, 4, 0), s), bits(w, 12, 10), z(bits(w, 9, 5), s)))
}

/// FADD/FSUB/FMUL/FSUBR/FMAXNM/FMINNM/FMAX/FMIN with one of two constants (capstone shows the
/// constant without a '#').
fn fp_arithmetic_immediate(w: u32) -> Option<String> {
    let s = size(w);
    if s == 0 {
        return None;
    }
    let op = bits(w, 18, 16);
    let name = ["fadd", "fsub", "fmul", "fsubr", "fmaxnm", "fminnm", "fmax", "fmin"][op as usize];
    let constant = match (op, bit(w, 5)) {
        (0 | 1 | 3, 0) | (2, 0) => "0.5",
        (0 | 1 | 3, _) => "1.0",
        (2, _) => "2.0",
        (_, 0) => "0.0",
        _ => "1.0",
    };
    let d = z(bits(w, 4, 0), s);
    Some(format!("{name} {d}, p{}/m, {d}, {constant}", bits(w, 12, 10)))
}

fn read_vector_length(w: u32) -> Option<String> {
    let value = uimm(super::fields::sext(bits(w, 10, 5) as u64, 6) as u64);
    Some(format!("rdvl {}, {value}", super::fields::r(bits(w, 4, 0), true)))
}
