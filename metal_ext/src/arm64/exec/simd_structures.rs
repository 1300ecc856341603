//! AdvSIMD element and structure loads and stores: LD1-LD4/ST1-ST4 (multiple structures),
//! their single-lane forms and LD1R-LD4R, each with optional post-increment.

use super::exception::Exception;
use super::guest_memory::{read, write};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

pub fn execute(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let post = word & (1 << 23) != 0;
    let rm = (word >> 16) & 31;
    if word >> 31 != 0 || (!post && rm != 0) {
        return Err(Exception::undefined(pc, word));
    }
    let total = if word & (1 << 24) == 0 { multiple(cpu, mem, word, pc)? } else { single(cpu, mem, word, pc)? };
    if post {
        let rn = (word >> 5) & 31;
        let step = if rm == 31 { total } else { cpu.xr(rm) };
        cpu.set_xr_sp(rn, cpu.xr_sp(rn).wrapping_add(step));
    }
    Ok(())
}

fn element(bytes: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    b[..bytes.len()].copy_from_slice(bytes);
    u128::from_le_bytes(b)
}

/// LD1-LD4 / ST1-ST4 of whole registers; returns the bytes moved.
fn multiple(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<u64, Exception> {
    let undefined = || Exception::undefined(pc, word);
    let q = word & (1 << 30) != 0;
    let size = (word >> 10) & 3;
    // (register repeats, structure elements)
    let (rpt, selem) = match (word >> 12) & 15 {
        0 => (1, 4),
        2 => (4, 1),
        4 => (1, 3),
        6 => (3, 1),
        7 => (1, 1),
        8 => (1, 2),
        10 => (2, 1),
        _ => return Err(undefined()),
    };
    if word & (1 << 21) != 0 || (size == 3 && !q && selem != 1) {
        return Err(undefined());
    }
    let ebytes = 1usize << size;
    let elements = if q { 16 } else { 8 } / ebytes;
    let total = rpt * selem * elements * ebytes;
    let rt = (word & 31) as usize;
    let addr = cpu.xr_sp((word >> 5) & 31);
    let mut buf = [0u8; 64];
    // Memory order: for each register group, element by element, interleaving the structure.
    let slot = |r: usize, e: usize, s: usize| (r + s, (e * selem + s) * ebytes + r * elements * ebytes);
    if word & (1 << 22) != 0 {
        read(mem, pc, addr, &mut buf[..total])?;
        let mut regs = [0u128; 4];
        for r in 0..rpt {
            for e in 0..elements {
                for s in 0..selem {
                    let (k, offs) = slot(r, e, s);
                    regs[k] |= element(&buf[offs..offs + ebytes]) << (8 * ebytes * e);
                }
            }
        }
        for (k, v) in regs.iter().enumerate().take(rpt * selem) {
            cpu.v[(rt + k) % 32] = *v;
        }
    } else {
        for r in 0..rpt {
            for e in 0..elements {
                for s in 0..selem {
                    let (k, offs) = slot(r, e, s);
                    let v = cpu.v[(rt + k) % 32] >> (8 * ebytes * e);
                    buf[offs..offs + ebytes].copy_from_slice(&v.to_le_bytes()[..ebytes]);
                }
            }
        }
        write(mem, pc, addr, &buf[..total])?;
    }
    Ok(total as u64)
}

/// One lane of 1-4 registers (LD1..LD4/ST1..ST4 single structure) or LD1R..LD4R; returns the
/// bytes moved.
fn single(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<u64, Exception> {
    let undefined = || Exception::undefined(pc, word);
    let q = (word >> 30) & 1;
    let is_load = word & (1 << 22) != 0;
    let s = (word >> 12) & 1;
    let size = (word >> 10) & 3;
    let opcode = (word >> 13) & 7;
    let selem = (((opcode & 1) << 1) | ((word >> 21) & 1)) as usize + 1;
    // (log2 element bytes, lane index), or None for the replicating forms.
    let (scale, index) = match opcode >> 1 {
        0 => (0, Some(q << 3 | s << 2 | size)),
        1 if size & 1 == 0 => (1, Some(q << 2 | s << 1 | size >> 1)),
        2 if size == 0 => (2, Some(q << 1 | s)),
        2 if size == 1 && s == 0 => (3, Some(q)),
        3 if is_load && s == 0 => (size, None),
        _ => return Err(undefined()),
    };
    let ebytes = 1usize << scale;
    let total = selem * ebytes;
    let rt = (word & 31) as usize;
    let addr = cpu.xr_sp((word >> 5) & 31);
    let mut buf = [0u8; 32];
    let mask = if ebytes == 16 { u128::MAX } else { (1u128 << (8 * ebytes)) - 1 };
    if is_load {
        read(mem, pc, addr, &mut buf[..total])?;
        for k in 0..selem {
            let e = element(&buf[k * ebytes..(k + 1) * ebytes]);
            let reg = &mut cpu.v[(rt + k) % 32];
            match index {
                Some(i) => {
                    let at = 8 * ebytes as u32 * i;
                    *reg = (*reg & !(mask << at)) | (e << at);
                }
                None => {
                    let lanes = if q == 1 { 16 } else { 8 } / ebytes;
                    *reg = (0..lanes).fold(0, |acc, l| acc | e << (8 * ebytes * l));
                }
            }
        }
    } else {
        let at = 8 * ebytes as u32 * index.unwrap_or(0);
        for k in 0..selem {
            let v = cpu.v[(rt + k) % 32] >> at;
            buf[k * ebytes..(k + 1) * ebytes].copy_from_slice(&v.to_le_bytes()[..ebytes]);
        }
        write(mem, pc, addr, &buf[..total])?;
    }
    Ok(total as u64)
}
