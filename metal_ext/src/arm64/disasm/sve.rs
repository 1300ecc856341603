//! The SVE forms glibc's string routines carry, in capstone's text: CNTB/CNTH/CNTW/CNTD, DUP from
//! a general register (as MOV), PTRUE/PTRUES, WHILE<cond> on two general registers, and the plain
//! contiguous LD1/ST1 with a scalar or vector-length-scaled immediate offset. BusyBox and the C
//! test programs contain them in memcpy/memset variants that the machine never selects (it reports
//! no SVE), and a listing of those programs should read as capstone's. The machine executes no SVE
//! word; every other one reads `.inst` with a note (see `mod.rs`).

use super::fields::{bit, bits, elem, imm, r, rsp, sext, uimm};

pub fn decode(w: u32) -> Option<String> {
    match bits(w, 31, 29) {
        0b000 => count_or_dup(w),
        0b001 if bits(w, 28, 24) == 0b00101 => ptrue_or_while(w),
        0b101 => contiguous_load(w),
        0b111 => contiguous_store(w),
        _ => None,
    }
}

/// The predicate-constraint pattern of PTRUE and the element counts.
fn pattern(p: u32) -> String {
    match p {
        0 => "pow2".into(),
        1..=8 => format!("vl{p}"),
        9..=13 => format!("vl{}", 16 << (p - 9)),
        29 => "mul4".into(),
        30 => "mul3".into(),
        31 => "all".into(),
        _ => uimm(p as u64),
    }
}

fn count_or_dup(w: u32) -> Option<String> {
    // CNTB/CNTH/CNTW/CNTD: elements of a vector times a multiplier.
    if bits(w, 28, 24) == 0b00100 && bits(w, 21, 20) == 0b10 && bits(w, 15, 10) == 0b111000 {
        let name = ["cntb", "cnth", "cntw", "cntd"][bits(w, 23, 22) as usize];
        let (mul, pat) = (bits(w, 19, 16) + 1, bits(w, 9, 5));
        let rd = r(bits(w, 4, 0), true);
        return Some(match (pat, mul) {
            (31, 1) => format!("{name} {rd}"),
            (_, 1) => format!("{name} {rd}, {}", pattern(pat)),
            _ => format!("{name} {rd}, {}, mul {}", pattern(pat), uimm(mul as u64)),
        });
    }
    // DUP (scalar), shown as MOV.
    if bits(w, 28, 24) == 0b00101 && bits(w, 21, 10) == 0b1000_0000_1110 {
        let size = bits(w, 23, 22);
        return Some(format!("mov z{}.{}, {}", bits(w, 4, 0), elem(size), rsp(bits(w, 9, 5), size == 3)));
    }
    None
}

fn ptrue_or_while(w: u32) -> Option<String> {
    let size = bits(w, 23, 22);
    // PTRUE / PTRUES.
    if bits(w, 21, 17) == 0b01100 && bits(w, 15, 10) == 0b111000 && bit(w, 4) == 0 {
        let name = if bit(w, 16) == 1 { "ptrues" } else { "ptrue" };
        let pd = format!("p{}.{}", bits(w, 3, 0), elem(size));
        return Some(match bits(w, 9, 5) {
            31 => format!("{name} {pd}"),
            pat => format!("{name} {pd}, {}", pattern(pat)),
        });
    }
    // WHILE<cond> comparing two general registers.
    if bit(w, 21) == 1 && bits(w, 15, 13) == 0 {
        let x = bit(w, 12) == 1;
        let cond = ["whilege", "whilegt", "whilehs", "whilehi", "whilelt", "whilele", "whilelo", "whilels"]
            [(bit(w, 10) << 2 | bit(w, 11) << 1 | bit(w, 4)) as usize];
        return Some(format!(
            "{cond} p{}.{}, {}, {}",
            bits(w, 3, 0),
            elem(size),
            r(bits(w, 9, 5), x),
            r(bits(w, 20, 16), x)
        ));
    }
    None
}

/// (mnemonic suffix after "ld1", element size) of the 4-bit dtype field of contiguous loads.
const DTYPE: [(&str, u32); 16] = [
    ("b", 0),
    ("b", 1),
    ("b", 2),
    ("b", 3),
    ("sw", 3),
    ("h", 1),
    ("h", 2),
    ("h", 3),
    ("sh", 3),
    ("sh", 2),
    ("w", 2),
    ("w", 3),
    ("sb", 3),
    ("sb", 2),
    ("sb", 1),
    ("d", 3),
];

/// "[xn, #imm, mul vl]" (imm4 counted in vectors; "[xn]" when 0) or "[xn, xm, lsl #msz]".
fn address(w: u32, immediate: bool, msz: u32) -> String {
    let base = rsp(bits(w, 9, 5), true);
    let offset = sext(bits(w, 19, 16) as u64, 4);
    match (immediate, offset, msz) {
        (true, 0, _) => format!("[{base}]"),
        (true, _, _) => format!("[{base}, {}, mul vl]", imm(offset)),
        (_, _, 0) => format!("[{base}, {}]", r(bits(w, 20, 16), true)),
        _ => format!("[{base}, {}, lsl #{msz}]", r(bits(w, 20, 16), true)),
    }
}

/// LD1 (scalar plus immediate: op 101 with bit 20 clear; scalar plus scalar: op 010, Xm not XZR).
fn contiguous_load(w: u32) -> Option<String> {
    let dtype = bits(w, 24, 21);
    let immediate = match (bits(w, 15, 13), bits(w, 20, 16)) {
        (0b101, rm) if rm < 16 => true,
        (0b010, rm) if rm != 31 => false,
        _ => return None,
    };
    let (suffix, size) = DTYPE[dtype as usize];
    // The bytes one element reads from memory: log2 of 1, 2, 4 or 8.
    let (hi, lo) = (dtype >> 2, dtype & 3);
    let msz = if lo >= hi { hi } else { 3 - hi };
    let (zt, pg) = (bits(w, 4, 0), bits(w, 12, 10));
    Some(format!("ld1{suffix} {{z{zt}.{}}}, p{pg}/z, {}", elem(size), address(w, immediate, msz)))
}

/// ST1 (scalar plus immediate: op 111 with bit 20 clear; scalar plus scalar: op 010, Xm not XZR);
/// the element size (bits 22..21) is at least the memory size (bits 24..23).
fn contiguous_store(w: u32) -> Option<String> {
    let (msz, size) = (bits(w, 24, 23), bits(w, 22, 21));
    let immediate = match (bits(w, 15, 13), bits(w, 20, 16)) {
        _ if size < msz => return None,
        (0b111, rm) if rm < 16 => true,
        (0b010, rm) if rm != 31 => false,
        _ => return None,
    };
    let name = ["st1b", "st1h", "st1w", "st1d"][msz as usize];
    let (zt, pg) = (bits(w, 4, 0), bits(w, 12, 10));
    Some(format!("{name} {{z{zt}.{}}}, p{pg}, {}", elem(size), address(w, immediate, msz)))
}
