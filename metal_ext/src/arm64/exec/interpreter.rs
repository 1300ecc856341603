//! The interpreter's loop body: fetch, decode once into the shared form (or hand the word to its
//! family), execute.

use super::exception::Exception;
use super::{branch_system, integer, load_store, simd_fp};
use crate::arm64::decode::{decode, Insn};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

/// Executes the instruction at `cpu.pc`.
///
/// `simd_fp::execute` is called with `cpu.pc` still at the instruction and must leave it there;
/// every other family gets the instruction's address as `pc`, finds `cpu.pc` already advanced
/// and only branches change it. On any exception but SVC, `cpu.pc` is put back.
#[inline]
pub fn step(cpu: &mut CpuState, mem: &mut Memory) -> Result<(), Exception> {
    let pc = cpu.pc;
    if pc & 3 != 0 {
        return Err(Exception::Alignment { pc, addr: pc });
    }
    let word = mem.fetch(pc).map_err(|fault| Exception::Memory { pc, fault })?;
    let result = execute_word(cpu, mem, word);
    if result.is_ok() || matches!(result, Err(Exception::Svc { .. })) {
        cpu.counter = cpu.counter.wrapping_add(1);
    }
    result
}

/// Executes `word` as the instruction at `cpu.pc`, without counting it (see `step`).
#[inline]
pub fn execute_word(cpu: &mut CpuState, mem: &mut Memory, word: u32) -> Result<(), Exception> {
    let pc = cpu.pc;
    match (word >> 25) & 0xF {
        0b0111 | 0b1111 => {
            let r = simd_fp::execute(cpu, word);
            if r.is_ok() {
                cpu.pc = pc.wrapping_add(4);
            }
            r
        }
        _ => {
            cpu.pc = pc.wrapping_add(4);
            let r = match decode(word, pc) {
                Some(insn) => execute_decoded(cpu, mem, &insn, pc, word),
                None => Err(Exception::undefined(pc, word)),
            };
            if let Err(e) = &r {
                if !matches!(e, Exception::Svc { .. }) {
                    cpu.pc = pc;
                }
            }
            r
        }
    }
}

/// Executes an instruction of the decoded form, `word`, found at `pc` (`cpu.pc` already past it).
#[inline(always)]
fn execute_decoded(cpu: &mut CpuState, mem: &mut Memory, insn: &Insn, pc: u64, word: u32) -> Result<(), Exception> {
    match insn {
        // FEAT_LSE and FEAT_LRCPC: undefined on a core without them (see `CpuState::lse`).
        Insn::Atomic { .. } | Insn::CompareSwap { .. } | Insn::CompareSwapPair { .. } | Insn::LoadAcquirePc { .. }
            if !cpu.lse =>
        {
            Err(Exception::undefined(pc, word))
        }
        Insn::Branch { .. }
        | Insn::CondBranch { .. }
        | Insn::CompareBranch { .. }
        | Insn::TestBranch { .. }
        | Insn::Indirect { .. }
        | Insn::Supervisor { .. }
        | Insn::Breakpoint { .. }
        | Insn::Hint { .. }
        | Insn::Barrier { .. }
        | Insn::Cache { .. }
        | Insn::ReadSystem { .. }
        | Insn::WriteSystem { .. } => branch_system::execute_decoded(cpu, mem, insn, pc),
        Insn::Load { .. }
        | Insn::Store { .. }
        | Insn::LoadPair { .. }
        | Insn::StorePair { .. }
        | Insn::LoadVector { .. }
        | Insn::StoreVector { .. }
        | Insn::LoadVectorPair { .. }
        | Insn::StoreVectorPair { .. }
        | Insn::Prefetch { .. }
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
        | Insn::Structures { .. } => load_store::execute_decoded(cpu, mem, insn, pc),
        _ => {
            integer::execute(cpu, insn);
            Ok(())
        }
    }
}
