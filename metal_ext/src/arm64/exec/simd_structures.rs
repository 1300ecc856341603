//! AdvSIMD element and structure loads and stores: LD1-LD4/ST1-ST4 (multiple structures),
//! their single-lane forms and LD1R-LD4R, each with optional post-increment.

use super::exception::Exception;
use crate::arm64::decode::{Reg, Structure, ZR};
use super::guest_memory::{read, write};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

/// Executes LD1..LD4, ST1..ST4 or LD1R..LD4R of the decoded form.
#[allow(clippy::too_many_arguments)]
pub fn execute(
    cpu: &mut CpuState,
    mem: &mut Memory,
    pc: u64,
    load: bool,
    vt: u8,
    base: Reg,
    post: Option<Reg>,
    layout: Structure,
) -> Result<(), Exception> {
    let addr = cpu.reg(base);
    let vt = vt as usize;
    match layout {
        Structure::Multiple { q, scale, selem, registers } => {
            multiple(cpu, mem, pc, load, vt, addr, q, 1 << scale, (registers / selem) as usize, selem as usize)?
        }
        Structure::Lane { scale, index, selem } => {
            single(cpu, mem, pc, load, vt, addr, 1 << scale, Some(index as u32), false, selem as usize)?
        }
        Structure::Replicate { q, scale, selem } => {
            single(cpu, mem, pc, load, vt, addr, 1 << scale, None, q, selem as usize)?
        }
    }
    if let Some(rm) = post {
        let step = if rm == ZR { layout.bytes() } else { cpu.reg(rm) };
        cpu.set_reg(base, cpu.reg(base).wrapping_add(step));
    }
    Ok(())
}

fn element(bytes: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    b[..bytes.len()].copy_from_slice(bytes);
    u128::from_le_bytes(b)
}

/// LD1-LD4 / ST1-ST4 of whole registers: `rpt` groups of `selem` registers.
#[allow(clippy::too_many_arguments)]
fn multiple(
    cpu: &mut CpuState,
    mem: &mut Memory,
    pc: u64,
    load: bool,
    rt: usize,
    addr: u64,
    q: bool,
    ebytes: usize,
    rpt: usize,
    selem: usize,
) -> Result<(), Exception> {
    let elements = if q { 16 } else { 8 } / ebytes;
    let total = rpt * selem * elements * ebytes;
    let mut buf = [0u8; 64];
    // Memory order: for each register group, element by element, interleaving the structure.
    let slot = |r: usize, e: usize, s: usize| (r + s, (e * selem + s) * ebytes + r * elements * ebytes);
    if load {
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
    Ok(())
}

/// One lane (`index`) of 1-4 registers (LD1..LD4/ST1..ST4 single structure) or, without an
/// index, LD1R..LD4R (`q`: into 16 bytes of each register, else 8).
#[allow(clippy::too_many_arguments)]
fn single(
    cpu: &mut CpuState,
    mem: &mut Memory,
    pc: u64,
    is_load: bool,
    rt: usize,
    addr: u64,
    ebytes: usize,
    index: Option<u32>,
    q: bool,
    selem: usize,
) -> Result<(), Exception> {
    let total = selem * ebytes;
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
                    let lanes = if q { 16 } else { 8 } / ebytes;
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
    Ok(())
}
