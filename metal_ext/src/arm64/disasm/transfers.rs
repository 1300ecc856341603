//! Single-register and pair loads and stores, and prefetches, printed from the decoded form:
//! LDR/STR and their byte, halfword and sign-extending kinds in every addressing mode, LDUR/STUR,
//! PRFM/PRFUM, LDP/STP and LDNP/STNP, general-purpose or SIMD&FP.

use super::fields::{fp_reg, imm, reg, rsp, uimm, EXTEND};
use crate::arm64::decode::{Address, Insn, Reg, SIGN32, SIGN64, ZERO};

/// The text of a load, store or prefetch of the decoded form; None for other instructions and
/// for the forms LLVM refuses as UNPREDICTABLE.
pub fn print(insn: &Insn) -> Option<String> {
    match *insn {
        Insn::Load { size, ext, rt, addr } => {
            // Like LLVM, refuse a load (other than a 64-bit sign-extending one) that writes back
            // to its own base.
            if ext != SIGN64 && addr.writeback() == Some(rt) {
                return None;
            }
            let name = format!("{}{}", if ext == ZERO { "ldr" } else { "ldrs" }, width_suffix(size, ext != ZERO));
            single(&name, reg(rt, ext == SIGN64 || (ext == ZERO && size == 8)), addr)
        }
        Insn::Store { size, rt, addr } => single(&format!("str{}", width_suffix(size, false)), reg(rt, size == 8), addr),
        Insn::LoadVector { size, vt, addr } => single("ldr", fp_reg(vector_kind(size), vt as u32), addr),
        Insn::StoreVector { size, vt, addr } => single("str", fp_reg(vector_kind(size), vt as u32), addr),
        Insn::Prefetch { op, addr } => single("prfm", prefetch_op(op as u32), addr),
        Insn::LoadPair { size, rt, rt2, addr, non_temporal } => {
            let x = size == 8;
            pair(true, non_temporal, (rt, rt2), (reg(rt, x), reg(rt2, x)), addr, false)
        }
        Insn::StorePair { size, rt, rt2, addr, non_temporal } => {
            let x = size == 8;
            pair(false, non_temporal, (rt, rt2), (reg(rt, x), reg(rt2, x)), addr, false)
        }
        Insn::LoadVectorPair { size, vt, vt2, addr, non_temporal } => {
            let kind = vector_kind(size);
            pair(true, non_temporal, (vt, vt2), (fp_reg(kind, vt as u32), fp_reg(kind, vt2 as u32)), addr, true)
        }
        Insn::StoreVectorPair { size, vt, vt2, addr, non_temporal } => {
            let kind = vector_kind(size);
            pair(false, non_temporal, (vt, vt2), (fp_reg(kind, vt as u32), fp_reg(kind, vt2 as u32)), addr, true)
        }
        _ => None,
    }
}

/// "b", "h" for byte and halfword accesses, and "w" for a sign-extended word.
pub fn width_suffix(size: u8, signed: bool) -> &'static str {
    match (size, signed) {
        (1, _) => "b",
        (2, _) => "h",
        (4, true) => "w",
        _ => "",
    }
}

/// The SIMD&FP register view of an access of `size` bytes.
fn vector_kind(size: u8) -> &'static str {
    match size {
        1 => "b",
        2 => "h",
        4 => "s",
        8 => "d",
        _ => "q",
    }
}

/// Prefetch operation names; unnamed ones print as an immediate.
pub fn prefetch_op(rt: u32) -> String {
    let kind = ["pld", "pli", "pst"].get((rt >> 3) as usize);
    let target = rt >> 1 & 3;
    match kind {
        Some(kind) if target < 3 => format!("{kind}l{}{}", target + 1, if rt & 1 == 1 { "strm" } else { "keep" }),
        _ => uimm(rt as u64),
    }
}

/// "[xn]" or "[xn, #off]".
pub fn offset_address(base: u32, off: i64) -> String {
    if off == 0 {
        format!("[{}]", rsp(base, true))
    } else {
        format!("[{}, {}]", rsp(base, true), imm(off))
    }
}

/// One register `t` moved by `name` ("ldr", "strb"...) at `addr`.
fn single(name: &str, t: String, addr: Address) -> Option<String> {
    Some(match addr {
        Address::Offset { base, imm, unscaled: false } => format!("{name} {t}, {}", offset_address(base as u32, imm as i64)),
        Address::Offset { base, imm, unscaled: true } => {
            let name = if name == "prfm" { "prfum".to_string() } else { name.replacen('r', "ur", 1) };
            format!("{name} {t}, {}", offset_address(base as u32, imm as i64))
        }
        // capstone prints this post-index offset as an unsigned 64-bit number.
        Address::Post { base, imm } => format!("{name} {t}, [{}], {}", rsp(base as u32, true), uimm(imm)),
        Address::Pre { base, imm: off } => format!("{name} {t}, [{}, {}]!", rsp(base as u32, true), imm(off as i64)),
        Address::Indexed { base, rm, option, lsl, shifted } => {
            let amount = if shifted { format!(" #{lsl}") } else { String::new() };
            let index = match option {
                3 if !shifted => reg(rm, true),
                3 => format!("{}, lsl{amount}", reg(rm, true)),
                _ => format!("{}, {}{amount}", reg(rm, option & 1 == 1), EXTEND[option as usize]),
            };
            format!("{name} {t}, [{}, {index}]", rsp(base as u32, true))
        }
    })
}

/// A pair: `fields` the two registers as the form holds them, `regs` their text.
fn pair(load: bool, non_temporal: bool, fields: (Reg, Reg), regs: (String, String), addr: Address, simd: bool) -> Option<String> {
    // Like LLVM, refuse the UNPREDICTABLE forms: a load into one register twice, and a
    // general-register writeback base that is also transferred.
    let (t, t2) = fields;
    let overlapping_writeback = addr.writeback().is_some_and(|b| b != 31 && (b == t || b == t2));
    if load && t == t2 || !simd && overlapping_writeback {
        return None;
    }
    let name = match (non_temporal, load) {
        (true, false) => "stnp",
        (true, true) => "ldnp",
        (false, false) => "stp",
        (false, true) => "ldp",
    };
    let regs = format!("{}, {}", regs.0, regs.1);
    Some(match addr {
        Address::Post { base, imm: off } => format!("{name} {regs}, [{}], {}", rsp(base as u32, true), imm(off as i64)),
        Address::Pre { base, imm: off } => format!("{name} {regs}, [{}, {}]!", rsp(base as u32, true), imm(off as i64)),
        Address::Offset { base, imm, .. } => format!("{name} {regs}, {}", offset_address(base as u32, imm as i64)),
        Address::Indexed { .. } => return None,
    })
}

/// The mnemonic of an unprivileged LDTR/STTR-family access whose decoded-form kind (how a load
/// extends, None for a store) and size are given: "ldtrsb", "sttrh"...
pub fn unprivileged_name(load_ext: Option<u8>, size: u8) -> String {
    match load_ext {
        None => format!("sttr{}", width_suffix(size, false)),
        Some(ZERO) => format!("ldtr{}", width_suffix(size, false)),
        Some(_) => format!("ldtrs{}", width_suffix(size, true)),
    }
}

/// Whether an unprivileged load of that kind and size writes a 64-bit register.
pub fn unprivileged_is_wide(load_ext: Option<u8>, size: u8) -> bool {
    match load_ext {
        Some(SIGN32) => false,
        Some(SIGN64) => true,
        _ => size == 8,
    }
}
