//! Data processing on the SIMD & FP registers (op0 = x111): scalar FP and the AdvSIMD subset.

use super::Exception;
use crate::arm64::state::CpuState;

pub fn execute(cpu: &mut CpuState, word: u32) -> Result<(), Exception> {
    Err(Exception::Undefined { pc: cpu.pc, word })
}
