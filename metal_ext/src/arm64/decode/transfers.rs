//! Loads and stores of one or two registers (op0 = x1x0) with an immediate or register offset.

use super::fields::{sp, zr};
use super::form::{Address, Insn, SIGN32, SIGN64, ZERO};
use crate::arm64::exec::alu::sign_extend;

/// A single-register load or store's (SIMD&FP register, log2 of the bytes moved, how a load
/// extends its value; None for a store); None for PRFM and the unallocated size/opc pairs.
pub fn single_form(word: u32) -> Option<(bool, u32, Option<u8>)> {
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
pub fn pair_scale(word: u32) -> Option<u32> {
    match (word >> 30, word & (1 << 26) != 0) {
        (0, _) => Some(2),
        (1, true) => Some(3),
        (2, simd) => Some(if simd { 4 } else { 3 }),
        _ => None,
    }
}

pub(super) fn decode(word: u32) -> Option<Insn> {
    match word & 0x3A00_0000 {
        0x3800_0000 => single(word),
        0x2800_0000 => pair(word),
        _ => None,
    }
}

fn single(word: u32) -> Option<Insn> {
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
    let scale = pair_scale(word)?;
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
