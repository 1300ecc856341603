//! More SVE and SVE2 forms: vector addresses, INDEX, EXT, shifts (by immediate, vector and wide
//! vector), narrowing and widening shifts, table lookups, permutes, unpredicated multiplies,
//! immediate arithmetic, element counts, ADDVL/ADDPL, FP conversions, CLAST, SPLICE, BRKP and
//! the address-conflict WHILE forms.

use super::fields::{bit, bits, imm, r, rsp, sext, uimm};
use super::sve::{decode_forms, dot_indexed, esize, Form, pattern, size, z, z3};

pub(super) const FORMS: &[Form] = &[
    (0xff20_f000, 0x0420_a000, vector_address),
    (0xffe0_e000, 0x0520_0000, extract),
    (0xffe0_e000, 0x0560_0000, extract),
    (0xff20_f000, 0x0420_4000, index),
    (0xff20_f000, 0x0420_9000, shift_immediate_unpredicated),
    (0xff20_f000, 0x0420_8000, shift_wide_unpredicated),
    (0xff30_e000, 0x0400_8000, shift_immediate_predicated),
    (0xff30_e000, 0x0410_8000, shift_vector_predicated),
    (0xff30_e000, 0x4400_8000, saturating_shift_predicated),
    (0xff20_c000, 0x4520_0000, narrowing_shift),
    (0xff20_f000, 0x4500_a000, widening_shift),
    (0xff20_f800, 0x0520_2800, table_lookup),
    (0xff20_fc00, 0x0520_3000, table_lookup),
    (0xff20_e000, 0x0520_6000, permute_vectors),
    (0xffe0_e000, 0x05a0_0000, permute_quadwords),
    (0xff30_e210, 0x0520_4000, permute_predicates),
    (0xff20_f000, 0x0420_6000, multiply_unpredicated),
    (0xff20_f800, 0x0420_7000, multiply_unpredicated),
    (0xff38_c000, 0x2520_c000, arithmetic_immediate),
    (0xff38_c000, 0x2528_c000, minmax_immediate),
    (0xff3f_c000, 0x2530_c000, multiply_immediate),
    (0xff20_fc00, 0x0420_3400, exclusive_or_rotate),
    (0xff20_fc00, 0x0420_b000, trig_select),
    (0xff20_fc10, 0x2520_3000, conflict_while),
    (0xff20_fc00, 0x2520_3000, conflict_while),
    (0xffa0_f800, 0x0420_5000, add_vector_length),
    (0xff20_f000, 0x0420_f000, count_scalar),
    (0xff20_f000, 0x0420_e000, count_scalar),
    (0xff20_f000, 0x0420_c000, count_vector),
    (0xff20_e000, 0x6500_a000, fp_convert),
    (0xff3c_e000, 0x6408_a000, fp_convert_top),
    (0xff3e_e000, 0x0528_8000, conditional_extract_vector),
    (0xff3e_e000, 0x052a_8000, conditional_extract_simd),
    (0xff3e_e000, 0x0530_a000, conditional_extract_general),
    (0xff3e_e000, 0x052c_8000, splice),
    (0xff3e_0000, 0x6400_0000, complex_add),
    (0xffb0_c200, 0x2500_c000, break_propagate),
    (0xff20_f800, 0x4500_d000, add_subtract_carry),
    (0xff20_fc00, 0x0420_3800, bitwise_ternary),
    (0xff20_fc00, 0x0420_3c00, bitwise_ternary),
    (0xff3e_e000, 0x0522_8000, last_element_simd),
    (0xff3e_e000, 0x0520_a000, last_element_general),
    (0xff3c_e000, 0x0524_8000, reverse_within_elements),
    (0xff20_c210, 0x2520_4000, predicate_select),
    (0xffe0_fc00, 0x6460_8000, bfloat_dot),
    (0xffe0_fc00, 0x4480_7800, mixed_sign_dot),
    (0xffe0_f800, 0x44a0_1800, mixed_sign_dot_indexed),
    (0xffa0_fc00, 0x64a0_e400, fp_matrix_multiply),
];

pub fn decode(w: u32) -> Option<String> {
    decode_forms(FORMS, w)
}

fn vector_address(w: u32) -> Option<String> {
    let (zm, zn, zd, msz) = (bits(w, 20, 16), bits(w, 9, 5), bits(w, 4, 0), bits(w, 11, 10));
    let (s, extend) = match bits(w, 23, 22) {
        0 => (3, "sxtw"),
        1 => (3, "uxtw"),
        2 => (2, "lsl"),
        _ => (3, "lsl"),
    };
    let offset = match (extend, msz) {
        ("lsl", 0) => String::new(),
        (_, 0) => format!(", {extend}"),
        _ => format!(", {extend} #{msz}"),
    };
    Some(format!("adr {}, [{}, {}{offset}]", z(zd, s), z(zn, s), z(zm, s)))
}

fn extract(w: u32) -> Option<String> {
    let index = uimm((bits(w, 20, 16) << 3 | bits(w, 12, 10)) as u64);
    let (zn, zd) = (bits(w, 9, 5), bits(w, 4, 0));
    Some(if bit(w, 22) == 1 {
        format!(
            "ext {}, {{{}, {}}}, {index}",
            z(zd, 0),
            z(zn, 0),
            z((zn + 1) % 32, 0)
        )
    } else {
        format!("ext {}, {}, {}, {index}", z(zd, 0), z(zd, 0), z(zn, 0))
    })
}

/// A signed 5-bit immediate of INDEX: bytes and halfwords show a signed decimal, wider elements
/// the 64-bit two's complement.
fn index_immediate(value: u32, s: u32) -> String {
    let v = sext(value as u64, 5);
    if s < 2 {
        imm(v)
    } else {
        uimm(v as u64)
    }
}

fn index(w: u32) -> Option<String> {
    let s = size(w);
    let (a, b) = (bits(w, 9, 5), bits(w, 20, 16));
    let (start, step) = match bits(w, 11, 10) {
        0 => (index_immediate(a, s), index_immediate(b, s)),
        1 => (r(a, s == 3), index_immediate(b, s)),
        2 => (index_immediate(a, s), r(b, s == 3)),
        _ => (r(a, s == 3), r(b, s == 3)),
    };
    Some(format!("index {}, {start}, {step}", z(bits(w, 4, 0), s)))
}

/// Element size and raw tsz:imm3 of a shift by immediate, `tsz_low` giving tszl's bit range.
fn shift_fields(tszh: u32, tszl: u32, imm3: u32) -> Option<(u32, u32)> {
    let tsz = tszh << 2 | tszl;
    if tsz == 0 {
        return None;
    }
    let s = 31 - tsz.leading_zeros();
    Some((s, tsz << 3 | imm3))
}

fn shift_immediate_unpredicated(w: u32) -> Option<String> {
    let (s, raw) = shift_fields(bits(w, 23, 22), bits(w, 20, 19), bits(w, 18, 16))?;
    let (name, amount) = match bits(w, 11, 10) {
        0 => ("asr", (16 << s) - raw),
        1 => ("lsr", (16 << s) - raw),
        3 => ("lsl", raw - (8 << s)),
        _ => return None,
    };
    Some(format!(
        "{name} {}, {}, {}",
        z(bits(w, 4, 0), s),
        z(bits(w, 9, 5), s),
        uimm(amount as u64)
    ))
}

fn shift_wide_unpredicated(w: u32) -> Option<String> {
    let name = *["asr", "lsr", "", "lsl"].get(bits(w, 11, 10) as usize)?;
    let s = size(w);
    if name.is_empty() || s == 3 {
        return None;
    }
    Some(z3(name, w, s, s, 3))
}

fn shift_immediate_predicated(w: u32) -> Option<String> {
    let (s, raw) = shift_fields(bits(w, 23, 22), bits(w, 9, 8), bits(w, 7, 5))?;
    let right = (16 << s) - raw;
    let left = raw - (8 << s);
    let (name, amount) = match bits(w, 19, 16) {
        0 => ("asr", right),
        1 => ("lsr", right),
        3 => ("lsl", left),
        4 => ("asrd", right),
        6 => ("sqshl", left),
        7 => ("uqshl", left),
        12 => ("srshr", right),
        13 => ("urshr", right),
        15 => ("sqshlu", left),
        _ => return None,
    };
    let d = z(bits(w, 4, 0), s);
    Some(format!(
        "{name} {d}, p{}/m, {d}, {}",
        bits(w, 12, 10),
        uimm(amount as u64)
    ))
}

fn shift_vector_predicated(w: u32) -> Option<String> {
    let wide = bit(w, 19) == 1;
    let name = *["asr", "lsr", "", "lsl", "asrr", "lsrr", "", "lslr"].get(bits(w, 18, 16) as usize)?;
    let s = size(w);
    if name.is_empty() || wide && (bit(w, 18) == 1 || s == 3) {
        return None;
    }
    let d = z(bits(w, 4, 0), s);
    Some(format!(
        "{name} {d}, p{}/m, {d}, {}",
        bits(w, 12, 10),
        z(bits(w, 9, 5), if wide { 3 } else { s })
    ))
}

fn saturating_shift_predicated(w: u32) -> Option<String> {
    const NAMES: [&str; 16] = [
        "", "", "srshl", "urshl", "", "", "srshlr", "urshlr", "sqshl", "uqshl", "sqrshl", "uqrshl", "sqshlr",
        "uqshlr", "sqrshlr", "uqrshlr",
    ];
    let name = NAMES[bits(w, 19, 16) as usize];
    if name.is_empty() {
        return None;
    }
    let s = size(w);
    let d = z(bits(w, 4, 0), s);
    Some(format!(
        "{name} {d}, p{}/m, {d}, {}",
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

fn narrowing_shift(w: u32) -> Option<String> {
    let (s, raw) = shift_fields(bit(w, 22), bits(w, 20, 19), bits(w, 18, 16))?;
    if bit(w, 23) != 0 || s > 2 {
        return None;
    }
    const NAMES: [&str; 8] = [
        "sqshrun", "sqrshrun", "shrn", "rshrn", "sqshrn", "sqrshrn", "uqshrn", "uqrshrn",
    ];
    let name = NAMES[(bit(w, 13) << 2 | bit(w, 12) << 1 | bit(w, 11)) as usize];
    let bt = if bit(w, 10) == 1 { "t" } else { "b" };
    let amount = (16 << s) - raw;
    Some(format!(
        "{name}{bt} {}, {}, {}",
        z(bits(w, 4, 0), s),
        z(bits(w, 9, 5), s + 1),
        uimm(amount as u64)
    ))
}

fn widening_shift(w: u32) -> Option<String> {
    let (s, raw) = shift_fields(bit(w, 22), bits(w, 20, 19), bits(w, 18, 16))?;
    if bit(w, 23) != 0 || s > 2 {
        return None;
    }
    let name = ["sshllb", "sshllt", "ushllb", "ushllt"][bits(w, 11, 10) as usize];
    let amount = raw - (8 << s);
    Some(format!(
        "{name} {}, {}, {}",
        z(bits(w, 4, 0), s + 1),
        z(bits(w, 9, 5), s),
        uimm(amount as u64)
    ))
}

fn table_lookup(w: u32) -> Option<String> {
    let s = size(w);
    let (zm, zn, zd) = (bits(w, 20, 16), bits(w, 9, 5), bits(w, 4, 0));
    match bits(w, 12, 10) {
        0b010 => Some(format!(
            "tbl {}, {{{}, {}}}, {}",
            z(zd, s),
            z(zn, s),
            z((zn + 1) % 32, s),
            z(zm, s)
        )),
        0b011 => Some(format!("tbx {}, {}, {}", z(zd, s), z(zn, s), z(zm, s))),
        0b100 => Some(format!("tbl {}, {{{}}}, {}", z(zd, s), z(zn, s), z(zm, s))),
        _ => None,
    }
}

fn permute_vectors(w: u32) -> Option<String> {
    let name = *["zip1", "zip2", "uzp1", "uzp2", "trn1", "trn2"].get(bits(w, 12, 10) as usize)?;
    let s = size(w);
    Some(z3(name, w, s, s, s))
}

fn permute_quadwords(w: u32) -> Option<String> {
    let name = ["zip1", "zip2", "uzp1", "uzp2", "", "", "trn1", "trn2"][bits(w, 12, 10) as usize];
    if name.is_empty() {
        return None;
    }
    Some(format!(
        "{name} z{}.q, z{}.q, z{}.q",
        bits(w, 4, 0),
        bits(w, 9, 5),
        bits(w, 20, 16)
    ))
}

fn permute_predicates(w: u32) -> Option<String> {
    let name = *["zip1", "zip2", "uzp1", "uzp2", "trn1", "trn2"].get(bits(w, 12, 10) as usize)?;
    let e = esize(size(w));
    Some(format!(
        "{name} p{}.{e}, p{}.{e}, p{}.{e}",
        bits(w, 3, 0),
        bits(w, 8, 5),
        bits(w, 19, 16)
    ))
}

fn multiply_unpredicated(w: u32) -> Option<String> {
    let s = size(w);
    let name = match bits(w, 12, 10) {
        0 => "mul",
        1 if s == 0 => "pmul",
        2 => "smulh",
        3 => "umulh",
        4 => "sqdmulh",
        5 => "sqrdmulh",
        _ => return None,
    };
    Some(z3(name, w, s, s, s))
}

fn arithmetic_immediate(w: u32) -> Option<String> {
    let name = ["add", "sub", "", "subr", "sqadd", "uqadd", "sqsub", "uqsub"][bits(w, 18, 16) as usize];
    let s = size(w);
    let (shift, imm8) = (bit(w, 13), bits(w, 12, 5));
    if name.is_empty() || shift == 1 && s == 0 {
        return None;
    }
    let value = if shift == 1 && imm8 == 0 {
        "#0, lsl #8".to_string()
    } else {
        uimm((imm8 as u64) << (8 * shift))
    };
    let d = z(bits(w, 4, 0), s);
    Some(format!("{name} {d}, {d}, {value}"))
}

fn minmax_immediate(w: u32) -> Option<String> {
    let name = *["smax", "umax", "smin", "umin"].get(bits(w, 18, 16) as usize)?;
    if bit(w, 13) != 0 {
        return None;
    }
    let imm8 = bits(w, 12, 5) as u64;
    let value = if name.starts_with('s') {
        uimm(sext(imm8, 8) as u64)
    } else {
        uimm(imm8)
    };
    let d = z(bits(w, 4, 0), size(w));
    Some(format!("{name} {d}, {d}, {value}"))
}

fn multiply_immediate(w: u32) -> Option<String> {
    if bit(w, 13) != 0 {
        return None;
    }
    let d = z(bits(w, 4, 0), size(w));
    Some(format!(
        "mul {d}, {d}, {}",
        uimm(sext(bits(w, 12, 5) as u64, 8) as u64)
    ))
}

fn exclusive_or_rotate(w: u32) -> Option<String> {
    let (s, raw) = shift_fields(bits(w, 23, 22), bits(w, 20, 19), bits(w, 18, 16))?;
    let d = z(bits(w, 4, 0), s);
    Some(format!(
        "xar {d}, {d}, {}, {}",
        z(bits(w, 9, 5), s),
        uimm(((16 << s) - raw) as u64)
    ))
}

fn trig_select(w: u32) -> Option<String> {
    let s = size(w);
    if s == 0 {
        return None;
    }
    Some(z3("ftssel", w, s, s, s))
}

fn conflict_while(w: u32) -> Option<String> {
    let name = if bit(w, 4) == 1 { "whilerw" } else { "whilewr" };
    Some(format!(
        "{name} p{}.{}, {}, {}",
        bits(w, 3, 0),
        esize(size(w)),
        r(bits(w, 9, 5), true),
        r(bits(w, 20, 16), true)
    ))
}

fn add_vector_length(w: u32) -> Option<String> {
    let name = if bit(w, 22) == 1 { "addpl" } else { "addvl" };
    let value = uimm(sext(bits(w, 10, 5) as u64, 6) as u64);
    Some(format!(
        "{name} {}, {}, {value}",
        rsp(bits(w, 4, 0), true),
        rsp(bits(w, 20, 16), true)
    ))
}

/// "pattern" and ", mul #n" of the element-count forms (both left out when they are the default).
fn count_operands(w: u32) -> String {
    let (pat, mul) = (bits(w, 9, 5), bits(w, 19, 16) + 1);
    match (pat, mul) {
        (31, 1) => String::new(),
        (_, 1) => format!(", {}", pattern(pat)),
        _ => format!(", {}, mul {}", pattern(pat), uimm(mul as u64)),
    }
}

/// INC/DEC and the saturating SQINC/UQINC/SQDEC/UQDEC on a general register.
fn count_scalar(w: u32) -> Option<String> {
    let letter = ["b", "h", "w", "d"][size(w) as usize];
    let rd = bits(w, 4, 0);
    if bits(w, 15, 12) == 0b1110 {
        // Plain INC/DEC: bit 20 = 1, bits 11:10 = 00 (inc) or 01 (dec).
        if bit(w, 20) != 1 || bit(w, 11) != 0 {
            return None;
        }
        let name = if bit(w, 10) == 1 { "dec" } else { "inc" };
        return Some(format!("{name}{letter} {}{}", r(rd, true), count_operands(w)));
    }
    let (sf, d, u) = (bit(w, 20), bit(w, 11), bit(w, 10));
    let name = format!(
        "{}q{}{letter}",
        if u == 1 { "u" } else { "s" },
        if d == 1 { "dec" } else { "inc" }
    );
    let text = match (sf, u) {
        (1, _) => r(rd, true),
        (0, 1) => r(rd, false),
        _ => format!("{}, {}", r(rd, true), r(rd, false)),
    };
    Some(format!("{name} {text}{}", count_operands(w)))
}

/// INC/DEC and the saturating forms on the elements of a vector.
fn count_vector(w: u32) -> Option<String> {
    let s = size(w);
    if s == 0 {
        return None;
    }
    let letter = ["b", "h", "w", "d"][s as usize];
    let name = if bit(w, 20) == 1 {
        if bit(w, 11) != 0 {
            return None;
        }
        format!("{}{letter}", if bit(w, 10) == 1 { "dec" } else { "inc" })
    } else {
        format!(
            "{}q{}{letter}",
            if bit(w, 10) == 1 { "u" } else { "s" },
            if bit(w, 11) == 1 { "dec" } else { "inc" }
        )
    };
    Some(format!("{name} {}{}", z(bits(w, 4, 0), s), count_operands(w)))
}

fn fp_convert(w: u32) -> Option<String> {
    let (opc, op) = (bits(w, 23, 22), bits(w, 20, 16));
    // (name, destination size, source size) by opc and bits 20:16.
    let (name, d, n) = match (opc, op) {
        (2, 0b01000) => ("fcvt", 1, 2),
        (2, 0b01001) => ("fcvt", 2, 1),
        (3, 0b01000) => ("fcvt", 1, 3),
        (3, 0b01001) => ("fcvt", 3, 1),
        (3, 0b01010) => ("fcvt", 2, 3),
        (3, 0b01011) => ("fcvt", 3, 2),
        (0, 0b01010) => ("fcvtx", 2, 3),
        (0, 0b11010 | 0b11100 | 0b11110) => ("flogb", bits(w, 18, 17), bits(w, 18, 17)),
        (_, 0b10000..=0b11111) => {
            let signed = bit(w, 16) == 0;
            let to_int = bit(w, 19) == 1;
            // (integer size, fp size) by opc and opc2; the FP side is the destination of SCVTF.
            let (int, fp) = match (opc, bits(w, 18, 17)) {
                (1, 1) => (1, 1),
                (1, 2) => (2, 1),
                (1, 3) => (3, 1),
                (2, 2) => (2, 2),
                (3, 0) => (2, 3),
                (3, 2) => (3, 2),
                (3, 3) => (3, 3),
                _ => return None,
            };
            let name = match (to_int, signed) {
                (true, true) => "fcvtzs",
                (true, false) => "fcvtzu",
                (false, true) => "scvtf",
                (false, false) => "ucvtf",
            };
            if to_int {
                (name, int, fp)
            } else {
                (name, fp, int)
            }
        }
        (_, 0b00000..=0b00111) => {
            let name = [
                "frintn", "frintp", "frintm", "frintz", "frinta", "", "frintx", "frinti",
            ][(op & 7) as usize];
            if name.is_empty() || opc == 0 {
                return None;
            }
            (name, opc, opc)
        }
        (1..=3, 0b01100) => ("frecpx", opc, opc),
        (1..=3, 0b01101) => ("fsqrt", opc, opc),
        _ => return None,
    };
    if name == "flogb" && d == 0 {
        return None;
    }
    Some(format!(
        "{name} {}, p{}/m, {}",
        z(bits(w, 4, 0), d),
        bits(w, 12, 10),
        z(bits(w, 9, 5), n)
    ))
}

fn clast_name(w: u32) -> &'static str {
    if bit(w, 16) == 1 {
        "clastb"
    } else {
        "clasta"
    }
}

fn conditional_extract_vector(w: u32) -> Option<String> {
    let s = size(w);
    let d = z(bits(w, 4, 0), s);
    Some(format!(
        "{} {d}, p{}, {d}, {}",
        clast_name(w),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

fn conditional_extract_simd(w: u32) -> Option<String> {
    let s = size(w);
    let v = format!("{}{}", esize(s), bits(w, 4, 0));
    Some(format!(
        "{} {v}, p{}, {v}, {}",
        clast_name(w),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

fn conditional_extract_general(w: u32) -> Option<String> {
    let s = size(w);
    let rd = r(bits(w, 4, 0), s == 3);
    Some(format!(
        "{} {rd}, p{}, {rd}, {}",
        clast_name(w),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

fn splice(w: u32) -> Option<String> {
    let s = size(w);
    let (zn, zd, pg) = (bits(w, 9, 5), bits(w, 4, 0), bits(w, 12, 10));
    Some(if bit(w, 16) == 1 {
        format!(
            "splice {}, p{pg}, {{{}, {}}}",
            z(zd, s),
            z(zn, s),
            z((zn + 1) % 32, s)
        )
    } else {
        format!("splice {}, p{pg}, {}, {}", z(zd, s), z(zd, s), z(zn, s))
    })
}

fn complex_add(w: u32) -> Option<String> {
    if bits(w, 15, 13) != 0b100 {
        return None;
    }
    let s = size(w);
    if s == 0 {
        return None;
    }
    let rotation = uimm(if bit(w, 16) == 1 { 270 } else { 90 });
    let d = z(bits(w, 4, 0), s);
    Some(format!(
        "fcadd {d}, p{}/m, {d}, {}, {rotation}",
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

fn break_propagate(w: u32) -> Option<String> {
    let name = format!(
        "brkp{}{}",
        if bit(w, 4) == 1 { "b" } else { "a" },
        if bit(w, 22) == 1 { "s" } else { "" }
    );
    Some(format!(
        "{name} p{}.b, p{}/z, p{}.b, p{}.b",
        bits(w, 3, 0),
        bits(w, 13, 10),
        bits(w, 8, 5),
        bits(w, 19, 16)
    ))
}

fn add_subtract_carry(w: u32) -> Option<String> {
    let s = if bit(w, 22) == 1 { 3 } else { 2 };
    let name = format!(
        "{}cl{}",
        if bit(w, 23) == 1 { "sb" } else { "ad" },
        if bit(w, 10) == 1 { "t" } else { "b" }
    );
    Some(z3(&name, w, s, s, s))
}

fn bitwise_ternary(w: u32) -> Option<String> {
    let name = match (size(w), bit(w, 10)) {
        (0, 0) => "eor3",
        (0, _) => "bsl",
        (1, 0) => "bcax",
        (1, _) => "bsl1n",
        (2, 1) => "bsl2n",
        (3, 1) => "nbsl",
        _ => return None,
    };
    let d = z(bits(w, 4, 0), 3);
    Some(format!(
        "{name} {d}, {d}, {}, {}",
        z(bits(w, 20, 16), 3),
        z(bits(w, 9, 5), 3)
    ))
}

fn last_name(w: u32) -> &'static str {
    if bit(w, 16) == 1 {
        "lastb"
    } else {
        "lasta"
    }
}

fn last_element_simd(w: u32) -> Option<String> {
    let s = size(w);
    Some(format!(
        "{} {}{}, p{}, {}",
        last_name(w),
        esize(s),
        bits(w, 4, 0),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

fn last_element_general(w: u32) -> Option<String> {
    let s = size(w);
    Some(format!(
        "{} {}, p{}, {}",
        last_name(w),
        r(bits(w, 4, 0), s == 3),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

fn reverse_within_elements(w: u32) -> Option<String> {
    let s = size(w);
    let name = match bits(w, 17, 16) {
        0 if s >= 1 => "revb",
        1 if s >= 2 => "revh",
        2 if s == 3 => "revw",
        3 => "rbit",
        _ => return None,
    };
    Some(format!(
        "{name} {}, p{}/m, {}",
        z(bits(w, 4, 0), s),
        bits(w, 12, 10),
        z(bits(w, 9, 5), s)
    ))
}

fn predicate_select(w: u32) -> Option<String> {
    let field = bits(w, 23, 22) << 3 | bits(w, 20, 18);
    if field == 0 {
        return None;
    }
    let s = field.trailing_zeros();
    if s > 3 {
        return None;
    }
    let index = uimm((field >> (s + 1)) as u64);
    Some(format!(
        "psel p{}, p{}, p{}.{}[w{}, {}]",
        bits(w, 3, 0),
        bits(w, 13, 10),
        bits(w, 8, 5),
        esize(s),
        12 + bits(w, 17, 16),
        &index[1..]
    ))
}

fn bfloat_dot(w: u32) -> Option<String> {
    Some(z3("bfdot", w, 2, 1, 1))
}

fn mixed_sign_dot(w: u32) -> Option<String> {
    Some(z3("usdot", w, 2, 0, 0))
}

fn mixed_sign_dot_indexed(w: u32) -> Option<String> {
    let name = if bit(w, 10) == 1 { "sudot" } else { "usdot" };
    Some(dot_indexed(name, w, 0))
}

fn fp_matrix_multiply(w: u32) -> Option<String> {
    let s = if bit(w, 22) == 1 { 3 } else { 2 };
    Some(z3("fmmla", w, s, s, s))
}

/// SVE2 FCVTNT/FCVTLT/FCVTXNT: conversions to or from the odd (top) elements.
fn fp_convert_top(w: u32) -> Option<String> {
    let (name, d, n) = match (bits(w, 23, 22), bits(w, 17, 16)) {
        (2, 0) => ("fcvtnt", 1, 2),
        (2, 1) => ("fcvtlt", 2, 1),
        (3, 2) => ("fcvtnt", 2, 3),
        (3, 3) => ("fcvtlt", 3, 2),
        (0, 2) => ("fcvtxnt", 2, 3),
        _ => return None,
    };
    Some(format!(
        "{name} {}, p{}/m, {}",
        z(bits(w, 4, 0), d),
        bits(w, 12, 10),
        z(bits(w, 9, 5), n)
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_form_value_lies_inside_its_mask() {
        for table in [
            super::FORMS,
            super::super::sve_data::FORMS,
            super::super::sve2::FORMS,
            super::super::sve_move::FORMS,
            super::super::sve_unary::FORMS,
        ] {
            for (mask, value, _) in table {
                assert_eq!(value & !mask, 0, "{value:#010x} has bits outside {mask:#010x}");
            }
        }
    }
}
