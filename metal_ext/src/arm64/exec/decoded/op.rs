//! One instruction as the code cache keeps it: a handler and its operands, and the helpers every
//! handler shares.

use crate::arm64::decode::Reg;
use crate::arm64::exec::exception::Exception;
use crate::arm64::exec::interpreter::execute_word;
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

pub type Handler = fn(&mut CpuState, &mut Memory, &Op, u64) -> Next;

/// The next PC, or why the instruction stopped (boxed, so that the result fits two registers).
pub type Next = Result<u64, Box<Exception>>;

/// One decoded instruction. What `a`..`d`, `imm` and `imm2` mean is up to its handler.
/// Aligned to its 32 bytes, so that no instruction straddles two cache lines.
#[derive(Clone, Copy)]
#[repr(align(32))]
pub struct Op {
    pub run: Handler,
    pub imm: u64,
    pub imm2: u64,
    pub word: u32,
    pub a: u8,
    pub b: u8,
    pub c: u8,
    pub d: u8,
}

impl Op {
    pub(super) fn new(run: Handler, word: u32) -> Op {
        Op { run, imm: 0, imm2: 0, word, a: 0, b: 0, c: 0, d: 0 }
    }

    /// The registers a specialised handler may write (xi, and vi for the vector transfers): a
    /// superset, its register fields `a`, `b`, `c` and x30 (the link register); never FPCR, FPSR
    /// or TPIDR_EL0. None for words the interpreter runs, which may write any.
    pub fn written_registers(&self) -> Option<[u8; 4]> {
        if self.run as *const () == generic as *const () {
            return None;
        }
        Some([self.a & 31, self.b & 31, self.c & 31, 30])
    }
}

/// A register of the decoded form as the handlers' 5-bit field (XZR and SP both 31: each
/// handler knows which one its field names).
pub(super) fn field(r: Reg) -> u8 {
    r.min(31)
}

pub(super) fn generic(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    cpu.pc = pc;
    execute_word(cpu, mem, op.word)?;
    Ok(cpu.pc)
}

/// The instruction after the one at `pc`.
#[inline(always)]
pub(super) fn next(pc: u64) -> Next {
    Ok(pc.wrapping_add(4))
}
