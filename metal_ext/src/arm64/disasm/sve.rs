//! SVE and SVE2: dispatch by the top bits (data processing or one of the memory groups), the
//! helpers every SVE file shares, and the forms glibc's string routines use most (WHILE*,
//! PTRUE, CNT*, DUP from a register).

use super::fields::{bit, bits, r, rsp, uimm};
use super::{sve2, sve_data, sve_indexed, sve_memory, sve_misc, sve_move, sve_unary};

pub fn decode(w: u32) -> Option<String> {
    match bits(w, 31, 29) {
        0b000..=0b011 => integer(w)
            .or_else(|| predicate(w))
            .or_else(|| sve_move::decode(w))
            .or_else(|| sve_data::decode(w))
            .or_else(|| sve2::decode(w))
            .or_else(|| sve_indexed::decode(w))
            .or_else(|| sve_misc::decode(w))
            .or_else(|| sve_unary::decode(w)),
        0b100 => sve_memory::gather32(w),
        0b101 => sve_memory::contiguous_load(w),
        0b110 => sve_memory::gather64(w),
        0b111 => sve_memory::store_group(w),
        _ => None,
    }
}

/// One row of a form table: (mask, value, printer). A word matches when `w & mask == value`.
pub type Form = (u32, u32, fn(u32) -> Option<String>);

/// The text of the first matching form whose printer accepts the word.
pub fn decode_forms(forms: &[Form], w: u32) -> Option<String> {
    forms
        .iter()
        .filter(|(mask, value, _)| w & mask == *value)
        .find_map(|(_, _, print)| print(w))
}

/// Z register `n` with the element suffix of a 2-bit size field.
pub fn z(n: u32, size: u32) -> String {
    format!("z{n}.{}", esize(size))
}

/// "NAME Zd.T, Zn.T, Zm.T" with the three registers in their usual fields and the given sizes.
pub fn z3(name: &str, w: u32, d: u32, n: u32, m: u32) -> String {
    format!("{name} {}, {}, {}", z(bits(w, 4, 0), d), z(bits(w, 9, 5), n), z(bits(w, 20, 16), m))
}

/// "NAME Zd.S, Zn.T, Zm.T[i]": a dot product into 32-bit elements by an indexed element, Zm in
/// bits 18..16 and its index in bits 20..19; T from `source_size`.
pub fn dot_indexed(name: &str, w: u32, source_size: u32) -> String {
    let (d, n, m) = (z(bits(w, 4, 0), 2), z(bits(w, 9, 5), source_size), z(bits(w, 18, 16), source_size));
    format!("{name} {d}, {n}, {m}[{}]", bits(w, 20, 19))
}

/// "NAME Pd.T, Pg/Z, Zn.T, OPERAND": a predicated compare (Pd in bits 3..0, Pg 12..10, Zn 9..5).
pub fn predicated_compare(name: &str, w: u32, size: u32, operand: &str) -> String {
    format!("{name} p{}.{}, p{}/z, {}, {operand}", bits(w, 3, 0), esize(size), bits(w, 12, 10), z(bits(w, 9, 5), size))
}

/// The element size field, bits 23..22, of most SVE data-processing forms.
pub fn size(w: u32) -> u32 {
    bits(w, 23, 22)
}

/// Element suffix of a 2-bit size field.
pub fn esize(size: u32) -> &'static str {
    ["b", "h", "s", "d"][size as usize]
}

/// The predicate-constraint pattern of PTRUE and the element counts.
pub fn pattern(p: u32) -> String {
    match p {
        0 => "pow2".into(),
        1..=8 => format!("vl{p}"),
        9..=13 => format!("vl{}", 16 << (p - 9)),
        29 => "mul4".into(),
        30 => "mul3".into(),
        31 => "all".into(),
        _ => uimm(p as u64),
    }
}

fn integer(w: u32) -> Option<String> {
    if bits(w, 31, 29) != 0 {
        return None;
    }
    // CNTB/CNTH/CNTW/CNTD: elements of a vector times a multiplier.
    if bits(w, 28, 24) == 0b00100 && bits(w, 21, 20) == 0b10 && bits(w, 15, 10) == 0b111000 {
        let name = ["cntb", "cnth", "cntw", "cntd"][bits(w, 23, 22) as usize];
        let (mul, pat) = (bits(w, 19, 16) + 1, bits(w, 9, 5));
        let rd = r(bits(w, 4, 0), true);
        return Some(match (pat, mul) {
            (31, 1) => format!("{name} {rd}"),
            (_, 1) => format!("{name} {rd}, {}", pattern(pat)),
            _ => format!("{name} {rd}, {}, mul {}", pattern(pat), uimm(mul as u64)),
        });
    }
    // DUP (scalar), shown as MOV.
    if bits(w, 28, 24) == 0b00101 && bits(w, 21, 10) == 0b1000_0000_1110 {
        let size = bits(w, 23, 22);
        return Some(format!(
            "mov z{}.{}, {}",
            bits(w, 4, 0),
            esize(size),
            rsp(bits(w, 9, 5), size == 3)
        ));
    }
    None
}

fn predicate(w: u32) -> Option<String> {
    if bits(w, 31, 24) != 0b0010_0101 {
        return None;
    }
    let size = bits(w, 23, 22);
    // PTRUE / PTRUES.
    if bits(w, 21, 17) == 0b01100 && bits(w, 15, 10) == 0b111000 && bit(w, 4) == 0 {
        let name = if bit(w, 16) == 1 { "ptrues" } else { "ptrue" };
        let pd = format!("p{}.{}", bits(w, 3, 0), esize(size));
        let pat = bits(w, 9, 5);
        return Some(if pat == 31 {
            format!("{name} {pd}")
        } else {
            format!("{name} {pd}, {}", pattern(pat))
        });
    }
    // WHILE<cond> comparing two general registers.
    if bit(w, 21) == 1 && bits(w, 15, 13) == 0 {
        let x = bit(w, 12) == 1;
        let cond = [
            "whilege", "whilegt", "whilehs", "whilehi", "whilelt", "whilele", "whilelo", "whilels",
        ][(bit(w, 10) << 2 | bit(w, 11) << 1 | bit(w, 4)) as usize];
        return Some(format!(
            "{cond} p{}.{}, {}, {}",
            bits(w, 3, 0),
            esize(size),
            r(bits(w, 9, 5), x),
            r(bits(w, 20, 16), x)
        ));
    }
    None
}
