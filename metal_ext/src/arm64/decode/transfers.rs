//! Loads and stores (op0 = x1x0): one or two registers with an immediate or register offset,
//! literals, LDPSW, LDTR/STTR, LDAPR and the LSE atomic memory operations; exclusives, ordered
//! accesses and compare-and-swap are `exclusives`, vector structures `structures`.

use super::fields::{sp, zr};
use super::form::{Address, AtomicOp, Insn, SIGN32, SIGN64, ZERO};
use super::{exclusives, structures};
use crate::arm64::exec::alu::sign_extend;

/// A single-register load or store's (SIMD&FP register, log2 of the bytes moved, how a load
/// extends its value; None for a store); None for PRFM and the unallocated size/opc pairs.
fn single_form(word: u32) -> Option<(bool, u32, Option<u8>)> {
    let simd = word & (1 << 26) != 0;
    let (size, opc) = (word >> 30, (word >> 22) & 3);
    if simd {
        if opc & 2 != 0 && size != 0 {
            return None;
        }
        return Some((true, (opc & 2) << 1 | size, (opc & 1 == 1).then_some(ZERO)));
    }
    let load_ext = match opc {
        0 => None,
        1 => Some(ZERO),
        2 if size == 3 => return None, // PRFM
        2 => Some(SIGN64),
        _ if size >= 2 => return None,
        _ => Some(SIGN32),
    };
    Some((false, size, load_ext))
}

/// log2 of the bytes in each register of a load or store pair; None for LDPSW, STGP and the
/// unallocated sizes.
fn pair_scale(word: u32) -> Option<u32> {
    match (word >> 30, word & (1 << 26) != 0) {
        (0, _) => Some(2),
        (1, true) => Some(3),
        (2, simd) => Some(if simd { 4 } else { 3 }),
        _ => None,
    }
}

pub(super) fn decode(word: u32, pc: u64) -> Option<Insn> {
    let simd = word & (1 << 26) != 0;
    match (word >> 28) & 3 {
        0 if simd => structures::decode(word),
        0 if word & (1 << 24) == 0 => exclusives::decode(word),
        1 if word & (1 << 24) == 0 => literal(word, pc),
        2 => pair(word),
        3 => single(word),
        _ => None,
    }
}

/// LDR (literal) of a general-purpose or SIMD&FP register, LDRSW and PRFM (literal).
fn literal(word: u32, pc: u64) -> Option<Insn> {
    let target = pc.wrapping_add(sign_extend((((word >> 5) & 0x7FFFF) << 2) as u64, 21));
    let opc = word >> 30;
    let t = (word & 31) as u8;
    if word & (1 << 26) != 0 {
        return (opc != 3).then_some(Insn::LoadVectorLiteral { size: 4 << opc, vt: t, target });
    }
    Some(match opc {
        0 => Insn::LoadLiteral { size: 4, ext: ZERO, rt: zr(word), target },
        1 => Insn::LoadLiteral { size: 8, ext: ZERO, rt: zr(word), target },
        2 => Insn::LoadLiteral { size: 4, ext: SIGN64, rt: zr(word), target },
        _ => Insn::PrefetchLiteral { op: t, target },
    })
}

/// The general-purpose forms with bit 24 clear that are not LDUR/LDR (immediate) or register
/// offset: LDTR/STTR (bits 11..10 = 10), and with bit 21 set and bits 11..10 = 00, LDAPR and
/// the atomic memory operations.
fn unprivileged_or_atomic(word: u32) -> Option<Insn> {
    let (rt, base) = (zr(word), sp(word >> 5));
    if word & (1 << 21) == 0 {
        let (_, scale, load) = single_form(word)?;
        let (size, imm) = (1u8 << scale, sign_extend(((word >> 12) & 0x1FF) as u64, 9));
        return Some(match load {
            Some(ext) => Insn::LoadUnprivileged { size, ext, rt, base, imm },
            None => Insn::StoreUnprivileged { size, rt, base, imm },
        });
    }
    let size = 1u8 << (word >> 30);
    if word & 0x3FFF_FC00 == 0x38BF_C000 {
        return Some(Insn::LoadAcquirePc { size, rt, base });
    }
    const OPS: [AtomicOp; 8] = [
        AtomicOp::Add,
        AtomicOp::Clear,
        AtomicOp::Eor,
        AtomicOp::Set,
        AtomicOp::Smax,
        AtomicOp::Smin,
        AtomicOp::Umax,
        AtomicOp::Umin,
    ];
    let opc = (word >> 12) & 7;
    let op = match word & (1 << 15) != 0 {
        false => OPS[opc as usize],
        true if opc == 0 => AtomicOp::Swap,
        true => return None,
    };
    let (acquire, release) = (word & (1 << 23) != 0, word & (1 << 22) != 0);
    Some(Insn::Atomic { op, size, acquire, release, rs: zr(word >> 16), rt, base })
}

fn single(word: u32) -> Option<Insn> {
    let (mode, bit21) = ((word >> 10) & 3, word & (1 << 21) != 0);
    if word & (1 << 24) == 0 && (!bit21 && mode == 2 || bit21 && mode == 0) {
        // General-purpose registers only.
        return if word & (1 << 26) != 0 { None } else { unprivileged_or_atomic(word) };
    }
    // PRFM and PRFUM: size 3, opc 2 of the general-purpose forms.
    let prefetch = word & 0xC4C0_0000 == 0xC080_0000;
    let (simd, scale, load) = if prefetch { (false, 3, None) } else { single_form(word)? };
    let base = sp(word >> 5);
    let addr = if word & (1 << 24) != 0 {
        Address::Offset { base, imm: (((word >> 10) & 0xFFF) as u64) << scale, unscaled: false }
    } else if word & (1 << 21) == 0 {
        let imm = sign_extend(((word >> 12) & 0x1FF) as u64, 9);
        match (word >> 10) & 3 {
            0 => Address::Offset { base, imm, unscaled: true },
            1 => Address::Post { base, imm },
            3 => Address::Pre { base, imm },
            _ => return None, // LDTR/STTR
        }
    } else {
        let option = (word >> 13) & 7;
        if (word >> 10) & 3 != 2 || option & 2 == 0 {
            return None; // atomics, and reserved extends
        }
        let shifted = word & (1 << 12) != 0;
        let lsl = if shifted { scale as u8 } else { 0 };
        Address::Indexed { base, rm: zr(word >> 16), option: option as u8, lsl, shifted }
    };
    let size = 1u8 << scale;
    let t = (word & 31) as u8;
    if prefetch {
        // There is no pre- or post-indexed prefetch.
        return addr.writeback().is_none().then_some(Insn::Prefetch { op: t, addr });
    }
    if simd {
        return Some(match load {
            Some(_) => Insn::LoadVector { size, vt: t, addr },
            None => Insn::StoreVector { size, vt: t, addr },
        });
    }
    Some(match load {
        Some(ext) => Insn::Load { size, ext, rt: zr(word), addr },
        None => Insn::Store { size, rt: zr(word), addr },
    })
}

fn pair(word: u32) -> Option<Insn> {
    let simd = word & (1 << 26) != 0;
    let Some(scale) = pair_scale(word) else {
        return signed_pair(word);
    };
    let imm = sign_extend(((word >> 15) & 0x7F) as u64, 7) << scale;
    let base = sp(word >> 5);
    let addr = match (word >> 23) & 3 {
        1 => Address::Post { base, imm },
        3 => Address::Pre { base, imm },
        _ => Address::Offset { base, imm, unscaled: false },
    };
    let non_temporal = (word >> 23) & 3 == 0;
    let (t, t2) = ((word & 31) as u8, ((word >> 10) & 31) as u8);
    let load = word & (1 << 22) != 0;
    let size = 1u8 << scale;
    if simd {
        return Some(if load {
            Insn::LoadVectorPair { size, vt: t, vt2: t2, addr, non_temporal }
        } else {
            Insn::StoreVectorPair { size, vt: t, vt2: t2, addr, non_temporal }
        });
    }
    Some(if load {
        Insn::LoadPair { size, rt: zr(word), rt2: zr(word >> 10), addr, non_temporal }
    } else {
        Insn::StorePair { size, rt: zr(word), rt2: zr(word >> 10), addr, non_temporal }
    })
}

/// LDPSW; the store of its size is STGP (memory tagging), and there is no non-temporal LDNPSW.
fn signed_pair(word: u32) -> Option<Insn> {
    let mode = (word >> 23) & 3;
    if word >> 30 != 1 || word & (1 << 26) != 0 || word & (1 << 22) == 0 || mode == 0 {
        return None;
    }
    let imm = sign_extend(((word >> 15) & 0x7F) as u64, 7) << 2;
    let base = sp(word >> 5);
    let addr = match mode {
        1 => Address::Post { base, imm },
        3 => Address::Pre { base, imm },
        _ => Address::Offset { base, imm, unscaled: false },
    };
    Some(Insn::LoadPairSigned { rt: zr(word), rt2: zr(word >> 10), addr })
}
