//! Branches, exception generation and the system instructions the core executes (hints,
//! CLREX/DSB/DMB/ISB, DC ZVA, DC CVAC/CVAU/CIVAC, IC IVAU, MRS/MSR of the registers it knows),
//! printed from the decoded form. From their words: BC.cond, HVC/SMC/HLT/DCPS, the
//! pointer-authenticating branches and MTE's DC GVA/GZVA, which capstone names and the core does
//! not execute; other system encodings (PSTATE writes, other SYS operations and system
//! registers, SYSL, the transactional-memory forms) read `.inst` with a note.

use super::fields::{bit, bits, not_executed, r, reg, sext, uimm, COND};
use crate::arm64::decode::{self, Barrier, Insn};

pub fn decode(w: u32, pc: u64) -> Option<String> {
    match decode::decode(w, pc) {
        Some(insn) => print(&insn),
        None => outside_the_form(w, pc),
    }
}

/// Branches and system instructions of the decoded form.
fn print(insn: &Insn) -> Option<String> {
    Some(match *insn {
        Insn::Branch { target, link } => format!("{} {}", if link { "bl" } else { "b" }, uimm(target)),
        Insn::CondBranch { cond, target } => format!("b.{} {}", COND[cond as usize], uimm(target)),
        Insn::CompareBranch { sf, nonzero, rt, target } => {
            format!("{} {}, {}", if nonzero { "cbnz" } else { "cbz" }, reg(rt, sf), uimm(target))
        }
        Insn::TestBranch { nonzero, rt, bit, target } => {
            let name = if nonzero { "tbnz" } else { "tbz" };
            format!("{name} {}, {}, {}", reg(rt, bit >= 32), uimm(bit as u64), uimm(target))
        }
        Insn::Indirect { rn: 30, ret: true, .. } => "ret".into(),
        Insn::Indirect { rn, link, ret } => {
            let name = if ret { "ret" } else if link { "blr" } else { "br" };
            format!("{name} {}", reg(rn, true))
        }
        Insn::Supervisor { imm } => format!("svc {}", uimm(imm as u64)),
        Insn::Breakpoint { imm } => format!("brk {}", uimm(imm as u64)),
        Insn::Hint { number } => hint(number as u32),
        Insn::Barrier { kind, option } => barrier(kind, option as u32),
        Insn::Cache { op, rt } => format!("{}, {}", op.name(), reg(rt, true)),
        Insn::ReadSystem { reg: register, rt } => format!("mrs {}, {}", reg(rt, true), register.name()),
        Insn::WriteSystem { reg: register, rt } => format!("msr {}, {}", register.name(), reg(rt, true)),
        _ => return None,
    })
}

/// The words of this space outside the decoded form: BC.cond, HVC/SMC/HLT/DCPS, the
/// pointer-authenticating branches, and the system encodings the core does not execute.
fn outside_the_form(w: u32, pc: u64) -> Option<String> {
    match bits(w, 31, 29) {
        // BC.cond (FEAT_HBC).
        0b010 if bits(w, 25, 24) == 0 && bit(w, 4) == 1 => {
            let offset = sext(bits(w, 23, 5) as u64, 19) * 4;
            Some(format!("bc.{} {}", COND[bits(w, 3, 0) as usize], uimm(pc.wrapping_add(offset as u64))))
        }
        0b110 => match bits(w, 25, 22) {
            0b0000..=0b0011 => exception(w),
            0b0100 => memory_tag_cache_operation(w).or_else(|| not_executed(w, "system instruction")),
            0b1000..=0b1111 => branch_register(w),
            _ => None,
        },
        _ => None,
    }
}

fn exception(w: u32) -> Option<String> {
    let value = bits(w, 20, 5) as u64;
    let (opc, op2, ll) = (bits(w, 23, 21), bits(w, 4, 2), bits(w, 1, 0));
    if op2 != 0 {
        return None;
    }
    let name = match (opc, ll) {
        (0, 2) => "hvc",
        (0, 3) => "smc",
        (2, 0) => "hlt",
        (3, 0) => "tcancel",
        (5, 1..=3) if value == 0 => return Some(format!("dcps{ll}")),
        (5, 1..=3) => return Some(format!("dcps{ll} {}", uimm(value))),
        _ => return None,
    };
    Some(format!("{name} {}", uimm(value)))
}

/// MTE's DC GVA and DC GZVA, which the core does not execute but glibc's memset (in BusyBox and
/// the C test programs) carries.
fn memory_tag_cache_operation(w: u32) -> Option<String> {
    // SYS (L = 0, op0 = 1) with op1:CRn:CRm:op2 of the operation.
    let name = match (bits(w, 21, 19), bits(w, 18, 5)) {
        (0b001, 0x1ba3) => "dc gva",
        (0b001, 0x1ba4) => "dc gzva",
        _ => return None,
    };
    Some(format!("{name}, {}", r(bits(w, 4, 0), true)))
}

fn hint(n: u32) -> String {
    let name = match n {
        0 => "nop",
        1 => "yield",
        2 => "wfe",
        3 => "wfi",
        4 => "sev",
        5 => "sevl",
        6 => "dgh",
        7 => "xpaclri",
        8 => "pacia1716",
        10 => "pacib1716",
        12 => "autia1716",
        14 => "autib1716",
        16 => "esb",
        17 => "psb csync",
        18 => "tsb csync",
        20 => "csdb",
        24 => "paciaz",
        25 => "paciasp",
        26 => "pacibz",
        27 => "pacibsp",
        28 => "autiaz",
        29 => "autiasp",
        30 => "autibz",
        31 => "autibsp",
        32 => "bti",
        34 => "bti c",
        36 => "bti j",
        38 => "bti jc",
        _ => return format!("hint {}", uimm(n as u64)),
    };
    name.to_string()
}

/// Barrier option names by CRm; unnamed ones print as an immediate.
const BARRIER: [&str; 16] = [
    "", "oshld", "oshst", "osh", "", "nshld", "nshst", "nsh", "", "ishld", "ishst", "ish", "", "ld", "st",
    "sy",
];

/// CLREX, DSB, DMB and ISB with any option (the other barriers, SB, DSB nXS..., are outside
/// the decoded form: not executed).
fn barrier(kind: Barrier, crm: u32) -> String {
    let option = |name: &str| match BARRIER[crm as usize] {
        "" => format!("{name} {}", uimm(crm as u64)),
        o => format!("{name} {o}"),
    };
    match kind {
        Barrier::ClearExclusive if crm == 15 => "clrex".into(),
        Barrier::ClearExclusive => format!("clrex {}", uimm(crm as u64)),
        Barrier::DataSynchronization => match crm {
            0 => "ssbb".into(),
            4 => "pssbb".into(),
            12 => "dfb".into(),
            _ => option("dsb"),
        },
        Barrier::DataMemory => option("dmb"),
        Barrier::Instruction if crm == 15 => "isb".into(),
        Barrier::Instruction => format!("isb {}", uimm(crm as u64)),
    }
}

fn branch_register(w: u32) -> Option<String> {
    let (opc, op2, op3, rn, op4) = (
        bits(w, 24, 21),
        bits(w, 20, 16),
        bits(w, 15, 10),
        bits(w, 9, 5),
        bits(w, 4, 0),
    );
    if op2 != 31 {
        return None;
    }
    let xn = r(rn, true);
    let pac_key = |base: &str| match op3 {
        2 => Some(format!("{base}a")),
        3 => Some(format!("{base}b")),
        _ => None,
    };
    match (opc, op3, rn, op4) {
        // (BR, BLR and RET are the decoded form's `Indirect`.)
        (0 | 1, 2 | 3, _, 31) => Some(format!(
            "{}z {xn}",
            pac_key(if opc == 0 { "bra" } else { "blra" })?
        )),
        (2, 2 | 3, 31, 31) => pac_key("reta"),
        (4, 0, 31, 0) => Some("eret".into()),
        (4, 2 | 3, 31, 31) => pac_key("ereta"),
        (5, 0, 31, 0) => Some("drps".into()),
        (8 | 9, 2 | 3, _, _) => {
            let name = pac_key(if opc == 8 { "bra" } else { "blra" })?;
            Some(format!("{name} {xn}, {}", super::fields::rsp(op4, true)))
        }
        _ => None,
    }
}
