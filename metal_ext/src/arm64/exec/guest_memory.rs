//! Guest memory as instructions see it: watchpoints (and a traced instruction's access log) first,
//! then permissions, all or nothing; and
//! the alignment rule of exclusives and acquire/release.

use super::exception::Exception;
use crate::arm64::mem::Memory;

/// Reads guest memory for the instruction at `pc`: watchpoints first, then permissions.
#[inline(always)]
pub(crate) fn read(mem: &mut Memory, pc: u64, addr: u64, buf: &mut [u8]) -> Result<(), Exception> {
    if mem.watching() && mem.note_access(addr, buf.len() as u64, false) {
        return Err(Exception::Watchpoint { pc, addr, size: buf.len() as u64, write: false });
    }
    mem.load_bytes(addr, buf).map_err(|fault| Exception::Memory { pc, fault })
}

/// Writes guest memory for the instruction at `pc`, all or nothing.
#[inline(always)]
pub(crate) fn write(mem: &mut Memory, pc: u64, addr: u64, data: &[u8]) -> Result<(), Exception> {
    if mem.watching() && mem.note_access(addr, data.len() as u64, true) {
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
