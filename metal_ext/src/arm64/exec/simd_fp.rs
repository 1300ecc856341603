//! Data processing on the SIMD & FP registers (op0 = x111): scalar FP and AdvSIMD, the whole
//! ARMv8.0-A group including the cryptographic extension (FP16 arithmetic, an ARMv8.2 feature,
//! is undefined, as on a Cortex-A53). Every class is executed from the decoded form
//! (`decode::SimdInsn`) by its submodule; this file picks the submodule.
//!
//! Floating point is computed in software on exact integers (`fp_env`, `fp_ops`): every FPCR
//! rounding mode, FZ, DN and AHP is honoured, FPSR's cumulative flags (IOC, DZC, OFC, UFC, IXC,
//! IDC, QC) are raised as the Arm ARM pseudocode raises them (tininess before rounding), and NaNs
//! are chosen and quieted by Arm's rules rather than the host's.

mod fp_env;
mod fp_estimate;
mod fp_ops;
mod fp_scalar;
mod lanes;
mod simd_across;
mod simd_crypto;
mod simd_elem;
mod simd_float;
mod simd_imm;
mod simd_int;
mod simd_permute;
mod simd_shift;

#[cfg(test)]
mod fingerprints;

#[cfg(test)]
mod tests;

use super::exception::Exception;
use crate::arm64::decode::{decode_simd_fp, SimdInsn};
use crate::arm64::state::CpuState;
use lanes::bit;

/// Executes one instruction of the group (the caller advances the pc), or reports it undefined.
pub fn execute(cpu: &mut CpuState, word: u32) -> Result<(), Exception> {
    decode_and_run(cpu, word).ok_or(Exception::Undefined { pc: cpu.pc, word })
}

/// Every executor leaves the state untouched when it returns `None` (a decoded form the core
/// does not execute, such as half precision).
fn decode_and_run(cpu: &mut CpuState, w: u32) -> Option<()> {
    // Scalar FP first and on its own: the hottest group, decoded and executed inline.
    if bit(w, 28) && !bit(w, 30) {
        return fp_scalar::execute(cpu, decode_simd_fp(w)?);
    }
    let insn = decode_simd_fp(w)?;
    match insn {
        SimdInsn::VectorImm { .. } => simd_imm::execute(cpu, insn),
        SimdInsn::ShiftImm { .. } => simd_shift::execute(cpu, insn),
        SimdInsn::ByElement { .. } => simd_elem::execute(cpu, insn),
        SimdInsn::ThreeSame { .. } => simd_int::three_same(cpu, insn),
        SimdInsn::Bitwise { .. } => simd_int::bitwise(cpu, insn),
        SimdInsn::FpThreeSame { .. } => simd_float::three_same(cpu, insn),
        SimdInsn::ThreeDifferent { .. } => simd_int::three_different(cpu, insn),
        SimdInsn::TwoRegMisc { .. } => simd_int::two_reg_misc(cpu, insn),
        SimdInsn::FpTwoRegMisc { .. } => simd_float::two_reg_misc(cpu, insn),
        SimdInsn::AcrossLanes { .. } | SimdInsn::PairwiseScalar { .. } => simd_across::execute(cpu, insn),
        SimdInsn::Crypto { .. } => simd_crypto::execute(cpu, insn),
        SimdInsn::DupElement { .. }
        | SimdInsn::DupGeneral { .. }
        | SimdInsn::InsElement { .. }
        | SimdInsn::InsGeneral { .. }
        | SimdInsn::MoveToGeneral { .. } => simd_permute::copy(cpu, insn),
        SimdInsn::Permute { .. } | SimdInsn::Extract { .. } | SimdInsn::Table { .. } => simd_permute::permute(cpu, insn),
        // The scalar FP forms, which the test above has already taken.
        _ => None,
    }
}
