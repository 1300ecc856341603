//! The two system instructions ordinary code runs often: hints (NOP, BTI, YIELD...; no-ops for
//! a user program here) and MRS of TPIDR_EL0, the thread pointer glibc reads for `errno` and
//! other thread-local data.

use super::{next, Handler, Next, Op};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

pub fn decode(word: u32) -> Option<Op> {
    if word & 0xFFFF_F01F == 0xD503_201F {
        return Some(Op::new(hint, word));
    }
    if word & 0xFFFF_FFE0 == 0xD53B_D040 {
        let run: Handler = read_thread_pointer;
        return Some(Op { a: (word & 31) as u8, ..Op::new(run, word) });
    }
    None
}

fn hint(_: &mut CpuState, _: &mut Memory, _: &Op, pc: u64) -> Next {
    next(pc)
}

fn read_thread_pointer(cpu: &mut CpuState, _: &mut Memory, op: &Op, pc: u64) -> Next {
    cpu.set_xr(op.a as u32, cpu.tpidr_el0);
    next(pc)
}
