//! Scalar floating point: conversions to and from integers and fixed point, one-, two- and
//! three-source arithmetic, compares, conditional compare and select, and FMOV immediates.

use super::fields::{bit, bits, fp8_text, r, uimm, COND};

/// Register letter of the FP type field (bits 23:22).
fn ftype(w: u32) -> Option<&'static str> {
    match bits(w, 23, 22) {
        0 => Some("s"),
        1 => Some("d"),
        3 => Some("h"),
        _ => None,
    }
}

pub fn decode(w: u32) -> Option<String> {
    if bit(w, 30) != 0 {
        return None;
    }
    if bit(w, 24) == 1 {
        return three_source(w);
    }
    if bit(w, 21) == 0 {
        return fixed_point(w);
    }
    match bits(w, 11, 10) {
        0 if bits(w, 15, 10) == 0 => integer_conversion(w),
        0 if bits(w, 14, 10) == 0b10000 => one_source(w),
        0 if bits(w, 13, 10) == 0b1000 => compare(w),
        0 if bits(w, 12, 10) == 0b100 => immediate(w),
        1 => conditional_compare(w),
        2 => two_source(w),
        3 => conditional_select(w),
        _ => None,
    }
}

fn fixed_point(w: u32) -> Option<String> {
    let t = ftype(w)?;
    let x = bit(w, 31) == 1;
    let scale = bits(w, 15, 10);
    if bit(w, 29) != 0 || (!x && scale < 32) {
        return None;
    }
    let fbits = uimm(64 - scale as u64);
    let (rn, rd) = (bits(w, 9, 5), bits(w, 4, 0));
    let name = match (bits(w, 20, 19), bits(w, 18, 16)) {
        (0, 2) => "scvtf",
        (0, 3) => "ucvtf",
        (3, 0) => "fcvtzs",
        (3, 1) => "fcvtzu",
        _ => return None,
    };
    Some(if name.ends_with("cvtf") {
        format!("{name} {t}{rd}, {}, {fbits}", r(rn, x))
    } else {
        format!("{name} {}, {t}{rn}, {fbits}", r(rd, x))
    })
}

fn integer_conversion(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let (kind, rmode, opcode) = (bits(w, 23, 22), bits(w, 20, 19), bits(w, 18, 16));
    let (rn, rd) = (bits(w, 9, 5), bits(w, 4, 0));
    if bit(w, 29) != 0 {
        return None;
    }
    if opcode >= 6 {
        // FMOV between general and FP registers, and FJCVTZS.
        let fp = match (x, kind, rmode) {
            (false, 0, 0) => "s".to_string(),
            (true, 1, 0) => "d".to_string(),
            (_, 3, 0) => "h".to_string(),
            (true, 2, 1) => "v".to_string(),
            (false, 1, 3) if opcode == 6 => return Some(format!("fjcvtzs {}, d{rn}", r(rd, false))),
            _ => return None,
        };
        let vreg = |n: u32| {
            if fp == "v" {
                format!("v{n}.d[1]")
            } else {
                format!("{fp}{n}")
            }
        };
        return Some(if opcode == 6 {
            format!("fmov {}, {}", r(rd, x), vreg(rn))
        } else {
            format!("fmov {}, {}", vreg(rd), r(rn, x))
        });
    }
    let t = ftype(w)?;
    let name = match (rmode, opcode) {
        (_, 0) => ["fcvtns", "fcvtps", "fcvtms", "fcvtzs"][rmode as usize],
        (_, 1) => ["fcvtnu", "fcvtpu", "fcvtmu", "fcvtzu"][rmode as usize],
        (0, 2) => "scvtf",
        (0, 3) => "ucvtf",
        (0, 4) => "fcvtas",
        (0, 5) => "fcvtau",
        _ => return None,
    };
    Some(if opcode == 2 || opcode == 3 {
        format!("{name} {t}{rd}, {}", r(rn, x))
    } else {
        format!("{name} {}, {t}{rn}", r(rd, x))
    })
}

fn one_source(w: u32) -> Option<String> {
    if bit(w, 31) != 0 || bit(w, 29) != 0 {
        return None;
    }
    let opcode = bits(w, 20, 15);
    let (rn, rd) = (bits(w, 9, 5), bits(w, 4, 0));
    if bits(w, 23, 22) == 1 && opcode == 6 {
        return Some(format!("bfcvt h{rd}, s{rn}"));
    }
    let t = ftype(w)?;
    let name = match opcode {
        0 => "fmov",
        1 => "fabs",
        2 => "fneg",
        3 => "fsqrt",
        4 | 5 | 7 => {
            let to = ["s", "d", "", "h"][(opcode & 3) as usize];
            if to == t {
                return None;
            }
            return Some(format!("fcvt {to}{rd}, {t}{rn}"));
        }
        8 => "frintn",
        9 => "frintp",
        10 => "frintm",
        11 => "frintz",
        12 => "frinta",
        14 => "frintx",
        15 => "frinti",
        16..=19 if t != "h" => ["frint32z", "frint32x", "frint64z", "frint64x"][(opcode - 16) as usize],
        _ => return None,
    };
    Some(format!("{name} {t}{rd}, {t}{rn}"))
}

fn compare(w: u32) -> Option<String> {
    let t = ftype(w)?;
    if bit(w, 31) != 0 || bit(w, 29) != 0 || bits(w, 15, 14) != 0 || bits(w, 2, 0) != 0 {
        return None;
    }
    let name = if bit(w, 4) == 1 { "fcmpe" } else { "fcmp" };
    let (rm, rn) = (bits(w, 20, 16), bits(w, 9, 5));
    Some(if bit(w, 3) == 1 {
        format!("{name} {t}{rn}, #0.0")
    } else {
        format!("{name} {t}{rn}, {t}{rm}")
    })
}

fn immediate(w: u32) -> Option<String> {
    let t = ftype(w)?;
    if bit(w, 31) != 0 || bit(w, 29) != 0 || bits(w, 9, 5) != 0 {
        return None;
    }
    Some(format!(
        "fmov {t}{}, {}",
        bits(w, 4, 0),
        fp8_text(bits(w, 20, 13))
    ))
}

fn conditional_compare(w: u32) -> Option<String> {
    let t = ftype(w)?;
    if bit(w, 31) != 0 || bit(w, 29) != 0 {
        return None;
    }
    let name = if bit(w, 4) == 1 { "fccmpe" } else { "fccmp" };
    Some(format!(
        "{name} {t}{}, {t}{}, {}, {}",
        bits(w, 9, 5),
        bits(w, 20, 16),
        uimm(bits(w, 3, 0) as u64),
        COND[bits(w, 15, 12) as usize]
    ))
}

fn two_source(w: u32) -> Option<String> {
    let t = ftype(w)?;
    if bit(w, 31) != 0 || bit(w, 29) != 0 {
        return None;
    }
    const NAMES: [&str; 9] = [
        "fmul", "fdiv", "fadd", "fsub", "fmax", "fmin", "fmaxnm", "fminnm", "fnmul",
    ];
    let name = NAMES.get(bits(w, 15, 12) as usize)?;
    Some(format!(
        "{name} {t}{}, {t}{}, {t}{}",
        bits(w, 4, 0),
        bits(w, 9, 5),
        bits(w, 20, 16)
    ))
}

fn conditional_select(w: u32) -> Option<String> {
    let t = ftype(w)?;
    if bit(w, 31) != 0 || bit(w, 29) != 0 {
        return None;
    }
    Some(format!(
        "fcsel {t}{}, {t}{}, {t}{}, {}",
        bits(w, 4, 0),
        bits(w, 9, 5),
        bits(w, 20, 16),
        COND[bits(w, 15, 12) as usize]
    ))
}

fn three_source(w: u32) -> Option<String> {
    let t = ftype(w)?;
    if bit(w, 31) != 0 || bit(w, 29) != 0 {
        return None;
    }
    let name = ["fmadd", "fmsub", "fnmadd", "fnmsub"][(bit(w, 21) << 1 | bit(w, 15)) as usize];
    Some(format!(
        "{name} {t}{}, {t}{}, {t}{}, {t}{}",
        bits(w, 4, 0),
        bits(w, 9, 5),
        bits(w, 20, 16),
        bits(w, 14, 10)
    ))
}
