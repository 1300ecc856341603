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
use crate::arm64::decode::{decode_simd_fp, simd_family, SimdInsn};
use crate::arm64::state::CpuState;
use lanes::bit;

/// Executes one instruction of the group (the caller advances the pc), or reports it undefined.
pub fn execute(cpu: &mut CpuState, word: u32) -> Result<(), Exception> {
    decode_and_run(cpu, word).ok_or(Exception::Undefined { pc: cpu.pc, word })
}

/// Every executor leaves the state untouched when it returns `None` (a decoded form the core
/// does not execute, such as half precision). The families are told apart here by their fixed
/// bits, so each word goes straight to its family's decoder and executor: the decoded form's
/// own chain of tests (`decode_simd_fp`) and a second match made hot vector instructions about
/// 60% slower.
fn decode_and_run(cpu: &mut CpuState, w: u32) -> Option<()> {
    if bit(w, 28) && !bit(w, 30) {
        return fp_scalar::execute(cpu, decode_simd_fp(w)?);
    }
    if bit(w, 31) {
        return None;
    }
    // Bit 28 separates the scalar AdvSIMD forms (01U11110/11111) from the vector ones (0QU01110/01111).
    let scalar = bit(w, 28);
    if bit(w, 24) {
        return if !bit(w, 10) {
            simd_elem::execute(cpu, simd_family::by_element(w)?)
        } else if bit(w, 23) {
            None
        } else if w & (0b1111 << 19) != 0 {
            simd_shift::execute(cpu, simd_family::shift_immediate(w)?)
        } else if scalar {
            None
        } else {
            simd_imm::execute(cpu, simd_family::modified_immediate(w)?)
        };
    }
    if bit(w, 21) {
        return match (w >> 10) & 3 {
            0b01 | 0b11 => match simd_family::three_same(w)? {
                insn @ SimdInsn::ThreeSame { .. } => simd_int::three_same(cpu, insn),
                insn @ SimdInsn::Bitwise { .. } => simd_int::bitwise(cpu, insn),
                insn => simd_float::three_same(cpu, insn),
            },
            0b00 => simd_int::three_different(cpu, simd_family::three_different(w)?),
            _ => match (w >> 17) & 15 {
                0b0000 => match simd_family::two_register_misc(w)? {
                    insn @ SimdInsn::TwoRegMisc { .. } => simd_int::two_reg_misc(cpu, insn),
                    insn => simd_float::two_reg_misc(cpu, insn),
                },
                0b1000 => simd_across::execute(cpu, simd_family::reduction(w)?),
                0b0100 => simd_crypto::execute(cpu, decode_simd_fp(w)?),
                _ => None,
            },
        };
    }
    let bit15 = bit(w, 15);
    if (w >> 21) & 7 == 0 && !bit15 && bit(w, 10) {
        return simd_permute::copy(cpu, simd_family::copy(w)?);
    }
    if scalar {
        // The SHA three-register forms, the only scalar words left.
        return simd_crypto::execute(cpu, decode_simd_fp(w)?);
    }
    simd_permute::permute(cpu, decode_simd_fp(w)?)
}
