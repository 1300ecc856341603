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
mod op;
mod system;
mod transfers;

use op::generic;
pub use op::{Next, Op};

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

#[cfg(test)]
pub(crate) mod tests;
