//! Data processing on registers: logical and arithmetic with shifts or extends, carries,
//! conditional compare and select, one-, two- and three-source operations.

use super::fields::{bit, bits, r, rsp, uimm, COND, EXTEND, SHIFT};

pub fn decode(w: u32) -> Option<String> {
    let op1 = bit(w, 28);
    let op2 = bits(w, 24, 21);
    match (op1, op2) {
        (0, 0b0000..=0b0111) => logical(w),
        (0, _) if bit(w, 21) == 0 => add_sub_shifted(w),
        (0, _) => add_sub_extended(w),
        (1, 0b0000) => match bits(w, 15, 10) {
            0 => carry(w),
            0b000001 | 0b100001 => rotate_flags(w),
            0b000010 | 0b010010 => eval_flags(w),
            _ => None,
        },
        (1, 0b0010) => conditional_compare(w),
        (1, 0b0100) => conditional_select(w),
        (1, 0b0110) if bit(w, 30) == 1 => one_source(w),
        (1, 0b0110) => two_source(w),
        (1, 0b1000..=0b1111) => three_source(w),
        _ => None,
    }
}

/// ", lsl #3" for a nonzero shift amount, nothing otherwise.
fn shift_suffix(kind: u32, amount: u32) -> String {
    if amount == 0 && kind == 0 {
        String::new()
    } else {
        format!(", {} #{amount}", SHIFT[kind as usize])
    }
}

fn logical(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let amount = bits(w, 15, 10);
    if !x && amount >= 32 {
        return None;
    }
    let (kind, rm, rn, rd) = (bits(w, 23, 22), bits(w, 20, 16), bits(w, 9, 5), bits(w, 4, 0));
    let n = bit(w, 21);
    let shifted = format!("{}{}", r(rm, x), shift_suffix(kind, amount));
    let name =
        ["and", "bic", "orr", "orn", "eor", "eon", "ands", "bics"][(bits(w, 30, 29) << 1 | n) as usize];
    Some(match name {
        "orr" if rn == 31 && amount == 0 && kind == 0 => format!("mov {}, {}", r(rd, x), r(rm, x)),
        "orn" if rn == 31 => format!("mvn {}, {shifted}", r(rd, x)),
        "ands" if rd == 31 => format!("tst {}, {shifted}", r(rn, x)),
        _ => format!("{name} {}, {}, {shifted}", r(rd, x), r(rn, x)),
    })
}

fn add_sub_shifted(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let (kind, amount) = (bits(w, 23, 22), bits(w, 15, 10));
    if kind == 3 || (!x && amount >= 32) {
        return None;
    }
    let (rm, rn, rd) = (bits(w, 20, 16), bits(w, 9, 5), bits(w, 4, 0));
    let shifted = format!("{}{}", r(rm, x), shift_suffix(kind, amount));
    let (sub, setflags) = (bit(w, 30) == 1, bit(w, 29) == 1);
    Some(match (sub, setflags) {
        (_, true) if rd == 31 => format!("{} {}, {shifted}", if sub { "cmp" } else { "cmn" }, r(rn, x)),
        (true, _) if rn == 31 => format!(
            "{} {}, {shifted}",
            if setflags { "negs" } else { "neg" },
            r(rd, x)
        ),
        _ => {
            let name = ["add", "adds", "sub", "subs"][(bits(w, 30, 29)) as usize];
            format!("{name} {}, {}, {shifted}", r(rd, x), r(rn, x))
        }
    })
}

fn add_sub_extended(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let (option, amount) = (bits(w, 15, 13), bits(w, 12, 10));
    if bits(w, 23, 22) != 0 || amount > 4 {
        return None;
    }
    let (rm, rn, rd) = (bits(w, 20, 16), bits(w, 9, 5), bits(w, 4, 0));
    let setflags = bit(w, 29) == 1;
    let sp_involved = rn == 31 || (!setflags && rd == 31);
    // With SP as an operand, the register-width UXT prints as LSL (or nothing).
    let lsl_form = sp_involved && option == if x { 3 } else { 2 };
    let extend = if lsl_form {
        if amount == 0 {
            String::new()
        } else {
            format!(", lsl #{amount}")
        }
    } else if amount == 0 {
        format!(", {}", EXTEND[option as usize])
    } else {
        format!(", {} #{amount}", EXTEND[option as usize])
    };
    let operand = format!("{}{extend}", r(rm, x && option & 3 == 3));
    let sub = bit(w, 30) == 1;
    Some(if setflags && rd == 31 {
        format!("{} {}, {operand}", if sub { "cmp" } else { "cmn" }, rsp(rn, x))
    } else {
        let name = ["add", "adds", "sub", "subs"][(bits(w, 30, 29)) as usize];
        let d = if setflags { r(rd, x) } else { rsp(rd, x) };
        format!("{name} {d}, {}, {operand}", rsp(rn, x))
    })
}

fn carry(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let (rm, rn, rd) = (bits(w, 20, 16), bits(w, 9, 5), bits(w, 4, 0));
    let name = ["adc", "adcs", "sbc", "sbcs"][bits(w, 30, 29) as usize];
    Some(if bit(w, 30) == 1 && rn == 31 {
        format!(
            "{} {}, {}",
            if bit(w, 29) == 1 { "ngcs" } else { "ngc" },
            r(rd, x),
            r(rm, x)
        )
    } else {
        format!("{name} {}, {}, {}", r(rd, x), r(rn, x), r(rm, x))
    })
}

/// RMIF: rotate a register into the flags.
fn rotate_flags(w: u32) -> Option<String> {
    if bits(w, 31, 29) != 0b101 || bit(w, 4) != 0 {
        return None;
    }
    let (shift, rn, mask) = (bits(w, 20, 15), bits(w, 9, 5), bits(w, 3, 0));
    Some(format!(
        "rmif {}, {}, {}",
        r(rn, true),
        uimm(shift as u64),
        uimm(mask as u64)
    ))
}

/// SETF8/SETF16: flags from a byte or halfword.
fn eval_flags(w: u32) -> Option<String> {
    if bits(w, 31, 29) != 0b001 || bits(w, 20, 15) != 0 || bits(w, 4, 0) != 0b01101 {
        return None;
    }
    let name = if bit(w, 14) == 1 { "setf16" } else { "setf8" };
    Some(format!("{name} {}", r(bits(w, 9, 5), false)))
}

fn conditional_compare(w: u32) -> Option<String> {
    if bit(w, 29) == 0 || bit(w, 10) != 0 || bit(w, 4) != 0 {
        return None;
    }
    let x = bit(w, 31) == 1;
    let name = if bit(w, 30) == 1 { "ccmp" } else { "ccmn" };
    let second = if bit(w, 11) == 1 {
        uimm(bits(w, 20, 16) as u64)
    } else {
        r(bits(w, 20, 16), x)
    };
    Some(format!(
        "{name} {}, {second}, {}, {}",
        r(bits(w, 9, 5), x),
        uimm(bits(w, 3, 0) as u64),
        COND[bits(w, 15, 12) as usize]
    ))
}

fn conditional_select(w: u32) -> Option<String> {
    if bit(w, 29) == 1 || bit(w, 11) == 1 {
        return None;
    }
    let x = bit(w, 31) == 1;
    let (rm, cond, rn, rd) = (bits(w, 20, 16), bits(w, 15, 12), bits(w, 9, 5), bits(w, 4, 0));
    let op = bit(w, 30) << 1 | bit(w, 10);
    let (d, n, m) = (r(rd, x), r(rn, x), r(rm, x));
    // The aliases show the inverted condition and exist only for conditions other than al/nv.
    let inverted = COND[(cond ^ 1) as usize];
    let aliasable = cond < 14 && rm == rn;
    Some(match op {
        1 if aliasable && rn == 31 => format!("cset {d}, {inverted}"),
        1 if aliasable => format!("cinc {d}, {n}, {inverted}"),
        2 if aliasable && rn == 31 => format!("csetm {d}, {inverted}"),
        2 if aliasable => format!("cinv {d}, {n}, {inverted}"),
        3 if aliasable => format!("cneg {d}, {n}, {inverted}"),
        _ => {
            let name = ["csel", "csinc", "csinv", "csneg"][op as usize];
            format!("{name} {d}, {n}, {m}, {}", COND[cond as usize])
        }
    })
}

fn one_source(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let (opcode2, opcode, rn, rd) = (bits(w, 20, 16), bits(w, 15, 10), bits(w, 9, 5), bits(w, 4, 0));
    if bit(w, 29) != 0 {
        return None;
    }
    match opcode2 {
        0 => {
            let name = match (opcode, x) {
                (0, _) => "rbit",
                (1, _) => "rev16",
                (2, false) | (3, true) => "rev",
                (2, true) => "rev32",
                (4, _) => "clz",
                (5, _) => "cls",
                _ => return None,
            };
            Some(format!("{name} {}, {}", r(rd, x), r(rn, x)))
        }
        1 if x => {
            const PAC: [&str; 8] = [
                "pacia", "pacib", "pacda", "pacdb", "autia", "autib", "autda", "autdb",
            ];
            match opcode {
                0..=7 => Some(format!(
                    "{} {}, {}",
                    PAC[opcode as usize],
                    r(rd, true),
                    rsp(rn, true)
                )),
                8..=15 if rn == 31 => Some(format!(
                    "{}z{} {}",
                    &PAC[opcode as usize - 8][..4],
                    &PAC[opcode as usize - 8][4..],
                    r(rd, true)
                )),
                16 | 17 if rn == 31 => Some(format!(
                    "xpac{} {}",
                    if opcode == 16 { "i" } else { "d" },
                    r(rd, true)
                )),
                _ => None,
            }
        }
        _ => None,
    }
}

fn two_source(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let (rm, opcode, rn, rd) = (bits(w, 20, 16), bits(w, 15, 10), bits(w, 9, 5), bits(w, 4, 0));
    let s = bit(w, 29);
    let plain = |name: &str| Some(format!("{name} {}, {}, {}", r(rd, x), r(rn, x), r(rm, x)));
    match (x, s, opcode) {
        (true, 0, 0) => Some(format!(
            "subp {}, {}, {}",
            r(rd, true),
            rsp(rn, true),
            rsp(rm, true)
        )),
        (true, 1, 0) => Some(format!(
            "subps {}, {}, {}",
            r(rd, true),
            rsp(rn, true),
            rsp(rm, true)
        )),
        (_, 0, 2) => plain("udiv"),
        (_, 0, 3) => plain("sdiv"),
        (true, 0, 4) if rm == 31 => Some(format!("irg {}, {}", rsp(rd, true), rsp(rn, true))),
        (true, 0, 4) => Some(format!(
            "irg {}, {}, {}",
            rsp(rd, true),
            rsp(rn, true),
            r(rm, true)
        )),
        (true, 0, 5) => Some(format!("gmi {}, {}, {}", r(rd, true), rsp(rn, true), r(rm, true))),
        (_, 0, 8) => plain("lsl"),
        (_, 0, 9) => plain("lsr"),
        (_, 0, 10) => plain("asr"),
        (_, 0, 11) => plain("ror"),
        (true, 0, 12) => Some(format!(
            "pacga {}, {}, {}",
            r(rd, true),
            r(rn, true),
            rsp(rm, true)
        )),
        (_, 0, 16..=23) => {
            let size = opcode & 3;
            if (size == 3) != x {
                return None;
            }
            let name = format!(
                "crc32{}{}",
                if opcode & 4 != 0 { "c" } else { "" },
                ["b", "h", "w", "x"][size as usize]
            );
            Some(format!(
                "{name} {}, {}, {}",
                r(rd, false),
                r(rn, false),
                r(rm, size == 3)
            ))
        }
        _ => None,
    }
}

fn three_source(w: u32) -> Option<String> {
    let x = bit(w, 31) == 1;
    let (op54, op31, o0) = (bits(w, 30, 29), bits(w, 23, 21), bit(w, 15));
    let (rm, ra, rn, rd) = (bits(w, 20, 16), bits(w, 14, 10), bits(w, 9, 5), bits(w, 4, 0));
    if op54 != 0 {
        return None;
    }
    let (name, alias, wide_sources) = match (op31, o0, x) {
        (0, 0, _) => ("madd", "mul", false),
        (0, 1, _) => ("msub", "mneg", false),
        (1, 0, true) => ("smaddl", "smull", true),
        (1, 1, true) => ("smsubl", "smnegl", true),
        (5, 0, true) => ("umaddl", "umull", true),
        (5, 1, true) => ("umsubl", "umnegl", true),
        (2, 0, true) | (6, 0, true) => {
            let name = if op31 == 2 { "smulh" } else { "umulh" };
            return Some(format!(
                "{name} {}, {}, {}",
                r(rd, true),
                r(rn, true),
                r(rm, true)
            ));
        }
        _ => return None,
    };
    let src = |n| r(n, x && !wide_sources);
    Some(if ra == 31 {
        format!("{alias} {}, {}, {}", r(rd, x), src(rn), src(rm))
    } else {
        format!("{name} {}, {}, {}, {}", r(rd, x), src(rn), src(rm), r(ra, x))
    })
}
