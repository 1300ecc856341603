//! Specialised handlers for branches: targets and return addresses are computed at decode.

use super::{Handler, Next, Op};
use crate::arm64::exec::alu::{condition_holds, sign_extend, width};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

/// `imm` is the taken target.
fn to(run: Handler, word: u32, pc: u64, offset: u64) -> Op {
    Op { imm: pc.wrapping_add(offset), ..Op::new(run, word) }
}

fn imm19(word: u32) -> u64 {
    sign_extend((((word >> 5) & 0x7FFFF) << 2) as u64, 21)
}

/// B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ, BR/BLR/RET; None leaves the word to the interpreter.
pub fn decode(word: u32, pc: u64) -> Option<Op> {
    let imm26 = || sign_extend(((word & 0x03FF_FFFF) << 2) as u64, 28);
    let rt = (word & 31) as u8;
    match word >> 26 {
        0b000101 => Some(to(b, word, pc, imm26())),
        0b100101 => Some(to(bl, word, pc, imm26())),
        0b010101 if word & 0xFF00_0010 == 0x5400_0000 => Some(Op { d: (word & 15) as u8, ..to(b_cond, word, pc, imm19(word)) }),
        0b001101 | 0b101101 if word & (1 << 25) == 0 => {
            let run: Handler = match (word >> 31 == 1, word & (1 << 24) != 0) {
                (true, true) => cb::<true, true>,
                (true, false) => cb::<true, false>,
                (false, true) => cb::<false, true>,
                (false, false) => cb::<false, false>,
            };
            Some(Op { a: rt, ..to(run, word, pc, imm19(word)) })
        }
        0b001101 | 0b101101 => {
            let run: Handler = if word & (1 << 24) != 0 { tb::<true> } else { tb::<false> };
            let bit = ((word >> 31) << 5 | (word >> 19) & 31) as u8;
            let offset = sign_extend((((word >> 5) & 0x3FFF) << 2) as u64, 16);
            Some(Op { a: rt, d: bit, ..to(run, word, pc, offset) })
        }
        0b110101 if (word >> 24) & 3 >= 2 => {
            let opc = (word >> 21) & 15;
            if (word >> 16) & 31 != 31 || (word >> 10) & 63 != 0 || word & 31 != 0 || opc > 2 {
                return None;
            }
            let run: Handler = if opc == 1 { blr } else { br };
            Some(Op { b: ((word >> 5) & 31) as u8, ..to(run, word, pc, 0) })
        }
        _ => None,
    }
}

fn b(_: &mut CpuState, _: &mut Memory, op: &Op, _: u64) -> Next {
    Ok(op.imm)
}

fn bl(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    cpu.x[30] = pc.wrapping_add(4);
    Ok(op.imm)
}

fn b_cond(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    Ok(if condition_holds(op.d as u32, cpu.nzcv) { op.imm } else { pc.wrapping_add(4) })
}

/// CBZ (`NONZERO` false) and CBNZ.
fn cb<const SF: bool, const NONZERO: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let taken = (width(cpu.xr(op.a as u32), SF) != 0) == NONZERO;
    Ok(if taken { op.imm } else { pc.wrapping_add(4) })
}

/// TBZ (`NONZERO` false) and TBNZ on bit `d`.
fn tb<const NONZERO: bool>(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let taken = ((cpu.xr(op.a as u32) >> op.d) & 1 != 0) == NONZERO;
    Ok(if taken { op.imm } else { pc.wrapping_add(4) })
}

/// BR and RET.
fn br(cpu: &mut CpuState, _: &mut Memory, op: &Op, _: u64) -> Next {
    Ok(cpu.xr(op.b as u32))
}

fn blr(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    let target = cpu.xr(op.b as u32);
    cpu.x[30] = pc.wrapping_add(4);
    Ok(target)
}
