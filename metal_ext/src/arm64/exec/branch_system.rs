//! Branches, exception generation and system instructions (op0 = 101x): B, BL, B.cond,
//! CBZ/CBNZ, TBZ/TBNZ, BR/BLR/RET and hints from the decoded form; SVC/BRK, barriers, cache
//! maintenance and the system registers a Linux user program may touch from their words.

use super::alu::{condition_holds, width};
use crate::arm64::decode::Insn;
use super::{write, Exception};
use crate::arm64::mem::Memory;
use crate::arm64::state::{CpuState, COUNTER_FREQUENCY};

/// A system register's op0:op1:CRn:CRm:op2, as bits 20..5 of MRS/MSR hold it.
const fn sysreg(op0: u32, op1: u32, crn: u32, crm: u32, op2: u32) -> u32 {
    op0 << 14 | op1 << 11 | crn << 7 | crm << 3 | op2
}

const NZCV: u32 = sysreg(3, 3, 4, 2, 0);
const FPCR: u32 = sysreg(3, 3, 4, 4, 0);
const FPSR: u32 = sysreg(3, 3, 4, 4, 1);
const TPIDR_EL0: u32 = sysreg(3, 3, 13, 0, 2);
const TPIDRRO_EL0: u32 = sysreg(3, 3, 13, 0, 3);
const CTR_EL0: u32 = sysreg(3, 3, 0, 0, 1);
const DCZID_EL0: u32 = sysreg(3, 3, 0, 0, 7);
const MIDR_EL1: u32 = sysreg(3, 0, 0, 0, 0);
const MPIDR_EL1: u32 = sysreg(3, 0, 0, 0, 5);
const REVIDR_EL1: u32 = sysreg(3, 0, 0, 0, 6);
const CNTFRQ_EL0: u32 = sysreg(3, 3, 14, 0, 0);
const CNTVCT_EL0: u32 = sysreg(3, 3, 14, 0, 2);

/// A Cortex-A53 r0p4, as Linux reports it when EL0 reads MIDR_EL1 (the kernel emulates it, and
/// MPIDR_EL1 and REVIDR_EL1, whose values below are qemu-aarch64's too).
const MIDR_VALUE: u64 = 0x410F_D034;
const MPIDR_VALUE: u64 = 0x8000_0000;
/// Cortex-A53 cache geometry (64-byte lines, VIPT instruction cache), as qemu-aarch64 reports.
const CTR_VALUE: u64 = 0x8444_8004;
/// DC ZVA prohibited (DZP) as advertised to the guest, so its string code never relies on it
/// (qemu-aarch64 reports 0x4, a 64-byte block, which makes glibc pick its DC ZVA memset).
const DCZID_VALUE: u64 = 0x10;
/// The block DC ZVA zeroes when a program uses it anyway.
const ZVA_BLOCK: u64 = 64;

/// FPCR bits an Armv8.0 core without FP16 or trapped FP exceptions keeps: AHP, DN, FZ, RMode,
/// and the AArch32-only Stride and Len, which are stored but ignored.
const FPCR_MASK: u32 = 0x07F7_0000;
/// FPSR bits: the AArch32 NZCV (kept, unused), QC and the cumulative flags IDC, IXC, UFC, OFC,
/// DZC, IOC.
const FPSR_MASK: u32 = 0xF800_009F;

/// Executes a branch, or a hint or thread-pointer read, of the decoded form at `pc`
/// (`cpu.pc` already past it).
#[inline]
pub fn execute_decoded(cpu: &mut CpuState, insn: &Insn, pc: u64) {
    let taken = match *insn {
        Insn::Branch { target, link } => {
            if link {
                cpu.x[30] = pc.wrapping_add(4);
            }
            Some(target)
        }
        Insn::CondBranch { cond, target } => condition_holds(cond as u32, cpu.nzcv).then_some(target),
        Insn::CompareBranch { sf, nonzero, rt, target } => ((width(cpu.reg(rt), sf) != 0) == nonzero).then_some(target),
        Insn::TestBranch { nonzero, rt, bit, target } => (((cpu.reg(rt) >> bit) & 1 != 0) == nonzero).then_some(target),
        Insn::Indirect { rn, link, .. } => {
            let target = cpu.reg(rn);
            if link {
                cpu.x[30] = pc.wrapping_add(4);
            }
            Some(target)
        }
        // Hints (NOP, YIELD, BTI...) do nothing for a user program here.
        Insn::Nop => None,
        Insn::ThreadPointer { rd } => {
            cpu.set_reg(rd, cpu.tpidr_el0);
            None
        }
        _ => unreachable!("not a branch: {insn:?}"),
    };
    if let Some(target) = taken {
        cpu.pc = target;
    }
}

/// Exception generation and system instructions (bits 31..24 = 0xD4, 0xD5), which the decoded
/// form leaves out but for hints and reads of the thread pointer.
pub fn execute(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    match word >> 24 {
        0xD4 => exception_generation(word, pc),
        0xD5 => system(cpu, mem, word, pc),
        _ => Err(Exception::undefined(pc, word)),
    }
}

fn exception_generation(word: u32, pc: u64) -> Result<(), Exception> {
    let imm = (word >> 5) as u16;
    match ((word >> 21) & 7, (word >> 2) & 7, word & 3) {
        (0, 0, 1) => Err(Exception::Svc { imm }),
        (1, 0, 0) => Err(Exception::Breakpoint { pc, imm }),
        // HVC, SMC, HLT, DCPS: not available to a user program.
        _ => Err(Exception::undefined(pc, word)),
    }
}

fn system(cpu: &mut CpuState, mem: &mut Memory, word: u32, pc: u64) -> Result<(), Exception> {
    let undefined = || Exception::undefined(pc, word);
    let read = word & (1 << 21) != 0;
    let op0 = (word >> 19) & 3;
    let op1 = (word >> 16) & 7;
    let crn = (word >> 12) & 15;
    let crm = (word >> 8) & 15;
    let op2 = (word >> 5) & 7;
    let rt = word & 31;
    match (read, op0) {
        // (The HINT space, op1 3 and CRn 2, is the decoded form's `Nop`.)
        (false, 0) => match (op1, crn, rt) {
            (3, 3, 31) => match op2 {
                2 => {
                    cpu.exclusive = None;
                    Ok(())
                }
                4..=6 => Ok(()), // DSB, DMB, ISB: one in-order hart has nothing to wait for
                _ => Err(undefined()),
            },
            _ => Err(undefined()),
        },
        (false, 1) => match (op1, crn, crm, op2) {
            (3, 7, 4, 1) => {
                let block = cpu.xr(rt) & !(ZVA_BLOCK - 1);
                write(mem, pc, block, &[0; ZVA_BLOCK as usize])
            }
            // IC IVAU, DC CVAC, DC CVAU, DC CIVAC: caches are not modelled.
            (3, 7, 5 | 10 | 11 | 14, 1) => Ok(()),
            _ => Err(undefined()),
        },
        (true, 2 | 3) => {
            let value = match (word >> 5) & 0xFFFF {
                NZCV => cpu.nzcv as u64,
                FPCR => cpu.fpcr as u64,
                FPSR => cpu.fpsr as u64,
                TPIDR_EL0 => cpu.tpidr_el0,
                TPIDRRO_EL0 => cpu.tpidrro_el0,
                CTR_EL0 => CTR_VALUE,
                DCZID_EL0 => DCZID_VALUE,
                MIDR_EL1 => MIDR_VALUE,
                MPIDR_EL1 => MPIDR_VALUE,
                REVIDR_EL1 => 0,
                CNTFRQ_EL0 => COUNTER_FREQUENCY,
                CNTVCT_EL0 => cpu.counter,
                _ => return Err(undefined()),
            };
            cpu.set_xr(rt, value);
            Ok(())
        }
        (false, 2 | 3) => {
            let value = cpu.xr(rt);
            match (word >> 5) & 0xFFFF {
                NZCV => cpu.nzcv = value as u32 & 0xF000_0000,
                FPCR => cpu.fpcr = value as u32 & FPCR_MASK,
                FPSR => cpu.fpsr = value as u32 & FPSR_MASK,
                TPIDR_EL0 => cpu.tpidr_el0 = value,
                _ => return Err(undefined()),
            }
            Ok(())
        }
        _ => Err(undefined()),
    }
}
