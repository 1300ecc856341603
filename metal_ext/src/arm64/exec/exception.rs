//! Why execution stopped before or at an instruction: what every family returns.

use crate::arm64::mem::MemFault;

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
    /// An access the architecture requires to be aligned was not (exclusives, load-acquire,
    /// store-release, and instruction fetch from a PC that is not a multiple of 4).
    Alignment { pc: u64, addr: u64 },
    /// The instruction would touch a watched range (`Memory::watch`); it has not executed.
    Watchpoint { pc: u64, addr: u64, size: u64, write: bool },
}

impl Exception {
    pub(crate) fn undefined(pc: u64, word: u32) -> Self {
        Exception::Undefined { pc, word }
    }
}
