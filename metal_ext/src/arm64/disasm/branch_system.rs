//! Branches, exception generation and system instructions (hints, barriers, PSTATE, SYS, MRS/MSR).

use super::fields::{bit, bits, imm, r, sext, uimm, COND};
use super::system_names::{Access, REGISTERS, SYS_OPS};

pub fn decode(w: u32, pc: u64) -> Option<String> {
    let target = |offset: i64| uimm(pc.wrapping_add(offset as u64));
    match bits(w, 31, 29) {
        0b000 | 0b100 => {
            let name = if bit(w, 31) == 1 { "bl" } else { "b" };
            Some(format!("{name} {}", target(sext(bits(w, 25, 0) as u64, 26) * 4)))
        }
        0b001 | 0b101 => compare_or_test(w, pc),
        0b010 if bits(w, 25, 24) == 0 => {
            let c = COND[bits(w, 3, 0) as usize];
            let name = if bit(w, 4) == 1 { "bc" } else { "b" };
            Some(format!(
                "{name}.{c} {}",
                target(sext(bits(w, 23, 5) as u64, 19) * 4)
            ))
        }
        0b110 => match bits(w, 25, 22) {
            0b0000..=0b0011 => exception(w),
            0b0100 => system(w),
            0b1000..=0b1111 => branch_register(w),
            _ => None,
        },
        _ => None,
    }
}

fn compare_or_test(w: u32, pc: u64) -> Option<String> {
    let rt = bits(w, 4, 0);
    if bit(w, 25) == 0 {
        let name = if bit(w, 24) == 1 { "cbnz" } else { "cbz" };
        let off = sext(bits(w, 23, 5) as u64, 19) * 4;
        Some(format!(
            "{name} {}, {}",
            r(rt, bit(w, 31) == 1),
            uimm(pc.wrapping_add(off as u64))
        ))
    } else {
        let name = if bit(w, 24) == 1 { "tbnz" } else { "tbz" };
        let bitpos = bit(w, 31) << 5 | bits(w, 23, 19);
        let off = sext(bits(w, 18, 5) as u64, 14) * 4;
        Some(format!(
            "{name} {}, {}, {}",
            r(rt, bit(w, 31) == 1),
            uimm(bitpos as u64),
            uimm(pc.wrapping_add(off as u64))
        ))
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

/// The op0:op1:CRn:CRm:op2 field as printed for registers without a name.
fn generic_sysreg(w: u32) -> String {
    format!(
        "s{}_{}_c{}_c{}_{}",
        bits(w, 20, 19),
        bits(w, 18, 16),
        bits(w, 15, 12),
        bits(w, 11, 8),
        bits(w, 7, 5)
    )
}

fn sysreg_name(w: u32, read: bool) -> String {
    let key = bits(w, 19, 5) as u16;
    let wanted = if read { Access::Read } else { Access::Write };
    REGISTERS
        .iter()
        .find(|(k, _, a)| *k == key && (*a == wanted || *a == Access::Both))
        .map_or_else(|| generic_sysreg(w), |(_, name, _)| name.to_string())
}

fn system(w: u32) -> Option<String> {
    let l = bit(w, 21);
    let op0 = bits(w, 20, 19);
    let (op1, crn, crm, op2, rt) = (
        bits(w, 18, 16),
        bits(w, 15, 12),
        bits(w, 11, 8),
        bits(w, 7, 5),
        bits(w, 4, 0),
    );
    match (l, op0) {
        (0, 0) => {
            let special = match (crn, rt) {
                (1, _) if op1 == 3 && crm == 0 && op2 < 2 => Special::Text(format!(
                    "{} {}",
                    if op2 == 0 { "wfet" } else { "wfit" },
                    r(rt, true)
                )),
                (2, 31) if op1 == 3 => Special::Text(hint(crm << 3 | op2)),
                (3, 31) if op1 == 3 => barrier(crm, op2),
                (4, 31) => pstate(op1, crm, op2),
                _ => Special::Generic,
            };
            match special {
                Special::Text(text) => Some(text),
                Special::Undefined => None,
                Special::Generic => Some(format!("msr {}, {}", generic_sysreg(w), r(rt, true))),
            }
        }
        (0, 1) => Some(sys(w)),
        (1, 1) => Some(format!("sysl {}, #{op1}, c{crn}, c{crm}, #{op2}", r(rt, true))),
        (0, _) => Some(format!("msr {}, {}", sysreg_name(w, false), r(rt, true))),
        // TSTART/TTEST (transactional memory) sit in the op0 = 0 read space.
        (1, 0) if op1 == 3 && crn == 3 && crm < 2 && op2 == 3 => Some(format!(
            "{} {}",
            if crm == 0 { "tstart" } else { "ttest" },
            r(rt, true)
        )),
        (1, 0) => Some(format!("mrs {}, {}", r(rt, true), generic_sysreg(w))),
        _ => Some(format!("mrs {}, {}", r(rt, true), sysreg_name(w, true))),
    }
}

fn sys(w: u32) -> String {
    let key = bits(w, 18, 5) as u16;
    let rt = bits(w, 4, 0);
    if let Some((_, name, op, takes_reg)) = SYS_OPS.iter().find(|(k, ..)| *k == key) {
        return if *takes_reg {
            format!("{name} {op}, {}", r(rt, true))
        } else {
            format!("{name} {op}")
        };
    }
    if rt == 31 && (key == 0x0b94 || key == 0x0b95) {
        return format!("brb {}", if key == 0x0b94 { "iall" } else { "inj" });
    }
    let (op1, crn, crm, op2) = (bits(w, 18, 16), bits(w, 15, 12), bits(w, 11, 8), bits(w, 7, 5));
    let base = format!("sys #{op1}, c{crn}, c{crm}, #{op2}");
    if rt == 31 {
        base
    } else {
        format!("{base}, {}", r(rt, true))
    }
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

/// What an op0 = 0 system encoding is: a named instruction, undefined, or a plain MSR.
enum Special {
    Text(String),
    Undefined,
    Generic,
}

fn barrier(crm: u32, op2: u32) -> Special {
    let option = |name: &str| match BARRIER[crm as usize] {
        "" => format!("{name} {}", uimm(crm as u64)),
        o => format!("{name} {o}"),
    };
    Special::Text(match op2 {
        1 if crm & 3 == 2 => format!("dsb {}nxs", ["osh", "nsh", "ish", "sy"][(crm >> 2) as usize]),
        2 if crm == 15 => "clrex".into(),
        2 => format!("clrex {}", uimm(crm as u64)),
        3 if crm == 0 => "tcommit".into(),
        4 => match crm {
            0 => "ssbb".into(),
            4 => "pssbb".into(),
            12 => "dfb".into(),
            _ => option("dsb"),
        },
        5 => option("dmb"),
        6 if crm == 15 => "isb".into(),
        6 => format!("isb {}", uimm(crm as u64)),
        7 if crm == 0 => "sb".into(),
        7 => return Special::Undefined,
        _ => return Special::Generic,
    })
}

fn pstate(op1: u32, crm: u32, op2: u32) -> Special {
    let field = match (op1, op2) {
        (0, 0) if crm == 0 => return Special::Text("cfinv".into()),
        (0, 1) if crm == 0 => return Special::Text("xaflag".into()),
        (0, 2) if crm == 0 => return Special::Text("axflag".into()),
        (0, 1 | 2) => return Special::Undefined,
        (0, 3) if crm < 2 => "uao",
        (0, 4) if crm < 2 => "pan",
        (0, 5) => "spsel",
        (3, 1) => "ssbs",
        (3, 2) => "dit",
        (3, 3) => {
            let target = match crm >> 1 {
                1 => " sm",
                2 => " za",
                3 => "",
                _ => return Special::Generic,
            };
            let verb = if crm & 1 == 1 { "smstart" } else { "smstop" };
            return Special::Text(format!("{verb}{target}"));
        }
        (3, 4) => "tco",
        (3, 6) => "daifset",
        (3, 7) => "daifclr",
        _ => return Special::Generic,
    };
    Special::Text(format!("msr {field}, {}", imm(crm as i64)))
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
        (0, 0, _, 0) => Some(format!("br {xn}")),
        (1, 0, _, 0) => Some(format!("blr {xn}")),
        (2, 0, 30, 0) => Some("ret".into()),
        (2, 0, _, 0) => Some(format!("ret {xn}")),
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
