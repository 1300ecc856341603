//! The SVE instructions compilers emit for string and memory routines: contiguous LD1/ST1 with
//! an immediate offset, WHILE* predicate loops, PTRUE, element counts and DUP from a register.

use super::fields::{bit, bits, imm, r, rsp, uimm};

pub fn decode(w: u32) -> Option<String> {
    match bits(w, 31, 29) {
        0b000 => integer(w),
        0b001 => predicate(w),
        0b101 if bit(w, 20) == 0 && bits(w, 15, 13) == 0b101 => contiguous_load(w, vl_address(w)),
        0b101 if bits(w, 15, 13) == 0b010 => contiguous_load(w, register_address(w, load_msz(w))?),
        0b111 if bit(w, 20) == 0 && bits(w, 15, 13) == 0b111 => contiguous_store(w, vl_address(w)),
        0b111 if bits(w, 15, 13) == 0b010 => contiguous_store(w, register_address(w, bits(w, 24, 23))?),
        _ => None,
    }
}

/// Element suffix of a 2-bit size field.
fn esize(size: u32) -> &'static str {
    ["b", "h", "s", "d"][size as usize]
}

/// The predicate-constraint pattern of PTRUE and the element counts.
fn pattern(p: u32) -> String {
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

/// "[xn]" or "[xn, #imm, mul vl]".
fn vl_address(w: u32) -> String {
    let offset = super::fields::sext(bits(w, 19, 16) as u64, 4);
    let base = rsp(bits(w, 9, 5), true);
    if offset == 0 {
        format!("[{base}]")
    } else {
        format!("[{base}, {}, mul vl]", imm(offset))
    }
}

/// "[xn, xm]" or "[xn, xm, lsl #msz]"; the index register cannot be XZR.
fn register_address(w: u32, msz: u32) -> Option<String> {
    let rm = bits(w, 20, 16);
    if rm == 31 {
        return None;
    }
    let base = rsp(bits(w, 9, 5), true);
    Some(if msz == 0 { format!("[{base}, {}]", r(rm, true)) } else { format!("[{base}, {}, lsl #{msz}]", r(rm, true)) })
}

/// Log2 of the memory access size of a contiguous load's dtype.
fn load_msz(w: u32) -> u32 {
    let dtype = bits(w, 24, 21);
    let (hi, lo) = (dtype >> 2, dtype & 3);
    // The diagonal (hi == lo) is unsigned; below it signed loads of width `3 - hi`.
    if lo >= hi {
        hi
    } else {
        3 - hi
    }
}

fn contiguous_load(w: u32, address: String) -> Option<String> {
    const FORMS: [(&str, u32); 16] = [
        ("ld1b", 0),
        ("ld1b", 1),
        ("ld1b", 2),
        ("ld1b", 3),
        ("ld1sw", 3),
        ("ld1h", 1),
        ("ld1h", 2),
        ("ld1h", 3),
        ("ld1sh", 3),
        ("ld1sh", 2),
        ("ld1w", 2),
        ("ld1w", 3),
        ("ld1sb", 3),
        ("ld1sb", 2),
        ("ld1sb", 1),
        ("ld1d", 3),
    ];
    let (name, size) = FORMS[bits(w, 24, 21) as usize];
    Some(format!("{name} {{z{}.{}}}, p{}/z, {address}", bits(w, 4, 0), esize(size), bits(w, 12, 10)))
}

fn contiguous_store(w: u32, address: String) -> Option<String> {
    let (msz, size) = (bits(w, 24, 23), bits(w, 22, 21));
    if size < msz {
        return None;
    }
    let name = ["st1b", "st1h", "st1w", "st1d"][msz as usize];
    Some(format!("{name} {{z{}.{}}}, p{}, {address}", bits(w, 4, 0), esize(size), bits(w, 12, 10)))
}

fn integer(w: u32) -> Option<String> {
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
        return Some(format!("mov z{}.{}, {}", bits(w, 4, 0), esize(size), rsp(bits(w, 9, 5), size == 3)));
    }
    None
}

fn predicate(w: u32) -> Option<String> {
    if bits(w, 28, 24) != 0b00101 {
        return None;
    }
    let size = bits(w, 23, 22);
    // PTRUE / PTRUES.
    if bits(w, 21, 17) == 0b01100 && bits(w, 15, 10) == 0b111000 && bit(w, 4) == 0 {
        let name = if bit(w, 16) == 1 { "ptrues" } else { "ptrue" };
        let pd = format!("p{}.{}", bits(w, 3, 0), esize(size));
        let pat = bits(w, 9, 5);
        return Some(if pat == 31 { format!("{name} {pd}") } else { format!("{name} {pd}, {}", pattern(pat)) });
    }
    // WHILE<cond> comparing two general registers.
    if bit(w, 21) == 1 && bits(w, 15, 13) == 0 {
        let x = bit(w, 12) == 1;
        let cond = ["whilege", "whilegt", "whilehs", "whilehi", "whilelt", "whilele", "whilelo", "whilels"]
            [(bit(w, 10) << 2 | bit(w, 11) << 1 | bit(w, 4)) as usize];
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
