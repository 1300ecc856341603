//! The later Advanced SIMD additions: dot products, complex arithmetic, rounding doubling
//! multiply-accumulate, BFloat16, int8 matrix multiply, and the FP16 widening FMLAL/FMLSL.

use super::fields::{arrangement, bit, bits, elem, fp_arrangement, lane, operand, uimm, v};

/// FMLAL/FMLSL(2): half-precision products accumulated into single precision.
pub fn fp16_long(w: u32) -> Option<String> {
    let (q, u, a) = (bit(w, 30), bit(w, 29), bit(w, 23));
    let name = ["fmlal", "fmlsl"][a as usize];
    let second = if u == 1 { "2" } else { "" };
    let (wide, half) = if q == 1 { ("4s", "4h") } else { ("2s", "2h") };
    Some(format!(
        "{name}{second} {}, {}, {}",
        v(bits(w, 4, 0), wide),
        v(bits(w, 9, 5), half),
        v(bits(w, 20, 16), half)
    ))
}

/// Advanced SIMD three-same extra (bit 21 = 0, bit 15 = 1).
pub fn three_same_extra(w: u32, scalar: bool) -> Option<String> {
    let (q, u, size, opcode) = (bit(w, 30), bit(w, 29), bits(w, 23, 22), bits(w, 14, 11));
    let (rm, rn, rd) = (bits(w, 20, 16), bits(w, 9, 5), bits(w, 4, 0));
    if opcode <= 1 && u == 1 {
        let name = ["sqrdmlah", "sqrdmlsh"][opcode as usize];
        if size == 0 || size == 3 {
            return None;
        }
        let arr = arrangement(size, q);
        let o = |n| operand(n, scalar, elem(size), arr);
        return Some(format!("{name} {}, {}, {}", o(rd), o(rn), o(rm)));
    }
    if scalar {
        return None;
    }
    let (wide, bytes) = if q == 1 { ("4s", "16b") } else { ("2s", "8b") };
    let three =
        |name: &str, d: &str, s: &str| Some(format!("{name} {}, {}, {}", v(rd, d), v(rn, s), v(rm, s)));
    match (u, opcode) {
        (_, 2) if size == 2 => three(["sdot", "udot"][u as usize], wide, bytes),
        (0, 3) if size == 2 => three("usdot", wide, bytes),
        (_, 4) if size == 2 && q == 1 => three(["smmla", "ummla"][u as usize], "4s", "16b"),
        (0, 5) if size == 2 && q == 1 => three("usmmla", "4s", "16b"),
        (1, 8..=11) | (1, 12 | 14) => {
            let arr = match size {
                1 => arrangement(1, q),
                2 => arrangement(2, q),
                _ => fp_arrangement(1, q)?,
            };
            if size == 0 {
                return None;
            }
            let (name, rotation) = if opcode < 12 {
                ("fcmla", bits(w, 12, 11) * 90)
            } else {
                ("fcadd", if bit(w, 12) == 1 { 270 } else { 90 })
            };
            Some(format!(
                "{name} {}, {}, {}, {}",
                v(rd, arr),
                v(rn, arr),
                v(rm, arr),
                uimm(rotation as u64)
            ))
        }
        (1, 13) if size == 1 && q == 1 => three("bfmmla", "4s", "8h"),
        (1, 15) if size == 1 => three("bfdot", wide, if q == 1 { "8h" } else { "4h" }),
        (1, 15) if size == 3 => three(if q == 1 { "bfmlalt" } else { "bfmlalb" }, "4s", "8h"),
        _ => None,
    }
}

/// Indexed-element forms of the later additions (vector only).
pub fn indexed_extra(w: u32) -> Option<String> {
    let (q, u, size, opcode) = (bit(w, 30), bit(w, 29), bits(w, 23, 22), bits(w, 15, 12));
    let (l, m, h) = (bit(w, 21), bit(w, 20), bit(w, 11));
    let (rn, rd) = (bits(w, 9, 5), bits(w, 4, 0));
    let rm5 = m << 4 | bits(w, 19, 16);
    let rm4 = bits(w, 19, 16);
    let (wide, bytes) = if q == 1 { ("4s", "16b") } else { ("2s", "8b") };
    let dot = |name: &str| {
        Some(format!(
            "{name} {}, {}, v{rm5}.4b{}",
            v(rd, wide),
            v(rn, bytes),
            lane(h << 1 | l)
        ))
    };
    match (u, opcode, size) {
        (_, 14, 2) => dot(["sdot", "udot"][u as usize]),
        (0, 15, 0) => dot("sudot"),
        (0, 15, 2) => dot("usdot"),
        (0, 15, 1) => {
            let half = if q == 1 { "8h" } else { "4h" };
            Some(format!(
                "bfdot {}, {}, v{rm5}.2h{}",
                v(rd, wide),
                v(rn, half),
                lane(h << 1 | l)
            ))
        }
        (0, 15, 3) => {
            let name = if q == 1 { "bfmlalt" } else { "bfmlalb" };
            Some(format!(
                "{name} {}, {}, v{rm4}.h{}",
                v(rd, "4s"),
                v(rn, "8h"),
                lane(h << 2 | l << 1 | m)
            ))
        }
        (0, 0 | 4, 2) | (1, 8 | 12, 2) => {
            let name = if opcode & 4 == 0 { "fmlal" } else { "fmlsl" };
            let second = if u == 1 { "2" } else { "" };
            let half = if q == 1 { "4h" } else { "2h" };
            Some(format!(
                "{name}{second} {}, {}, v{rm4}.h{}",
                v(rd, wide),
                v(rn, half),
                lane(h << 2 | l << 1 | m)
            ))
        }
        (1, 1 | 3 | 5 | 7, 1 | 2) => {
            // FCMLA by element: half precision indexes H:L (H only for 4h), single precision H
            // (4s only); each index names a complex pair.
            let rotation = uimm(bits(w, 14, 13) as u64 * 90);
            let (e, arr, index, rm) = if size == 1 {
                if q == 0 && h == 1 {
                    return None;
                }
                ("h", arrangement(1, q), h << 1 | l, rm5)
            } else {
                if q == 0 || l == 1 {
                    return None;
                }
                ("s", "4s", h, rm5)
            };
            Some(format!(
                "fcmla {}, {}, v{rm}.{e}{}, {rotation}",
                v(rd, arr),
                v(rn, arr),
                lane(index)
            ))
        }
        _ => None,
    }
}
