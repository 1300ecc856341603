//! SVE and SVE2 multiplies by an indexed element: integer (same size, widening, saturating,
//! complex, dot product) and floating point (FMLA/FMLS/FMUL, FCMLA, FMLAL/BFMLAL).

use super::fields::{bit, bits, uimm};
use super::sve::{esize, z};

pub fn decode(w: u32) -> Option<String> {
    match bits(w, 31, 24) {
        0x44 if bit(w, 21) == 1 => integer(w),
        0x64 if bit(w, 21) == 1 => floating_point(w),
        _ => None,
    }
}

/// "zm.T[i]" with capstone's lane style.
fn element(zm: u32, size: u32, index: u32) -> String {
    let i = uimm(index as u64);
    format!("z{zm}.{}[{}]", esize(size), &i[1..])
}

/// (element size, index, Zm) of a same-size indexed form: H (i3h:i2), S (i2) or D (i1).
fn same_size_element(w: u32) -> (u32, u32, u32) {
    match bits(w, 23, 22) {
        0 | 1 => (1, bit(w, 22) << 2 | bits(w, 20, 19), bits(w, 18, 16)),
        2 => (2, bits(w, 20, 19), bits(w, 18, 16)),
        _ => (3, bit(w, 20), bits(w, 19, 16)),
    }
}

/// (source element size, index, Zm) of a widening indexed form: S from H or D from S, with
/// the low index bit at bit 11.
fn long_element(w: u32) -> Option<(u32, u32, u32)> {
    match bits(w, 23, 22) {
        2 => Some((1, bits(w, 20, 19) << 1 | bit(w, 11), bits(w, 18, 16))),
        3 => Some((2, bit(w, 20) << 1 | bit(w, 11), bits(w, 19, 16))),
        _ => None,
    }
}

/// (source element size, index, Zm) of a four-way form (dot products, complex): B or H sources.
fn quarter_element(w: u32) -> Option<(u32, u32, u32)> {
    match bits(w, 23, 22) {
        2 => Some((0, bits(w, 20, 19), bits(w, 18, 16))),
        3 => Some((1, bit(w, 20), bits(w, 19, 16))),
        _ => None,
    }
}

fn integer(w: u32) -> Option<String> {
    let (zn, zd) = (bits(w, 9, 5), bits(w, 4, 0));
    let op = bits(w, 15, 10);
    let same = |name: &str| {
        let (s, index, zm) = same_size_element(w);
        Some(format!(
            "{name} {}, {}, {}",
            z(zd, s),
            z(zn, s),
            element(zm, s, index)
        ))
    };
    let long = |name: String| {
        let (s, index, zm) = long_element(w)?;
        Some(format!(
            "{name} {}, {}, {}",
            z(zd, s + 1),
            z(zn, s),
            element(zm, s, index)
        ))
    };
    let bt = if bit(w, 10) == 1 { "t" } else { "b" };
    match op >> 2 {
        0b0000 if op & 2 == 0 => {
            let (s, index, zm) = quarter_element(w)?;
            let name = if bit(w, 10) == 1 { "udot" } else { "sdot" };
            Some(format!(
                "{name} {}, {}, {}",
                z(zd, s + 2),
                z(zn, s),
                element(zm, s, index)
            ))
        }
        0b0000 => same(if bit(w, 10) == 1 { "mls" } else { "mla" }),
        0b0001 if op & 2 == 0 => same(if bit(w, 10) == 1 { "sqrdmlsh" } else { "sqrdmlah" }),
        0b0010 | 0b0011 => {
            let stem = if op >> 2 == 0b0010 { "sqdmlal" } else { "sqdmlsl" };
            long(format!("{stem}{bt}"))
        }
        0b0100 => {
            let (s, index, zm) = quarter_element(w)?;
            let rotation = uimm(bits(w, 11, 10) as u64 * 90);
            Some(format!(
                "cdot {}, {}, {}, {rotation}",
                z(zd, s + 2),
                z(zn, s),
                element(zm, s, index)
            ))
        }
        0b0110 | 0b0111 => {
            let name = if op >> 2 == 0b0110 { "cmla" } else { "sqrdcmlah" };
            let (s, index, zm) = match bits(w, 23, 22) {
                2 => (1, bits(w, 20, 19), bits(w, 18, 16)),
                3 => (2, bit(w, 20), bits(w, 19, 16)),
                _ => return None,
            };
            let rotation = uimm(bits(w, 11, 10) as u64 * 90);
            Some(format!(
                "{name} {}, {}, {}, {rotation}",
                z(zd, s),
                z(zn, s),
                element(zm, s, index)
            ))
        }
        0b1000..=0b1011 => {
            let stem = ["smlal", "umlal", "smlsl", "umlsl"][(bits(w, 13, 12)) as usize];
            long(format!("{stem}{bt}"))
        }
        0b1100 | 0b1101 => long(format!("{}{bt}", if bit(w, 12) == 1 { "umull" } else { "smull" })),
        0b1110 => long(format!("sqdmull{bt}")),
        0b1111 => match op & 3 {
            0 => same("sqdmulh"),
            1 => same("sqrdmulh"),
            2 => same("mul"),
            _ => None,
        },
        _ => None,
    }
}

fn floating_point(w: u32) -> Option<String> {
    let (zn, zd) = (bits(w, 9, 5), bits(w, 4, 0));
    let op = bits(w, 15, 10);
    let same = |name: &str| {
        let (s, index, zm) = same_size_element(w);
        Some(format!(
            "{name} {}, {}, {}",
            z(zd, s),
            z(zn, s),
            element(zm, s, index)
        ))
    };
    // FMLALB/FMLSLT/BFMLALB... by vector (bits 15:14 = 10) and by element (01).
    if bit(w, 23) == 1 && bits(w, 15, 14) != 0 && bit(w, 12) == 0 {
        let bf = bit(w, 22) == 1;
        if bf && bit(w, 13) == 1 {
            return None;
        }
        let stem = if bf {
            "bfmlal"
        } else if bit(w, 13) == 1 {
            "fmlsl"
        } else {
            "fmlal"
        };
        let name = format!("{stem}{}", if bit(w, 10) == 1 { "t" } else { "b" });
        return match bits(w, 15, 14) {
            0b10 if bit(w, 11) == 0 => Some(format!(
                "{name} {}, {}, {}",
                z(zd, 2),
                z(zn, 1),
                z(bits(w, 20, 16), 1)
            )),
            0b01 => {
                let index = bits(w, 20, 19) << 1 | bit(w, 11);
                Some(format!(
                    "{name} {}, {}, {}",
                    z(zd, 2),
                    z(zn, 1),
                    element(bits(w, 18, 16), 1, index)
                ))
            }
            _ => None,
        };
    }
    match op {
        0 => same("fmla"),
        1 => same("fmls"),
        8 => same("fmul"),
        4..=7 => {
            let (s, index, zm) = match bits(w, 23, 22) {
                2 => (1, bits(w, 20, 19), bits(w, 18, 16)),
                3 => (2, bit(w, 20), bits(w, 19, 16)),
                _ => return None,
            };
            let rotation = uimm(bits(w, 11, 10) as u64 * 90);
            Some(format!(
                "fcmla {}, {}, {}, {rotation}",
                z(zd, s),
                z(zn, s),
                element(zm, s, index)
            ))
        }
        _ => None,
    }
}
