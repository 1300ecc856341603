//! Exception generation and the system instructions a Linux user program reaches here (bits
//! 31..24 = 0xD4, 0xD5): SVC, BRK, hints, CLREX and the barriers, the cache operations the core
//! models and MRS/MSR of the system registers it knows. The rest of the space (HVC, PSTATE
//! writes, other registers and operations, SYSL...) is outside the form: undefined here.

use super::fields::zr;
use super::form::{Barrier, CacheOperation, Insn, REGISTERS};

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
