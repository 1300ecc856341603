//! Specialised handlers for the integer data-processing forms that dominate real code:
//! add/subtract and logical with an immediate or a shifted or extended register, moves,
//! bitfields, extract, conditional select and compare, variable shifts, multiply-add and CLZ.
//! Immediates, bitmasks and constant results come computed with the decoded form.

use super::op::{field, next, Handler, Next, Op};
use crate::arm64::decode::{Insn, Operand, Reg, Unary, ZR};
use crate::arm64::exec::alu::{add_with_carry, condition_holds, extend, extract, logic_flags, logical, shift, width};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

fn op(run: Handler, word: u32, a: Reg, b: Reg, c: Reg, d: u8) -> Op {
    Op { a: field(a), b: field(b), c: field(c), d, ..Op::new(run, word) }
}

/// A result that goes to XZR with no flags: the instruction only moves on.
fn nop_op(word: u32) -> Op {
    Op::new(nop, word)
}

/// Register `rd` (XZR or SP, as the form resolved it) gets a constant.
fn constant(word: u32, rd: Reg, value: u64) -> Op {
    if rd == ZR {
        return nop_op(word);
    }
    Op { imm: value, ..op(set_const, word, rd, 0, 0, 0) }
}

/// The handler for an integer data-processing instruction; None leaves it to the interpreter.
pub fn build(insn: &Insn, word: u32) -> Option<Op> {
    Some(match *insn {
        Insn::Const { rd, value, .. } => constant(word, rd, value),
        Insn::Insert { .. } | Insn::Bitfield { .. } | Insn::Extract { .. } if insn_writes_zr(insn) => nop_op(word),
        Insn::Insert { sf, rd, value, mask } => {
            let run: Handler = if sf { movk::<true> } else { movk::<false> };
            Op { imm: value, imm2: !mask, ..op(run, word, rd, 0, 0, 0) }
        }
        Insn::Bitfield { sf, opc, rd, rn, immr, imms, wmask, tmask } => {
            let run: Handler = match (sf, opc) {
                (true, 0) => sbfm::<true>,
                (false, 0) => sbfm::<false>,
                (true, 2) => ubfm::<true>,
                (false, 2) => ubfm::<false>,
                _ => return None, // BFM
            };
            Op { imm: wmask & tmask, imm2: !tmask, c: immr, ..op(run, word, rd, rn, 0, imms) }
        }
        Insn::Extract { sf, rd, rn, rm, lsb } => {
            let run: Handler = if sf { extr::<true> } else { extr::<false> };
            op(run, word, rd, rn, rm, lsb)
        }
        Insn::AddSub { sf, sub, flags, rd, rn, op: op @ Operand::ShiftedImm { .. } } => {
            add_sub_immediate(word, sf, sub, flags, rd, rn, op.immediate().expect("an immediate"))
        }
        Insn::AddSub { sf, sub, flags, rd, rn, op: Operand::Shifted { rm, kind, amount } } => {
            let run: Handler = match (sf, sub, flags) {
                (true, false, false) => add_reg::<true, false, false>,
                (true, false, true) => add_reg::<true, false, true>,
                (true, true, false) => add_reg::<true, true, false>,
                (true, true, true) => add_reg::<true, true, true>,
                (false, false, false) => add_reg::<false, false, false>,
                (false, false, true) => add_reg::<false, false, true>,
                (false, true, false) => add_reg::<false, true, false>,
                (false, true, true) => add_reg::<false, true, true>,
            };
            Op { imm: amount as u64, ..op(run, word, rd, rn, rm, kind) }
        }
        Insn::AddSub { sf, sub, flags, rd, rn, op: Operand::Extended { rm, option, lsl } } => {
            let run: Handler = match (sf, sub, flags) {
                (true, false, false) => add_extended::<true, false, false>,
                (true, false, true) => add_extended::<true, false, true>,
                (true, true, false) => add_extended::<true, true, false>,
                (true, true, true) => add_extended::<true, true, true>,
                (false, false, false) => add_extended::<false, false, false>,
                (false, false, true) => add_extended::<false, false, true>,
                (false, true, false) => add_extended::<false, true, false>,
                (false, true, true) => add_extended::<false, true, true>,
            };
            Op { imm: lsl as u64, ..op(run, word, rd, rn, rm, option) }
        }
        Insn::Logic { sf, opc, rd, rn, op: Operand::Imm(imm), .. } => logic_immediate(word, sf, opc, rd, rn, imm),
        Insn::Logic { sf, opc, invert, rd, rn, op: Operand::Shifted { rm, kind, amount } } => {
            logic_shifted(word, sf, opc, invert, rd, rn, rm, kind, amount)
        }
        Insn::Select { sf, cond, invert, increment, rd, rn, rm } => {
            let run: Handler = if sf { csel::<true> } else { csel::<false> };
            let variant = (invert as u64) << 1 | increment as u64;
            Op { imm: variant, ..op(run, word, rd, rn, rm, cond) }
        }
        Insn::CondCompare { sf, add, cond, nzcv, rn, op: second } => {
            let (c, immediate) = match second {
                Operand::Imm(imm) => (imm as u8, true),
                Operand::Shifted { rm, .. } | Operand::Extended { rm, .. } => (field(rm), false),
                Operand::ShiftedImm { .. } => return None,
            };
            let run: Handler = match (sf, !add, immediate) {
                (true, false, false) => conditional_compare::<true, false, false>,
                (true, false, true) => conditional_compare::<true, false, true>,
                (true, true, false) => conditional_compare::<true, true, false>,
                (true, true, true) => conditional_compare::<true, true, true>,
                (false, false, false) => conditional_compare::<false, false, false>,
                (false, false, true) => conditional_compare::<false, false, true>,
                (false, true, false) => conditional_compare::<false, true, false>,
                (false, true, true) => conditional_compare::<false, true, true>,
            };
            Op { imm: (nzcv as u64) << 28, c, ..op(run, word, 0, rn, 0, cond) }
        }
        Insn::ShiftVariable { sf, kind, rd, rn, rm } => {
            let run: Handler = if sf { variable_shift::<true> } else { variable_shift::<false> };
            op(run, word, rd, rn, rm, kind)
        }
        Insn::Unary { sf, op: Unary::Clz, rd, rn } => {
            let run: Handler = if sf { count_leading_zeros::<true> } else { count_leading_zeros::<false> };
            op(run, word, rd, rn, 0, 0)
        }
        Insn::MultiplyAdd { sf, sub, rd, rn, rm, ra } => {
            let run: Handler = match (sf, sub) {
                (true, false) => multiply_add::<true, false>,
                (true, true) => multiply_add::<true, true>,
                (false, false) => multiply_add::<false, false>,
                (false, true) => multiply_add::<false, true>,
            };
            op(run, word, rd, rn, rm, field(ra))
        }
        _ => return None,
    })
}

/// MOVK, bitfield moves and EXTR into XZR change nothing.
fn insn_writes_zr(insn: &Insn) -> bool {
    matches!(*insn, Insn::Insert { rd: ZR, .. } | Insn::Bitfield { rd: ZR, opc: 0 | 2, .. } | Insn::Extract { rd: ZR, .. })
}

fn add_sub_immediate(word: u32, sf: bool, sub: bool, flags: bool, rd: Reg, rn: Reg, imm: u64) -> Op {
    if !flags {
        let imm = if sub { imm.wrapping_neg() } else { imm };
        let run: Handler = if sf { add_imm::<true> } else { add_imm::<false> };
        return Op { imm, ..op(run, word, rd, rn, 0, 0) };
    }
    let run: Handler = match (sf, sub) {
        (true, false) => adds_imm::<true, false>,
        (true, true) => adds_imm::<true, true>,
        (false, false) => adds_imm::<false, false>,
        (false, true) => adds_imm::<false, true>,
    };
    Op { imm: if sub { !imm } else { imm }, ..op(run, word, rd, rn, 0, 0) }
}

fn logic_immediate(word: u32, sf: bool, opc: u8, rd: Reg, rn: Reg, imm: u64) -> Op {
    if opc != 3 && rn == ZR {
        // MOV (bitmask immediate): ORR with XZR, a constant; AND/EOR of XZR likewise.
        return constant(word, rd, if opc == 0 { 0 } else { width(imm, sf) });
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
    Op { imm, ..op(run, word, rd, rn, 0, 0) }
}

#[allow(clippy::too_many_arguments)]
fn logic_shifted(word: u32, sf: bool, opc: u8, invert: bool, rd: Reg, rn: Reg, rm: Reg, kind: u8, amount: u8) -> Op {
    if opc != 3 && rd == ZR {
        return nop_op(word);
    }
    if opc == 1 && !invert && amount == 0 && rn == ZR {
        let run: Handler = if sf { mov_reg::<true> } else { mov_reg::<false> };
        return op(run, word, rd, rn, rm, kind);
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
    Op { imm: amount as u64, ..op(run, word, rd, rn, rm, kind) }
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
