//! Branches: B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ, BR/BLR/RET.

use super::fields::zr;
use super::form::Insn;
use crate::arm64::exec::alu::sign_extend;

pub(super) fn decode(word: u32, pc: u64) -> Option<Insn> {
    let offset = |bits: u32, at: u32| pc.wrapping_add(sign_extend(((word >> at) & ((1 << bits) - 1)) as u64, bits) << 2);
    match word >> 26 {
        0b000101 => return Some(Insn::Branch { target: offset(26, 0), link: false }),
        0b100101 => return Some(Insn::Branch { target: offset(26, 0), link: true }),
        _ => {}
    }
    match word & 0x7E00_0000 {
        0x3400_0000 => {
            let nonzero = word & (1 << 24) != 0;
            return Some(Insn::CompareBranch { sf: word >> 31 == 1, nonzero, rt: zr(word), target: offset(19, 5) });
        }
        0x3600_0000 => {
            let bit = ((word >> 31) << 5 | (word >> 19) & 31) as u8;
            let nonzero = word & (1 << 24) != 0;
            return Some(Insn::TestBranch { nonzero, rt: zr(word), bit, target: offset(14, 5) });
        }
        _ => {}
    }
    if word & 0xFF00_0010 == 0x5400_0000 {
        return Some(Insn::CondBranch { cond: (word & 15) as u8, target: offset(19, 5) });
    }
    // BR, BLR, RET (no pointer authentication).
    if word & 0xFF9F_FC1F == 0xD61F_0000 && (word >> 21) & 3 != 3 {
        let (link, ret) = ((word >> 21) & 3 == 1, (word >> 21) & 3 == 2);
        return Some(Insn::Indirect { rn: zr(word >> 5), link, ret });
    }
    None
}
