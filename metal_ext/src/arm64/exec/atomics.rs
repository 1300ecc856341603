//! Large System Extensions atomics (FEAT_LSE): CAS, CASP, SWP and LDADD/LDCLR/LDEOR/LDSET/
//! LDSMAX/LDSMIN/LDUMAX/LDUMIN with their acquire/release variants (the ST* forms are these with
//! Rt = XZR). One hart has nothing to order, so the variants differ only in encoding. They run
//! only when `CpuState::lse` is set.
//!
//! Each is a read followed by one write of the whole location (a failed compare writes the old
//! value back, so a read-only page faults either way, as with a hardware compare-and-swap).

use super::alu::{sign_extend, width};
use super::exception::Exception;
use crate::arm64::decode::{zr, AtomicOp, Reg};
use super::guest_memory::{check_aligned, load, store};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

/// LDADD..LDUMIN and SWP.
#[allow(clippy::too_many_arguments)]
pub fn memory_operation(
    cpu: &mut CpuState,
    mem: &mut Memory,
    pc: u64,
    op: AtomicOp,
    size: u8,
    rs: Reg,
    rt: Reg,
    base: Reg,
) -> Result<(), Exception> {
    let bits = 8 * size as u32;
    let rs = cpu.reg(rs);
    let addr = cpu.reg(base);
    check_aligned(pc, addr, size as u64)?;
    let old = load(mem, pc, addr, size as usize)? as u64;
    let signed = |v: u64| sign_extend(v, bits) as i64;
    let new = match op {
        AtomicOp::Swap => rs,
        AtomicOp::Add => old.wrapping_add(rs),
        AtomicOp::Clear => old & !rs,
        AtomicOp::Eor => old ^ rs,
        AtomicOp::Set => old | rs,
        AtomicOp::Smax => if signed(old) >= signed(rs) { old } else { rs },
        AtomicOp::Smin => if signed(old) <= signed(rs) { old } else { rs },
        AtomicOp::Umax => if old >= width_bits(rs, bits) { old } else { rs },
        AtomicOp::Umin => if old <= width_bits(rs, bits) { old } else { rs },
    };
    store(mem, pc, addr, size as usize, new as u128)?;
    cpu.set_reg(rt, old);
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
pub fn compare_and_swap(
    cpu: &mut CpuState,
    mem: &mut Memory,
    pc: u64,
    size: u8,
    rs: Reg,
    rt: Reg,
    base: Reg,
) -> Result<(), Exception> {
    let bits = 8 * size as u32;
    let addr = cpu.reg(base);
    check_aligned(pc, addr, size as u64)?;
    let old = load(mem, pc, addr, size as usize)? as u64;
    let new = if old == width_bits(cpu.reg(rs), bits) { cpu.reg(rt) } else { old };
    store(mem, pc, addr, size as usize, new as u128)?;
    cpu.set_reg(rs, old);
    Ok(())
}

/// CASP{A}{L}: the same on a pair of even-numbered registers and two adjacent elements.
pub fn compare_and_swap_pair(
    cpu: &mut CpuState,
    mem: &mut Memory,
    pc: u64,
    size: u8,
    rs: Reg,
    rt: Reg,
    base: Reg,
) -> Result<(), Exception> {
    let sf = size == 8;
    let size = size as usize;
    let addr = cpu.reg(base);
    check_aligned(pc, addr, 2 * size as u64)?;
    let old = load(mem, pc, addr, 2 * size)?;
    let pair = |lo: Reg| {
        let (a, b) = (width(cpu.reg(lo), sf) as u128, width(cpu.reg(zr(lo as u32 + 1)), sf) as u128);
        a | b << (8 * size)
    };
    let new = if old == pair(rs) { pair(rt) } else { old };
    store(mem, pc, addr, 2 * size, new)?;
    let mask = if sf { u64::MAX as u128 } else { u32::MAX as u128 };
    cpu.set_reg(rs, (old & mask) as u64);
    cpu.set_reg(zr(rs as u32 + 1), (old >> (8 * size)) as u64);
    Ok(())
}
