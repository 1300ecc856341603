//! Which decoded instructions the block compiler translates. Anything it does not ends a
//! region, and the interpreter runs it; so an instruction is taken only where every field
//! combination the shared form (`arm64::decode`) accepts for it is translated exactly (the
//! differential tests check each form against the interpreter).

pub use crate::arm64::decode::Insn;
use crate::arm64::decode::{self, SystemRegister};

/// Decodes `word` at `pc`, or None if the block compiler leaves it to the interpreter.
pub fn decode(word: u32, pc: u64) -> Option<Insn> {
    decode::decode(word, pc).filter(translatable)
}

fn translatable(insn: &Insn) -> bool {
    match *insn {
        // Writing back into a transfer register, or loading both halves of a pair into one
        // register, is CONSTRAINED UNPREDICTABLE: left to the interpreter's choice.
        Insn::Load { rt, addr, .. } | Insn::Store { rt, addr, .. } => addr.writeback().is_none_or(|b| b != rt || b == 31),
        Insn::LoadPair { rt, rt2, addr, .. } => rt != rt2 && pair_writeback_is_distinct(addr.writeback(), rt, rt2),
        Insn::StorePair { rt, rt2, addr, .. } => pair_writeback_is_distinct(addr.writeback(), rt, rt2),
        // Only the thread pointer is read often enough to be worth translating.
        Insn::ReadSystem { reg, .. } => reg == SystemRegister::TpidrEl0,
        Insn::AddCarry { .. }
        | Insn::Crc32 { .. }
        | Insn::Prefetch { .. }
        | Insn::WriteSystem { .. }
        | Insn::Barrier { .. }
        | Insn::Cache { .. }
        | Insn::Supervisor { .. }
        | Insn::Breakpoint { .. }
        // The rest of the load/store class: the interpreter's.
        | Insn::LoadLiteral { .. }
        | Insn::LoadVectorLiteral { .. }
        | Insn::PrefetchLiteral { .. }
        | Insn::LoadPairSigned { .. }
        | Insn::LoadUnprivileged { .. }
        | Insn::StoreUnprivileged { .. }
        | Insn::LoadExclusive { .. }
        | Insn::StoreExclusive { .. }
        | Insn::LoadAcquire { .. }
        | Insn::StoreRelease { .. }
        | Insn::LoadAcquirePc { .. }
        | Insn::CompareSwap { .. }
        | Insn::CompareSwapPair { .. }
        | Insn::Atomic { .. }
        | Insn::Structures { .. } => false,
        _ => true,
    }
}

fn pair_writeback_is_distinct(base: Option<decode::Reg>, rt: decode::Reg, rt2: decode::Reg) -> bool {
    base.is_none_or(|b| b == 31 || (b != rt && b != rt2))
}
