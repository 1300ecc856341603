//! Data processing with an immediate: PC-relative addresses, add/sub, logical, move wide,
//! bitfield moves and extract, printed from the decoded form; the memory-tagging ADDG/SUBG,
//! which the core does not execute, from their words.

use super::fields::{bit, bits, imm, reg, rsp, uimm};
use crate::arm64::decode::{self, ConstOrigin, Insn, Operand, Reg, ZR};

pub fn decode(w: u32, pc: u64) -> Option<String> {
    if bits(w, 25, 23) == 0b011 {
        return tags(w);
    }
    match decode::decode(w, pc)? {
        Insn::Const { rd, value, origin } => Some(constant(rd, value, origin)),
        Insn::AddSub { sf, sub, flags, rd, rn, op: Operand::ShiftedImm { imm12, lsl12 } } => {
            Some(add_sub(sf, sub, flags, rd, rn, imm12, lsl12))
        }
        Insn::Logic { sf, opc, rd, rn, op: Operand::Imm(mask), .. } => Some(logical(sf, opc, rd, rn, mask)),
        Insn::Insert { sf, rd, value, mask } => {
            let shift = mask.trailing_zeros();
            Some(move_wide("movk", reg(rd, sf), value >> shift, shift))
        }
        Insn::Bitfield { sf, opc, rd, rn, immr, imms, .. } => Some(bitfield(sf, opc, rd, rn, immr as u32, imms as u32)),
        Insn::Extract { sf, rd, rn, rm, lsb } => Some(if rm == rn {
            format!("ror {}, {}, {}", reg(rd, sf), reg(rn, sf), uimm(lsb as u64))
        } else {
            format!("extr {}, {}, {}, {}", reg(rd, sf), reg(rn, sf), reg(rm, sf), uimm(lsb as u64))
        }),
        _ => None,
    }
}

/// ADR, ADRP, and MOVZ/MOVN, shown as MOV where the value needs no explicit shift.
fn constant(rd: Reg, value: u64, origin: ConstOrigin) -> String {
    match origin {
        ConstOrigin::Adr => format!("adr {}, {}", reg(rd, true), uimm(value)),
        ConstOrigin::Adrp => format!("adrp {}, {}", reg(rd, true), uimm(value)),
        ConstOrigin::MoveWide { sf, inverted, imm16, shift } => {
            let rd = reg(rd, sf);
            // MOV is not shown for a zero shifted, nor where MOVZ could build the value (a 32-bit
            // MOVN of 0xffff).
            let explicit = imm16 == 0 && shift != 0 || inverted && !sf && imm16 == 0xffff;
            if explicit {
                move_wide(if inverted { "movn" } else { "movz" }, rd, imm16 as u64, shift as u32)
            } else {
                format!("mov {rd}, {}", imm(if sf { value as i64 } else { value as u32 as i32 as i64 }))
            }
        }
    }
}

fn move_wide(name: &str, rd: String, imm16: u64, shift: u32) -> String {
    if shift == 0 {
        format!("{name} {rd}, {}", uimm(imm16))
    } else {
        format!("{name} {rd}, {}, lsl #{shift}", uimm(imm16))
    }
}

fn add_sub(x: bool, sub: bool, flags: bool, rd: Reg, rn: Reg, imm12: u16, lsl12: bool) -> String {
    let mut operand = imm(imm12 as i64);
    if lsl12 {
        operand += ", lsl #12";
    }
    let src = reg(rn, x);
    match (sub, flags) {
        (false, false) if imm12 == 0 && !lsl12 && (rd == 31 || rn == 31) => format!("mov {}, {src}", reg(rd, x)),
        (_, false) => format!("{} {}, {src}, {operand}", if sub { "sub" } else { "add" }, reg(rd, x)),
        (_, true) if rd == ZR => format!("{} {src}, {operand}", if sub { "cmp" } else { "cmn" }),
        (_, true) => format!("{} {}, {src}, {operand}", if sub { "subs" } else { "adds" }, reg(rd, x)),
    }
}

/// ADDG/SUBG (memory tagging): the offset counts 16-byte granules.
fn tags(w: u32) -> Option<String> {
    if bits(w, 31, 29) & 0b101 != 0b100 || bit(w, 22) != 0 || bits(w, 15, 14) != 0 {
        return None;
    }
    let name = if bit(w, 30) == 1 { "subg" } else { "addg" };
    let offset = bits(w, 21, 16) as i64 * 16;
    let tag = bits(w, 13, 10) as i64;
    Some(format!("{name} {}, {}, {}, {}", rsp(bits(w, 4, 0), true), rsp(bits(w, 9, 5), true), imm(offset), imm(tag)))
}

fn logical(x: bool, opc: u8, rd: Reg, rn: Reg, mask: u64) -> String {
    let value = if x { mask } else { mask as u32 as u64 };
    let v = uimm(value);
    // capstone shows the mask of MOV as a signed number of the register's width, and that of
    // 64-bit ANDS/TST as a signed 64-bit number.
    let signed = imm(if x { value as i64 } else { value as u32 as i32 as i64 });
    let flag_setting = if x { signed.clone() } else { v.clone() };
    match opc {
        0 => format!("and {}, {}, {v}", reg(rd, x), reg(rn, x)),
        1 if rn == ZR => format!("mov {}, {signed}", reg(rd, x)),
        1 => format!("orr {}, {}, {v}", reg(rd, x), reg(rn, x)),
        2 => format!("eor {}, {}, {v}", reg(rd, x), reg(rn, x)),
        _ if rd == ZR => format!("tst {}, {flag_setting}", reg(rn, x)),
        _ => format!("ands {}, {}, {flag_setting}", reg(rd, x), reg(rn, x)),
    }
}

/// SBFM, BFM, UBFM under their preferred aliases (ASR, LSL, UBFX, SXTW, BFI...).
fn bitfield(x: bool, opc: u8, rd: Reg, rn: Reg, immr: u32, imms: u32) -> String {
    let size = if x { 64 } else { 32 };
    let (d, n) = (reg(rd, x), reg(rn, x));
    let two = |name: &str, a: u32, b: u32| format!("{name} {d}, {n}, {}, {}", uimm(a as u64), uimm(b as u64));
    match opc {
        0 | 2 => {
            let signed = opc == 0;
            if immr == 0 && (imms == 7 || imms == 15 || (imms == 31 && x && signed)) && (signed || !x) {
                let width = match imms {
                    7 => "b",
                    15 => "h",
                    _ => "w",
                };
                format!("{}xt{width} {d}, {}", if signed { "s" } else { "u" }, reg(rn, false))
            } else if imms == size - 1 {
                format!("{} {d}, {n}, {}", if signed { "asr" } else { "lsr" }, uimm(immr as u64))
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
            if rn == ZR && (immr == 0 || imms < immr) {
                format!("bfc {d}, {}, {}", uimm(((size - immr) % size) as u64), uimm(imms as u64 + 1))
            } else if imms < immr {
                two("bfi", size - immr, imms + 1)
            } else {
                two("bfxil", immr, imms - immr + 1)
            }
        }
    }
}
