//! Data processing on registers: logical and arithmetic with shifts or extends, carries,
//! conditional compare and select, one-, two- and three-source operations, printed from the
//! decoded form; the FlagM, pointer-authentication and memory-tagging neighbours, which the core
//! does not execute, from their words.

use super::fields::{bit, bits, r, reg, rsp, uimm, COND, EXTEND, SHIFT};
use crate::arm64::decode::{self, Insn, Operand, Reg, Unary, ZR};

pub fn decode(w: u32) -> Option<String> {
    if let Some(insn) = decode::decode(w, 0) {
        return print(&insn);
    }
    match (bit(w, 28), bits(w, 24, 21)) {
        (1, 0b0000) => match bits(w, 15, 10) {
            0b000001 | 0b100001 => rotate_flags(w),
            0b000010 | 0b010010 => eval_flags(w),
            _ => None,
        },
        (1, 0b0110) if bit(w, 30) == 1 => pointer_authentication(w),
        (1, 0b0110) => tags_and_pac(w),
        _ => None,
    }
}

fn print(insn: &Insn) -> Option<String> {
    Some(match *insn {
        Insn::Logic { sf, opc, invert, rd, rn, op: Operand::Shifted { rm, kind, amount } } => {
            logical(sf, opc, invert, rd, rn, rm, kind, amount)
        }
        Insn::AddSub { sf, sub, flags, rd, rn, op: Operand::Shifted { rm, kind, amount } } => {
            let shifted = format!("{}{}", reg(rm, sf), shift_suffix(kind, amount));
            match (sub, flags) {
                (_, true) if rd == ZR => format!("{} {}, {shifted}", if sub { "cmp" } else { "cmn" }, reg(rn, sf)),
                (true, _) if rn == ZR => format!("{} {}, {shifted}", if flags { "negs" } else { "neg" }, reg(rd, sf)),
                _ => format!("{} {}, {}, {shifted}", add_sub_name(sub, flags), reg(rd, sf), reg(rn, sf)),
            }
        }
        Insn::AddSub { sf, sub, flags, rd, rn, op: Operand::Extended { rm, option, lsl } } => {
            add_sub_extended(sf, sub, flags, rd, rn, rm, option, lsl)
        }
        Insn::AddCarry { sf, sub, flags, rd, rn, rm } => {
            if sub && rn == ZR {
                format!("{} {}, {}", if flags { "ngcs" } else { "ngc" }, reg(rd, sf), reg(rm, sf))
            } else {
                let name = ["adc", "adcs", "sbc", "sbcs"][(sub as usize) << 1 | flags as usize];
                format!("{name} {}, {}, {}", reg(rd, sf), reg(rn, sf), reg(rm, sf))
            }
        }
        Insn::CondCompare { sf, add, cond, nzcv, rn, op } => {
            let second = match op {
                Operand::Shifted { rm, .. } | Operand::Extended { rm, .. } => reg(rm, sf),
                _ => uimm(op.immediate()?),
            };
            let name = if add { "ccmn" } else { "ccmp" };
            format!("{name} {}, {second}, {}, {}", reg(rn, sf), uimm(nzcv as u64), COND[cond as usize])
        }
        Insn::Select { sf, cond, invert, increment, rd, rn, rm } => select(sf, cond, invert, increment, rd, rn, rm),
        Insn::Unary { sf, op, rd, rn } => {
            let name = match op {
                Unary::Rbit => "rbit",
                Unary::Rev16 => "rev16",
                Unary::Rev32 => "rev32",
                Unary::Rev => "rev",
                Unary::Clz => "clz",
                Unary::Cls => "cls",
            };
            format!("{name} {}, {}", reg(rd, sf), reg(rn, sf))
        }
        Insn::Divide { sf, signed, rd, rn, rm } => {
            format!("{} {}, {}, {}", if signed { "sdiv" } else { "udiv" }, reg(rd, sf), reg(rn, sf), reg(rm, sf))
        }
        Insn::ShiftVariable { sf, kind, rd, rn, rm } => {
            format!("{} {}, {}, {}", SHIFT[kind as usize], reg(rd, sf), reg(rn, sf), reg(rm, sf))
        }
        Insn::Crc32 { castagnoli, bytes, rd, rn, rm } => {
            let size = ["b", "h", "", "w", "", "", "", "x"][bytes as usize - 1];
            let name = format!("crc32{}{size}", if castagnoli { "c" } else { "" });
            format!("{name} {}, {}, {}", reg(rd, false), reg(rn, false), reg(rm, bytes == 8))
        }
        Insn::MultiplyAdd { sf, sub, rd, rn, rm, ra } => {
            let (name, alias) = if sub { ("msub", "mneg") } else { ("madd", "mul") };
            multiply(name, alias, rd, rn, rm, ra, sf, sf)
        }
        Insn::MultiplyLong { signed, sub, rd, rn, rm, ra } => {
            let (name, alias) = match (signed, sub) {
                (true, false) => ("smaddl", "smull"),
                (true, true) => ("smsubl", "smnegl"),
                (false, false) => ("umaddl", "umull"),
                (false, true) => ("umsubl", "umnegl"),
            };
            multiply(name, alias, rd, rn, rm, ra, true, false)
        }
        Insn::MultiplyHigh { signed, rd, rn, rm } => {
            let name = if signed { "smulh" } else { "umulh" };
            format!("{name} {}, {}, {}", reg(rd, true), reg(rn, true), reg(rm, true))
        }
        _ => return None,
    })
}

fn add_sub_name(sub: bool, flags: bool) -> &'static str {
    ["add", "adds", "sub", "subs"][(sub as usize) << 1 | flags as usize]
}

/// ", lsl #3" for a nonzero shift amount, nothing otherwise.
fn shift_suffix(kind: u8, amount: u8) -> String {
    if amount == 0 && kind == 0 {
        String::new()
    } else {
        format!(", {} #{amount}", SHIFT[kind as usize])
    }
}

#[allow(clippy::too_many_arguments)]
fn logical(x: bool, opc: u8, invert: bool, rd: Reg, rn: Reg, rm: Reg, kind: u8, amount: u8) -> String {
    let shifted = format!("{}{}", reg(rm, x), shift_suffix(kind, amount));
    let name = ["and", "bic", "orr", "orn", "eor", "eon", "ands", "bics"][(opc as usize) << 1 | invert as usize];
    match name {
        "orr" if rn == ZR && amount == 0 && kind == 0 => format!("mov {}, {}", reg(rd, x), reg(rm, x)),
        "orn" if rn == ZR => format!("mvn {}, {shifted}", reg(rd, x)),
        "ands" if rd == ZR => format!("tst {}, {shifted}", reg(rn, x)),
        _ => format!("{name} {}, {}, {shifted}", reg(rd, x), reg(rn, x)),
    }
}

#[allow(clippy::too_many_arguments)]
fn add_sub_extended(x: bool, sub: bool, flags: bool, rd: Reg, rn: Reg, rm: Reg, option: u8, amount: u8) -> String {
    // With SP as an operand, the register-width UXT prints as LSL (or nothing).
    let sp_involved = rn == 31 || rd == 31;
    let lsl_form = sp_involved && option == if x { 3 } else { 2 };
    let extend = if lsl_form {
        if amount == 0 {
            String::new()
        } else {
            format!(", lsl #{amount}")
        }
    } else if amount == 0 {
        format!(", {}", EXTEND[option as usize])
    } else {
        format!(", {} #{amount}", EXTEND[option as usize])
    };
    let operand = format!("{}{extend}", reg(rm, x && option & 3 == 3));
    if flags && rd == ZR {
        format!("{} {}, {operand}", if sub { "cmp" } else { "cmn" }, reg(rn, x))
    } else {
        format!("{} {}, {}, {operand}", add_sub_name(sub, flags), reg(rd, x), reg(rn, x))
    }
}

fn select(x: bool, cond: u8, invert: bool, increment: bool, rd: Reg, rn: Reg, rm: Reg) -> String {
    let op = (invert as usize) << 1 | increment as usize;
    let (d, n, m) = (reg(rd, x), reg(rn, x), reg(rm, x));
    // The aliases show the inverted condition and exist only for conditions other than al/nv.
    let inverted = COND[(cond ^ 1) as usize];
    let aliasable = cond < 14 && rm == rn;
    match op {
        1 if aliasable && rn == ZR => format!("cset {d}, {inverted}"),
        1 if aliasable => format!("cinc {d}, {n}, {inverted}"),
        2 if aliasable && rn == ZR => format!("csetm {d}, {inverted}"),
        2 if aliasable => format!("cinv {d}, {n}, {inverted}"),
        3 if aliasable => format!("cneg {d}, {n}, {inverted}"),
        _ => {
            let name = ["csel", "csinc", "csinv", "csneg"][op];
            format!("{name} {d}, {n}, {m}, {}", COND[cond as usize])
        }
    }
}

/// MADD/MSUB and the long forms (`wide` destination and accumulator, narrow sources), shown as
/// MUL, MNEG, SMULL... when the accumulator is the zero register.
#[allow(clippy::too_many_arguments)]
fn multiply(name: &str, alias: &str, rd: Reg, rn: Reg, rm: Reg, ra: Reg, wide: bool, wide_sources: bool) -> String {
    if ra == ZR {
        format!("{alias} {}, {}, {}", reg(rd, wide), reg(rn, wide_sources), reg(rm, wide_sources))
    } else {
        format!("{name} {}, {}, {}, {}", reg(rd, wide), reg(rn, wide_sources), reg(rm, wide_sources), reg(ra, wide))
    }
}

/// RMIF: rotate a register into the flags.
fn rotate_flags(w: u32) -> Option<String> {
    if bits(w, 31, 29) != 0b101 || bit(w, 4) != 0 {
        return None;
    }
    let (shift, rn, mask) = (bits(w, 20, 15), bits(w, 9, 5), bits(w, 3, 0));
    Some(format!(
        "rmif {}, {}, {}",
        r(rn, true),
        uimm(shift as u64),
        uimm(mask as u64)
    ))
}

/// SETF8/SETF16: flags from a byte or halfword.
fn eval_flags(w: u32) -> Option<String> {
    if bits(w, 31, 29) != 0b001 || bits(w, 20, 15) != 0 || bits(w, 4, 0) != 0b01101 {
        return None;
    }
    let name = if bit(w, 14) == 1 { "setf16" } else { "setf8" };
    Some(format!("{name} {}", r(bits(w, 9, 5), false)))
}

/// PACIA, AUTIA, XPACI... (one source, opcode2 = 1): pointer authentication.
fn pointer_authentication(w: u32) -> Option<String> {
    const PAC: [&str; 8] = ["pacia", "pacib", "pacda", "pacdb", "autia", "autib", "autda", "autdb"];
    let (opcode, rn, rd) = (bits(w, 15, 10), bits(w, 9, 5), bits(w, 4, 0));
    if bit(w, 29) != 0 || bits(w, 20, 16) != 1 || bit(w, 31) == 0 {
        return None;
    }
    match opcode {
        0..=7 => Some(format!("{} {}, {}", PAC[opcode as usize], r(rd, true), rsp(rn, true))),
        8..=15 if rn == 31 => {
            let name = PAC[opcode as usize - 8];
            Some(format!("{}z{} {}", &name[..4], &name[4..], r(rd, true)))
        }
        16 | 17 if rn == 31 => Some(format!("xpac{} {}", if opcode == 16 { "i" } else { "d" }, r(rd, true))),
        _ => None,
    }
}

/// SUBP, SUBPS, IRG, GMI (memory tagging) and PACGA: the two-source forms the core does not
/// execute.
fn tags_and_pac(w: u32) -> Option<String> {
    let (rm, opcode, rn, rd) = (bits(w, 20, 16), bits(w, 15, 10), bits(w, 9, 5), bits(w, 4, 0));
    if bit(w, 31) == 0 {
        return None;
    }
    match (bit(w, 29), opcode) {
        (0, 0) => Some(format!("subp {}, {}, {}", r(rd, true), rsp(rn, true), rsp(rm, true))),
        (1, 0) => Some(format!("subps {}, {}, {}", r(rd, true), rsp(rn, true), rsp(rm, true))),
        (0, 4) if rm == 31 => Some(format!("irg {}, {}", rsp(rd, true), rsp(rn, true))),
        (0, 4) => Some(format!("irg {}, {}, {}", rsp(rd, true), rsp(rn, true), r(rm, true))),
        (0, 5) => Some(format!("gmi {}, {}, {}", r(rd, true), rsp(rn, true), r(rm, true))),
        (0, 12) => Some(format!("pacga {}, {}, {}", r(rd, true), r(rn, true), rsp(rm, true))),
        _ => None,
    }
}
