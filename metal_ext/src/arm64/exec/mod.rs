//! Fetch, decode and execute one A64 instruction at a time.

pub mod simd_fp;

use super::mem::{MemFault, Memory};
use super::state::CpuState;

/// Why execution stopped before or at an instruction. `pc` is the instruction's address;
/// the architectural state is as it was before that instruction (nothing half-done).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exception {
    /// SVC #imm: a system call. `pc` has already moved past the SVC.
    Svc { imm: u16 },
    /// BRK #imm.
    Breakpoint { pc: u64, imm: u16 },
    /// An encoding that is unallocated or not implemented here.
    Undefined { pc: u64, word: u32 },
    /// A load, store or fetch that touched unmapped memory or lacked permission.
    Memory { pc: u64, fault: MemFault },
}

/// Executes the instruction at `cpu.pc`.
pub fn step(cpu: &mut CpuState, mem: &mut Memory) -> Result<(), Exception> {
    let pc = cpu.pc;
    let word = mem.fetch_u32(pc).map_err(|fault| Exception::Memory { pc, fault })?;
    // Top-level decode on op0 = bits 28..25.
    match (word >> 25) & 0xF {
        0b0111 | 0b1111 => simd_fp::execute(cpu, word),
        _ => Err(Exception::Undefined { pc, word }),
    }
}
