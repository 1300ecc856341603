//! Loads and stores outside the decoded form, from their words: exclusives and ordered
//! accesses, compare-and-swap, literals, LDPSW, LDTR/STTR, atomics, pointer-authenticated loads,
//! memory tags, memory copy/set, and AdvSIMD structure loads and stores. (Single registers and
//! pairs are `transfers`.)

use super::fields::{arrangement, bit, bits, fp_reg, imm, lane, r, rsp, sext, uimm};
use super::transfers::{self, offset_address, prefetch_op};
use crate::arm64::decode;

pub fn decode(w: u32, pc: u64) -> Option<String> {
    let v = bit(w, 26) == 1;
    match bits(w, 29, 27) {
        0b001 if !v && bit(w, 24) == 0 => exclusive(w),
        0b001 if v && bit(w, 31) == 0 && bits(w, 29, 24) & 0b111110 == 0b001100 => {
            if bit(w, 24) == 0 {
                multiple_structures(w)
            } else {
                single_structure(w)
            }
        }
        0b011 if bit(w, 24) == 0 => literal(w, pc),
        0b011 if bits(w, 11, 10) == 1 && bit(w, 21) == 0 => memory_copy_set(w),
        0b011 if !v && bits(w, 25, 24) == 1 && bit(w, 21) == 0 && bits(w, 11, 10) == 0 => ordered_unscaled(w),
        0b011 if !v && bits(w, 31, 24) == 0b1101_1001 && bit(w, 21) == 1 => memory_tags(w),
        0b101 | 0b111 => match decode::decode(w, pc) {
            Some(insn) => transfers::print(&insn),
            None if bits(w, 29, 27) == 0b101 => signed_pair(w),
            None => single_outside_the_form(w),
        },
        _ => None,
    }
}

fn base(rn: u32) -> String {
    rsp(rn, true)
}

fn exclusive(w: u32) -> Option<String> {
    let size = bits(w, 31, 30);
    let (o2, l, o1, o0) = (bit(w, 23), bit(w, 22), bit(w, 21), bit(w, 15));
    let (rs, rt2, rn, rt) = (bits(w, 20, 16), bits(w, 14, 10), bits(w, 9, 5), bits(w, 4, 0));
    let suffix = ["b", "h", "", ""][size as usize];
    let x = size == 3;
    let addr = format!("[{}]", base(rn));
    match (o2, o1) {
        (0, 0) => {
            if l == 1 && (rs != 31 || rt2 != 31) {
                return None;
            }
            let name = ["stxr", "stlxr", "ldxr", "ldaxr"][(l << 1 | o0) as usize];
            Some(if l == 0 {
                format!("{name}{suffix} {}, {}, {addr}", r(rs, false), r(rt, x))
            } else {
                format!("{name}{suffix} {}, {addr}", r(rt, x))
            })
        }
        (0, 1) if size >= 2 => {
            if l == 1 && rt == rt2 {
                return None;
            }
            let name = ["stxp", "stlxp", "ldxp", "ldaxp"][(l << 1 | o0) as usize];
            Some(if l == 0 {
                format!("{name} {}, {}, {}, {addr}", r(rs, false), r(rt, x), r(rt2, x))
            } else {
                format!("{name} {}, {}, {addr}", r(rt, x), r(rt2, x))
            })
        }
        (0, 1) => {
            if rt2 != 31 || rs % 2 == 1 || rt % 2 == 1 {
                return None;
            }
            let x = size == 1;
            let name = ["casp", "caspl", "caspa", "caspal"][(l << 1 | o0) as usize];
            Some(format!(
                "{name} {}, {}, {}, {}, {addr}",
                r(rs, x),
                r(rs + 1, x),
                r(rt, x),
                r(rt + 1, x),
            ))
        }
        (1, 0) => {
            if rs != 31 || rt2 != 31 {
                return None;
            }
            let name = ["stllr", "stlr", "ldlar", "ldar"][(l << 1 | o0) as usize];
            Some(format!("{name}{suffix} {}, {addr}", r(rt, x)))
        }
        _ => {
            if rt2 != 31 {
                return None;
            }
            let name = ["cas", "casl", "casa", "casal"][(l << 1 | o0) as usize];
            Some(format!("{name}{suffix} {}, {}, {addr}", r(rs, x), r(rt, x)))
        }
    }
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

fn literal(w: u32, pc: u64) -> Option<String> {
    let opc = bits(w, 31, 30);
    let rt = bits(w, 4, 0);
    let target = uimm(pc.wrapping_add((sext(bits(w, 23, 5) as u64, 19) * 4) as u64));
    let text = if bit(w, 26) == 1 {
        format!("ldr {}, {target}", fp_reg(["s", "d", "q"].get(opc as usize)?, rt))
    } else {
        match opc {
            0 => format!("ldr {}, {target}", r(rt, false)),
            1 => format!("ldr {}, {target}", r(rt, true)),
            2 => format!("ldrsw {}, {target}", r(rt, true)),
            _ => format!("prfm {}, {target}", prefetch_op(rt)),
        }
    };
    Some(text)
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

/// LDPSW, the one pair outside the decoded form.
fn signed_pair(w: u32) -> Option<String> {
    let (mode, rt2, rn, rt) = (bits(w, 24, 23), bits(w, 14, 10), bits(w, 9, 5), bits(w, 4, 0));
    if bits(w, 31, 30) != 1 || bit(w, 26) == 1 || bit(w, 22) == 0 || mode == 0 {
        return None;
    }
    // Like LLVM, refuse the UNPREDICTABLE forms: a load into one register twice, and a
    // writeback base that is also transferred.
    if rt == rt2 || mode & 1 == 1 && rn != 31 && (rt == rn || rt2 == rn) {
        return None;
    }
    let off = sext(bits(w, 21, 15) as u64, 7) << 2;
    let regs = format!("{}, {}", r(rt, true), r(rt2, true));
    Some(match mode {
        1 => format!("ldpsw {regs}, [{}], {}", base(rn), imm(off)),
        3 => format!("ldpsw {regs}, [{}, {}]!", base(rn), imm(off)),
        _ => format!("ldpsw {regs}, {}", offset_address(rn, off)),
    })
}

/// The single-register forms outside the decoded form: LSE atomics, LDRAA/LDRAB, and the
/// unprivileged LDTR/STTR family.
fn single_outside_the_form(w: u32) -> Option<String> {
    let (size, v) = (bits(w, 31, 30), bit(w, 26) == 1);
    let (rn, rt) = (bits(w, 9, 5), bits(w, 4, 0));
    if bit(w, 24) == 1 || v {
        return None;
    }
    if bit(w, 21) == 1 {
        return match bits(w, 11, 10) {
            0 => atomic(w),
            1 | 3 if size == 3 => pointer_auth_load(w),
            _ => None,
        };
    }
    if bits(w, 11, 10) != 2 {
        return None;
    }
    let (_, scale, load_ext) = decode::single_form(w)?;
    // Like LLVM, refuse a load that writes back to its own base (as the other loads of opc 1
    // and 3).
    if bit(w, 22) == 1 && rn != 31 && rt == rn {
        return None;
    }
    let size = 1u8 << scale;
    let t = r(rt, transfers::unprivileged_is_wide(load_ext, size));
    let off = sext(bits(w, 20, 12) as u64, 9);
    Some(format!("{} {t}, {}", transfers::unprivileged_name(load_ext, size), offset_address(rn, off)))
}

/// LSE atomics: LDADD..LDUMIN, SWP, LDAPR, and the ST<op> aliases that discard the result.
fn atomic(w: u32) -> Option<String> {
    let (size, a, rl) = (bits(w, 31, 30), bit(w, 23), bit(w, 22));
    let (rs, o3, opc, rn, rt) = (
        bits(w, 20, 16),
        bit(w, 15),
        bits(w, 14, 12),
        bits(w, 9, 5),
        bits(w, 4, 0),
    );
    let x = size == 3;
    let width = ["b", "h", "", ""][size as usize];
    let order = ["", "l", "a", "al"][(a << 1 | rl) as usize];
    let addr = format!("[{}]", base(rn));
    const OPS: [&str; 8] = ["add", "clr", "eor", "set", "smax", "smin", "umax", "umin"];
    match (o3, opc) {
        (0, _) if rt == 31 && a == 0 => Some(format!(
            "st{}{order}{width} {}, {addr}",
            OPS[opc as usize],
            r(rs, x)
        )),
        (0, _) => Some(format!(
            "ld{}{order}{width} {}, {}, {addr}",
            OPS[opc as usize],
            r(rs, x),
            r(rt, x)
        )),
        (1, 0) => Some(format!("swp{order}{width} {}, {}, {addr}", r(rs, x), r(rt, x))),
        (1, 4) if a == 1 && rl == 0 && rs == 31 => Some(format!("ldapr{width} {}, {addr}", r(rt, x))),
        // LD64B/ST64B/ST64BV/ST64BV0: 64-byte single-copy atomic accesses.
        // The data registers are eight consecutive ones starting at an even register up to x22.
        _ if o3 == 1 && matches!(opc, 1 | 2 | 3 | 5) && (rt % 2 == 1 || rt > 22) => None,
        (1, 1 | 5) if size == 3 && a == 0 && rl == 0 && rs == 31 => Some(format!(
            "{} {}, {addr}",
            if opc == 5 { "ld64b" } else { "st64b" },
            r(rt, true)
        )),
        (1, 2 | 3) if size == 3 && a == 0 && rl == 0 => Some(format!(
            "{} {}, {}, {addr}",
            if opc == 2 { "st64bv0" } else { "st64bv" },
            r(rs, true),
            r(rt, true)
        )),
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

/// "{v0.16b, v1.16b}": `count` consecutive vector registers (wrapping at 31).
fn vector_list(first: u32, count: u32, suffix: &str) -> String {
    let regs: Vec<String> = (0..count)
        .map(|i| format!("v{}{suffix}", (first + i) % 32))
        .collect();
    format!("{{{}}}", regs.join(", "))
}

/// Post-index part: ", #imm" (bytes moved) when Rm is 31, else ", xm".
fn post_index(w: u32, bytes: u32) -> String {
    if bit(w, 23) == 0 {
        String::new()
    } else if bits(w, 20, 16) == 31 {
        format!(", #{bytes}")
    } else {
        format!(", {}", r(bits(w, 20, 16), true))
    }
}

fn multiple_structures(w: u32) -> Option<String> {
    let (q, l, opcode, size) = (bit(w, 30), bit(w, 22), bits(w, 15, 12), bits(w, 11, 10));
    if bit(w, 21) != 0 || bit(w, 23) == 0 && bits(w, 20, 16) != 0 {
        return None;
    }
    let (n, regs) = match opcode {
        0b0000 => (4, 4),
        0b0010 => (1, 4),
        0b0100 => (3, 3),
        0b0110 => (1, 3),
        0b0111 => (1, 1),
        0b1000 => (2, 2),
        0b1010 => (1, 2),
        _ => return None,
    };
    if n > 1 && size == 3 && q == 0 {
        return None;
    }
    let name = format!("{}{n}", if l == 1 { "ld" } else { "st" });
    let list = vector_list(bits(w, 4, 0), regs, &format!(".{}", arrangement(size, q)));
    let bytes = regs * if q == 1 { 16 } else { 8 };
    Some(format!(
        "{name} {list}, [{}]{}",
        base(bits(w, 9, 5)),
        post_index(w, bytes)
    ))
}

fn single_structure(w: u32) -> Option<String> {
    let (q, l, rbit, opcode, s, size) = (
        bit(w, 30),
        bit(w, 22),
        bit(w, 21),
        bits(w, 15, 13),
        bit(w, 12),
        bits(w, 11, 10),
    );
    if bit(w, 23) == 0 && bits(w, 20, 16) != 0 {
        return None;
    }
    let selem = ((opcode & 1) << 1 | rbit) + 1;
    let rt = bits(w, 4, 0);
    let addr = base(bits(w, 9, 5));
    let (kind, index, bytes) = match opcode >> 1 {
        0 => ("b", q << 3 | s << 2 | size, 1),
        1 if size & 1 == 0 => ("h", q << 2 | s << 1 | size >> 1, 2),
        2 if size == 0 => ("s", q << 1 | s, 4),
        2 if size == 1 && s == 0 => ("d", q, 8),
        3 if l == 1 && s == 0 => {
            let list = vector_list(rt, selem, &format!(".{}", arrangement(size, q)));
            let bytes = selem << size;
            return Some(format!("ld{selem}r {list}, [{addr}]{}", post_index(w, bytes)));
        }
        _ => return None,
    };
    let name = format!("{}{selem}", if l == 1 { "ld" } else { "st" });
    let list = vector_list(rt, selem, &format!(".{kind}"));
    Some(format!(
        "{name} {list}{}, [{addr}]{}",
        lane(index),
        post_index(w, selem * bytes)
    ))
}
