//! The A64 instructions the block compiler translates, decoded from their words. Anything not
//! decoded here ends a region, and the interpreter runs it; so a word is decoded only where
//! every field combination it accepts is translated exactly (the differential tests check
//! each form against the interpreter).

use crate::arm64::exec::alu::{decode_bit_masks, move_wide, sign_extend};
use crate::arm64::exec::decoded::transfers::{pair_scale, single_form};

/// A register operand: 0..=30 are x0..x30, 31 the stack pointer, `ZR` the zero register
/// (reads 0, writes vanish). The decoder resolves which of the last two field value 31 means.
pub type Reg = u8;
pub const ZR: Reg = 32;

fn zr(field: u32) -> Reg {
    if field & 31 == 31 {
        ZR
    } else {
        (field & 31) as Reg
    }
}

fn sp(field: u32) -> Reg {
    (field & 31) as Reg
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    Imm(u64),
    /// Register shifted: kind 0 LSL, 1 LSR, 2 ASR, 3 ROR.
    Shifted { rm: Reg, kind: u8, amount: u8 },
    /// Register extended (UXTB..SXTX, option 0..7), then shifted left by `lsl`.
    Extended { rm: Reg, option: u8, lsl: u8 },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Address {
    Offset { base: Reg, imm: u64 },
    Pre { base: Reg, imm: u64 },
    Post { base: Reg, imm: u64 },
    /// base + extend(rm, option) << lsl
    Indexed { base: Reg, rm: Reg, option: u8, lsl: u8 },
}

impl Address {
    /// The register written back, if any.
    pub fn writeback(&self) -> Option<Reg> {
        match *self {
            Address::Pre { base, .. } | Address::Post { base, .. } => Some(base),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unary {
    Rbit,
    Rev16,
    Rev32,
    Rev,
    Clz,
    Cls,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Insn {
    AddSub { sf: bool, sub: bool, flags: bool, rd: Reg, rn: Reg, op: Operand },
    /// opc 0 AND, 1 ORR, 2 EOR, 3 ANDS; `invert` negates the second operand (BIC, ORN, EON, BICS).
    Logic { sf: bool, opc: u8, invert: bool, rd: Reg, rn: Reg, op: Operand },
    /// rd = value (MOVZ, MOVN, ADR, ADRP).
    Const { rd: Reg, value: u64 },
    /// MOVK: rd = (rd & !mask) | value.
    Insert { sf: bool, rd: Reg, value: u64, mask: u64 },
    /// SBFM (opc 0), BFM (1), UBFM (2) with their decoded masks.
    Bitfield { sf: bool, opc: u8, rd: Reg, rn: Reg, immr: u8, imms: u8, wmask: u64, tmask: u64 },
    Extract { sf: bool, rd: Reg, rn: Reg, rm: Reg, lsb: u8 },
    /// LSLV, LSRV, ASRV, RORV (kind as in `Operand::Shifted`).
    ShiftVariable { sf: bool, kind: u8, rd: Reg, rn: Reg, rm: Reg },
    Divide { sf: bool, signed: bool, rd: Reg, rn: Reg, rm: Reg },
    /// MADD / MSUB.
    MultiplyAdd { sf: bool, sub: bool, rd: Reg, rn: Reg, rm: Reg, ra: Reg },
    /// SMADDL, SMSUBL, UMADDL, UMSUBL.
    MultiplyLong { signed: bool, sub: bool, rd: Reg, rn: Reg, rm: Reg, ra: Reg },
    /// SMULH, UMULH.
    MultiplyHigh { signed: bool, rd: Reg, rn: Reg, rm: Reg },
    Unary { sf: bool, op: Unary, rd: Reg, rn: Reg },
    /// CSEL, CSINC (`increment`), CSINV (`invert`), CSNEG (both).
    Select { sf: bool, cond: u8, invert: bool, increment: bool, rd: Reg, rn: Reg, rm: Reg },
    /// CCMP / CCMN (`add`) with a register or 5-bit immediate; `nzcv` when the condition fails.
    CondCompare { sf: bool, add: bool, cond: u8, nzcv: u8, rn: Reg, op: Operand },
    Branch { target: u64, link: bool },
    CondBranch { cond: u8, target: u64 },
    CompareBranch { sf: bool, nonzero: bool, rt: Reg, target: u64 },
    TestBranch { nonzero: bool, rt: Reg, bit: u8, target: u64 },
    /// BR, BLR, RET.
    Indirect { rn: Reg, link: bool },
    Nop,
    /// MRS of TPIDR_EL0.
    ThreadPointer { rd: Reg },
    /// `ext`: how the value reaches the register (`decoded::transfers::ZERO`, `SIGN64`, `SIGN32`).
    Load { size: u8, ext: u8, rt: Reg, addr: Address },
    Store { size: u8, rt: Reg, addr: Address },
    LoadPair { size: u8, rt: Reg, rt2: Reg, addr: Address },
    StorePair { size: u8, rt: Reg, rt2: Reg, addr: Address },
    /// SIMD&FP registers (v0..v31), 1 to 16 bytes, zero-extended into the whole register on loads.
    LoadVector { size: u8, vt: u8, addr: Address },
    StoreVector { size: u8, vt: u8, addr: Address },
    LoadVectorPair { size: u8, vt: u8, vt2: u8, addr: Address },
    StoreVectorPair { size: u8, vt: u8, vt2: u8, addr: Address },
}

impl Insn {
    /// Whether the instruction may leave the straight line (its region's exit or a jump).
    pub fn is_branch(&self) -> bool {
        matches!(
            self,
            Insn::Branch { .. }
                | Insn::CondBranch { .. }
                | Insn::CompareBranch { .. }
                | Insn::TestBranch { .. }
                | Insn::Indirect { .. }
        )
    }

    /// The direct branch target, if any.
    pub fn target(&self) -> Option<u64> {
        match *self {
            Insn::Branch { target, .. }
            | Insn::CondBranch { target, .. }
            | Insn::CompareBranch { target, .. }
            | Insn::TestBranch { target, .. } => Some(target),
            _ => None,
        }
    }
}

/// Decodes `word` at `pc`, or None if the block compiler leaves it to the interpreter.
pub fn decode(word: u32, pc: u64) -> Option<Insn> {
    match (word >> 25) & 0xF {
        0b1000 | 0b1001 => immediate(word, pc),
        0b0101 | 0b1101 => register(word),
        0b1010 | 0b1011 => branch(word, pc),
        0b0100 | 0b0110 | 0b1100 | 0b1110 => transfer(word),
        _ => None,
    }
}

fn immediate(word: u32, pc: u64) -> Option<Insn> {
    let sf = word >> 31 == 1;
    let (rd, rn) = (word & 31, (word >> 5) & 31);
    match (word >> 23) & 7 {
        0 | 1 => {
            let imm = sign_extend((((word >> 5) & 0x7FFFF) << 2 | (word >> 29) & 3) as u64, 21);
            let value = if sf { (pc & !0xFFF).wrapping_add(imm << 12) } else { pc.wrapping_add(imm) };
            Some(Insn::Const { rd: zr(rd), value })
        }
        2 => {
            let imm = (((word >> 10) & 0xFFF) as u64) << (12 * ((word >> 22) & 1));
            let flags = word & (1 << 29) != 0;
            let rd = if flags { zr(rd) } else { sp(rd) };
            Some(Insn::AddSub { sf, sub: word & (1 << 30) != 0, flags, rd, rn: sp(rn), op: Operand::Imm(imm) })
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
                0 => Some(Insn::Const { rd: zr(rd), value: !imm & keep }),
                2 => Some(Insn::Const { rd: zr(rd), value: imm }),
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

fn register(word: u32) -> Option<Insn> {
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

fn branch(word: u32, pc: u64) -> Option<Insn> {
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
        return Some(Insn::Indirect { rn: zr(word >> 5), link: (word >> 21) & 3 == 1 });
    }
    // Hints (NOP, YIELD, BTI...) do nothing for a user program here, as in the interpreter.
    if word & 0xFFFF_F01F == 0xD503_201F {
        return Some(Insn::Nop);
    }
    if word & 0xFFFF_FFE0 == 0xD53B_D040 {
        return Some(Insn::ThreadPointer { rd: zr(word) });
    }
    None
}

fn transfer(word: u32) -> Option<Insn> {
    match word & 0x3A00_0000 {
        0x3800_0000 => single(word),
        0x2800_0000 => pair(word),
        _ => None,
    }
}

fn single(word: u32) -> Option<Insn> {
    let (simd, scale, load) = single_form(word)?;
    let base = sp(word >> 5);
    let addr = if word & (1 << 24) != 0 {
        Address::Offset { base, imm: (((word >> 10) & 0xFFF) as u64) << scale }
    } else if word & (1 << 21) == 0 {
        let imm = sign_extend(((word >> 12) & 0x1FF) as u64, 9);
        match (word >> 10) & 3 {
            0 => Address::Offset { base, imm },
            1 => Address::Post { base, imm },
            3 => Address::Pre { base, imm },
            _ => return None, // LDTR/STTR
        }
    } else {
        let option = (word >> 13) & 7;
        if (word >> 10) & 3 != 2 || option & 2 == 0 {
            return None; // atomics, and reserved extends
        }
        let lsl = if word & (1 << 12) != 0 { scale } else { 0 };
        Address::Indexed { base, rm: zr(word >> 16), option: option as u8, lsl: lsl as u8 }
    };
    let size = 1u8 << scale;
    let t = (word & 31) as u8;
    if simd {
        return Some(match load {
            Some(_) => Insn::LoadVector { size, vt: t, addr },
            None => Insn::StoreVector { size, vt: t, addr },
        });
    }
    // Writing back into the transfer register is CONSTRAINED UNPREDICTABLE: the interpreter's choice.
    if addr.writeback() == Some(t) && t != 31 {
        return None;
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
        _ => Address::Offset { base, imm }, // 0 is the non-temporal LDNP/STNP
    };
    let (t, t2) = ((word & 31) as u8, ((word >> 10) & 31) as u8);
    let load = word & (1 << 22) != 0;
    let size = 1u8 << scale;
    if simd {
        return Some(if load {
            Insn::LoadVectorPair { size, vt: t, vt2: t2, addr }
        } else {
            Insn::StoreVectorPair { size, vt: t, vt2: t2, addr }
        });
    }
    // Loading both halves into one register, or writing back into a transfer register, is
    // CONSTRAINED UNPREDICTABLE: left to the interpreter's choice.
    if (load && t == t2) || addr.writeback().is_some_and(|b| b != 31 && (b == t || b == t2)) {
        return None;
    }
    Some(if load {
        Insn::LoadPair { size, rt: zr(word), rt2: zr(word >> 10), addr }
    } else {
        Insn::StorePair { size, rt: zr(word), rt2: zr(word >> 10), addr }
    })
}
