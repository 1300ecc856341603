//! Specialised handlers for the integer data-processing forms that dominate real code:
//! add/subtract and logical with an immediate or a shifted or extended register, moves,
//! bitfields, extract, conditional select and compare, variable shifts, multiply-add and CLZ.
//! Immediates, bitmasks and constant results are computed at decode.

use super::{next, Handler, Next, Op};
use crate::arm64::decode::{decode_bit_masks, move_wide};
use crate::arm64::exec::alu::{
    add_with_carry, condition_holds, extend, extract, logic_flags, logical, shift, sign_extend, width,
};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

fn op(run: Handler, word: u32, a: u32, b: u32, c: u32, d: u32) -> Op {
    Op { a: a as u8, b: b as u8, c: c as u8, d: d as u8, ..Op::new(run, word) }
}

/// A result that goes to XZR with no flags: the instruction only moves on.
fn nop_op(word: u32) -> Op {
    Op::new(nop, word)
}

/// Register `rd` (31 here being the register the form names: XZR or SP) gets a constant.
fn constant(word: u32, rd: u32, value: u64, rd_is_sp: bool) -> Op {
    if rd == 31 && !rd_is_sp {
        return nop_op(word);
    }
    Op { imm: value, ..op(set_const, word, rd, 0, 0, 0) }
}

/// Data processing with an immediate (op0 = 100x); None leaves the word to the interpreter.
pub fn decode_immediate(word: u32, pc: u64) -> Option<Op> {
    let sf = word >> 31 == 1;
    let rd = word & 31;
    let rn = (word >> 5) & 31;
    match (word >> 23) & 7 {
        0 | 1 => {
            let imm = sign_extend((((word >> 5) & 0x7FFFF) << 2 | (word >> 29) & 3) as u64, 21);
            let value = if sf { (pc & !0xFFF).wrapping_add(imm << 12) } else { pc.wrapping_add(imm) };
            Some(constant(word, rd, value, false))
        }
        2 => {
            let imm = (((word >> 10) & 0xFFF) as u64) << (12 * ((word >> 22) & 1));
            let subtract = word & (1 << 30) != 0;
            let run: Handler = match (sf, subtract, word & (1 << 29) != 0) {
                (_, _, false) => {
                    let imm = if subtract { imm.wrapping_neg() } else { imm };
                    let run: Handler = if sf { add_imm::<true> } else { add_imm::<false> };
                    return Some(Op { imm, ..op(run, word, rd, rn, 0, 0) });
                }
                (true, false, true) => adds_imm::<true, false>,
                (true, true, true) => adds_imm::<true, true>,
                (false, false, true) => adds_imm::<false, false>,
                (false, true, true) => adds_imm::<false, true>,
            };
            Some(Op { imm: if subtract { !imm } else { imm }, ..op(run, word, rd, rn, 0, 0) })
        }
        4 => {
            let n = (word >> 22) & 1;
            if !sf && n == 1 {
                return None;
            }
            let (imm, _) = decode_bit_masks(n, (word >> 10) & 63, (word >> 16) & 63, true, if sf { 64 } else { 32 })?;
            let opc = (word >> 29) & 3;
            if opc != 3 && rn == 31 {
                // MOV (bitmask immediate): ORR with XZR, a constant; AND/EOR of XZR likewise.
                let value = if opc == 0 { 0 } else { width(imm, sf) };
                return Some(constant(word, rd, value, true));
            }
            let run: Handler = match (sf, opc) {
                (true, 0) => logic_imm::<true, 0>,
                (true, 1) => logic_imm::<true, 1>,
                (true, 2) => logic_imm::<true, 2>,
                (true, _) => ands_imm::<true>,
                (false, 0) => logic_imm::<false, 0>,
                (false, 1) => logic_imm::<false, 1>,
                (false, 2) => logic_imm::<false, 2>,
                (false, _) => ands_imm::<false>,
            };
            Some(Op { imm, ..op(run, word, rd, rn, 0, 0) })
        }
        5 => {
            let (opc, shift, imm) = move_wide(word)?;
            match opc {
                0 => Some(constant(word, rd, width(!imm, sf), false)),
                2 => Some(constant(word, rd, width(imm, sf), false)),
                _ if rd == 31 => Some(nop_op(word)),
                _ => {
                    let run: Handler = if sf { movk::<true> } else { movk::<false> };
                    Some(Op { imm, imm2: !(0xFFFF << shift), ..op(run, word, rd, 0, 0, 0) })
                }
            }
        }
        6 => {
            let opc = (word >> 29) & 3;
            let n = (word >> 22) & 1;
            let immr = (word >> 16) & 63;
            let imms = (word >> 10) & 63;
            if opc == 1 || opc == 3 || n != sf as u32 || (!sf && (immr | imms) >= 32) {
                return None;
            }
            let (wmask, tmask) = decode_bit_masks(n, imms, immr, false, if sf { 64 } else { 32 })?;
            if rd == 31 {
                return Some(nop_op(word));
            }
            let run: Handler = match (sf, opc) {
                (true, 0) => sbfm::<true>,
                (false, 0) => sbfm::<false>,
                (true, _) => ubfm::<true>,
                (false, _) => ubfm::<false>,
            };
            Some(Op { imm: wmask & tmask, imm2: !tmask, ..op(run, word, rd, rn, immr, imms) })
        }
        7 => {
            let lsb = (word >> 10) & 63;
            let n = (word >> 22) & 1;
            if (word >> 29) & 3 != 0 || word & (1 << 21) != 0 || n != sf as u32 || (!sf && lsb >= 32) {
                return None;
            }
            if rd == 31 {
                return Some(nop_op(word));
            }
            let run: Handler = if sf { extr::<true> } else { extr::<false> };
            Some(op(run, word, rd, rn, (word >> 16) & 31, lsb))
        }
        _ => None,
    }
}

/// Logical and add/subtract with a shifted register, and conditional select (op0 = x101).
pub fn decode_register(word: u32) -> Option<Op> {
    let sf = word >> 31 == 1;
    let (rd, rn, rm) = (word & 31, (word >> 5) & 31, (word >> 16) & 31);
    let kind = (word >> 22) & 3;
    let amount = (word >> 10) & 63;
    if word & (1 << 28) == 0 {
        if !sf && amount >= 32 {
            return None;
        }
        if word & (1 << 24) == 0 {
            let opc = (word >> 29) & 3;
            let invert = word & (1 << 21) != 0;
            if opc != 3 && rd == 31 {
                return Some(nop_op(word));
            }
            if opc == 1 && !invert && amount == 0 && rn == 31 {
                let run: Handler = if sf { mov_reg::<true> } else { mov_reg::<false> };
                return Some(op(run, word, rd, rn, rm, kind));
            }
            let run: Handler = match (sf, opc, invert) {
                (true, 0, false) => logic_reg::<true, 0, false>,
                (true, 1, false) => logic_reg::<true, 1, false>,
                (true, 2, false) => logic_reg::<true, 2, false>,
                (true, _, false) => logic_reg::<true, 3, false>,
                (true, 0, true) => logic_reg::<true, 0, true>,
                (true, 1, true) => logic_reg::<true, 1, true>,
                (true, 2, true) => logic_reg::<true, 2, true>,
                (true, _, true) => logic_reg::<true, 3, true>,
                (false, 0, false) => logic_reg::<false, 0, false>,
                (false, 1, false) => logic_reg::<false, 1, false>,
                (false, 2, false) => logic_reg::<false, 2, false>,
                (false, _, false) => logic_reg::<false, 3, false>,
                (false, 0, true) => logic_reg::<false, 0, true>,
                (false, 1, true) => logic_reg::<false, 1, true>,
                (false, 2, true) => logic_reg::<false, 2, true>,
                (false, _, _) => logic_reg::<false, 3, true>,
            };
            return Some(Op { imm: amount as u64, ..op(run, word, rd, rn, rm, kind) });
        }
        if (word >> 21) & 1 != 0 {
            return decode_extended(word);
        }
        if kind == 3 {
            return None; // a reserved shift
        }
        let run: Handler = match (sf, word & (1 << 30) != 0, word & (1 << 29) != 0) {
            (true, false, false) => add_reg::<true, false, false>,
            (true, false, true) => add_reg::<true, false, true>,
            (true, true, false) => add_reg::<true, true, false>,
            (true, true, true) => add_reg::<true, true, true>,
            (false, false, false) => add_reg::<false, false, false>,
            (false, false, true) => add_reg::<false, false, true>,
            (false, true, false) => add_reg::<false, true, false>,
            (false, true, true) => add_reg::<false, true, true>,
        };
        return Some(Op { imm: amount as u64, ..op(run, word, rd, rn, rm, kind) });
    }
    match (word >> 21) & 15 {
        2 => return decode_conditional_compare(word),
        6 => return decode_shift_or_count(word),
        8 if (word >> 29) & 3 == 0 => {
            // MADD, MSUB
            let run: Handler = match (sf, word & (1 << 15) != 0) {
                (true, false) => multiply_add::<true, false>,
                (true, true) => multiply_add::<true, true>,
                (false, false) => multiply_add::<false, false>,
                (false, true) => multiply_add::<false, true>,
            };
            return Some(op(run, word, rd, rn, rm, (word >> 10) & 31));
        }
        4 => {}
        _ => return None,
    }
    // CSEL, CSINC, CSINV, CSNEG
    let variant = (word >> 10) & 3;
    if word & (1 << 29) != 0 || variant > 1 {
        return None;
    }
    let run: Handler = if sf { csel::<true> } else { csel::<false> };
    let variant = ((word >> 30) & 1) << 1 | variant;
    Some(Op { imm: variant as u64, ..op(run, word, rd, rn, rm, (word >> 12) & 15) })
}

/// ADD, ADDS, SUB, SUBS with an extended register (UXTW, SXTW... then LSL by 0..4).
fn decode_extended(word: u32) -> Option<Op> {
    let lsl = (word >> 10) & 7;
    if (word >> 22) & 3 != 0 || lsl > 4 {
        return None;
    }
    let run: Handler = match (word >> 31 == 1, word & (1 << 30) != 0, word & (1 << 29) != 0) {
        (true, false, false) => add_extended::<true, false, false>,
        (true, false, true) => add_extended::<true, false, true>,
        (true, true, false) => add_extended::<true, true, false>,
        (true, true, true) => add_extended::<true, true, true>,
        (false, false, false) => add_extended::<false, false, false>,
        (false, false, true) => add_extended::<false, false, true>,
        (false, true, false) => add_extended::<false, true, false>,
        (false, true, true) => add_extended::<false, true, true>,
    };
    Some(Op { imm: lsl as u64, ..op(run, word, word & 31, (word >> 5) & 31, (word >> 16) & 31, (word >> 13) & 7) })
}

/// CCMP and CCMN with a register or a 5-bit immediate; `imm` holds the flags to set when the
/// condition fails.
fn decode_conditional_compare(word: u32) -> Option<Op> {
    if word & (1 << 29) == 0 || word & (1 << 10) != 0 || word & (1 << 4) != 0 {
        return None;
    }
    let run: Handler = match (word >> 31 == 1, word & (1 << 30) != 0, word & (1 << 11) != 0) {
        (true, false, false) => conditional_compare::<true, false, false>,
        (true, false, true) => conditional_compare::<true, false, true>,
        (true, true, false) => conditional_compare::<true, true, false>,
        (true, true, true) => conditional_compare::<true, true, true>,
        (false, false, false) => conditional_compare::<false, false, false>,
        (false, false, true) => conditional_compare::<false, false, true>,
        (false, true, false) => conditional_compare::<false, true, false>,
        (false, true, true) => conditional_compare::<false, true, true>,
    };
    let fallback = ((word & 15) << 28) as u64;
    Some(Op { imm: fallback, ..op(run, word, 0, (word >> 5) & 31, (word >> 16) & 31, (word >> 12) & 15) })
}

/// LSLV, LSRV, ASRV, RORV and CLZ; the other one- and two-source operations stay with the
/// interpreter.
fn decode_shift_or_count(word: u32) -> Option<Op> {
    let sf = word >> 31 == 1;
    let (rd, rn, rm) = (word & 31, (word >> 5) & 31, (word >> 16) & 31);
    let opcode = (word >> 10) & 63;
    match (word & (1 << 29) != 0, word & (1 << 30) != 0, opcode) {
        (false, false, 8..=11) => {
            let run: Handler = if sf { variable_shift::<true> } else { variable_shift::<false> };
            Some(op(run, word, rd, rn, rm, opcode - 8))
        }
        (false, true, 4) if rm == 0 => {
            let run: Handler = if sf { count_leading_zeros::<true> } else { count_leading_zeros::<false> };
            Some(op(run, word, rd, rn, 0, 0))
        }
        _ => None,
    }
}

fn nop(_: &mut CpuState, _: &mut Memory, _: &Op, pc: u64) -> Next {
    next(pc)
}

fn set_const(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    cpu.x[op.a as usize & 31] = op.imm;
    next(pc)
}

/// ADD/SUB (immediate) to Rd|SP from Rn|SP; `imm` is already negated for SUB.
fn add_imm<const SF: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    cpu.x[op.a as usize & 31] = width(cpu.x[op.b as usize & 31].wrapping_add(op.imm), SF);
    next(pc)
}

/// ADDS/SUBS (immediate, CMP/CMN); `imm` is already inverted for SUBS.
fn adds_imm<const SF: bool, const SUB: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let (r, nzcv) = add_with_carry(cpu.x[op.b as usize & 31], op.imm, SUB, SF);
    cpu.nzcv = nzcv;
    cpu.set_xr(op.a as u32, r);
    next(pc)
}

/// AND/ORR/EOR (immediate) to Rd|SP; Rn is not XZR here.
fn logic_imm<const SF: bool, const OPC: u32>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    cpu.x[op.a as usize & 31] = logical(OPC, cpu.x[op.b as usize & 31], op.imm, SF);
    next(pc)
}

fn ands_imm<const SF: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let r = width(cpu.xr(op.b as u32) & op.imm, SF);
    cpu.nzcv = logic_flags(r, SF);
    cpu.set_xr(op.a as u32, r);
    next(pc)
}

/// MOVK: `imm` is the shifted half-word, `imm2` keeps the other bits.
fn movk<const SF: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let rd = op.a as usize & 31;
    cpu.x[rd] = width((cpu.x[rd] & op.imm2) | op.imm, SF);
    next(pc)
}

#[inline(always)]
fn rotate_right<const SF: bool>(v: u64, amount: u32) -> u64 {
    if SF {
        v.rotate_right(amount)
    } else {
        (v as u32).rotate_right(amount) as u64
    }
}

/// UBFM (LSL, LSR, UBFX, UXTB...): the rotated source under wmask & tmask (`imm`).
fn ubfm<const SF: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let src = width(cpu.xr(op.b as u32), SF);
    cpu.x[op.a as usize & 31] = width(rotate_right::<SF>(src, op.c as u32) & op.imm, SF);
    next(pc)
}

/// SBFM (ASR, SBFX, SXTW...): as UBFM, with bit `imms` (`d`) copied above the field (`imm2` =
/// !tmask).
fn sbfm<const SF: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let src = width(cpu.xr(op.b as u32), SF);
    let top = 0u64.wrapping_sub((src >> op.d) & 1);
    let r = (top & op.imm2) | (rotate_right::<SF>(src, op.c as u32) & op.imm);
    cpu.x[op.a as usize & 31] = width(r, SF);
    next(pc)
}

fn extr<const SF: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    cpu.x[op.a as usize & 31] = extract(cpu.xr(op.b as u32), cpu.xr(op.c as u32), op.d as u32, SF);
    next(pc)
}

/// MOV (register): ORR Rd, XZR, Rm.
fn mov_reg<const SF: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    cpu.x[op.a as usize & 31] = width(cpu.xr(op.c as u32), SF);
    next(pc)
}

/// AND, ORR, EOR, ANDS and their inverted forms (BIC, ORN, EON, BICS) with a shifted register.
fn logic_reg<const SF: bool, const OPC: u32, const INVERT: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let y = shift(width(cpu.xr(op.c as u32), SF), op.d as u32, op.imm as u32, SF);
    let y = if INVERT { !y } else { y };
    let r = logical(OPC, cpu.xr(op.b as u32), y, SF);
    if OPC == 3 {
        cpu.nzcv = logic_flags(r, SF);
    }
    cpu.set_xr(op.a as u32, r);
    next(pc)
}

/// ADD, ADDS, SUB, SUBS (shifted register; CMP, CMN, NEG).
fn add_reg<const SF: bool, const SUB: bool, const S: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let y = shift(width(cpu.xr(op.c as u32), SF), op.d as u32, op.imm as u32, SF);
    let (r, nzcv) = add_with_carry(cpu.xr(op.b as u32), if SUB { !y } else { y }, SUB, SF);
    if S {
        cpu.nzcv = nzcv;
    }
    cpu.set_xr(op.a as u32, r);
    next(pc)
}

/// CSEL, CSINC, CSINV, CSNEG as `imm` 0..3; the condition in `d`.
fn csel<const SF: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let r = if condition_holds(op.d as u32, cpu.nzcv) {
        cpu.xr(op.b as u32)
    } else {
        let m = cpu.xr(op.c as u32);
        match op.imm {
            0 => m,
            1 => m.wrapping_add(1),
            2 => !m,
            _ => m.wrapping_neg(),
        }
    };
    cpu.set_xr(op.a as u32, width(r, SF));
    next(pc)
}

/// ADD/SUB (extended register): Rn may be SP, and so may Rd unless flags are set.
fn add_extended<const SF: bool, const SUB: bool, const S: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let y = extend(cpu.xr(op.c as u32), op.d as u32, op.imm as u32);
    let (r, nzcv) = add_with_carry(cpu.x[op.b as usize & 31], if SUB { !y } else { y }, SUB, SF);
    if S {
        cpu.nzcv = nzcv;
        cpu.set_xr(op.a as u32, r);
    } else {
        cpu.x[op.a as usize & 31] = r;
    }
    next(pc)
}

/// CCMP (`SUB`) and CCMN of Rn with Rm or the immediate `c` (`IMM`), condition `d`.
fn conditional_compare<const SF: bool, const SUB: bool, const IMM: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    cpu.nzcv = if condition_holds(op.d as u32, cpu.nzcv) {
        let y = if IMM { op.c as u64 } else { cpu.xr(op.c as u32) };
        add_with_carry(cpu.xr(op.b as u32), if SUB { !y } else { y }, SUB, SF).1
    } else {
        op.imm as u32
    };
    next(pc)
}

/// LSLV, LSRV, ASRV, RORV (`d` = 0..3): the amount is Rm modulo the width.
fn variable_shift<const SF: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let x = width(cpu.xr(op.b as u32), SF);
    let amount = (cpu.xr(op.c as u32) % if SF { 64 } else { 32 }) as u32;
    cpu.set_xr(op.a as u32, shift(x, op.d as u32, amount, SF));
    next(pc)
}

fn count_leading_zeros<const SF: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let x = cpu.xr(op.b as u32);
    let zeros = if SF { x.leading_zeros() } else { (x as u32).leading_zeros() };
    cpu.set_xr(op.a as u32, zeros as u64);
    next(pc)
}

/// MADD and MSUB (`NEGATE`): Ra ± Rn × Rm, Ra in `d`.
fn multiply_add<const SF: bool, const NEGATE: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let product = cpu.xr(op.b as u32).wrapping_mul(cpu.xr(op.c as u32));
    let a = cpu.xr(op.d as u32);
    let r = if NEGATE { a.wrapping_sub(product) } else { a.wrapping_add(product) };
    cpu.set_xr(op.a as u32, width(r, SF));
    next(pc)
}
