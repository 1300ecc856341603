//! Loads and stores (op0 = x1x0) of one or two registers, general-purpose or SIMD&FP: every
//! addressing mode (unsigned offset, unscaled, pre/post-index, register offset, literal), pairs,
//! exclusives and acquire/release. Vector structures (LD1..LD4, ST1..ST4) are in
//! `simd_structures`, the LSE atomics that share these encoding spaces in `atomics`.
//!
//! Every instruction reads all its memory before writing any register, and writes memory in a
//! single all-or-nothing access, so a fault or watchpoint leaves the state untouched.

use super::alu::{extend, sign_extend, width};
use super::{atomics, check_aligned, load, read, simd_structures, store, write, Exception};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

/// What a single-register load or store moves once its address is known.
#[derive(Clone, Copy)]
enum Transfer {
    Store,
    /// A load; `Some(sf)` sign-extends to 64 (`sf`) or 32 bits.
    Load(Option<bool>),
    Prefetch,
}

#[inline(never)]
pub fn execute(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let simd = word & (1 << 26) != 0;
    match (word >> 28) & 3 {
        0 if simd => simd_structures::execute(cpu, mem, word, pc),
        0 if word & (1 << 24) == 0 => exclusive_or_ordered(cpu, mem, word, pc),
        1 if word & (1 << 24) == 0 => literal(cpu, mem, word, pc),
        2 => pair(cpu, mem, word, pc),
        3 => single(cpu, mem, word, pc),
        _ => Err(Exception::undefined(pc, word)),
    }
}

/// Size (log2 bytes) and transfer of the single-register forms from size, V and opc.
fn decode_single(word: u32) -> Option<(u32, Transfer)> {
    let size = word >> 30;
    let opc = (word >> 22) & 3;
    if word & (1 << 26) != 0 {
        if opc & 2 != 0 && size != 0 {
            return None;
        }
        let scale = (opc & 2) << 1 | size;
        return Some((scale, if opc & 1 == 0 { Transfer::Store } else { Transfer::Load(None) }));
    }
    let transfer = match opc {
        0 => Transfer::Store,
        1 => Transfer::Load(None),
        2 if size == 3 => Transfer::Prefetch,
        2 => Transfer::Load(Some(true)),
        _ if size >= 2 => return None,
        _ => Transfer::Load(Some(false)),
    };
    Some((size, transfer))
}

fn single(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let undefined = || Exception::undefined(pc, word);
    let simd = word & (1 << 26) != 0;
    let rn = (word >> 5) & 31;
    let base = cpu.xr_sp(rn);
    if word & (1 << 24) == 0 && word & (1 << 21) != 0 && (word >> 10) & 3 == 0 && !simd {
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
    let (scale, transfer) = decode_single(word).ok_or_else(undefined)?;
    let (addr, writeback) = if word & (1 << 24) != 0 {
        (base.wrapping_add((((word >> 10) & 0xFFF) as u64) << scale), None)
    } else if word & (1 << 21) == 0 {
        let imm = sign_extend(((word >> 12) & 0x1FF) as u64, 9);
        let mode = (word >> 10) & 3;
        // Prefetch has only the offset forms; the unprivileged forms only general registers.
        if (mode != 0 && matches!(transfer, Transfer::Prefetch)) || (mode == 2 && simd) {
            return Err(undefined());
        }
        match mode {
            1 => (base, Some(base.wrapping_add(imm))),
            3 => (base.wrapping_add(imm), Some(base.wrapping_add(imm))),
            _ => (base.wrapping_add(imm), None),
        }
    } else if (word >> 10) & 3 == 2 {
        let option = (word >> 13) & 7;
        if option & 2 == 0 {
            return Err(undefined());
        }
        let lsl = if word & (1 << 12) != 0 { scale } else { 0 };
        (base.wrapping_add(extend(cpu.xr((word >> 16) & 31), option, lsl)), None)
    } else {
        return Err(undefined());
    };
    move_register(cpu, mem, pc, addr, 1 << scale, transfer, simd, word & 31)?;
    if let Some(wb) = writeback {
        cpu.set_xr_sp(rn, wb);
    }
    Ok(())
}

/// Performs one single-register transfer of `size` bytes at `addr`.
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
    rt: u32,
) -> Result<(), Exception> {
    match transfer {
        Transfer::Store => {
            let v = if simd { cpu.v[rt as usize] } else { cpu.xr(rt) as u128 };
            store(mem, pc, addr, size, v)
        }
        Transfer::Load(signed) => {
            let v = load(mem, pc, addr, size)?;
            if simd {
                cpu.v[rt as usize] = v;
            } else {
                cpu.set_xr(rt, extend_loaded(v as u64, size, signed));
            }
            Ok(())
        }
        Transfer::Prefetch => Ok(()),
    }
}

fn element16(bytes: &[u8]) -> u128 {
    u128::from_le_bytes(bytes.try_into().expect("16 bytes"))
}

#[inline(always)]
fn extend_loaded(v: u64, size: usize, signed: Option<bool>) -> u64 {
    match signed {
        None => v,
        Some(sf) => width(sign_extend(v, 8 * size as u32), sf),
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
        0 => move_register(cpu, mem, pc, addr, 4, Transfer::Load(None), false, rt),
        1 => move_register(cpu, mem, pc, addr, 8, Transfer::Load(None), false, rt),
        2 => move_register(cpu, mem, pc, addr, 4, Transfer::Load(Some(true)), false, rt),
        _ => Ok(()),
    }
}

fn pair(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let undefined = || Exception::undefined(pc, word);
    let simd = word & (1 << 26) != 0;
    let mode = (word >> 23) & 3;
    let is_load = word & (1 << 22) != 0;
    let (scale, signed) = match (word >> 30, simd) {
        (0, true) => (2, false),
        (1, true) => (3, false),
        (2, true) => (4, false),
        (0, false) => (2, false),
        // LDPSW; the store form is STGP (memory tagging) and there is no non-temporal LDNPSW.
        (1, false) if is_load && mode != 0 => (2, true),
        (2, false) => (3, false),
        _ => return Err(undefined()),
    };
    let size = 1usize << scale;
    let rn = (word >> 5) & 31;
    let (rt, rt2) = (word & 31, (word >> 10) & 31);
    let base = cpu.xr_sp(rn);
    let offset = sign_extend(((word >> 15) & 0x7F) as u64, 7) << scale;
    let addr = if mode == 1 { base } else { base.wrapping_add(offset) };
    if is_load {
        let (a, b) = if size == 16 {
            let mut buf = [0u8; 32];
            read(mem, pc, addr, &mut buf)?;
            (element16(&buf[..16]), element16(&buf[16..]))
        } else {
            // Both registers in one access, so the pair faults or watches as a whole.
            let both = load(mem, pc, addr, 2 * size)?;
            let bits = 8 * size as u32;
            (both & ((1 << bits) - 1), both >> bits)
        };
        if simd {
            cpu.v[rt as usize] = a;
            cpu.v[rt2 as usize] = b;
        } else {
            let sign = signed.then_some(true);
            cpu.set_xr(rt, extend_loaded(a as u64, size, sign));
            cpu.set_xr(rt2, extend_loaded(b as u64, size, sign));
        }
    } else {
        let (a, b) = if simd {
            (cpu.v[rt as usize], cpu.v[rt2 as usize])
        } else {
            (cpu.xr(rt) as u128, cpu.xr(rt2) as u128)
        };
        if size == 16 {
            let mut buf = [0u8; 32];
            buf[..16].copy_from_slice(&a.to_le_bytes());
            buf[16..].copy_from_slice(&b.to_le_bytes());
            write(mem, pc, addr, &buf)?;
        } else {
            let bits = 8 * size as u32;
            store(mem, pc, addr, 2 * size, (a & ((1 << bits) - 1)) | b << bits)?;
        }
    }
    if mode == 1 || mode == 3 {
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
            let transfer = if is_load { Transfer::Load(None) } else { Transfer::Store };
            move_register(cpu, mem, pc, addr, size, transfer, false, rt)
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
