//! Data processing with an immediate: PC-relative addresses, add/sub, tags, logical, move wide,
//! bitfield moves and extract.

use super::fields::{bit, bitmask, bits, imm, r, rsp, sext, uimm};

pub fn decode(w: u32, pc: u64) -> Option<String> {
    match bits(w, 25, 23) {
        0b000 | 0b001 => Some(pc_relative(w, pc)),
        0b010 => add_sub(w),
        0b011 => tags(w),
        0b100 => logical(w),
        0b101 => move_wide(w),
        0b110 => bitfield(w),
        _ => extract(w),
    }
}

fn pc_relative(w: u32, pc: u64) -> String {
    let rd = r(bits(w, 4, 0), true);
    let lo = bits(w, 30, 29) as u64;
    let hi = bits(w, 23, 5) as u64;
    let off = sext(hi << 2 | lo, 21);
    if bit(w, 31) == 0 {
        format!("adr {rd}, {}", uimm(pc.wrapping_add(off as u64)))
    } else {
        let base = pc & !0xfff;
        format!("adrp {rd}, {}", uimm(base.wrapping_add((off << 12) as u64)))
    }
}

fn add_sub(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let sub = bit(w, 30) == 1;
    let setflags = bit(w, 29) == 1;
    let shift = bit(w, 22);
    let value = bits(w, 21, 10) as i64;
    let (rn, rd) = (bits(w, 9, 5), bits(w, 4, 0));
    let mut operand = imm(value);
    if shift == 1 {
        operand += ", lsl #12";
    }
    let src = rsp(rn, x);
    let text = match (sub, setflags) {
        (false, false) if value == 0 && shift == 0 && (rd == 31 || rn == 31) => {
            format!("mov {}, {src}", rsp(rd, x))
        }
        (_, false) => format!(
            "{} {}, {src}, {operand}",
            if sub { "sub" } else { "add" },
            rsp(rd, x)
        ),
        (_, true) if rd == 31 => format!("{} {src}, {operand}", if sub { "cmp" } else { "cmn" }),
        (_, true) => format!(
            "{} {}, {src}, {operand}",
            if sub { "subs" } else { "adds" },
            r(rd, x)
        ),
    };
    Some(text)
}

/// ADDG/SUBG (memory tagging): the offset counts 16-byte granules.
fn tags(w: u32) -> Option<String> {
    if bits(w, 31, 29) & 0b101 != 0b100 || bit(w, 22) != 0 || bits(w, 15, 14) != 0 {
        return None;
    }
    let name = if bit(w, 30) == 1 { "subg" } else { "addg" };
    let offset = bits(w, 21, 16) as i64 * 16;
    let tag = bits(w, 13, 10) as i64;
    Some(format!(
        "{name} {}, {}, {}, {}",
        rsp(bits(w, 4, 0), true),
        rsp(bits(w, 9, 5), true),
        imm(offset),
        imm(tag)
    ))
}

fn logical(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let n = bit(w, 22);
    if !x && n == 1 {
        return None;
    }
    let value = bitmask(n, bits(w, 21, 16), bits(w, 15, 10), if x { 64 } else { 32 })?;
    let (rn, rd) = (bits(w, 9, 5), bits(w, 4, 0));
    let v = uimm(value);
    // capstone shows the mask of MOV as a signed number of the register's width, and that of
    // 64-bit ANDS/TST as a signed 64-bit number.
    let signed = imm(if x {
        value as i64
    } else {
        value as u32 as i32 as i64
    });
    let flag_setting = if x { signed.clone() } else { v.clone() };
    Some(match bits(w, 30, 29) {
        0 => format!("and {}, {}, {v}", rsp(rd, x), r(rn, x)),
        1 if rn == 31 => format!("mov {}, {signed}", rsp(rd, x)),
        1 => format!("orr {}, {}, {v}", rsp(rd, x), r(rn, x)),
        2 => format!("eor {}, {}, {v}", rsp(rd, x), r(rn, x)),
        _ if rd == 31 => format!("tst {}, {flag_setting}", r(rn, x)),
        _ => format!("ands {}, {}, {flag_setting}", r(rd, x), r(rn, x)),
    })
}

fn move_wide(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let opc = bits(w, 30, 29);
    let hw = bits(w, 22, 21);
    if opc == 1 || (!x && hw >= 2) {
        return None;
    }
    let value = bits(w, 20, 5) as u64;
    let shift = hw * 16;
    let rd = r(bits(w, 4, 0), x);
    let explicit = |name: &str| {
        if shift == 0 {
            format!("{name} {rd}, {}", uimm(value))
        } else {
            format!("{name} {rd}, {}, lsl #{shift}", uimm(value))
        }
    };
    Some(match opc {
        // MOV is not shown when MOVZ could build the value: a 32-bit MOVN of 0xffff.
        0 if value == 0 && shift != 0 || !x && value == 0xffff => explicit("movn"),
        0 => {
            let v = !(value << shift);
            format!(
                "mov {rd}, {}",
                imm(if x { v as i64 } else { v as u32 as i32 as i64 })
            )
        }
        2 if value == 0 && shift != 0 => explicit("movz"),
        2 => {
            let v = value << shift;
            format!(
                "mov {rd}, {}",
                imm(if x { v as i64 } else { v as u32 as i32 as i64 })
            )
        }
        _ => explicit("movk"),
    })
}

fn bitfield(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let opc = bits(w, 30, 29);
    let (immr, imms) = (bits(w, 21, 16), bits(w, 15, 10));
    if opc == 3 || bit(w, 22) != bit(w, 31) || (!x && (immr | imms) & 0x20 != 0) {
        return None;
    }
    let size = if x { 64 } else { 32 };
    let (rn, rd) = (bits(w, 9, 5), bits(w, 4, 0));
    let (d, n) = (r(rd, x), r(rn, x));
    let two = |name: &str, a: u32, b: u32| format!("{name} {d}, {n}, {}, {}", uimm(a as u64), uimm(b as u64));
    Some(match opc {
        0 | 2 => {
            let signed = opc == 0;
            if immr == 0 && (imms == 7 || imms == 15 || (imms == 31 && x && signed)) && (signed || !x) {
                let width = match imms {
                    7 => "b",
                    15 => "h",
                    _ => "w",
                };
                format!(
                    "{}xt{width} {d}, {}",
                    if signed { "s" } else { "u" },
                    r(rn, false)
                )
            } else if imms == size - 1 {
                format!(
                    "{} {d}, {n}, {}",
                    if signed { "asr" } else { "lsr" },
                    uimm(immr as u64)
                )
            } else if !signed && imms + 1 == immr {
                format!("lsl {d}, {n}, {}", uimm((size - 1 - imms) as u64))
            } else if imms < immr {
                two(if signed { "sbfiz" } else { "ubfiz" }, size - immr, imms + 1)
            } else {
                two(if signed { "sbfx" } else { "ubfx" }, immr, imms - immr + 1)
            }
        }
        _ => {
            // As LLVM: BFC takes over BFXIL's range only when immr is zero.
            if rn == 31 && (immr == 0 || imms < immr) {
                format!(
                    "bfc {d}, {}, {}",
                    uimm(((size - immr) % size) as u64),
                    uimm(imms as u64 + 1)
                )
            } else if imms < immr {
                two("bfi", size - immr, imms + 1)
            } else {
                two("bfxil", immr, imms - immr + 1)
            }
        }
    })
}

fn extract(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let imms = bits(w, 15, 10);
    if bits(w, 30, 29) != 0 || bit(w, 21) != 0 || bit(w, 22) != bit(w, 31) || (!x && imms >= 32) {
        return None;
    }
    let (rm, rn, rd) = (bits(w, 20, 16), bits(w, 9, 5), bits(w, 4, 0));
    Some(if rm == rn {
        format!("ror {}, {}, {}", r(rd, x), r(rn, x), uimm(imms as u64))
    } else {
        format!(
            "extr {}, {}, {}, {}",
            r(rd, x),
            r(rn, x),
            r(rm, x),
            uimm(imms as u64)
        )
    })
}
