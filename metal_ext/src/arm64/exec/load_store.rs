//! Loads and stores (op0 = x1x0) from the decoded form: one or two registers, general-purpose or
//! SIMD&FP, in every addressing mode (unsigned offset, unscaled, pre/post-index, register
//! offset), literals, LDPSW, LDTR/STTR, exclusives and acquire/release. Vector structures
//! (LD1..LD4, ST1..ST4) are in `simd_structures`, the LSE atomics in `atomics`.
//!
//! Every instruction reads all its memory before writing any register, and writes memory in a
//! single all-or-nothing access, so a fault or watchpoint leaves the state untouched.

use super::alu::{extend, sign_extend};
use crate::arm64::decode::{Address, Insn, Reg, SIGN32, SIGN64, ZERO};
use super::exception::Exception;
use super::guest_memory::{check_aligned, load, read, store, write};
use super::{atomics, simd_structures};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;
use std::num::NonZeroU64;

/// What a single-register load or store moves once its address is known.
#[derive(Clone, Copy)]
enum Transfer {
    Store,
    /// A load, extended as the decoded form says (`ZERO`, `SIGN64`, `SIGN32`).
    Load(u8),
}

/// Executes a load, store or prefetch of the decoded form at `pc`.
#[inline]
pub fn execute_decoded(cpu: &mut CpuState, mem: &mut Memory, insn: &Insn, pc: u64) -> Result<(), Exception> {
    match *insn {
        Insn::Load { size, ext, rt, addr } => {
            let (at, moved) = address(cpu, addr);
            move_register(cpu, mem, pc, at, size as usize, Transfer::Load(ext), false, rt)?;
            write_back(cpu, addr, moved);
        }
        Insn::Store { size, rt, addr } => {
            let (at, moved) = address(cpu, addr);
            move_register(cpu, mem, pc, at, size as usize, Transfer::Store, false, rt)?;
            write_back(cpu, addr, moved);
        }
        Insn::LoadVector { size, vt, addr } => {
            let (at, moved) = address(cpu, addr);
            move_register(cpu, mem, pc, at, size as usize, Transfer::Load(ZERO), true, vt)?;
            write_back(cpu, addr, moved);
        }
        Insn::StoreVector { size, vt, addr } => {
            let (at, moved) = address(cpu, addr);
            move_register(cpu, mem, pc, at, size as usize, Transfer::Store, true, vt)?;
            write_back(cpu, addr, moved);
        }
        Insn::LoadPair { size, rt, rt2, addr, .. } => {
            let (at, moved) = address(cpu, addr);
            let (a, b) = read_pair(mem, pc, at, size as usize)?;
            cpu.set_reg(rt, a as u64);
            cpu.set_reg(rt2, b as u64);
            write_back(cpu, addr, moved);
        }
        Insn::StorePair { size, rt, rt2, addr, .. } => {
            let (a, b) = (cpu.reg(rt) as u128, cpu.reg(rt2) as u128);
            let (at, moved) = address(cpu, addr);
            write_pair(mem, pc, at, size as usize, a, b)?;
            write_back(cpu, addr, moved);
        }
        Insn::LoadVectorPair { size, vt, vt2, addr, .. } => {
            let (at, moved) = address(cpu, addr);
            let (a, b) = read_pair(mem, pc, at, size as usize)?;
            cpu.v[vt as usize & 31] = a;
            cpu.v[vt2 as usize & 31] = b;
            write_back(cpu, addr, moved);
        }
        Insn::StoreVectorPair { size, vt, vt2, addr, .. } => {
            let (a, b) = (cpu.v[vt as usize & 31], cpu.v[vt2 as usize & 31]);
            let (at, moved) = address(cpu, addr);
            write_pair(mem, pc, at, size as usize, a, b)?;
            write_back(cpu, addr, moved);
        }
        // Caches are not modelled, and a prefetch never faults.
        Insn::Prefetch { .. } | Insn::PrefetchLiteral { .. } => {}
        Insn::LoadLiteral { size, ext, rt, target } => {
            move_register(cpu, mem, pc, target, size as usize, Transfer::Load(ext), false, rt)?;
        }
        Insn::LoadVectorLiteral { size, vt, target } => {
            move_register(cpu, mem, pc, target, size as usize, Transfer::Load(ZERO), true, vt)?;
        }
        Insn::LoadPairSigned { rt, rt2, addr } => {
            let (at, moved) = address(cpu, addr);
            let (a, b) = read_pair(mem, pc, at, 4)?;
            cpu.set_reg(rt, sign_extend(a as u64, 32));
            cpu.set_reg(rt2, sign_extend(b as u64, 32));
            write_back(cpu, addr, moved);
        }
        // At EL0 the unprivileged accesses are the plain ones.
        Insn::LoadUnprivileged { size, ext, rt, base, imm } => {
            let at = cpu.reg(base).wrapping_add(imm);
            move_register(cpu, mem, pc, at, size as usize, Transfer::Load(ext), false, rt)?;
        }
        Insn::StoreUnprivileged { size, rt, base, imm } => {
            let at = cpu.reg(base).wrapping_add(imm);
            move_register(cpu, mem, pc, at, size as usize, Transfer::Store, false, rt)?;
        }
        Insn::LoadExclusive { size, pair, rt, rt2, base, .. } => {
            let at = cpu.reg(base);
            load_exclusive(cpu, mem, pc, size as usize, pair, rt, rt2, at)?;
        }
        Insn::StoreExclusive { size, pair, rs, rt, rt2, base, .. } => {
            let at = cpu.reg(base);
            store_exclusive(cpu, mem, pc, size as usize, pair, rs, rt, rt2, at)?;
        }
        // One hart has nothing to order: acquire, release and the weaker RCpc acquire of LDAPR
        // are the plain accesses, aligned.
        Insn::LoadAcquire { size, rt, base, .. } | Insn::LoadAcquirePc { size, rt, base } => {
            let at = cpu.reg(base);
            check_aligned(pc, at, size as u64)?;
            move_register(cpu, mem, pc, at, size as usize, Transfer::Load(ZERO), false, rt)?;
        }
        Insn::StoreRelease { size, rt, base, .. } => {
            let at = cpu.reg(base);
            check_aligned(pc, at, size as u64)?;
            move_register(cpu, mem, pc, at, size as usize, Transfer::Store, false, rt)?;
        }
        Insn::Atomic { op, size, rs, rt, base, .. } => atomics::memory_operation(cpu, mem, pc, op, size, rs, rt, base)?,
        Insn::CompareSwap { size, rs, rt, base, .. } => atomics::compare_and_swap(cpu, mem, pc, size, rs, rt, base)?,
        Insn::CompareSwapPair { size, rs, rt, base, .. } => {
            atomics::compare_and_swap_pair(cpu, mem, pc, size, rs, rt, base)?
        }
        Insn::Structures { load, vt, base, post, layout } => {
            simd_structures::execute(cpu, mem, pc, load, vt, base, post, layout)?
        }
        _ => unreachable!("not a load or store: {insn:?}"),
    }
    Ok(())
}

/// The address an access of the decoded form touches, and its base moved on (for a pre- or
/// post-indexed one), worked out before the access may overwrite the base.
#[inline(always)]
fn address(cpu: &CpuState, addr: Address) -> (u64, u64) {
    match addr {
        Address::Offset { base, imm, .. } | Address::Pre { base, imm } => {
            let at = cpu.reg(base).wrapping_add(imm);
            (at, at)
        }
        Address::Post { base, imm } => (cpu.reg(base), cpu.reg(base).wrapping_add(imm)),
        Address::Indexed { base, rm, option, lsl, .. } => {
            (cpu.reg(base).wrapping_add(extend(cpu.reg(rm), option as u32, lsl as u32)), 0)
        }
    }
}

/// Moves the base of a pre- or post-indexed access on, once the access is done (last, so
/// that it wins over a loaded register that is also the base).
#[inline(always)]
fn write_back(cpu: &mut CpuState, addr: Address, moved: u64) {
    if let Some(base) = addr.writeback() {
        cpu.set_reg(base, moved);
    }
}

/// Both registers of a pair, read in one access so that the pair faults or watches as a whole.
fn read_pair(mem: &mut Memory, pc: u64, addr: u64, size: usize) -> Result<(u128, u128), Exception> {
    if size == 16 {
        let mut buf = [0u8; 32];
        read(mem, pc, addr, &mut buf)?;
        return Ok((element16(&buf[..16]), element16(&buf[16..])));
    }
    let both = load(mem, pc, addr, 2 * size)?;
    let bits = 8 * size as u32;
    Ok((both & ((1 << bits) - 1), both >> bits))
}

/// Writes both registers of a pair in one access.
fn write_pair(mem: &mut Memory, pc: u64, addr: u64, size: usize, a: u128, b: u128) -> Result<(), Exception> {
    if size == 16 {
        let mut buf = [0u8; 32];
        buf[..16].copy_from_slice(&a.to_le_bytes());
        buf[16..].copy_from_slice(&b.to_le_bytes());
        return write(mem, pc, addr, &buf);
    }
    let bits = 8 * size as u32;
    store(mem, pc, addr, 2 * size, (a & ((1 << bits) - 1)) | b << bits)
}

/// Performs one single-register transfer of `size` bytes at `addr` (`rt` a register of the
/// decoded form, or a SIMD&FP register).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn move_register(
    cpu: &mut CpuState,
    mem: &mut Memory,
    pc: u64,
    addr: u64,
    size: usize,
    transfer: Transfer,
    simd: bool,
    rt: Reg,
) -> Result<(), Exception> {
    match transfer {
        Transfer::Store => {
            let v = if simd { cpu.v[rt as usize & 31] } else { cpu.reg(rt) as u128 };
            store(mem, pc, addr, size, v)
        }
        Transfer::Load(ext) => {
            let v = load(mem, pc, addr, size)?;
            if simd {
                cpu.v[rt as usize & 31] = v;
            } else {
                cpu.set_reg(rt, extend_loaded(v as u64, size, ext));
            }
            Ok(())
        }
    }
}

fn element16(bytes: &[u8]) -> u128 {
    u128::from_le_bytes(bytes.try_into().expect("16 bytes"))
}

#[inline(always)]
fn extend_loaded(v: u64, size: usize, ext: u8) -> u64 {
    match ext {
        SIGN64 => sign_extend(v, 8 * size as u32),
        SIGN32 => sign_extend(v, 8 * size as u32) as u32 as u64,
        _ => v,
    }
}

/// LDXR/LDAXR and their pairs: the value(s), and the monitor set on the address.
#[allow(clippy::too_many_arguments)]
fn load_exclusive(
    cpu: &mut CpuState,
    mem: &mut Memory,
    pc: u64,
    size: usize,
    pair: bool,
    rt: Reg,
    rt2: Reg,
    at: u64,
) -> Result<(), Exception> {
    if !pair {
        check_aligned(pc, at, size as u64)?;
        let v = load(mem, pc, at, size)?;
        cpu.set_reg(rt, v as u64);
    } else {
        check_aligned(pc, at, 2 * size as u64)?;
        let (a, b) = read_pair(mem, pc, at, size)?;
        cpu.set_reg(rt, a as u64);
        cpu.set_reg(rt2, b as u64);
    }
    cpu.exclusive = NonZeroU64::new(at);
    Ok(())
}

/// STXR/STLXR and their pairs: stores only while the monitor holds this address; writes 0
/// (done) or 1 (failed) to Ws.
#[allow(clippy::too_many_arguments)]
fn store_exclusive(
    cpu: &mut CpuState,
    mem: &mut Memory,
    pc: u64,
    size: usize,
    pair: bool,
    rs: Reg,
    rt: Reg,
    rt2: Reg,
    at: u64,
) -> Result<(), Exception> {
    let count = if pair { 2 } else { 1 };
    check_aligned(pc, at, count * size as u64)?;
    let mut buf = [0u8; 16];
    buf[..size].copy_from_slice(&cpu.reg(rt).to_le_bytes()[..size]);
    if pair {
        buf[size..2 * size].copy_from_slice(&cpu.reg(rt2).to_le_bytes()[..size]);
    }
    let holds = cpu.exclusive.map(NonZeroU64::get) == Some(at);
    if holds {
        write(mem, pc, at, &buf[..count as usize * size])?;
    }
    cpu.exclusive = None;
    cpu.set_reg(rs, !holds as u64);
    Ok(())
}
