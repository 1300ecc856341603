//! Data processing on the SIMD & FP registers (op0 = x111): scalar FP and AdvSIMD, the whole
//! ARMv8.0-A group including the cryptographic extension (FP16 arithmetic, an ARMv8.2 feature,
//! is undefined, as on a Cortex-A53). This file decodes the instruction class; each class lives
//! in a submodule. Scalar FP, the modified immediates, the reductions, the copies and the permutes are
//! executed from the decoded form (`decode::SimdInsn`); the other Advanced SIMD families still decode their own fields.
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
use lanes::{bit, field};

/// Executes one instruction of the group (the caller advances the pc), or reports it undefined.
pub fn execute(cpu: &mut CpuState, word: u32) -> Result<(), Exception> {
    decode_and_run(cpu, word).ok_or(Exception::Undefined { pc: cpu.pc, word })
}

/// Every path checks its encoding before writing state, so `None` leaves the state untouched.
fn decode_and_run(cpu: &mut CpuState, w: u32) -> Option<()> {
    let scalar_fp = bit(w, 28) && !bit(w, 30);
    if scalar_fp {
        return fp_scalar::execute(cpu, decode_simd_fp(w)?);
    }
    if bit(w, 31) {
        return None;
    }
    // Bit 28 separates the scalar AdvSIMD forms (01U11110/11111) from the vector ones (0QU01110/01111).
    let scalar = bit(w, 28);
    if bit(w, 24) {
        return if bit(w, 10) {
            if bit(w, 23) {
                None
            } else if field(w, 19, 4) == 0 {
                if scalar {
                    None
                } else {
                    simd_imm::execute(cpu, decode_simd_fp(w)?)
                }
            } else {
                simd_shift::execute(cpu, decode_simd_fp(w)?)
            }
        } else {
            simd_elem::execute(cpu, decode_simd_fp(w)?)
        };
    }
    if bit(w, 21) {
        return match field(w, 10, 2) {
            0b01 | 0b11 => match decode_simd_fp(w)? {
                insn @ SimdInsn::FpThreeSame { .. } => simd_float::three_same(cpu, insn),
                insn @ SimdInsn::Bitwise { .. } => simd_int::bitwise(cpu, insn),
                insn => simd_int::three_same(cpu, insn),
            },
            0b00 => simd_int::three_different(cpu, decode_simd_fp(w)?),
            _ => match field(w, 17, 4) {
                0b0000 => match decode_simd_fp(w)? {
                    insn @ SimdInsn::FpTwoRegMisc { .. } => simd_float::two_reg_misc(cpu, insn),
                    insn => simd_int::two_reg_misc(cpu, insn),
                },
                0b1000 => simd_across::execute(cpu, decode_simd_fp(w)?),
                0b0100 => simd_crypto::execute(cpu, decode_simd_fp(w)?),
                _ => None,
            },
        };
    }
    let bit15 = bit(w, 15);
    if field(w, 21, 3) == 0 && !bit15 && bit(w, 10) {
        return simd_permute::copy(cpu, decode_simd_fp(w)?);
    }
    if scalar && !bit15 && !bit(w, 29) && field(w, 10, 2) == 0 {
        return simd_crypto::execute(cpu, decode_simd_fp(w)?);
    }
    if scalar || bit15 {
        return None;
    }
    match (bit(w, 29), field(w, 10, 2)) {
        (false, 0b10) | (true, 0b00 | 0b10) | (false, 0b00) => simd_permute::permute(cpu, decode_simd_fp(w)?),
        _ => None,
    }
}
