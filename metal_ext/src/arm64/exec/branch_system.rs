//! Branches, exception generation and system instructions (op0 = 101x), executed from the
//! decoded form: B, BL, B.cond, CBZ/CBNZ, TBZ/TBNZ, BR/BLR/RET, SVC/BRK, hints, barriers, cache
//! maintenance and the system registers a Linux user program may touch.

use super::alu::{condition_holds, width};
use super::exception::Exception;
use super::guest_memory::write;
use crate::arm64::decode::{Barrier, CacheOperation, Insn, SystemRegister};
use crate::arm64::mem::Memory;
use crate::arm64::state::{CpuState, COUNTER_FREQUENCY};

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

/// Executes a branch or system instruction of the decoded form at `pc` (`cpu.pc` already past
/// it; a branch taken moves it).
#[inline]
pub fn execute_decoded(cpu: &mut CpuState, mem: &mut Memory, insn: &Insn, pc: u64) -> Result<(), Exception> {
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
        Insn::Supervisor { imm } => return Err(Exception::Svc { imm }),
        Insn::Breakpoint { imm } => return Err(Exception::Breakpoint { pc, imm }),
        // Hints (NOP, YIELD, BTI...) do nothing for a user program here.
        Insn::Hint { .. } => None,
        Insn::Barrier { kind: Barrier::ClearExclusive, .. } => {
            cpu.exclusive = None;
            None
        }
        // DSB, DMB, ISB: one in-order hart has nothing to wait for.
        Insn::Barrier { .. } => None,
        Insn::Cache { op: CacheOperation::ZeroBlock, rt } => {
            let block = cpu.reg(rt) & !(ZVA_BLOCK - 1);
            write(mem, pc, block, &[0; ZVA_BLOCK as usize])?;
            None
        }
        // Caches are not modelled.
        Insn::Cache { .. } => None,
        Insn::ReadSystem { reg, rt } => {
            cpu.set_reg(rt, read_system(cpu, reg));
            None
        }
        Insn::WriteSystem { reg, rt } => {
            write_system(cpu, reg, cpu.reg(rt));
            None
        }
        _ => unreachable!("not a branch or system instruction: {insn:?}"),
    };
    if let Some(target) = taken {
        cpu.pc = target;
    }
    Ok(())
}

fn read_system(cpu: &CpuState, reg: SystemRegister) -> u64 {
    match reg {
        SystemRegister::Nzcv => cpu.nzcv as u64,
        SystemRegister::Fpcr => cpu.fpcr as u64,
        SystemRegister::Fpsr => cpu.fpsr as u64,
        SystemRegister::TpidrEl0 => cpu.tpidr_el0,
        SystemRegister::TpidrroEl0 => cpu.tpidrro_el0,
        SystemRegister::CtrEl0 => CTR_VALUE,
        SystemRegister::DczidEl0 => DCZID_VALUE,
        SystemRegister::MidrEl1 => MIDR_VALUE,
        SystemRegister::MpidrEl1 => MPIDR_VALUE,
        SystemRegister::RevidrEl1 => 0,
        SystemRegister::CntfrqEl0 => COUNTER_FREQUENCY,
        SystemRegister::CntvctEl0 => cpu.counter,
    }
}

/// MSR of the registers the decoded form says are writable.
fn write_system(cpu: &mut CpuState, reg: SystemRegister, value: u64) {
    match reg {
        SystemRegister::Nzcv => cpu.nzcv = value as u32 & 0xF000_0000,
        SystemRegister::Fpcr => cpu.fpcr = value as u32 & FPCR_MASK,
        SystemRegister::Fpsr => cpu.fpsr = value as u32 & FPSR_MASK,
        SystemRegister::TpidrEl0 => cpu.tpidr_el0 = value,
        _ => unreachable!("{reg:?} is read-only"),
    }
}
