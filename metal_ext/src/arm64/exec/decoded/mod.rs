//! Instructions decoded once into a handler and its operands, for the code cache.
//!
//! The common integer, branch and load/store forms get a handler specialised by width, flags
//! and addressing mode, built from the shared decoded form (`arm64::decode`), which has worked
//! out their fields, immediates, bitmasks and branch targets. Everything else runs through
//! `generic`, the interpreter of `execute_word`, so both paths share one definition of what is
//! undefined.
//!
//! A handler gets its instruction's address as `pc` and returns the next instruction's, which
//! the code cache keeps in a host register rather than in `cpu.pc` (a store and reload per
//! instruction would put memory latency on the path from one instruction to the next). On an
//! exception nothing changed but `cpu.pc`, which `generic` may have set.

mod branches;
mod integer;
mod system;
mod transfers;

use super::Exception;
use crate::arm64::decode::Reg;
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
    fn new(run: Handler, word: u32) -> Op {
        Op { run, imm: 0, imm2: 0, word, a: 0, b: 0, c: 0, d: 0 }
    }

    /// The registers (bit i: xi, and vi for the vector transfers) a specialised handler may
    /// write: a superset, its register fields `a`, `b`, `c` and x30 (the link register). None
    /// for words the interpreter runs, which may write any.
    pub fn written_registers(&self) -> Option<u32> {
        if self.run as *const () == generic as *const () {
            return None;
        }
        Some(1 << (self.a & 31) | 1 << (self.b & 31) | 1 << (self.c & 31) | 1 << 30)
    }
}

/// Decodes the instruction `word` found at `pc`: the shared decoded form, then the handler
/// specialised for it where there is one.
pub fn decode(word: u32, pc: u64) -> Op {
    let specialised = crate::arm64::decode::decode(word, pc).and_then(|insn| {
        integer::build(&insn, word)
            .or_else(|| branches::build(&insn, word))
            .or_else(|| system::build(&insn, word))
            .or_else(|| transfers::build(&insn, word))
    });
    specialised.unwrap_or_else(|| Op::new(generic, word))
}

/// A register of the decoded form as the handlers' 5-bit field (XZR and SP both 31: each
/// handler knows which one its field names).
fn field(r: Reg) -> u8 {
    r.min(31)
}

fn generic(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    cpu.pc = pc;
    super::execute_word(cpu, mem, op.word)?;
    Ok(cpu.pc)
}

/// The instruction after the one at `pc`.
#[inline(always)]
fn next(pc: u64) -> Next {
    Ok(pc.wrapping_add(4))
}

#[cfg(test)]
pub(crate) mod tests;
