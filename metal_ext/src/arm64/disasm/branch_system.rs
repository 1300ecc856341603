//! Branches (printed from the decoded form), exception generation and the system instructions
//! the core executes: hints, CLREX/DSB/DMB/ISB, the cache operations DC ZVA, DC CVAC/CVAU/CIVAC
//! and IC IVAU, and MRS/MSR of the registers in `REGISTERS`. Other system encodings (PSTATE writes, other SYS operations and
//! system registers, SYSL, the transactional-memory forms) read `.inst` with a note.

use super::fields::{bit, bits, not_executed, r, reg, sext, uimm, COND};
use crate::arm64::decode::{self, Insn};

pub fn decode(w: u32, pc: u64) -> Option<String> {
    match decode::decode(w, pc) {
        Some(Insn::Branch { target, link }) => Some(format!("{} {}", if link { "bl" } else { "b" }, uimm(target))),
        Some(Insn::CondBranch { cond, target }) => Some(format!("b.{} {}", COND[cond as usize], uimm(target))),
        Some(Insn::CompareBranch { sf, nonzero, rt, target }) => {
            Some(format!("{} {}, {}", if nonzero { "cbnz" } else { "cbz" }, reg(rt, sf), uimm(target)))
        }
        Some(Insn::TestBranch { nonzero, rt, bit, target }) => {
            let name = if nonzero { "tbnz" } else { "tbz" };
            Some(format!("{name} {}, {}, {}", reg(rt, bit >= 32), uimm(bit as u64), uimm(target)))
        }
        Some(Insn::Indirect { rn: 30, ret: true, .. }) => Some("ret".into()),
        Some(Insn::Indirect { rn, link, ret }) => {
            let name = if ret { "ret" } else if link { "blr" } else { "br" };
            Some(format!("{name} {}", reg(rn, true)))
        }
        // The hint's name and the system register are the word's (the form keeps neither).
        _ => match bits(w, 31, 29) {
            // BC.cond (FEAT_HBC), which the core does not execute.
            0b010 if bits(w, 25, 24) == 0 && bit(w, 4) == 1 => {
                let offset = sext(bits(w, 23, 5) as u64, 19) * 4;
                Some(format!("bc.{} {}", COND[bits(w, 3, 0) as usize], uimm(pc.wrapping_add(offset as u64))))
            }
            0b110 => match bits(w, 25, 22) {
                0b0000..=0b0011 => exception(w),
                0b0100 => system(w),
                0b1000..=0b1111 => branch_register(w),
                _ => None,
            },
            _ => None,
        },
    }
}

fn exception(w: u32) -> Option<String> {
    let value = bits(w, 20, 5) as u64;
    let (opc, op2, ll) = (bits(w, 23, 21), bits(w, 4, 2), bits(w, 1, 0));
    if op2 != 0 {
        return None;
    }
    let name = match (opc, ll) {
        (0, 1) => "svc",
        (0, 2) => "hvc",
        (0, 3) => "smc",
        (1, 0) => "brk",
        (2, 0) => "hlt",
        (3, 0) => "tcancel",
        (5, 1..=3) if value == 0 => return Some(format!("dcps{ll}")),
        (5, 1..=3) => return Some(format!("dcps{ll} {}", uimm(value))),
        _ => return None,
    };
    Some(format!("{name} {}", uimm(value)))
}

/// The system registers the core reads (MRS) and writes (MSR), by op0:op1:CRn:CRm:op2 (bits
/// 20..5 of the word), with capstone's names; MRS and MSR of any other register are not executed.
const REGISTERS: [(u32, &str, bool); 12] = [
    (0xda10, "nzcv", true),
    (0xda20, "fpcr", true),
    (0xda21, "fpsr", true),
    (0xde82, "tpidr_el0", true),
    (0xde83, "tpidrro_el0", false),
    (0xd801, "ctr_el0", false),
    (0xd807, "dczid_el0", false),
    (0xc000, "midr_el1", false),
    (0xc005, "mpidr_el1", false),
    (0xc006, "revidr_el1", false),
    (0xdf00, "cntfrq_el0", false),
    (0xdf02, "cntvct_el0", false),
];

/// The cache maintenance operations the core executes (DC ZVA zeroes, the others do nothing),
/// by op1:CRn:CRm:op2, and MTE's DC GVA and DC GZVA, which it does not execute but glibc's memset
/// (in BusyBox and the C test programs) carries.
const SYS_OPS: [(u32, &str); 7] = [
    (0x1ba1, "dc zva"),
    (0x1ba9, "ic ivau"),
    (0x1bd1, "dc cvac"),
    (0x1bd9, "dc cvau"),
    (0x1bf1, "dc civac"),
    (0x1ba3, "dc gva"),
    (0x1ba4, "dc gzva"),
];

fn system(w: u32) -> Option<String> {
    let (l, op0, op1, crn, crm, op2, rt) = (
        bit(w, 21),
        bits(w, 20, 19),
        bits(w, 18, 16),
        bits(w, 15, 12),
        bits(w, 11, 8),
        bits(w, 7, 5),
        bits(w, 4, 0),
    );
    let xt = r(rt, true);
    let named = match (l, op0) {
        (0, 0) if op1 == 3 && rt == 31 && crn == 2 => Some(hint(crm << 3 | op2)),
        (0, 0) if op1 == 3 && rt == 31 && crn == 3 => barrier(crm, op2),
        (0, 1) => SYS_OPS.iter().find(|(k, _)| *k == bits(w, 18, 5)).map(|(_, op)| format!("{op}, {xt}")),
        (_, 2 | 3) => REGISTERS.iter().find(|(k, ..)| *k == bits(w, 20, 5)).and_then(|(_, name, writable)| match l {
            1 => Some(format!("mrs {xt}, {name}")),
            _ if *writable => Some(format!("msr {name}, {xt}")),
            _ => None,
        }),
        _ => None,
    };
    named.or_else(|| not_executed(w, "system instruction"))
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

/// CLREX, DSB, DMB and ISB with any option; the other barriers (SB, DSB nXS...) are not executed.
fn barrier(crm: u32, op2: u32) -> Option<String> {
    let option = |name: &str| match BARRIER[crm as usize] {
        "" => format!("{name} {}", uimm(crm as u64)),
        o => format!("{name} {o}"),
    };
    Some(match op2 {
        2 if crm == 15 => "clrex".into(),
        2 => format!("clrex {}", uimm(crm as u64)),
        4 => match crm {
            0 => "ssbb".into(),
            4 => "pssbb".into(),
            12 => "dfb".into(),
            _ => option("dsb"),
        },
        5 => option("dmb"),
        6 if crm == 15 => "isb".into(),
        6 => format!("isb {}", uimm(crm as u64)),
        _ => return None,
    })
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
