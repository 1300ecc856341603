//! Specialised handlers for branches: targets come computed with the decoded form.

use super::op::{field, Handler, Next, Op};
use crate::arm64::decode::Insn;
use crate::arm64::exec::alu::{condition_holds, width};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

/// The handler of a branch, its taken target in `imm`; None for other instructions.
pub fn build(insn: &Insn, word: u32) -> Option<Op> {
    let to = |run: Handler, target: u64| Op { imm: target, ..Op::new(run, word) };
    Some(match *insn {
        Insn::Branch { target, link } => to(if link { bl as Handler } else { b }, target),
        Insn::CondBranch { cond, target } => Op { d: cond, ..to(b_cond, target) },
        Insn::CompareBranch { sf, nonzero, rt, target } => {
            let run: Handler = match (sf, nonzero) {
                (true, true) => cb::<true, true>,
                (true, false) => cb::<true, false>,
                (false, true) => cb::<false, true>,
                (false, false) => cb::<false, false>,
            };
            Op { a: field(rt), ..to(run, target) }
        }
        Insn::TestBranch { nonzero, rt, bit, target } => {
            let run: Handler = if nonzero { tb::<true> } else { tb::<false> };
            Op { a: field(rt), d: bit, ..to(run, target) }
        }
        Insn::Indirect { rn, link, .. } => Op { b: field(rn), ..Op::new(if link { blr as Handler } else { br }, word) },
        _ => return None,
    })
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
