//! The two system instructions ordinary code runs often: hints (NOP, BTI, YIELD...; no-ops for
//! a user program here) and MRS of TPIDR_EL0, the thread pointer glibc reads for `errno` and
//! other thread-local data.

use super::op::{field, next, Next, Op};
use crate::arm64::decode::{Insn, SystemRegister};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

pub fn build(insn: &Insn, word: u32) -> Option<Op> {
    match *insn {
        Insn::Hint { .. } => Some(Op::new(hint, word)),
        Insn::ReadSystem { reg: SystemRegister::TpidrEl0, rt } => Some(Op { a: field(rt), ..Op::new(read_thread_pointer, word) }),
        _ => None,
    }
}

fn hint(_: &mut CpuState, _: &mut Memory, _: &Op, pc: u64) -> Next {
    next(pc)
}

fn read_thread_pointer(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    cpu.set_xr(op.a as u32, cpu.tpidr_el0);
    next(pc)
}
