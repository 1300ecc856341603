//! Data processing with an immediate (op0 = 100x) and on registers (op0 = x101).

use super::fields::{sp, zr};
use super::form::{ConstOrigin, Insn, Operand, Unary};
use super::immediates::{decode_bit_masks, move_wide};
use crate::arm64::exec::alu::sign_extend;

pub(super) fn immediate(word: u32, pc: u64) -> Option<Insn> {
    let sf = word >> 31 == 1;
    let (rd, rn) = (word & 31, (word >> 5) & 31);
    match (word >> 23) & 7 {
        0 | 1 => {
            let imm = sign_extend((((word >> 5) & 0x7FFFF) << 2 | (word >> 29) & 3) as u64, 21);
            let value = if sf { (pc & !0xFFF).wrapping_add(imm << 12) } else { pc.wrapping_add(imm) };
            let origin = if sf { ConstOrigin::Adrp } else { ConstOrigin::Adr };
            Some(Insn::Const { rd: zr(rd), value, origin })
        }
        2 => {
            let op = Operand::ShiftedImm { imm12: ((word >> 10) & 0xFFF) as u16, lsl12: word & (1 << 22) != 0 };
            let flags = word & (1 << 29) != 0;
            let rd = if flags { zr(rd) } else { sp(rd) };
            Some(Insn::AddSub { sf, sub: word & (1 << 30) != 0, flags, rd, rn: sp(rn), op })
        }
        4 => {
            let n = (word >> 22) & 1;
            if !sf && n == 1 {
                return None;
            }
            let (imm, _) = decode_bit_masks(n, (word >> 10) & 63, (word >> 16) & 63, true, if sf { 64 } else { 32 })?;
            let opc = ((word >> 29) & 3) as u8;
            let rd = if opc == 3 { zr(rd) } else { sp(rd) };
            Some(Insn::Logic { sf, opc, invert: false, rd, rn: zr(rn), op: Operand::Imm(imm) })
        }
        5 => {
            let (opc, shift, imm) = move_wide(word)?;
            let keep = if sf { u64::MAX } else { u32::MAX as u64 };
            match opc {
                0 | 2 => {
                    let (inverted, imm16) = (opc == 0, (imm >> shift) as u16);
                    let origin = ConstOrigin::MoveWide { sf, inverted, imm16, shift: shift as u8 };
                    let value = if inverted { !imm & keep } else { imm };
                    Some(Insn::Const { rd: zr(rd), value, origin })
                }
                _ => Some(Insn::Insert { sf, rd: zr(rd), value: imm, mask: 0xFFFF << shift }),
            }
        }
        6 => {
            let opc = (word >> 29) & 3;
            let n = (word >> 22) & 1;
            let (immr, imms) = ((word >> 16) & 63, (word >> 10) & 63);
            if opc == 3 || n != sf as u32 || (!sf && (immr | imms) >= 32) {
                return None;
            }
            let (wmask, tmask) = decode_bit_masks(n, imms, immr, false, if sf { 64 } else { 32 })?;
            Some(Insn::Bitfield {
                sf,
                opc: opc as u8,
                rd: zr(rd),
                rn: zr(rn),
                immr: immr as u8,
                imms: imms as u8,
                wmask,
                tmask,
            })
        }
        7 => {
            let lsb = (word >> 10) & 63;
            let n = (word >> 22) & 1;
            if (word >> 29) & 3 != 0 || word & (1 << 21) != 0 || n != sf as u32 || (!sf && lsb >= 32) {
                return None;
            }
            Some(Insn::Extract { sf, rd: zr(rd), rn: zr(rn), rm: zr(word >> 16), lsb: lsb as u8 })
        }
        _ => None,
    }
}

pub(super) fn register(word: u32) -> Option<Insn> {
    let sf = word >> 31 == 1;
    let (rd, rn, rm) = (zr(word), zr(word >> 5), zr(word >> 16));
    let op28 = (word >> 28) & 1;
    let op21_24 = (word >> 21) & 0xF;
    if op28 == 0 {
        let imm6 = (word >> 10) & 63;
        let kind = ((word >> 22) & 3) as u8;
        if word & (1 << 24) == 0 {
            // Logical (shifted register).
            if !sf && imm6 >= 32 {
                return None;
            }
            let op = Operand::Shifted { rm, kind, amount: imm6 as u8 };
            let invert = word & (1 << 21) != 0;
            return Some(Insn::Logic { sf, opc: ((word >> 29) & 3) as u8, invert, rd, rn, op });
        }
        let sub = word & (1 << 30) != 0;
        let flags = word & (1 << 29) != 0;
        if word & (1 << 21) == 0 {
            if kind == 3 || (!sf && imm6 >= 32) {
                return None;
            }
            let op = Operand::Shifted { rm, kind, amount: imm6 as u8 };
            return Some(Insn::AddSub { sf, sub, flags, rd, rn, op });
        }
        let (option, lsl) = ((word >> 13) & 7, (word >> 10) & 7);
        if kind != 0 || lsl > 4 {
            return None;
        }
        let rd = if flags { rd } else { sp(word) };
        let op = Operand::Extended { rm, option: option as u8, lsl: lsl as u8 };
        return Some(Insn::AddSub { sf, sub, flags, rd, rn: sp(word >> 5), op });
    }
    match op21_24 {
        0b0000 => {
            // Bits 15..10 non-zero are the FEAT_FlagM forms (RMIF, SETF8...).
            if (word >> 10) & 63 != 0 {
                return None;
            }
            let (sub, flags) = (word & (1 << 30) != 0, word & (1 << 29) != 0);
            Some(Insn::AddCarry { sf, sub, flags, rd, rn, rm })
        }
        0b0010 => {
            // Conditional compare: register (bit 11 clear) or immediate; bits 10 and 4 are 0.
            if word & (1 << 29) == 0 || word & (1 << 10) != 0 || word & (1 << 4) != 0 {
                return None;
            }
            let op = if word & (1 << 11) != 0 {
                Operand::Imm(((word >> 16) & 31) as u64)
            } else {
                Operand::Shifted { rm, kind: 0, amount: 0 }
            };
            let (add, cond, nzcv) = (word & (1 << 30) == 0, ((word >> 12) & 15) as u8, (word & 15) as u8);
            Some(Insn::CondCompare { sf, add, cond, nzcv, rn, op })
        }
        0b0100 => {
            if word & (1 << 29) != 0 || word & (1 << 11) != 0 {
                return None;
            }
            let invert = word & (1 << 30) != 0;
            let increment = word & (1 << 10) != 0;
            Some(Insn::Select { sf, cond: ((word >> 12) & 15) as u8, invert, increment, rd, rn, rm })
        }
        0b0110 if word & (1 << 29) == 0 => {
            let opcode = (word >> 10) & 63;
            if word & (1 << 30) != 0 {
                if (word >> 16) & 31 != 0 {
                    return None;
                }
                let op = match (opcode, sf) {
                    (0, _) => Unary::Rbit,
                    (1, _) => Unary::Rev16,
                    (2, false) | (3, true) => Unary::Rev,
                    (2, true) => Unary::Rev32,
                    (4, _) => Unary::Clz,
                    (5, _) => Unary::Cls,
                    _ => return None,
                };
                return Some(Insn::Unary { sf, op, rd, rn });
            }
            match opcode {
                2 | 3 => Some(Insn::Divide { sf, signed: opcode == 3, rd, rn, rm }),
                8..=11 => Some(Insn::ShiftVariable { sf, kind: (opcode - 8) as u8, rd, rn, rm }),
                16..=23 => {
                    let bytes = 1u8 << (opcode & 3);
                    if (bytes == 8) != sf {
                        return None;
                    }
                    Some(Insn::Crc32 { castagnoli: opcode & 4 != 0, bytes, rd, rn, rm })
                }
                _ => None,
            }
        }
        0b1000..=0b1111 => {
            if (word >> 29) & 3 != 0 {
                return None;
            }
            let (op31, o0) = ((word >> 21) & 7, word & (1 << 15) != 0);
            let ra = zr(word >> 10);
            match (op31, sf) {
                (0, _) => Some(Insn::MultiplyAdd { sf, sub: o0, rd, rn, rm, ra }),
                (1, true) => Some(Insn::MultiplyLong { signed: true, sub: o0, rd, rn, rm, ra }),
                (5, true) => Some(Insn::MultiplyLong { signed: false, sub: o0, rd, rn, rm, ra }),
                (2, true) if !o0 => Some(Insn::MultiplyHigh { signed: true, rd, rn, rm }),
                (6, true) if !o0 => Some(Insn::MultiplyHigh { signed: false, rd, rn, rm }),
                _ => None,
            }
        }
        _ => None,
    }
}
