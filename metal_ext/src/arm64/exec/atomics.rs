//! Large System Extensions atomics (FEAT_LSE): CAS, CASP, SWP and LDADD/LDCLR/LDEOR/LDSET/
//! LDSMAX/LDSMIN/LDUMAX/LDUMIN with their acquire/release variants (the ST* forms are these with
//! Rt = XZR). One hart has nothing to order, so the variants differ only in encoding. They run
//! only when `CpuState::lse` is set.
//!
//! Each is a read followed by one write of the whole location (a failed compare writes the old
//! value back, so a read-only page faults either way, as with a hardware compare-and-swap).

use super::alu::{sign_extend, width};
use super::exception::Exception;
use super::guest_memory::{check_aligned, load, store};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

/// The atomic memory operations (bit 21 set, bits 11..10 = 00 in the register-offset space).
pub fn memory_operation(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let size = 1usize << (word >> 30);
    let bits = 8 * size as u32;
    let rs = cpu.xr((word >> 16) & 31);
    let rt = word & 31;
    let addr = cpu.xr_sp((word >> 5) & 31);
    let opc = (word >> 12) & 7;
    let swap = word & (1 << 15) != 0;
    if swap && opc != 0 {
        return Err(Exception::undefined(pc, word));
    }
    check_aligned(pc, addr, size as u64)?;
    let old = load(mem, pc, addr, size)? as u64;
    let signed = |v: u64| sign_extend(v, bits) as i64;
    let new = if swap {
        rs
    } else {
        match opc {
            0 => old.wrapping_add(rs),
            1 => old & !rs,
            2 => old ^ rs,
            3 => old | rs,
            4 => if signed(old) >= signed(rs) { old } else { rs },
            5 => if signed(old) <= signed(rs) { old } else { rs },
            6 => if old >= width_bits(rs, bits) { old } else { rs },
            _ => if old <= width_bits(rs, bits) { old } else { rs },
        }
    };
    store(mem, pc, addr, size, new as u128)?;
    cpu.set_xr(rt, old);
    Ok(())
}

fn width_bits(v: u64, bits: u32) -> u64 {
    if bits == 64 {
        v
    } else {
        v & ((1 << bits) - 1)
    }
}

/// CAS{A}{L}{B,H}: compares Rs with memory, stores Rt if equal; Rs gets the old value.
pub fn compare_and_swap(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let size = 1usize << (word >> 30);
    let bits = 8 * size as u32;
    let rs = (word >> 16) & 31;
    let addr = cpu.xr_sp((word >> 5) & 31);
    check_aligned(pc, addr, size as u64)?;
    let old = load(mem, pc, addr, size)? as u64;
    let new = if old == width_bits(cpu.xr(rs), bits) { cpu.xr(word & 31) } else { old };
    store(mem, pc, addr, size, new as u128)?;
    cpu.set_xr(rs, old);
    Ok(())
}

/// CASP{A}{L}: the same on a pair of even-numbered registers and two adjacent elements.
pub fn compare_and_swap_pair(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let sf = word & (1 << 30) != 0;
    let size = if sf { 8 } else { 4 };
    let (rs, rt) = ((word >> 16) & 31, word & 31);
    if rs & 1 != 0 || rt & 1 != 0 {
        return Err(Exception::undefined(pc, word));
    }
    let addr = cpu.xr_sp((word >> 5) & 31);
    check_aligned(pc, addr, 2 * size as u64)?;
    let old = load(mem, pc, addr, 2 * size)?;
    let pair = |lo: u32| {
        let (a, b) = (width(cpu.xr(lo), sf) as u128, width(cpu.xr(lo + 1), sf) as u128);
        a | b << (8 * size)
    };
    let new = if old == pair(rs) { pair(rt) } else { old };
    store(mem, pc, addr, 2 * size, new)?;
    let mask = if sf { u64::MAX as u128 } else { u32::MAX as u128 };
    cpu.set_xr(rs, (old & mask) as u64);
    cpu.set_xr(rs + 1, (old >> (8 * size)) as u64);
    Ok(())
}
