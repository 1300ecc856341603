//! SME: outer products into ZA tiles, tile loads and stores, moves between tiles and vectors,
//! and the horizontal/vertical accumulates.

use super::fields::{bit, bits, r, rsp, uimm};
use super::sve::esize;

pub fn decode(w: u32) -> Option<String> {
    match bits(w, 31, 25) {
        0b100_0000 => fp_outer_product(w),
        0b101_0000 => integer_outer_product(w),
        0b111_0000 => tile_memory(w),
        0b110_0000 if bits(w, 31, 8) == 0xc0_0800 => Some(zero_tiles(bits(w, 7, 0))),
        0b110_0000 if bit(w, 24) == 0 => tile_moves(w),
        _ => None,
    }
}

/// "p3/m, p4/m" in the order Pn (bits 12:10), Pm (bits 15:13).
fn predicate_pair(w: u32) -> String {
    format!("p{}/m, p{}/m", bits(w, 12, 10), bits(w, 15, 13))
}

/// "{name} zaN.t, pn/m, pm/m, zn.s, zm.s".
fn outer(w: u32, name: &str, tile: u32, acc: &str, src: &str) -> Option<String> {
    Some(format!(
        "{name} za{tile}.{acc}, {}, z{}.{src}, z{}.{src}",
        predicate_pair(w),
        bits(w, 9, 5),
        bits(w, 20, 16)
    ))
}

fn fp_outer_product(w: u32) -> Option<String> {
    let suffix = if bit(w, 4) == 1 { "s" } else { "a" };
    match (bit(w, 24), bits(w, 23, 21)) {
        (0, 0b100) if bits(w, 3, 2) == 0 => outer(w, &format!("fmop{suffix}"), bits(w, 1, 0), "s", "s"),
        (0, 0b110) if bit(w, 3) == 0 => outer(w, &format!("fmop{suffix}"), bits(w, 2, 0), "d", "d"),
        (1, 0b100) if bits(w, 3, 2) == 0 => outer(w, &format!("bfmop{suffix}"), bits(w, 1, 0), "s", "h"),
        (1, 0b101) if bits(w, 3, 2) == 0 => outer(w, &format!("fmop{suffix}"), bits(w, 1, 0), "s", "h"),
        _ => None,
    }
}

fn integer_outer_product(w: u32) -> Option<String> {
    let suffix = if bit(w, 4) == 1 { "s" } else { "a" };
    let stem = ["smop", "sumop", "usmop", "umop"][(bit(w, 24) << 1 | bit(w, 21)) as usize];
    let name = format!("{stem}{suffix}");
    match bits(w, 23, 22) {
        0b10 if bits(w, 3, 2) == 0 => outer(w, &name, bits(w, 1, 0), "s", "b"),
        0b11 if bit(w, 3) == 0 => outer(w, &name, bits(w, 2, 0), "d", "h"),
        _ => None,
    }
}

/// "za1v.h[w13, 5]": a tile slice from the size, the tile:index field and the V bit.
fn slice(size: u32, tile_index: u32, vertical: u32, rs: u32) -> String {
    // Of the 4-bit field, the high bits name the tile and the low bits the slice offset.
    let index_bits = 4 - size.min(4);
    let (tile, index) = (tile_index >> index_bits, tile_index & ((1 << index_bits) - 1));
    let kind = ["b", "h", "s", "d", "q"][size as usize];
    let offset = uimm(index as u64);
    format!(
        "za{tile}{}.{kind}[w{}, {}]",
        if vertical == 1 { "v" } else { "h" },
        12 + rs,
        &offset[1..]
    )
}

fn tile_memory(w: u32) -> Option<String> {
    let (rm, rn) = (bits(w, 20, 16), bits(w, 9, 5));
    let size = if bit(w, 24) == 1 {
        if bits(w, 23, 22) != 3 {
            return za_array_memory(w);
        }
        4
    } else {
        bits(w, 23, 22)
    };
    if bit(w, 4) != 0 {
        return None;
    }
    let tile = slice(size, bits(w, 3, 0), bit(w, 15), bits(w, 14, 13));
    let base = rsp(rn, true);
    let address = match (rm, size) {
        (31, _) => format!("[{base}]"),
        (_, 0) => format!("[{base}, {}]", r(rm, true)),
        _ => format!("[{base}, {}, lsl #{size}]", r(rm, true)),
    };
    let letter = ["b", "h", "w", "d", "q"][size as usize];
    let pg = bits(w, 12, 10);
    Some(if bit(w, 21) == 0 {
        format!("ld1{letter} {{{tile}}}, p{pg}/z, {address}")
    } else {
        format!("st1{letter} {{{tile}}}, p{pg}, {address}")
    })
}

/// LDR/STR of a ZA array vector: "ldr za[w13, 7], [x8, #7, mul vl]".
fn za_array_memory(w: u32) -> Option<String> {
    if bits(w, 23, 22) != 0 || bits(w, 20, 15) != 0 || bits(w, 12, 10) != 0 || bit(w, 4) != 0 {
        return None;
    }
    let name = if bit(w, 21) == 1 { "str" } else { "ldr" };
    let offset = bits(w, 3, 0) as u64;
    let slot = &uimm(offset)[1..].to_string();
    let base = rsp(bits(w, 9, 5), true);
    let address = if offset == 0 {
        format!("[{base}]")
    } else {
        format!("[{base}, {}, mul vl]", uimm(offset))
    };
    Some(format!("{name} za[w{}, {slot}], {address}", 12 + bits(w, 14, 13)))
}

fn tile_moves(w: u32) -> Option<String> {
    let size = bits(w, 23, 22);
    match bits(w, 21, 17) {
        0b00000 | 0b00001 => {
            let quad = bit(w, 16) == 1;
            if quad && size != 3 {
                return None;
            }
            let kind = if quad { 4 } else { size };
            let z_kind = if quad { "q" } else { esize(size) };
            let pg = bits(w, 12, 10);
            if bit(w, 17) == 0 {
                if bit(w, 4) != 0 {
                    return None;
                }
                let tile = slice(kind, bits(w, 3, 0), bit(w, 15), bits(w, 14, 13));
                Some(format!("mov {tile}, p{pg}/m, z{}.{z_kind}", bits(w, 9, 5)))
            } else {
                if bit(w, 9) != 0 {
                    return None;
                }
                let tile = slice(kind, bits(w, 8, 5), bit(w, 15), bits(w, 14, 13));
                Some(format!("mov z{}.{z_kind}, p{pg}/m, {tile}", bits(w, 4, 0)))
            }
        }
        0b01000 if size >= 2 && bit(w, 4) == 0 => {
            let name = if bit(w, 16) == 1 { "addva" } else { "addha" };
            let (tile, e) = if size == 2 {
                if bits(w, 3, 2) != 0 {
                    return None;
                }
                (bits(w, 1, 0), "s")
            } else {
                if bit(w, 3) != 0 {
                    return None;
                }
                (bits(w, 2, 0), "d")
            };
            Some(format!(
                "{name} za{tile}.{e}, {}, z{}.{e}",
                predicate_pair(w),
                bits(w, 9, 5)
            ))
        }
        _ => None,
    }
}

/// ZERO's tile list: the whole array, a half-word tile, a set of word tiles (LLVM's aliases,
/// written without spaces), or else the double-word tiles.
fn zero_tiles(mask: u32) -> String {
    let low = mask & 0xf;
    let list = match mask {
        0xff => "za".to_string(),
        0x55 => "za0.h".to_string(),
        0xaa => "za1.h".to_string(),
        _ if low != 0 && mask == low | low << 4 => (0..4)
            .filter(|i| low >> i & 1 == 1)
            .map(|i| format!("za{i}.s"))
            .collect::<Vec<_>>()
            .join(","),
        _ => (0..8)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| format!("za{i}.d"))
            .collect::<Vec<_>>()
            .join(", "),
    };
    format!("zero {{{list}}}")
}
