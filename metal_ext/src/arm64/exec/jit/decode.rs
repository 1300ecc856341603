//! Which instructions the block compiler translates. Anything it does not ends a region, and
//! the interpreter runs it; so an instruction is taken only where every field combination the
//! shared form (`arm64::decode`) accepts for it is translated exactly (the differential tests
//! check each form against the interpreter).

pub use crate::arm64::decode::Insn;
use crate::arm64::decode::{self, decode_simd_fp, SimdInsn, Structure, SystemRegister};
use crate::arm64::exec::simd_fp;
use crate::arm64::state::CpuState;

/// One instruction of a region.
#[derive(Clone, Copy, Debug)]
pub enum Item {
    /// An integer, branch or load/store instruction, translated form by form.
    Base(Insn),
    /// SIMD&FP data processing (bits 27..25 = 111): host vector instructions for the forms
    /// `emit::simd` translates, a call of the interpreter's own executor for the others, so that
    /// a region goes on through the vector code of glibc's string routines instead of ending there.
    Simd { word: u32, form: SimdInsn },
}

impl Item {
    pub fn is_branch(&self) -> bool {
        matches!(self, Item::Base(insn) if insn.is_branch())
    }

    pub fn target(&self) -> Option<u64> {
        match self {
            Item::Base(insn) => insn.target(),
            Item::Simd { .. } => None,
        }
    }
}

/// Decodes `word` at `pc`, or None if the block compiler leaves it to the interpreter.
pub fn decode(word: u32, pc: u64) -> Option<Item> {
    if (word >> 25) & 7 == 0b111 {
        return simd(word);
    }
    decode::decode(word, pc).filter(translatable).map(Item::Base)
}

fn simd(word: u32) -> Option<Item> {
    let form = decode_simd_fp(word)?;
    // FJCVTZS writes a general register and the flags at once: rare, left to the interpreter.
    // Executors decline a form (half precision) whatever the operands, so one trial run on a
    // blank state tells the forms the interpreter would call undefined.
    if matches!(form, SimdInsn::Fjcvtzs { .. }) || simd_fp::execute(&mut CpuState::default(), word).is_err() {
        return None;
    }
    Some(Item::Simd { word, form })
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
        // LD1/ST1 of whole registers (glibc's string routines); interleaved and lane forms are
        // the interpreter's.
        Insn::Structures { layout, .. } => matches!(layout, Structure::Multiple { selem: 1, .. }),
        // LDXR/STXR and their acquire/release forms (glibc's locks); the pairs are the interpreter's.
        Insn::LoadExclusive { pair, .. } | Insn::StoreExclusive { pair, .. } => !pair,
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
        | Insn::LoadAcquire { .. }
        | Insn::StoreRelease { .. }
        | Insn::LoadAcquirePc { .. }
        | Insn::CompareSwap { .. }
        | Insn::CompareSwapPair { .. }
        | Insn::Atomic { .. } => false,
        _ => true,
    }
}

fn pair_writeback_is_distinct(base: Option<decode::Reg>, rt: decode::Reg, rt2: decode::Reg) -> bool {
    base.is_none_or(|b| b == 31 || (b != rt && b != rt2))
}
