//! Loads and stores (op0 = x1x0) of one or two registers, general-purpose or SIMD&FP: every
//! addressing mode (unsigned offset, unscaled, pre/post-index, register offset) and pairs from
//! the decoded form; literals, LDPSW, LDTR/STTR, exclusives and acquire/release from their words. Vector structures (LD1..LD4, ST1..ST4) are in
//! `simd_structures`, the LSE atomics that share these encoding spaces in `atomics`.
//!
//! Every instruction reads all its memory before writing any register, and writes memory in a
//! single all-or-nothing access, so a fault or watchpoint leaves the state untouched.

use super::alu::{extend, sign_extend};
use crate::arm64::decode::{single_form, zr, Address, Insn, Reg, SIGN32, SIGN64, ZERO};
use super::exception::Exception;
use super::guest_memory::{check_aligned, load, read, store, write};
use super::{atomics, simd_structures};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

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
        Insn::Prefetch { .. } => {}
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

/// The loads and stores the decoded form leaves out, from their words: exclusives and
/// acquire/release, literals, structures, LDPSW, LSE atomics, LDAPR and LDTR/STTR.
#[inline(never)]
pub fn execute(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let simd = word & (1 << 26) != 0;
    match (word >> 28) & 3 {
        0 if simd => simd_structures::execute(cpu, mem, word, pc),
        0 if word & (1 << 24) == 0 => exclusive_or_ordered(cpu, mem, word, pc),
        1 if word & (1 << 24) == 0 => literal(cpu, mem, word, pc),
        2 => load_pair_signed(cpu, mem, word, pc),
        3 => atomic_or_unprivileged(cpu, mem, word, pc),
        _ => Err(Exception::undefined(pc, word)),
    }
}

fn atomic_or_unprivileged(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let undefined = || Exception::undefined(pc, word);
    let simd = word & (1 << 26) != 0;
    let rn = (word >> 5) & 31;
    let base = cpu.xr_sp(rn);
    let mode = (word >> 10) & 3;
    if word & (1 << 24) != 0 || simd {
        return Err(undefined());
    }
    if word & (1 << 21) != 0 && mode == 0 {
        if !cpu.lse {
            return Err(undefined());
        }
        if word & 0x3FFF_FC00 == 0x38BF_C000 {
            // LDAPR: a load-acquire with the weaker RCpc ordering, the same thing on one hart.
            let size = 1u64 << (word >> 30);
            check_aligned(pc, base, size)?;
            let v = load(mem, pc, base, size as usize)?;
            cpu.set_xr(word & 31, v as u64);
            return Ok(());
        }
        return atomics::memory_operation(cpu, mem, word, pc);
    }
    if word & (1 << 21) != 0 || mode != 2 {
        return Err(undefined());
    }
    // LDTR, STTR and their sign-extending forms: at EL0, the plain accesses of LDUR and STUR.
    let (_, scale, load_ext) = single_form(word).ok_or_else(undefined)?;
    let addr = base.wrapping_add(sign_extend(((word >> 12) & 0x1FF) as u64, 9));
    let transfer = load_ext.map_or(Transfer::Store, Transfer::Load);
    move_register(cpu, mem, pc, addr, 1 << scale, transfer, false, zr(word))
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

fn literal(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let addr = pc.wrapping_add(sign_extend((((word >> 5) & 0x7FFFF) << 2) as u64, 21));
    let rt = word & 31;
    let opc = word >> 30;
    if word & (1 << 26) != 0 {
        if opc == 3 {
            return Err(Exception::undefined(pc, word));
        }
        cpu.v[rt as usize] = load(mem, pc, addr, 4 << opc)?;
        return Ok(());
    }
    match opc {
        0 => move_register(cpu, mem, pc, addr, 4, Transfer::Load(ZERO), false, zr(rt)),
        1 => move_register(cpu, mem, pc, addr, 8, Transfer::Load(ZERO), false, zr(rt)),
        2 => move_register(cpu, mem, pc, addr, 4, Transfer::Load(SIGN64), false, zr(rt)),
        _ => Ok(()), // PRFM (literal)
    }
}

/// LDPSW: two sign-extended words; the other pairs are in the decoded form, and the store
/// form is STGP (memory tagging), with no non-temporal LDNPSW.
fn load_pair_signed(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let mode = (word >> 23) & 3;
    if word >> 30 != 1 || word & (1 << 26) != 0 || word & (1 << 22) == 0 || mode == 0 {
        return Err(Exception::undefined(pc, word));
    }
    let rn = (word >> 5) & 31;
    let base = cpu.xr_sp(rn);
    let offset = sign_extend(((word >> 15) & 0x7F) as u64, 7) << 2;
    let addr = if mode == 1 { base } else { base.wrapping_add(offset) };
    let (a, b) = read_pair(mem, pc, addr, 4)?;
    cpu.set_xr(word & 31, sign_extend(a as u64, 32));
    cpu.set_xr((word >> 10) & 31, sign_extend(b as u64, 32));
    if mode != 2 {
        cpu.set_xr_sp(rn, base.wrapping_add(offset));
    }
    Ok(())
}

/// LDXR/STXR and their acquire/release and pair forms, LDAR/STLR, and the compare-and-swap
/// atomics that share their encoding space. The LORegion forms (FEAT_LOR) are not implemented.
fn exclusive_or_ordered(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let size = 1usize << (word >> 30);
    let is_load = word & (1 << 22) != 0;
    let rt = word & 31;
    let addr = cpu.xr_sp((word >> 5) & 31);
    let status = (word >> 16) & 31;
    match ((word >> 23) & 1, (word >> 21) & 1) {
        (0, 0) => {
            check_aligned(pc, addr, size as u64)?;
            if is_load {
                let v = load(mem, pc, addr, size)?;
                cpu.set_xr(rt, v as u64);
                cpu.exclusive = Some(addr);
                Ok(())
            } else {
                let bytes = cpu.xr(rt).to_le_bytes();
                store_exclusive(cpu, mem, pc, addr, status, &bytes[..size])
            }
        }
        (0, 1) if size >= 4 => {
            check_aligned(pc, addr, 2 * size as u64)?;
            let rt2 = (word >> 10) & 31;
            let mut buf = [0u8; 16];
            if is_load {
                read(mem, pc, addr, &mut buf[..2 * size])?;
                let first = u64::from_le_bytes(buf[..8].try_into().unwrap());
                let second = u64::from_le_bytes(buf[8..].try_into().unwrap());
                let (a, b) = if size == 8 { (first, second) } else { (first as u32 as u64, first >> 32) };
                cpu.set_xr(rt, a);
                cpu.set_xr(rt2, b);
                cpu.exclusive = Some(addr);
                Ok(())
            } else {
                buf[..size].copy_from_slice(&cpu.xr(rt).to_le_bytes()[..size]);
                buf[size..2 * size].copy_from_slice(&cpu.xr(rt2).to_le_bytes()[..size]);
                store_exclusive(cpu, mem, pc, addr, status, &buf[..2 * size])
            }
        }
        (0, 1) if cpu.lse && (word >> 10) & 31 == 31 => atomics::compare_and_swap_pair(cpu, mem, word, pc),
        (1, 1) if cpu.lse && (word >> 10) & 31 == 31 => atomics::compare_and_swap(cpu, mem, word, pc),
        (1, 0) if word & (1 << 15) != 0 => {
            check_aligned(pc, addr, size as u64)?;
            let transfer = if is_load { Transfer::Load(ZERO) } else { Transfer::Store };
            move_register(cpu, mem, pc, addr, size, transfer, false, zr(rt))
        }
        _ => Err(Exception::undefined(pc, word)),
    }
}

/// Stores only while the monitor holds this address; writes 0 (done) or 1 (failed) to Ws.
fn store_exclusive(
    cpu: &mut CpuState,
    mem: &mut Memory,
    pc: u64,
    addr: u64,
    status: u32,
    data: &[u8],
) -> Result<(), Exception> {
    let holds = cpu.exclusive == Some(addr);
    if holds {
        write(mem, pc, addr, data)?;
    }
    cpu.exclusive = None;
    cpu.set_xr(status, !holds as u64);
    Ok(())
}
