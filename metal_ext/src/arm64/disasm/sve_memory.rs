//! SVE loads, stores and prefetches: contiguous (plain, first-fault, non-fault, non-temporal),
//! broadcasts, multi-register structures, gathers and scatters, and whole-register LDR/STR.

use super::fields::{bit, bits, imm, r, rsp, sext, uimm};
use super::sve::esize;

/// (mnemonic stem after "ld1"/"ldff1"/..., element size) of the 4-bit dtype field.
const DTYPE: [(&str, u32); 16] = [
    ("b", 0),
    ("b", 1),
    ("b", 2),
    ("b", 3),
    ("sw", 3),
    ("h", 1),
    ("h", 2),
    ("h", 3),
    ("sh", 3),
    ("sh", 2),
    ("w", 2),
    ("w", 3),
    ("sb", 3),
    ("sb", 2),
    ("sb", 1),
    ("d", 3),
];

/// Log2 of the bytes one element of a dtype reads from memory.
fn dtype_msz(dtype: u32) -> u32 {
    let (hi, lo) = (dtype >> 2, dtype & 3);
    if lo >= hi {
        hi
    } else {
        3 - hi
    }
}

/// "{z0.d}" or "{z0.d, z1.d, ...}" (wrapping at z31).
fn zlist(first: u32, count: u32, size: u32) -> String {
    let regs: Vec<String> = (0..count)
        .map(|i| format!("z{}.{}", (first + i) % 32, esize(size)))
        .collect();
    format!("{{{}}}", regs.join(", "))
}

/// "[xn]" or "[xn, #imm, mul vl]" from a signed offset counted in vectors.
fn vl_address(rn: u32, offset: i64) -> String {
    let base = rsp(rn, true);
    if offset == 0 {
        format!("[{base}]")
    } else {
        format!("[{base}, {}, mul vl]", imm(offset))
    }
}

/// "[xn, xm]" or "[xn, xm, lsl #s]".
fn scalar_address(rn: u32, rm: u32, shift: u32) -> String {
    let base = rsp(rn, true);
    if shift == 0 {
        format!("[{base}, {}]", r(rm, true))
    } else {
        format!("[{base}, {}, lsl #{shift}]", r(rm, true))
    }
}

/// "[xn, #imm]" or "[xn]".
fn byte_address(rn: u32, offset: i64) -> String {
    let base = rsp(rn, true);
    if offset == 0 {
        format!("[{base}]")
    } else {
        format!("[{base}, {}]", imm(offset))
    }
}

/// "[zn.s, #imm]" or "[zn.s]".
fn vector_immediate(zn: u32, size: u32, offset: u64) -> String {
    if offset == 0 {
        format!("[z{zn}.{}]", esize(size))
    } else {
        format!("[z{zn}.{}, {}]", esize(size), uimm(offset))
    }
}

/// "[xn, zm.d, sxtw #2]", "[xn, zm.d, lsl #3]" or "[xn, zm.d]".
fn vector_offset(rn: u32, zm: u32, size: u32, extend: Option<u32>, shift: u32) -> String {
    let base = rsp(rn, true);
    let index = format!("z{zm}.{}", esize(size));
    match (extend, shift) {
        (Some(xs), 0) => format!("[{base}, {index}, {}]", ["uxtw", "sxtw"][xs as usize]),
        (Some(xs), _) => format!("[{base}, {index}, {} #{shift}]", ["uxtw", "sxtw"][xs as usize]),
        (None, 0) => format!("[{base}, {index}]"),
        (None, _) => format!("[{base}, {index}, lsl #{shift}]"),
    }
}

/// SVE prefetch operation names; the unnamed ones print as an immediate.
fn prefetch_op(op: u32) -> String {
    match op {
        0..=5 | 8..=13 => {
            let kind = if op >= 8 { "pst" } else { "pld" };
            format!(
                "{kind}l{}{}",
                (op & 7) / 2 + 1,
                if op & 1 == 1 { "strm" } else { "keep" }
            )
        }
        _ => uimm(op as u64),
    }
}

fn prefetch(w: u32, msz: u32, address: String) -> Option<String> {
    if bit(w, 4) != 0 {
        return None;
    }
    let name = ["prfb", "prfh", "prfw", "prfd"][msz as usize];
    Some(format!(
        "{name} {}, p{}, {address}",
        prefetch_op(bits(w, 3, 0)),
        bits(w, 12, 10)
    ))
}

/// Gather load name: "ld1" or "ldff1", "s" when signed, then the memory size letter.
fn gather_name(msz: u32, unsigned: u32, ff: u32) -> Option<String> {
    if unsigned == 0 && msz == 3 {
        return None;
    }
    let sign = if unsigned == 1 { "" } else { "s" };
    Some(format!(
        "{}{sign}{}",
        if ff == 1 { "ldff1" } else { "ld1" },
        ["b", "h", "w", "d"][msz as usize]
    ))
}

fn load(w: u32, name: &str, size: u32, count: u32, address: String) -> Option<String> {
    Some(format!(
        "{name} {}, p{}/z, {address}",
        zlist(bits(w, 4, 0), count, size),
        bits(w, 12, 10)
    ))
}

fn store(w: u32, name: &str, size: u32, count: u32, address: String) -> Option<String> {
    Some(format!(
        "{name} {}, p{}, {address}",
        zlist(bits(w, 4, 0), count, size),
        bits(w, 12, 10)
    ))
}

/// Whole-register LDR/STR of a vector or predicate: a 9-bit offset in vector lengths.
fn register_fill_spill(w: u32, name: &str) -> Option<String> {
    let offset = sext((bits(w, 21, 16) << 3 | bits(w, 12, 10)) as u64, 9);
    let (rn, rt) = (bits(w, 9, 5), bits(w, 4, 0));
    match bits(w, 15, 13) {
        0b000 if bit(w, 4) == 0 => Some(format!("{name} p{}, {}", rt, vl_address(rn, offset))),
        0b010 => Some(format!("{name} z{rt}, {}", vl_address(rn, offset))),
        _ => None,
    }
}

/// op0 = 100: 32-bit gathers, broadcasts, register fills and unsized prefetches.
pub fn gather32(w: u32) -> Option<String> {
    let (op24, b22, b21, op15) = (bits(w, 24, 23), bit(w, 22), bit(w, 21), bits(w, 15, 13));
    let (rm, rn) = (bits(w, 20, 16), bits(w, 9, 5));
    if b22 == 1 && bit(w, 15) == 1 {
        let dtype = op24 << 2 | bits(w, 14, 13);
        let (stem, size) = DTYPE[dtype as usize];
        let offset = (bits(w, 21, 16) << dtype_msz(dtype)) as i64;
        return load(w, &format!("ld1r{stem}"), size, 1, byte_address(rn, offset));
    }
    if op24 == 3 && b22 == 0 && bit(w, 15) == 0 {
        return register_fill_spill(w, "ldr");
    }
    if op24 == 3 && b22 == 1 && bit(w, 15) == 0 {
        return prefetch(
            w,
            bits(w, 14, 13),
            vl_address(rn, sext(bits(w, 21, 16) as u64, 6)),
        );
    }
    let (unsigned, ff) = (bit(w, 14), bit(w, 13));
    match (b22, b21, bit(w, 15)) {
        (0, 0, 1) => match op15 {
            0b110 if rm != 31 => prefetch(w, op24, scalar_address(rn, rm, op24)),
            0b111 => prefetch(w, op24, vector_immediate(rn, 2, (rm << op24) as u64)),
            0b100 | 0b101 => {
                let sign = if bit(w, 13) == 1 { "" } else { "s" };
                if op24 == 3 || op24 == 2 && sign == "s" {
                    return None;
                }
                let name = format!("ldnt1{sign}{}", ["b", "h", "w"][op24 as usize]);
                load(w, &name, 2, 1, vector_scalar(rn, 2, rm))
            }
            _ => None,
        },
        (0, 1, 1) if op24 != 3 => {
            let name = gather_name(op24, unsigned, ff)?;
            if op24 == 2 && unsigned == 0 {
                return None;
            }
            load(w, &name, 2, 1, vector_immediate(rn, 2, (rm << op24) as u64))
        }
        (_, 1, 0) if op24 == 0 => {
            let msz = bits(w, 14, 13);
            prefetch(w, msz, vector_offset(rn, rm, 2, Some(b22), msz))
        }
        (_, _, 0) if op24 != 3 => {
            let name = gather_name(op24, unsigned, ff)?;
            if op24 == 2 && unsigned == 0 {
                return None;
            }
            let shift = if b21 == 1 { op24 } else { 0 };
            load(w, &name, 2, 1, vector_offset(rn, rm, 2, Some(b22), shift))
        }
        _ => None,
    }
}

/// "[zn.s, xm]" or "[zn.s]" (non-temporal gathers and scatters).
fn vector_scalar(zn: u32, size: u32, rm: u32) -> String {
    if rm == 31 {
        format!("[z{zn}.{}]", esize(size))
    } else {
        format!("[z{zn}.{}, {}]", esize(size), r(rm, true))
    }
}

/// op0 = 101: contiguous loads of every kind.
pub fn contiguous_load(w: u32) -> Option<String> {
    let (dtype, op15) = (bits(w, 24, 21), bits(w, 15, 13));
    let (msz, opc) = (bits(w, 24, 23), bits(w, 22, 21));
    let (rm, rn) = (bits(w, 20, 16), bits(w, 9, 5));
    let imm4 = sext(bits(w, 19, 16) as u64, 4);
    let (stem, size) = DTYPE[dtype as usize];
    let letter = ["b", "h", "w", "d"][msz as usize];
    match op15 {
        0b010 if rm != 31 => load(
            w,
            &format!("ld1{stem}"),
            size,
            1,
            scalar_address(rn, rm, dtype_msz(dtype)),
        ),
        // LDFF1 with XZR as the index is shown without it.
        0b011 if rm == 31 => load(w, &format!("ldff1{stem}"), size, 1, byte_address(rn, 0)),
        0b011 => load(
            w,
            &format!("ldff1{stem}"),
            size,
            1,
            scalar_address(rn, rm, dtype_msz(dtype)),
        ),
        0b101 if bit(w, 20) == 0 => load(w, &format!("ld1{stem}"), size, 1, vl_address(rn, imm4)),
        0b101 => load(w, &format!("ldnf1{stem}"), size, 1, vl_address(rn, imm4)),
        0b111 if bit(w, 20) == 0 => {
            let count = opc + 1;
            let name = if opc == 0 {
                format!("ldnt1{letter}")
            } else {
                format!("ld{count}{letter}")
            };
            load(w, &name, msz, count, vl_address(rn, imm4 * count as i64))
        }
        0b110 if rm != 31 => {
            let count = opc + 1;
            let name = if opc == 0 {
                format!("ldnt1{letter}")
            } else {
                format!("ld{count}{letter}")
            };
            load(w, &name, msz, count, scalar_address(rn, rm, msz))
        }
        0b001 if bit(w, 20) == 0 && opc < 2 => {
            let (name, scale) = if opc == 0 { ("ld1rq", 16) } else { ("ld1ro", 32) };
            load(
                w,
                &format!("{name}{letter}"),
                msz,
                1,
                byte_address(rn, imm4 * scale),
            )
        }
        0b000 if opc < 2 && rm != 31 => {
            let name = if opc == 0 { "ld1rq" } else { "ld1ro" };
            load(w, &format!("{name}{letter}"), msz, 1, scalar_address(rn, rm, msz))
        }
        _ => None,
    }
}

/// op0 = 110: 64-bit gathers and prefetches.
pub fn gather64(w: u32) -> Option<String> {
    let (msz, opc, op15) = (bits(w, 24, 23), bits(w, 22, 21), bits(w, 15, 13));
    let (rm, rn) = (bits(w, 20, 16), bits(w, 9, 5));
    let (unsigned, ff) = (bit(w, 14), bit(w, 13));
    match (opc, bit(w, 15)) {
        // Prefetches.
        (3, 1) if msz == 0 && op15 & 0b100 != 0 => {
            let m = bits(w, 14, 13);
            prefetch(w, m, vector_offset(rn, rm, 3, None, m))
        }
        (1 | 3, 0) if msz == 0 => {
            let m = bits(w, 14, 13);
            prefetch(w, m, vector_offset(rn, rm, 3, Some(bit(w, 22)), m))
        }
        (0, 1) if op15 == 0b111 => prefetch(w, msz, vector_immediate(rn, 3, (rm << msz) as u64)),
        (0, 1) if ff == 0 => {
            let sign = if unsigned == 1 { "" } else { "s" };
            if msz == 3 && unsigned == 0 {
                return None;
            }
            let name = format!("ldnt1{sign}{}", ["b", "h", "w", "d"][msz as usize]);
            load(w, &name, 3, 1, vector_scalar(rn, 3, rm))
        }
        // Loads.
        (_, 0) => {
            let scaled = bit(w, 21) == 1;
            if scaled && msz == 0 {
                return None;
            }
            let name = gather_name(msz, unsigned, ff)?;
            load(
                w,
                &name,
                3,
                1,
                vector_offset(rn, rm, 3, Some(bit(w, 22)), if scaled { msz } else { 0 }),
            )
        }
        (2 | 3, 1) => {
            let scaled = opc == 3;
            if scaled && msz == 0 {
                return None;
            }
            let name = gather_name(msz, unsigned, ff)?;
            load(
                w,
                &name,
                3,
                1,
                vector_offset(rn, rm, 3, None, if scaled { msz } else { 0 }),
            )
        }
        (1, 1) => {
            let name = gather_name(msz, unsigned, ff)?;
            load(w, &name, 3, 1, vector_immediate(rn, 3, (rm << msz) as u64))
        }
        _ => None,
    }
}

/// op0 = 111: stores.
pub fn store_group(w: u32) -> Option<String> {
    let (msz, opc, op15) = (bits(w, 24, 23), bits(w, 22, 21), bits(w, 15, 13));
    let (rm, rn) = (bits(w, 20, 16), bits(w, 9, 5));
    let imm4 = sext(bits(w, 19, 16) as u64, 4);
    let letter = ["b", "h", "w", "d"][msz as usize];
    let st1 = format!("st1{letter}");
    match op15 {
        0b000 | 0b010 if msz == 3 && bit(w, 22) == 0 => register_fill_spill(w, "str"),
        0b010 if opc >= msz && rm != 31 => store(w, &st1, opc, 1, scalar_address(rn, rm, msz)),
        0b111 if bit(w, 20) == 0 && opc >= msz => store(w, &st1, opc, 1, vl_address(rn, imm4)),
        0b111 if bit(w, 20) == 0 => None,
        0b001 if opc == 0 || opc == 2 => {
            // Non-temporal scatters: [zn.d, xm] (opc 00) or [zn.s, xm] (opc 10).
            let size = if opc == 0 { 3 } else { 2 };
            if size == 2 && msz == 3 {
                return None;
            }
            store(w, &format!("stnt1{letter}"), size, 1, vector_scalar(rn, size, rm))
        }
        0b111 => {
            let count = opc + 1;
            let name = if opc == 0 {
                format!("stnt1{letter}")
            } else {
                format!("st{count}{letter}")
            };
            store(w, &name, msz, count, vl_address(rn, imm4 * count as i64))
        }
        0b011 if rm != 31 => {
            let count = opc + 1;
            let name = if opc == 0 {
                format!("stnt1{letter}")
            } else {
                format!("st{count}{letter}")
            };
            store(w, &name, msz, count, scalar_address(rn, rm, msz))
        }
        0b101 => match opc {
            0 => store(w, &st1, 3, 1, vector_offset(rn, rm, 3, None, 0)),
            1 if msz != 0 => store(w, &st1, 3, 1, vector_offset(rn, rm, 3, None, msz)),
            2 => store(w, &st1, 3, 1, vector_immediate(rn, 3, (rm << msz) as u64)),
            3 if msz != 3 => store(w, &st1, 2, 1, vector_immediate(rn, 2, (rm << msz) as u64)),
            _ => None,
        },
        0b100 | 0b110 => {
            let xs = Some(bit(w, 14));
            match opc {
                0 => store(w, &st1, 3, 1, vector_offset(rn, rm, 3, xs, 0)),
                1 if msz != 0 => store(w, &st1, 3, 1, vector_offset(rn, rm, 3, xs, msz)),
                2 if msz != 3 => store(w, &st1, 2, 1, vector_offset(rn, rm, 2, xs, 0)),
                3 if msz != 3 && msz != 0 => store(w, &st1, 2, 1, vector_offset(rn, rm, 2, xs, msz)),
                _ => None,
            }
        }
        _ => None,
    }
}
