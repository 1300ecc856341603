//! Exception generation and the system instructions a Linux user program reaches here (bits
//! 31..24 = 0xD4, 0xD5): SVC, BRK, hints, CLREX and the barriers, the cache operations the core
//! models and MRS/MSR of the system registers it knows. The rest of the space (HVC, PSTATE
//! writes, other registers and operations, SYSL...) is outside the form: undefined here.

use super::{zr, Insn};

/// The system registers MRS reads and MSR (where `writable`) writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SystemRegister {
    Nzcv,
    Fpcr,
    Fpsr,
    TpidrEl0,
    TpidrroEl0,
    CtrEl0,
    DczidEl0,
    MidrEl1,
    MpidrEl1,
    RevidrEl1,
    CntfrqEl0,
    CntvctEl0,
}

/// Each register's op0:op1:CRn:CRm:op2 (bits 20..5 of MRS/MSR), its name, and whether MSR
/// writes it.
const REGISTERS: [(u32, SystemRegister, &str, bool); 12] = [
    (0xda10, SystemRegister::Nzcv, "nzcv", true),
    (0xda20, SystemRegister::Fpcr, "fpcr", true),
    (0xda21, SystemRegister::Fpsr, "fpsr", true),
    (0xde82, SystemRegister::TpidrEl0, "tpidr_el0", true),
    (0xde83, SystemRegister::TpidrroEl0, "tpidrro_el0", false),
    (0xd801, SystemRegister::CtrEl0, "ctr_el0", false),
    (0xd807, SystemRegister::DczidEl0, "dczid_el0", false),
    (0xc000, SystemRegister::MidrEl1, "midr_el1", false),
    (0xc005, SystemRegister::MpidrEl1, "mpidr_el1", false),
    (0xc006, SystemRegister::RevidrEl1, "revidr_el1", false),
    (0xdf00, SystemRegister::CntfrqEl0, "cntfrq_el0", false),
    (0xdf02, SystemRegister::CntvctEl0, "cntvct_el0", false),
];

impl SystemRegister {
    /// The name MRS and MSR show, e.g. "tpidr_el0".
    pub fn name(self) -> &'static str {
        REGISTERS.iter().find(|entry| entry.1 == self).map_or("", |entry| entry.2)
    }
}

/// CLREX and the barriers, by op2 of their encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Barrier {
    ClearExclusive,
    /// DSB (with CRm 0 and 4 the speculation barriers SSBB and PSSBB).
    DataSynchronization,
    DataMemory,
    Instruction,
}

/// The cache maintenance operations the core executes (caches are not modelled: only DC ZVA,
/// which zeroes a block, does anything).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheOperation {
    ZeroBlock,
    InvalidateInstructions,
    CleanData,
    CleanDataToUnification,
    CleanInvalidateData,
}

impl CacheOperation {
    pub fn name(self) -> &'static str {
        match self {
            CacheOperation::ZeroBlock => "dc zva",
            CacheOperation::InvalidateInstructions => "ic ivau",
            CacheOperation::CleanData => "dc cvac",
            CacheOperation::CleanDataToUnification => "dc cvau",
            CacheOperation::CleanInvalidateData => "dc civac",
        }
    }
}

pub(super) fn decode(word: u32) -> Option<Insn> {
    match word >> 24 {
        0xD4 => exception_generation(word),
        // Bits 23..22 set are unallocated.
        0xD5 if word & (3 << 22) == 0 => system(word),
        _ => None,
    }
}

fn exception_generation(word: u32) -> Option<Insn> {
    let imm = (word >> 5) as u16;
    match ((word >> 21) & 7, (word >> 2) & 7, word & 3) {
        (0, 0, 1) => Some(Insn::Supervisor { imm }),
        (1, 0, 0) => Some(Insn::Breakpoint { imm }),
        // HVC, SMC, HLT, DCPS: not available to a user program.
        _ => None,
    }
}

fn system(word: u32) -> Option<Insn> {
    let read = word & (1 << 21) != 0;
    let (op0, op1, crn) = ((word >> 19) & 3, (word >> 16) & 7, (word >> 12) & 15);
    let (crm, op2, rt) = ((word >> 8) & 15, (word >> 5) & 7, word & 31);
    match (read, op0) {
        (false, 0) => match (op1, crn, rt) {
            // The HINT space: NOP, YIELD, WFE, BTI, PAC*SP on a core without PAuth... all no-ops
            // for a user program here.
            (3, 2, 31) => Some(Insn::Hint { number: (crm << 3 | op2) as u8 }),
            (3, 3, 31) => {
                let kind = match op2 {
                    2 => Barrier::ClearExclusive,
                    4 => Barrier::DataSynchronization,
                    5 => Barrier::DataMemory,
                    6 => Barrier::Instruction,
                    _ => return None,
                };
                Some(Insn::Barrier { kind, option: crm as u8 })
            }
            _ => None,
        },
        (false, 1) => {
            let op = match (op1, crn, crm, op2) {
                (3, 7, 4, 1) => CacheOperation::ZeroBlock,
                (3, 7, 5, 1) => CacheOperation::InvalidateInstructions,
                (3, 7, 10, 1) => CacheOperation::CleanData,
                (3, 7, 11, 1) => CacheOperation::CleanDataToUnification,
                (3, 7, 14, 1) => CacheOperation::CleanInvalidateData,
                _ => return None,
            };
            Some(Insn::Cache { op, rt: zr(rt) })
        }
        (_, 2 | 3) => {
            let &(_, reg, _, writable) = REGISTERS.iter().find(|entry| entry.0 == (word >> 5) & 0xFFFF)?;
            if read {
                Some(Insn::ReadSystem { reg, rt: zr(rt) })
            } else {
                writable.then_some(Insn::WriteSystem { reg, rt: zr(rt) })
            }
        }
        _ => None,
    }
}
