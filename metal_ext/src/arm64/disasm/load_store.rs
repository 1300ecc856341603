//! The load/store class: what the decoded form holds is printed from it (`transfers`); the
//! neighbours the core does not execute, from their words: LDLAR/STLLR, LDAPUR/STLUR, memory
//! tags, memory copy/set, LD64B and pointer-authenticated loads.

use super::fields::{bit, bits, imm, r, rsp, sext};
use super::transfers::{self, offset_address};
use crate::arm64::decode;

pub fn decode(w: u32, pc: u64) -> Option<String> {
    if let Some(insn) = decode::decode(w, pc) {
        return transfers::print(&insn);
    }
    let v = bit(w, 26) == 1;
    match bits(w, 29, 27) {
        0b001 if !v && bit(w, 24) == 0 && bit(w, 23) == 1 && bit(w, 21) == 0 && bit(w, 15) == 0 => limited_ordering(w),
        0b011 if bit(w, 24) == 0 => None,
        0b011 if bits(w, 11, 10) == 1 && bit(w, 21) == 0 => memory_copy_set(w),
        0b011 if !v && bits(w, 25, 24) == 1 && bit(w, 21) == 0 && bits(w, 11, 10) == 0 => ordered_unscaled(w),
        0b011 if !v && bits(w, 31, 24) == 0b1101_1001 && bit(w, 21) == 1 => memory_tags(w),
        0b111 if !v && bit(w, 24) == 0 && bit(w, 21) == 1 => match bits(w, 11, 10) {
            0 => wide_atomic(w),
            1 | 3 if bits(w, 31, 30) == 3 => pointer_auth_load(w),
            _ => None,
        },
        _ => None,
    }
}

fn base(rn: u32) -> String {
    rsp(rn, true)
}

/// LDLAR/STLLR (FEAT_LOR): LDAR/STLR within a limited ordering region.
fn limited_ordering(w: u32) -> Option<String> {
    let (size, l) = (bits(w, 31, 30), bit(w, 22));
    let (rs, rt2, rn, rt) = (bits(w, 20, 16), bits(w, 14, 10), bits(w, 9, 5), bits(w, 4, 0));
    if rs != 31 || rt2 != 31 {
        return None;
    }
    let name = if l == 1 { "ldlar" } else { "stllr" };
    let suffix = ["b", "h", "", ""][size as usize];
    Some(format!("{name}{suffix} {}, [{}]", r(rt, size == 3), base(rn)))
}

/// LDAPUR/STLUR: release/acquire accesses with an unscaled signed offset.
fn ordered_unscaled(w: u32) -> Option<String> {
    let (size, opc) = (bits(w, 31, 30), bits(w, 23, 22));
    let (name, x) = match (size, opc) {
        (0, 0) => ("stlurb", false),
        (0, 1) => ("ldapurb", false),
        (0, 2) => ("ldapursb", true),
        (0, 3) => ("ldapursb", false),
        (1, 0) => ("stlurh", false),
        (1, 1) => ("ldapurh", false),
        (1, 2) => ("ldapursh", true),
        (1, 3) => ("ldapursh", false),
        (2, 0) => ("stlur", false),
        (2, 1) => ("ldapur", false),
        (2, 2) => ("ldapursw", true),
        (3, 0) => ("stlur", true),
        (3, 1) => ("ldapur", true),
        _ => return None,
    };
    let off = sext(bits(w, 20, 12) as u64, 9);
    Some(format!(
        "{name} {}, {}",
        r(bits(w, 4, 0), x),
        offset_address(bits(w, 9, 5), off)
    ))
}

/// CPY*/SET* (FEAT_MOPS): prologue, main and epilogue of a memory copy or set.
fn memory_copy_set(w: u32) -> Option<String> {
    let (rs, op, rn, rd) = (bits(w, 20, 16), bits(w, 15, 12), bits(w, 9, 5), bits(w, 4, 0));
    let stage = bits(w, 23, 22);
    if bits(w, 31, 30) != 0 || rd == rn || rd == rs || rn == rs || rd == 31 {
        return None;
    }
    let is_copy_f = bit(w, 26) == 0;
    if stage < 3 {
        if rs == 31 {
            return None;
        }
        let family = if is_copy_f { "cpyf" } else { "cpy" };
        let name = format!(
            "{family}{}{}{}",
            ["p", "m", "e"][stage as usize],
            ["", "wt", "rt", "t"][(op & 3) as usize],
            ["", "wn", "rn", "n"][(op >> 2) as usize]
        );
        Some(format!(
            "{name} [{}]!, [{}]!, {}!",
            r(rd, true),
            r(rs, true),
            r(rn, true)
        ))
    } else {
        if op >= 12 {
            return None;
        }
        let family = if is_copy_f { "set" } else { "setg" };
        let name = format!(
            "{family}{}{}",
            ["p", "m", "e"][(op >> 2) as usize],
            ["", "t", "n", "tn"][(op & 3) as usize]
        );
        Some(format!(
            "{name} [{}]!, {}!, {}",
            r(rd, true),
            r(rn, true),
            r(rs, true)
        ))
    }
}

/// STG, STZG, ST2G, STZ2G, LDG and the bulk STGM/STZGM/LDGM (FEAT_MTE).
fn memory_tags(w: u32) -> Option<String> {
    let (opc, imm9, mode) = (bits(w, 23, 22), bits(w, 20, 12), bits(w, 11, 10));
    let (rn, rt) = (bits(w, 9, 5), bits(w, 4, 0));
    let off = sext(imm9 as u64, 9) * 16;
    if mode == 0 {
        return match opc {
            1 => Some(format!("ldg {}, {}", r(rt, true), offset_address(rn, off))),
            _ if imm9 != 0 => None,
            _ => Some(format!(
                "{} {}, [{}]",
                ["stzgm", "", "stgm", "ldgm"][opc as usize],
                r(rt, true),
                base(rn)
            )),
        };
    }
    let name = ["stg", "stzg", "st2g", "stz2g"][opc as usize];
    let t = rsp(rt, true);
    Some(match mode {
        1 => format!("{name} {t}, [{}], {}", base(rn), imm(off)),
        2 => format!("{name} {t}, {}", offset_address(rn, off)),
        _ => format!("{name} {t}, [{}, {}]!", base(rn), imm(off)),
    })
}

/// LD64B/ST64B/ST64BV/ST64BV0 (FEAT_LS64): 64-byte single-copy atomic accesses, in the LSE
/// atomics' space.
fn wide_atomic(w: u32) -> Option<String> {
    let (size, a, rl) = (bits(w, 31, 30), bit(w, 23), bit(w, 22));
    let (rs, o3, opc, rn, rt) = (bits(w, 20, 16), bit(w, 15), bits(w, 14, 12), bits(w, 9, 5), bits(w, 4, 0));
    let addr = format!("[{}]", base(rn));
    // The data registers are eight consecutive ones starting at an even register up to x22.
    if o3 == 0 || !matches!(opc, 1 | 2 | 3 | 5) || rt % 2 == 1 || rt > 22 || size != 3 || a == 1 || rl == 1 {
        return None;
    }
    match opc {
        1 | 5 if rs == 31 => Some(format!("{} {}, {addr}", if opc == 5 { "ld64b" } else { "st64b" }, r(rt, true))),
        2 | 3 => {
            let name = if opc == 2 { "st64bv0" } else { "st64bv" };
            Some(format!("{name} {}, {}, {addr}", r(rs, true), r(rt, true)))
        }
        _ => None,
    }
}

/// LDRAA/LDRAB: loads through a pointer-authenticated base.
fn pointer_auth_load(w: u32) -> Option<String> {
    let name = if bit(w, 23) == 1 { "ldrab" } else { "ldraa" };
    let off = sext((bit(w, 22) << 9 | bits(w, 20, 12)) as u64, 10) * 8;
    let (rn, rt) = (bits(w, 9, 5), bits(w, 4, 0));
    if bit(w, 11) == 1 && rn != 31 && rt == rn {
        return None;
    }
    Some(if bit(w, 11) == 1 {
        format!("{name} {}, [{}, {}]!", r(rt, true), base(rn), imm(off))
    } else {
        format!("{name} {}, {}", r(rt, true), offset_address(rn, off))
    })
}
