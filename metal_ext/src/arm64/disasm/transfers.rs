//! The loads and stores of the decoded form, printed from it: LDR/STR and their byte, halfword
//! and sign-extending kinds in every addressing mode, LDUR/STUR, PRFM/PRFUM, LDP/STP, LDNP/STNP
//! and LDPSW, general-purpose or SIMD&FP; literals; LDTR/STTR; exclusives, LDAR/STLR and LDAPR;
//! the LSE atomics with their ST<op> aliases; and the vector structures LD1..LD4/ST1..ST4.

use super::fields::{arrangement, fp_reg, imm, lane, reg, rsp, uimm, EXTEND};
use crate::arm64::decode::{zr, Address, AtomicOp, Insn, Reg, Structure, SIGN32, SIGN64, ZERO, ZR};

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
            pair(pair_name(true, non_temporal), true, (rt, rt2), (reg(rt, x), reg(rt2, x)), addr, false)
        }
        Insn::StorePair { size, rt, rt2, addr, non_temporal } => {
            let x = size == 8;
            pair(pair_name(false, non_temporal), false, (rt, rt2), (reg(rt, x), reg(rt2, x)), addr, false)
        }
        Insn::LoadPairSigned { rt, rt2, addr } => {
            pair("ldpsw", true, (rt, rt2), (reg(rt, true), reg(rt2, true)), addr, false)
        }
        Insn::LoadVectorPair { size, vt, vt2, addr, non_temporal } => {
            let kind = vector_kind(size);
            let regs = (fp_reg(kind, vt as u32), fp_reg(kind, vt2 as u32));
            pair(pair_name(true, non_temporal), true, (vt, vt2), regs, addr, true)
        }
        Insn::StoreVectorPair { size, vt, vt2, addr, non_temporal } => {
            let kind = vector_kind(size);
            let regs = (fp_reg(kind, vt as u32), fp_reg(kind, vt2 as u32));
            pair(pair_name(false, non_temporal), false, (vt, vt2), regs, addr, true)
        }
        Insn::LoadLiteral { size, ext, rt, target } => {
            let name = if ext == SIGN64 { "ldrsw" } else { "ldr" };
            Some(format!("{name} {}, {}", reg(rt, size == 8 || ext == SIGN64), uimm(target)))
        }
        Insn::LoadVectorLiteral { size, vt, target } => {
            Some(format!("ldr {}, {}", fp_reg(vector_kind(size), vt as u32), uimm(target)))
        }
        Insn::PrefetchLiteral { op, target } => Some(format!("prfm {}, {}", prefetch_op(op as u32), uimm(target))),
        Insn::LoadUnprivileged { size, ext, rt, base, imm } => {
            // Like LLVM, refuse a load into its own base (as the other loads of opc 1 and 3).
            if ext != SIGN64 && rt == base {
                return None;
            }
            let t = reg(rt, unprivileged_is_wide(Some(ext), size));
            Some(format!("{} {t}, {}", unprivileged_name(Some(ext), size), offset_address(base as u32, imm as i64)))
        }
        Insn::StoreUnprivileged { size, rt, base, imm } => {
            let t = reg(rt, size == 8);
            Some(format!("{} {t}, {}", unprivileged_name(None, size), offset_address(base as u32, imm as i64)))
        }
        _ => ordered(insn),
    }
}

/// Exclusives, acquire/release accesses, the LSE atomics and the vector structures.
fn ordered(insn: &Insn) -> Option<String> {
    let at = |base: Reg| format!("[{}]", rsp(base as u32, true));
    let order = |acquire: bool, release: bool| ["", "l", "a", "al"][(acquire as usize) << 1 | release as usize];
    Some(match *insn {
        // The fields the architecture wants all ones must be, for LLVM, and a pair must load two
        // registers.
        Insn::LoadExclusive { size, pair: false, acquire, rt, rt2, rs, base } => {
            if rs != ZR || rt2 != ZR {
                return None;
            }
            let name = if acquire { "ldaxr" } else { "ldxr" };
            format!("{name}{} {}, {}", width_suffix(size, false), reg(rt, size == 8), at(base))
        }
        Insn::LoadExclusive { size, pair: true, acquire, rt, rt2, base, .. } => {
            if rt == rt2 {
                return None;
            }
            let (name, x) = (if acquire { "ldaxp" } else { "ldxp" }, size == 8);
            format!("{name} {}, {}, {}", reg(rt, x), reg(rt2, x), at(base))
        }
        Insn::StoreExclusive { size, pair: false, release, rs, rt, base, .. } => {
            let name = if release { "stlxr" } else { "stxr" };
            format!("{name}{} {}, {}, {}", width_suffix(size, false), reg(rs, false), reg(rt, size == 8), at(base))
        }
        Insn::StoreExclusive { size, pair: true, release, rs, rt, rt2, base } => {
            let (name, x) = (if release { "stlxp" } else { "stxp" }, size == 8);
            format!("{name} {}, {}, {}, {}", reg(rs, false), reg(rt, x), reg(rt2, x), at(base))
        }
        Insn::LoadAcquire { size, rt, rs, rt2, base } | Insn::StoreRelease { size, rt, rs, rt2, base } => {
            if rs != ZR || rt2 != ZR {
                return None;
            }
            let name = if matches!(insn, Insn::LoadAcquire { .. }) { "ldar" } else { "stlr" };
            format!("{name}{} {}, {}", width_suffix(size, false), reg(rt, size == 8), at(base))
        }
        Insn::LoadAcquirePc { size, rt, base } => {
            format!("ldapr{} {}, {}", width_suffix(size, false), reg(rt, size == 8), at(base))
        }
        Insn::CompareSwap { size, acquire, release, rs, rt, base } => {
            let (order, x) = (order(acquire, release), size == 8);
            format!("cas{order}{} {}, {}, {}", width_suffix(size, false), reg(rs, x), reg(rt, x), at(base))
        }
        Insn::CompareSwapPair { size, acquire, release, rs, rt, base } => {
            let x = size == 8;
            let (rs2, rt2) = (zr(rs as u32 + 1), zr(rt as u32 + 1));
            let regs = format!("{}, {}, {}, {}", reg(rs, x), reg(rs2, x), reg(rt, x), reg(rt2, x));
            format!("casp{} {regs}, {}", order(acquire, release), at(base))
        }
        Insn::Atomic { op, size, acquire, release, rs, rt, base } => {
            let (order, width, x) = (order(acquire, release), width_suffix(size, false), size == 8);
            let name = match op {
                AtomicOp::Add => "add",
                AtomicOp::Clear => "clr",
                AtomicOp::Eor => "eor",
                AtomicOp::Set => "set",
                AtomicOp::Smax => "smax",
                AtomicOp::Smin => "smin",
                AtomicOp::Umax => "umax",
                AtomicOp::Umin => "umin",
                AtomicOp::Swap => {
                    return Some(format!("swp{order}{width} {}, {}, {}", reg(rs, x), reg(rt, x), at(base)))
                }
            };
            // ST<op>: the alias that discards the old value (without acquire).
            if rt == ZR && !acquire {
                format!("st{name}{order}{width} {}, {}", reg(rs, x), at(base))
            } else {
                format!("ld{name}{order}{width} {}, {}, {}", reg(rs, x), reg(rt, x), at(base))
            }
        }
        Insn::Structures { load, vt, base, post, layout } => {
            let post = match post {
                None => String::new(),
                Some(ZR) => format!(", #{}", layout.bytes()),
                Some(rm) => format!(", {}", reg(rm, true)),
            };
            let name = if load { "ld" } else { "st" };
            let list = |count: u8, suffix: &str| {
                let regs: Vec<String> = (0..count).map(|i| format!("v{}.{suffix}", (vt + i) % 32)).collect();
                format!("{{{}}}", regs.join(", "))
            };
            match layout {
                Structure::Multiple { q, scale, selem, registers } => {
                    let list = list(registers, arrangement(scale as u32, q as u32));
                    format!("{name}{selem} {list}, {}{post}", at(base))
                }
                Structure::Lane { scale, index, selem } => {
                    let kind = ["b", "h", "s", "d"][scale as usize];
                    format!("{name}{selem} {}{}, {}{post}", list(selem, kind), lane(index as u32), at(base))
                }
                Structure::Replicate { q, scale, selem } => {
                    format!("ld{selem}r {}, {}{post}", list(selem, arrangement(scale as u32, q as u32)), at(base))
                }
            }
        }
        _ => return None,
    })
}

fn pair_name(load: bool, non_temporal: bool) -> &'static str {
    match (non_temporal, load) {
        (true, false) => "stnp",
        (true, true) => "ldnp",
        (false, false) => "stp",
        (false, true) => "ldp",
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
fn prefetch_op(rt: u32) -> String {
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

/// A pair moved by `name`: `fields` the two registers as the form holds them, `regs` their text.
fn pair(
    name: &str,
    load: bool,
    fields: (Reg, Reg),
    regs: (String, String),
    addr: Address,
    simd: bool,
) -> Option<String> {
    // Like LLVM, refuse the UNPREDICTABLE forms: a load into one register twice, and a
    // general-register writeback base that is also transferred.
    let (t, t2) = fields;
    let overlapping_writeback = addr.writeback().is_some_and(|b| b != 31 && (b == t || b == t2));
    if load && t == t2 || !simd && overlapping_writeback {
        return None;
    }
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
fn unprivileged_name(load_ext: Option<u8>, size: u8) -> String {
    match load_ext {
        None => format!("sttr{}", width_suffix(size, false)),
        Some(ZERO) => format!("ldtr{}", width_suffix(size, false)),
        Some(_) => format!("ldtrs{}", width_suffix(size, true)),
    }
}

/// Whether an unprivileged load of that kind and size writes a 64-bit register.
fn unprivileged_is_wide(load_ext: Option<u8>, size: u8) -> bool {
    match load_ext {
        Some(SIGN32) => false,
        Some(SIGN64) => true,
        _ => size == 8,
    }
}
