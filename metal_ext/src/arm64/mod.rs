//! The Metal machine: an AArch64 user-mode core (state, memory, execution, disassembly).
//! The Linux layer (loader, syscalls, files, processes) sits on top of it.

pub mod decode;
pub mod disasm;
pub mod exec;
pub mod linux;
pub mod mem;
pub mod python_core;
pub mod python_machine;
pub mod state;
