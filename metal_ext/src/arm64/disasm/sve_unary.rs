//! SVE predicated unary operations and reductions, the SVE2 predicated integer forms (halving,
//! saturating, pairwise), and the matrix-multiply, histogram and SM4/SHA-3 forms.

use super::fields::{bit, bits, uimm};
use super::sve::{decode_forms, dot_indexed, esize, Form, size, z, z3};

pub(super) const FORMS: &[Form] = &[
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
    (0xfeff_e000, 0x648a_a000, bfloat_convert),
    (0xff3f_c200, 0x2510_4000, break_after_before),
    (0xffbf_c210, 0x2518_4000, break_next),
    (0xff3e_f800, 0x4500_d800, complex_add_integer),
    (0xffa0_fc0f, 0x25a0_2000, compare_terminate),
    (0xff3e_f000, 0x252c_8000, predicate_count_step),
    (0xff3c_f000, 0x2528_8000, predicate_count_saturating),
    (0xff3f_fc00, 0x0420_b800, fp_exponent),
    (0xff3e_fc00, 0x650e_3000, fp_reciprocal_estimate),
    (0xff38_fc00, 0x6510_8000, fp_trig_multiply_add),
    (0xff3f_fc00, 0x0524_3800, insert_general),
    (0xff3f_fc00, 0x0534_3800, insert_simd),
    (0xffff_fe10, 0x2558_c000, predicate_first_next),
    (0xff3f_fe10, 0x2519_c400, predicate_first_next),
    (0xff3f_fc00, 0x0538_3800, reverse_vector),
    (0xff3f_fe10, 0x0534_4000, reverse_predicate),
    (0xffff_e000, 0x052e_8000, reverse_quadwords),
    (0xffff_fc00, 0x4523_e000, sm4_encrypt),
    (0xffa0_e000, 0x4520_4000, saturating_extract_narrow),
    (0xff3c_fc00, 0x0530_3800, unpack),
    (0xfffe_fe10, 0x0530_4000, unpack_predicate),
    (0xffff_f800, 0x4522_e000, sve_aes),
    (0xffff_fbe0, 0x4520_e000, sve_aes_mix),
    (0xffbf_fe10, 0x2518_f000, first_fault_register),
    (0xffff_fff0, 0x2519_f000, first_fault_register),
    (0xffff_ffff, 0x252c_9000, first_fault_register),
    (0xffff_fe1f, 0x2528_9000, first_fault_register),
    (0xff3f_c200, 0x2520_8000, count_predicate),
    (0xff20_fc00, 0x4520_a000, histogram_segment),
    (0xffe0_f800, 0x4520_f000, sm4_sha3),
    (0xff20_fc00, 0x4500_9800, matrix_multiply),
    (0xffe0_fc00, 0x6460_e400, bfloat_matrix_multiply),
    (0xffe0_fc00, 0x6460_4000, bfloat_dot_indexed),
    (0xffbf_e000, 0x05a1_8000, compact),
];

pub fn decode(w: u32) -> Option<String> {
    decode_forms(FORMS, w)
}

/// "name zd, pg/m, zn" with one element size.
fn unary(w: u32, name: &str, s: u32) -> Option<String> {
    Some(format!(
        "{name} {}, p{}/m, {}",
        z(bits(w, 4, 0), s),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

/// "name zdn, pg/m, zdn, zm".
fn destructive(w: u32, name: &str) -> Option<String> {
    let s = size(w);
    let d = z(bits(w, 4, 0), s);
    Some(format!(
        "{name} {d}, p{}/m, {d}, {}",
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
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
    let (name, smallest) = [
        ("sxtb", 1),
        ("uxtb", 1),
        ("sxth", 2),
        ("uxth", 2),
        ("sxtw", 3),
        ("uxtw", 3),
        ("abs", 0),
        ("neg", 0),
    ][bits(w, 18, 16) as usize];
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
    Some(format!(
        "{name} {}{}, p{}, {}",
        esize(result),
        bits(w, 4, 0),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
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
    Some(format!(
        "{name} {}{}, p{}, {}",
        esize(s),
        bits(w, 4, 0),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

fn fp_ordered_add(w: u32) -> Option<String> {
    let s = size(w);
    if s == 0 {
        return None;
    }
    let v = format!("{}{}", esize(s), bits(w, 4, 0));
    Some(format!(
        "fadda {v}, p{}, {v}, {}",
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

fn halving(w: u32) -> Option<String> {
    let name = [
        "shadd", "uhadd", "shsub", "uhsub", "srhadd", "urhadd", "shsubr", "uhsubr",
    ][bits(w, 18, 16) as usize];
    destructive(w, name)
}

fn saturating(w: u32) -> Option<String> {
    let name = [
        "sqadd", "uqadd", "sqsub", "uqsub", "suqadd", "usqadd", "sqsubr", "uqsubr",
    ][bits(w, 18, 16) as usize];
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
    Some(format!(
        "{name} {}, p{}/m, {}",
        z(bits(w, 4, 0), s),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s - 1)
    ))
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
    Some(z3("histseg", w, 0, 0, 0))
}

fn sm4_sha3(w: u32) -> Option<String> {
    let (name, s) = if bit(w, 10) == 1 {
        ("rax1", 3)
    } else {
        ("sm4ekey", 2)
    };
    Some(z3(name, w, s, s, s))
}

fn matrix_multiply(w: u32) -> Option<String> {
    let name = *["smmla", "", "usmmla", "ummla"].get(size(w) as usize)?;
    if name.is_empty() {
        return None;
    }
    Some(z3(name, w, 2, 0, 0))
}

fn bfloat_matrix_multiply(w: u32) -> Option<String> {
    Some(z3("bfmmla", w, 2, 1, 1))
}

fn bfloat_dot_indexed(w: u32) -> Option<String> {
    Some(dot_indexed("bfdot", w, 1))
}

fn compact(w: u32) -> Option<String> {
    let s = if bit(w, 22) == 1 { 3 } else { 2 };
    Some(format!(
        "compact {}, p{}, {}",
        z(bits(w, 4, 0), s),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

/// FADD/FSUB/FMUL/FSUBR/FMAXNM/FMINNM/FMAX/FMIN with one of two constants (capstone shows the
/// constant without a '#').
fn fp_arithmetic_immediate(w: u32) -> Option<String> {
    let s = size(w);
    if s == 0 {
        return None;
    }
    let op = bits(w, 18, 16);
    let name = [
        "fadd", "fsub", "fmul", "fsubr", "fmaxnm", "fminnm", "fmax", "fmin",
    ][op as usize];
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

fn bfloat_convert(w: u32) -> Option<String> {
    let name = if bit(w, 24) == 1 { "bfcvt" } else { "bfcvtnt" };
    Some(format!(
        "{name} {}, p{}/m, {}",
        z(bits(w, 4, 0), 1),
        bits(w, 12, 10),
        z(bits(w, 9, 5), 2)
    ))
}

fn break_after_before(w: u32) -> Option<String> {
    let setflags = bit(w, 22) == 1;
    let merging = bit(w, 4) == 1;
    if setflags && merging {
        return None;
    }
    let name = format!(
        "brk{}{}",
        if bit(w, 23) == 1 { "b" } else { "a" },
        if setflags { "s" } else { "" }
    );
    let mode = if merging { "m" } else { "z" };
    Some(format!(
        "{name} p{}.b, p{}/{mode}, p{}.b",
        bits(w, 3, 0),
        bits(w, 13, 10),
        bits(w, 8, 5)
    ))
}

fn break_next(w: u32) -> Option<String> {
    let name = if bit(w, 22) == 1 { "brkns" } else { "brkn" };
    let pdm = bits(w, 3, 0);
    Some(format!(
        "{name} p{pdm}.b, p{}/z, p{}.b, p{pdm}.b",
        bits(w, 13, 10),
        bits(w, 8, 5)
    ))
}

fn complex_add_integer(w: u32) -> Option<String> {
    let name = if bit(w, 16) == 1 { "sqcadd" } else { "cadd" };
    let rotation = uimm(if bit(w, 10) == 1 { 270 } else { 90 });
    let d = z(bits(w, 4, 0), size(w));
    Some(format!(
        "{name} {d}, {d}, {}, {rotation}",
        z(bits(w, 9, 5), size(w))
    ))
}

fn compare_terminate(w: u32) -> Option<String> {
    let name = if bit(w, 4) == 1 { "ctermne" } else { "ctermeq" };
    let x = bit(w, 22) == 1;
    Some(format!(
        "{name} {}, {}",
        super::fields::r(bits(w, 9, 5), x),
        super::fields::r(bits(w, 20, 16), x)
    ))
}

/// INCP/DECP: add or subtract the count of active predicate elements.
fn predicate_count_step(w: u32) -> Option<String> {
    let name = if bit(w, 16) == 1 { "decp" } else { "incp" };
    let (pm, rd) = (bits(w, 8, 5), bits(w, 4, 0));
    let e = esize(size(w));
    if bits(w, 10, 9) != 0 {
        return None;
    }
    match bit(w, 11) {
        1 => Some(format!("{name} {}, p{pm}.{e}", super::fields::r(rd, true))),
        _ => {
            if size(w) == 0 {
                return None;
            }
            Some(format!("{name} {}, p{pm}.{e}", z(rd, size(w))))
        }
    }
}

/// SQINCP/UQINCP/SQDECP/UQDECP on a register or a vector.
fn predicate_count_saturating(w: u32) -> Option<String> {
    let name = format!(
        "{}q{}p",
        if bit(w, 16) == 1 { "u" } else { "s" },
        if bit(w, 17) == 1 { "dec" } else { "inc" }
    );
    let (pm, rd) = (bits(w, 8, 5), bits(w, 4, 0));
    let e = esize(size(w));
    if bit(w, 9) != 0 {
        return None;
    }
    if bit(w, 11) == 0 {
        if bit(w, 10) != 0 || size(w) == 0 {
            return None;
        }
        return Some(format!("{name} {}, p{pm}.{e}", z(rd, size(w))));
    }
    let r = super::fields::r;
    Some(match (bit(w, 10), bit(w, 16)) {
        (1, _) => format!("{name} {}, p{pm}.{e}", r(rd, true)),
        (0, 1) => format!("{name} {}, p{pm}.{e}", r(rd, false)),
        _ => format!("{name} {}, p{pm}.{e}, {}", r(rd, true), r(rd, false)),
    })
}

fn fp_exponent(w: u32) -> Option<String> {
    if size(w) == 0 {
        return None;
    }
    Some(format!(
        "fexpa {}, {}",
        z(bits(w, 4, 0), size(w)),
        z(bits(w, 9, 5), size(w))
    ))
}

fn fp_reciprocal_estimate(w: u32) -> Option<String> {
    if size(w) == 0 {
        return None;
    }
    let name = if bit(w, 16) == 1 { "frsqrte" } else { "frecpe" };
    Some(format!(
        "{name} {}, {}",
        z(bits(w, 4, 0), size(w)),
        z(bits(w, 9, 5), size(w))
    ))
}

fn fp_trig_multiply_add(w: u32) -> Option<String> {
    if size(w) == 0 {
        return None;
    }
    let d = z(bits(w, 4, 0), size(w));
    Some(format!(
        "ftmad {d}, {d}, {}, {}",
        z(bits(w, 9, 5), size(w)),
        uimm(bits(w, 18, 16) as u64)
    ))
}

fn insert_general(w: u32) -> Option<String> {
    Some(format!(
        "insr {}, {}",
        z(bits(w, 4, 0), size(w)),
        super::fields::r(bits(w, 9, 5), size(w) == 3)
    ))
}

fn insert_simd(w: u32) -> Option<String> {
    Some(format!(
        "insr {}, {}{}",
        z(bits(w, 4, 0), size(w)),
        esize(size(w)),
        bits(w, 9, 5)
    ))
}

fn predicate_first_next(w: u32) -> Option<String> {
    let (name, e) = if bit(w, 16) == 1 {
        ("pnext", esize(size(w)))
    } else {
        ("pfirst", "b")
    };
    let pdn = bits(w, 3, 0);
    Some(format!("{name} p{pdn}.{e}, p{}, p{pdn}.{e}", bits(w, 8, 5)))
}

fn reverse_vector(w: u32) -> Option<String> {
    Some(format!(
        "rev {}, {}",
        z(bits(w, 4, 0), size(w)),
        z(bits(w, 9, 5), size(w))
    ))
}

fn reverse_predicate(w: u32) -> Option<String> {
    let e = esize(size(w));
    Some(format!("rev p{}.{e}, p{}.{e}", bits(w, 3, 0), bits(w, 8, 5)))
}

fn reverse_quadwords(w: u32) -> Option<String> {
    Some(format!(
        "revd z{}.q, p{}/m, z{}.q",
        bits(w, 4, 0),
        bits(w, 12, 10),
        bits(w, 9, 5)
    ))
}

fn sm4_encrypt(w: u32) -> Option<String> {
    let d = z(bits(w, 4, 0), 2);
    Some(format!("sm4e {d}, {d}, {}", z(bits(w, 9, 5), 2)))
}

fn saturating_extract_narrow(w: u32) -> Option<String> {
    let tsz = bit(w, 22) << 2 | bits(w, 20, 19);
    let s = match tsz {
        1 => 0,
        2 => 1,
        4 => 2,
        _ => return None,
    };
    if bits(w, 18, 16) != 0 || bits(w, 15, 13) != 0b010 {
        return None;
    }
    let stem = *["sqxtn", "uqxtn", "sqxtun"].get(bits(w, 12, 11) as usize)?;
    let name = format!("{stem}{}", if bit(w, 10) == 1 { "t" } else { "b" });
    Some(format!(
        "{name} {}, {}",
        z(bits(w, 4, 0), s),
        z(bits(w, 9, 5), s + 1)
    ))
}

fn unpack(w: u32) -> Option<String> {
    let s = size(w);
    if s == 0 {
        return None;
    }
    let name = format!(
        "{}unpk{}",
        if bit(w, 17) == 1 { "u" } else { "s" },
        if bit(w, 16) == 1 { "hi" } else { "lo" }
    );
    Some(format!(
        "{name} {}, {}",
        z(bits(w, 4, 0), s),
        z(bits(w, 9, 5), s - 1)
    ))
}

fn unpack_predicate(w: u32) -> Option<String> {
    let name = if bit(w, 16) == 1 { "punpkhi" } else { "punpklo" };
    Some(format!("{name} p{}.h, p{}.b", bits(w, 3, 0), bits(w, 8, 5)))
}

fn sve_aes(w: u32) -> Option<String> {
    let name = if bit(w, 10) == 1 { "aesd" } else { "aese" };
    let d = z(bits(w, 4, 0), 0);
    Some(format!("{name} {d}, {d}, {}", z(bits(w, 9, 5), 0)))
}

fn sve_aes_mix(w: u32) -> Option<String> {
    let name = if bit(w, 10) == 1 { "aesimc" } else { "aesmc" };
    let d = z(bits(w, 4, 0), 0);
    Some(format!("{name} {d}, {d}"))
}

/// RDFFR/RDFFRS, SETFFR and WRFFR: the first-fault register.
fn first_fault_register(w: u32) -> Option<String> {
    Some(match bits(w, 21, 16) {
        0b01_1000 => {
            let name = if bit(w, 22) == 1 { "rdffrs" } else { "rdffr" };
            format!("{name} p{}.b, p{}/z", bits(w, 3, 0), bits(w, 8, 5))
        }
        0b01_1001 => format!("rdffr p{}.b", bits(w, 3, 0)),
        0b10_1100 => "setffr".into(),
        _ => format!("wrffr p{}.b", bits(w, 8, 5)),
    })
}
