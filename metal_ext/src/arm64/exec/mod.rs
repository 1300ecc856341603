//! Fetch, decode and execute one A64 instruction at a time.
//!
//! The integer, branch, system and load/store instructions are decoded once into the shared
//! form (`arm64::decode`) and executed from it; the other families (SIMD&FP, exclusives,
//! atomics, literals, structures...) live in their own files and decode their own fields.
//! `step` keeps the contract that a failed instruction changes nothing.

pub mod alu;
mod atomics;
mod branch_system;
pub mod code_cache;
pub(crate) mod decoded;
mod integer;
pub mod jit;
mod load_store;
pub mod simd_fp;
mod simd_structures;

use super::decode::{decode, Insn};
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
        op0 => {
            cpu.pc = pc.wrapping_add(4);
            let r = match decode(word, pc) {
                Some(insn) => execute_decoded(cpu, mem, &insn, pc),
                // What the decoded form leaves out: exclusives, atomics, literals, structures...
                // (or an undefined word).
                None => match op0 {
                    0b0100 | 0b0110 | 0b1100 | 0b1110 => load_store::execute(cpu, mem, word, pc),
                    _ => Err(Exception::undefined(pc, word)),
                },
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

/// Executes an instruction of the decoded form found at `pc` (`cpu.pc` already past it).
#[inline(always)]
fn execute_decoded(cpu: &mut CpuState, mem: &mut Memory, insn: &Insn, pc: u64) -> Result<(), Exception> {
    match insn {
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
        | Insn::Prefetch { .. } => load_store::execute_decoded(cpu, mem, insn, pc),
        _ => {
            integer::execute(cpu, insn);
            Ok(())
        }
    }
}

/// Reads guest memory for the instruction at `pc`: watchpoints first, then permissions.
#[inline(always)]
pub(crate) fn read(mem: &mut Memory, pc: u64, addr: u64, buf: &mut [u8]) -> Result<(), Exception> {
    if mem.watching() && mem.watch_hit(addr, buf.len() as u64, false) {
        return Err(Exception::Watchpoint { pc, addr, size: buf.len() as u64, write: false });
    }
    mem.load_bytes(addr, buf).map_err(|fault| Exception::Memory { pc, fault })
}

/// Writes guest memory for the instruction at `pc`, all or nothing.
#[inline(always)]
pub(crate) fn write(mem: &mut Memory, pc: u64, addr: u64, data: &[u8]) -> Result<(), Exception> {
    if mem.watching() && mem.watch_hit(addr, data.len() as u64, true) {
        return Err(Exception::Watchpoint { pc, addr, size: data.len() as u64, write: true });
    }
    mem.store_bytes(addr, data).map_err(|fault| Exception::Memory { pc, fault })
}

/// Loads a little-endian value of `size` bytes (1, 2, 4, 8 or 16).
#[inline(always)]
pub(crate) fn load(mem: &mut Memory, pc: u64, addr: u64, size: usize) -> Result<u128, Exception> {
    let mut b = [0u8; 16];
    match size {
        1 => read(mem, pc, addr, &mut b[..1])?,
        2 => read(mem, pc, addr, &mut b[..2])?,
        4 => read(mem, pc, addr, &mut b[..4])?,
        8 => read(mem, pc, addr, &mut b[..8])?,
        _ => read(mem, pc, addr, &mut b[..16])?,
    }
    Ok(u128::from_le_bytes(b))
}

/// Stores the low `size` bytes (1, 2, 4, 8 or 16) of `v`.
#[inline(always)]
pub(crate) fn store(mem: &mut Memory, pc: u64, addr: u64, size: usize, v: u128) -> Result<(), Exception> {
    let b = v.to_le_bytes();
    match size {
        1 => write(mem, pc, addr, &b[..1]),
        2 => write(mem, pc, addr, &b[..2]),
        4 => write(mem, pc, addr, &b[..4]),
        8 => write(mem, pc, addr, &b[..8]),
        _ => write(mem, pc, addr, &b[..16]),
    }
}

/// Exclusives and acquire/release need natural alignment of the whole access.
#[inline(always)]
pub(crate) fn check_aligned(pc: u64, addr: u64, size: u64) -> Result<(), Exception> {
    if addr & (size - 1) != 0 {
        Err(Exception::Alignment { pc, addr })
    } else {
        Ok(())
    }
}


#[cfg(test)]
mod tests;
