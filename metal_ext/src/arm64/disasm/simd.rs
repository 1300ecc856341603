//! Advanced SIMD, vector and scalar forms: three same / different, two-register miscellaneous,
//! across lanes, pairwise, copy, indexed element, permute, extract and table lookup; the forms
//! with an immediate are in `simd_immediate`, the AES/SHA instructions in `simd_crypto`.

use super::fields::{arrangement, bit, bits, elem, fp_arrangement, lane, not_executed, operand, r, uimm, v};
use super::simd_crypto;
use crate::arm64::decode::{decode_simd_fp, BitwiseOp, ElementOp, FpMiscOp, FpThreeSameOp, MiscOp, ReduceOp, SimdInsn, ThreeDifferentOp, ThreeSameOp};
use super::simd_immediate::{modified_immediate, shift_immediate};

/// The note on the Advanced SIMD instructions added after Armv8.0 (rounding doubling multiply-
/// accumulate, dot products, complex arithmetic, FMLAL, BFloat16, int8 matrix multiply, SHA-512,
/// SHA-3, SM3, SM4), which the core, an Armv8.0 one, does not execute.
const LATER: &str = "Advanced SIMD after Armv8.0";

pub fn decode(w: u32) -> Option<String> {
    let scalar = bit(w, 28) == 1;
    if bits(w, 31, 24) == 0b1100_1110 {
        return not_executed(w, LATER);
    }
    if bit(w, 31) == 1 || scalar && bit(w, 30) == 0 {
        return None;
    }
    if bit(w, 24) == 1 {
        return if bit(w, 10) == 1 {
            if bit(w, 23) == 1 {
                None
            } else if !scalar && bits(w, 22, 19) == 0 {
                modified_immediate(w)
            } else {
                shift_immediate(w)
            }
        } else {
            indexed_element(w)
        };
    }
    if bit(w, 21) == 1 {
        return match bits(w, 11, 10) {
            1 | 3 => three_same(w),
            0 => three_different(w),
            _ => match bits(w, 20, 17) {
                0b0000 => two_register_misc(w),
                0b1100 if bit(w, 22) == 1 => fp_misc(w, scalar, true),
                0b1000 => reduction(w),
                0b0100 => simd_crypto::print(w),
                _ => None,
            },
        };
    }
    if bits(w, 22, 21) == 2 && bits(w, 15, 14) == 0 && bit(w, 10) == 1 {
        return fp16_three_same(w, scalar);
    }
    if bit(w, 15) == 1 && bit(w, 10) == 1 && bit(w, 21) == 0 {
        return not_executed(w, LATER);
    }
    if bit(w, 15) == 0 && bits(w, 23, 21) == 0 && bit(w, 10) == 1 && (bit(w, 29) == 0 || !scalar) {
        return copy(w);
    }
    if scalar {
        return simd_crypto::print(w);
    }
    permute(w)
}

/// Name of an FP three-same operation (shared by the half, single and double forms).
fn fp_three_same_name(u: u32, a: u32, op: u32) -> Option<&'static str> {
    Some(match (u, a, op) {
        (0, 0, 0) => "fmaxnm",
        (0, 0, 1) => "fmla",
        (0, 0, 2) => "fadd",
        (0, 0, 3) => "fmulx",
        (0, 0, 4) => "fcmeq",
        (0, 0, 6) => "fmax",
        (0, 0, 7) => "frecps",
        (0, 1, 0) => "fminnm",
        (0, 1, 1) => "fmls",
        (0, 1, 2) => "fsub",
        (0, 1, 6) => "fmin",
        (0, 1, 7) => "frsqrts",
        (1, 0, 0) => "fmaxnmp",
        (1, 0, 2) => "faddp",
        (1, 0, 3) => "fmul",
        (1, 0, 4) => "fcmge",
        (1, 0, 5) => "facge",
        (1, 0, 6) => "fmaxp",
        (1, 0, 7) => "fdiv",
        (1, 1, 0) => "fminnmp",
        (1, 1, 2) => "fabd",
        (1, 1, 4) => "fcmgt",
        (1, 1, 5) => "facgt",
        (1, 1, 6) => "fminp",
        _ => return None,
    })
}

fn fp_three_same(
    u: u32,
    a: u32,
    op: u32,
    scalar: bool,
    e: &str,
    arr: &str,
    [rd, rn, rm]: [u32; 3],
) -> Option<String> {
    let name = fp_three_same_name(u, a, op)?;
    if scalar
        && !matches!(
            name,
            "fmulx" | "fcmeq" | "frecps" | "frsqrts" | "fcmge" | "facge" | "fabd" | "fcmgt" | "facgt"
        )
    {
        return None;
    }
    let o = |n| operand(n, scalar, e, arr);
    Some(format!("{name} {}, {}, {}", o(rd), o(rn), o(rm)))
}

/// FP16 three-same (bits 23:21 = a10, bits 15:14 = 00).
fn fp16_three_same(w: u32, scalar: bool) -> Option<String> {
    let arr = if scalar { "" } else { arrangement(1, bit(w, 30)) };
    fp_three_same(
        bit(w, 29),
        bit(w, 23),
        bits(w, 13, 11),
        scalar,
        "h",
        arr,
        [bits(w, 4, 0), bits(w, 9, 5), bits(w, 20, 16)],
    )
}

/// "Three same", integer, bitwise and floating point, printed from the decoded form.
fn three_same(w: u32) -> Option<String> {
    let (u, opcode) = (bit(w, 29), bits(w, 15, 11));
    if opcode == 0b11101 && u == 0 || opcode == 0b11001 && u == 1 {
        // FMLAL, FMLSL and the like (Armv8.2), with a vector of singles.
        return if bit(w, 28) == 1 || bit(w, 22) == 1 { None } else { not_executed(w, LATER) };
    }
    Some(match decode_simd_fp(w)? {
        SimdInsn::Bitwise { op, q, rd, rn, rm } => {
            let arr = if q { "16b" } else { "8b" };
            let (rd, rn, rm) = (rd as u32, rn as u32, rm as u32);
            if op == BitwiseOp::Orr && rm == rn {
                return Some(format!("mov {}, {}", v(rd, arr), v(rn, arr)));
            }
            let name = ["and", "bic", "orr", "orn", "eor", "bsl", "bit", "bif"][op as usize];
            format!("{name} {}, {}, {}", v(rd, arr), v(rn, arr), v(rm, arr))
        }
        SimdInsn::ThreeSame { op, unsigned, scalar, q, size, rd, rn, rm } => {
            let (size, q) = (size as u32, q as u32);
            let arr = arrangement(size, q);
            let o = |n: u8| operand(n as u32, scalar, elem(size), arr);
            format!("{} {}, {}, {}", three_same_name(op, unsigned), o(rd), o(rn), o(rm))
        }
        SimdInsn::FpThreeSame { op, scalar, q, double, rd, rn, rm } => {
            let e = if double { "d" } else { "s" };
            let arr = if scalar { "" } else { fp_arrangement(double as u32, q as u32)? };
            let o = |n: u8| operand(n as u32, scalar, e, arr);
            format!("{} {}, {}, {}", fp_three_same_op_name(op), o(rd), o(rn), o(rm))
        }
        _ => return None,
    })
}

fn three_same_name(op: ThreeSameOp, unsigned: bool) -> &'static str {
    use ThreeSameOp::*;
    let [signed_name, unsigned_name] = match op {
        HalvingAdd => ["shadd", "uhadd"],
        SatAdd => ["sqadd", "uqadd"],
        RoundingHalvingAdd => ["srhadd", "urhadd"],
        HalvingSub => ["shsub", "uhsub"],
        SatSub => ["sqsub", "uqsub"],
        CompareGreater => ["cmgt", "cmhi"],
        CompareGreaterEqual => ["cmge", "cmhs"],
        ShiftLeft => ["sshl", "ushl"],
        SatShiftLeft => ["sqshl", "uqshl"],
        RoundingShiftLeft => ["srshl", "urshl"],
        SatRoundingShiftLeft => ["sqrshl", "uqrshl"],
        Max => ["smax", "umax"],
        Min => ["smin", "umin"],
        AbsDiff => ["sabd", "uabd"],
        AbsDiffAcc => ["saba", "uaba"],
        MaxPairwise => ["smaxp", "umaxp"],
        MinPairwise => ["sminp", "uminp"],
        Add => return "add",
        Sub => return "sub",
        Test => return "cmtst",
        CompareEqual => return "cmeq",
        MulAcc => return "mla",
        MulSub => return "mls",
        Mul => return "mul",
        PolyMul => return "pmul",
        DoublingMulHigh => return "sqdmulh",
        RoundingDoublingMulHigh => return "sqrdmulh",
        AddPairwise => return "addp",
    };
    if unsigned {
        unsigned_name
    } else {
        signed_name
    }
}

fn fp_three_same_op_name(op: FpThreeSameOp) -> &'static str {
    use FpThreeSameOp::*;
    match op {
        MaxNum => "fmaxnm",
        MulAdd => "fmla",
        Add => "fadd",
        Mulx => "fmulx",
        CompareEqual => "fcmeq",
        Max => "fmax",
        RecipStep => "frecps",
        MinNum => "fminnm",
        MulSub => "fmls",
        Sub => "fsub",
        Min => "fmin",
        RsqrtStep => "frsqrts",
        MaxNumPairwise => "fmaxnmp",
        AddPairwise => "faddp",
        Mul => "fmul",
        CompareGreaterEqual => "fcmge",
        AbsCompareGreaterEqual => "facge",
        MaxPairwise => "fmaxp",
        Div => "fdiv",
        MinNumPairwise => "fminnmp",
        AbsDiff => "fabd",
        CompareGreater => "fcmgt",
        AbsCompareGreater => "facgt",
        MinPairwise => "fminp",
    }
}

/// Long, wide and narrowing-high forms, printed from the decoded form.
fn three_different(w: u32) -> Option<String> {
    let SimdInsn::ThreeDifferent { op, unsigned, scalar, q, size, rd, rn, rm } = decode_simd_fp(w)? else {
        return None;
    };
    let (q, size, rd, rn, rm) = (q as u32, size as u32, rd as u32, rn as u32, rm as u32);
    let name = three_different_name(op, unsigned);
    if scalar {
        return Some(format!("{name} {}{rd}, {}{rn}, {}{rm}", elem(size + 1), elem(size), elem(size)));
    }
    let name = format!("{name}{}", if q == 1 { "2" } else { "" });
    let wide = if size == 3 { "1q" } else { arrangement(size + 1, 1) };
    let narrow = arrangement(size, q);
    Some(match op {
        ThreeDifferentOp::AddWide | ThreeDifferentOp::SubWide => {
            format!("{name} {}, {}, {}", v(rd, wide), v(rn, wide), v(rm, narrow))
        }
        ThreeDifferentOp::AddHighNarrow | ThreeDifferentOp::SubHighNarrow => {
            format!("{name} {}, {}, {}", v(rd, narrow), v(rn, wide), v(rm, wide))
        }
        _ => format!("{name} {}, {}, {}", v(rd, wide), v(rn, narrow), v(rm, narrow)),
    })
}

fn three_different_name(op: ThreeDifferentOp, unsigned: bool) -> &'static str {
    const NAMES: [[&str; 2]; 15] = [
        ["saddl", "uaddl"],
        ["saddw", "uaddw"],
        ["ssubl", "usubl"],
        ["ssubw", "usubw"],
        ["addhn", "raddhn"],
        ["sabal", "uabal"],
        ["subhn", "rsubhn"],
        ["sabdl", "uabdl"],
        ["smlal", "umlal"],
        ["sqdmlal", ""],
        ["smlsl", "umlsl"],
        ["sqdmlsl", ""],
        ["smull", "umull"],
        ["sqdmull", ""],
        ["pmull", ""],
    ];
    NAMES[op as usize][unsigned as usize]
}

/// "Two-register miscellaneous", integer and floating point, printed from the decoded form.
fn two_register_misc(w: u32) -> Option<String> {
    match decode_simd_fp(w)? {
        SimdInsn::TwoRegMisc { op, unsigned, scalar, q, size, rd, rn } => {
            Some(integer_misc(op, unsigned, scalar, q as u32, size as u32, rd as u32, rn as u32))
        }
        SimdInsn::FpTwoRegMisc { op, unsigned, scalar, q, double, rd, rn } => {
            fp_two_register_misc(op, unsigned, scalar, q as u32, double as u32, rd as u32, rn as u32)
        }
        _ => None,
    }
}

fn integer_misc(op: MiscOp, unsigned: bool, scalar: bool, q: u32, size: u32, rd: u32, rn: u32) -> String {
    use MiscOp::*;
    let arr = arrangement(size, q);
    let o = |n| operand(n, scalar, elem(size), arr);
    let sign = |s: &'static str, u: &'static str| if unsigned { u } else { s };
    let suffix2 = if q == 1 { "2" } else { "" };
    let name = match op {
        Rev64 => "rev64",
        Rev32 => "rev32",
        Rev16 => "rev16",
        SatAccumulateOther => sign("suqadd", "usqadd"),
        CountLeadingSign => "cls",
        CountLeadingZeros => "clz",
        SatAbs => "sqabs",
        SatNeg => "sqneg",
        Abs => "abs",
        Neg => "neg",
        CompareGreaterZero | CompareGreaterEqualZero | CompareEqualZero | CompareLessEqualZero | CompareLessZero => {
            let name = ["cmgt", "cmge", "cmeq", "cmle", "cmlt"][op as usize - CompareGreaterZero as usize];
            return format!("{name} {}, {}, #0", o(rd), o(rn));
        }
        AddLongPairwise | AddAccLongPairwise => {
            let name = if op == AddLongPairwise { sign("saddlp", "uaddlp") } else { sign("sadalp", "uadalp") };
            return format!("{name} {}, {}", v(rd, arrangement(size + 1, q)), v(rn, arr));
        }
        PopCount | Not | ReverseBits => {
            let arr = if q == 1 { "16b" } else { "8b" };
            let name = ["cnt", "mvn", "rbit"][op as usize - PopCount as usize];
            return format!("{name} {}, {}", v(rd, arr), v(rn, arr));
        }
        ExtractNarrow | SatExtractUnsignedNarrow | SatExtractNarrow => {
            let name = match op {
                ExtractNarrow => "xtn",
                SatExtractUnsignedNarrow => "sqxtun",
                _ => sign("sqxtn", "uqxtn"),
            };
            if scalar {
                return format!("{name} {}{rd}, {}{rn}", elem(size), elem(size + 1));
            }
            return format!("{name}{suffix2} {}, {}", v(rd, arr), v(rn, arrangement(size + 1, 1)));
        }
        ShiftLeftLong => {
            return format!("shll{suffix2} {}, {}, #{}", v(rd, arrangement(size + 1, 1)), v(rn, arr), 8 << size);
        }
    };
    format!("{name} {}, {}", o(rd), o(rn))
}

fn fp_two_register_misc(op: FpMiscOp, unsigned: bool, scalar: bool, q: u32, sz: u32, rd: u32, rn: u32) -> Option<String> {
    use FpMiscOp::*;
    let suffix2 = if q == 1 { "2" } else { "" };
    let sign = if unsigned { "u" } else { "s" };
    let name = match op {
        Bfcvtn => return Some(format!("bfcvtn{suffix2} {}, {}", v(rd, arrangement(1, q)), v(rn, "4s"))),
        Narrow | NarrowOdd => {
            let name = if op == NarrowOdd { "fcvtxn" } else { "fcvtn" };
            if scalar {
                return Some(format!("{name} s{rd}, d{rn}"));
            }
            let (to, from) = if sz == 1 { (arrangement(2, q), "2d") } else { (arrangement(1, q), "4s") };
            return Some(format!("{name}{suffix2} {}, {}", v(rd, to), v(rn, from)));
        }
        Widen => {
            let (to, from) = if sz == 1 { ("2d", arrangement(2, q)) } else { ("4s", arrangement(1, q)) };
            return Some(format!("fcvtl{suffix2} {}, {}", v(rd, to), v(rn, from)));
        }
        Round(mode) => format!("frint{}", mode.letter()),
        RoundCurrent { exact } => (if exact { "frintx" } else { "frinti" }).to_string(),
        RoundToInt { bits64, exact } => {
            format!("frint{}{}", if bits64 { "64" } else { "32" }, if exact { "x" } else { "z" })
        }
        ToInt(mode) => format!("fcvt{}{sign}", mode.letter()),
        FromInt => format!("{sign}cvtf"),
        CompareGreaterZero => "fcmgt".into(),
        CompareGreaterEqualZero => "fcmge".into(),
        CompareEqualZero => "fcmeq".into(),
        CompareLessEqualZero => "fcmle".into(),
        CompareLessZero => "fcmlt".into(),
        Abs => "fabs".into(),
        Neg => "fneg".into(),
        UnsignedRecipEstimate => "urecpe".into(),
        UnsignedRsqrtEstimate => "ursqrte".into(),
        RecipEstimate => "frecpe".into(),
        RsqrtEstimate => "frsqrte".into(),
        RecipExponent => "frecpx".into(),
        Sqrt => "fsqrt".into(),
    };
    let (e, arr) = if matches!(op, UnsignedRecipEstimate | UnsignedRsqrtEstimate) {
        ("s", arrangement(2, q))
    } else {
        (if sz == 1 { "d" } else { "s" }, if scalar { "" } else { fp_arrangement(sz, q)? })
    };
    let o = |n| operand(n, scalar, e, arr);
    Some(if matches!(op, CompareGreaterZero | CompareGreaterEqualZero | CompareEqualZero | CompareLessEqualZero | CompareLessZero) {
        format!("{name} {}, {}, #0.0", o(rd), o(rn))
    } else {
        format!("{name} {}, {}", o(rd), o(rn))
    })
}

/// FP16 two-register miscellaneous (Armv8.2, printed only); `half` for the FP16 encodings (bits 21:17 = 11100).
fn fp_misc(w: u32, scalar: bool, half: bool) -> Option<String> {
    let (q, u, size, opcode) = (bit(w, 30), bit(w, 29), bits(w, 23, 22), bits(w, 16, 12));
    let size = if half { size & 2 } else { size };
    if half && (opcode == 22 || opcode == 23) {
        return None;
    }
    let (rn, rd) = (bits(w, 9, 5), bits(w, 4, 0));
    let (a, sz) = (size >> 1, size & 1);
    let suffix2 = if q == 1 { "2" } else { "" };
    match (u, opcode) {
        (0, 22) if size == 2 && !scalar => {
            return Some(format!(
                "bfcvtn{suffix2} {}, {}",
                v(rd, arrangement(1, q)),
                v(rn, "4s")
            ));
        }
        (_, 22) => {
            // FCVTN / FCVTXN narrow double to single (or single to half).
            let name = if u == 1 {
                if sz == 0 {
                    return None;
                }
                "fcvtxn"
            } else {
                "fcvtn"
            };
            if a == 1 {
                return None;
            }
            if scalar {
                return if u == 1 {
                    Some(format!("fcvtxn s{rd}, d{rn}"))
                } else {
                    None
                };
            }
            let (to, from) = if sz == 1 {
                (arrangement(2, q), "2d")
            } else {
                (arrangement(1, q), "4s")
            };
            return Some(format!("{name}{suffix2} {}, {}", v(rd, to), v(rn, from)));
        }
        (0, 23) => {
            if a == 1 || scalar {
                return None;
            }
            let (to, from) = if sz == 1 {
                ("2d", arrangement(2, q))
            } else {
                ("4s", arrangement(1, q))
            };
            return Some(format!("fcvtl{suffix2} {}, {}", v(rd, to), v(rn, from)));
        }
        _ => {}
    }
    let name = match (u, a, opcode) {
        (0, 0, 24) => "frintn",
        (0, 0, 25) => "frintm",
        (0, 0, 26) => "fcvtns",
        (0, 0, 27) => "fcvtms",
        (0, 0, 28) => "fcvtas",
        (0, 0, 29) => "scvtf",
        (0, 0, 30) => "frint32z",
        (0, 0, 31) => "frint64z",
        (0, 1, 12) => "fcmgt",
        (0, 1, 13) => "fcmeq",
        (0, 1, 14) => "fcmlt",
        (0, 1, 15) => "fabs",
        (0, 1, 24) => "frintp",
        (0, 1, 25) => "frintz",
        (0, 1, 26) => "fcvtps",
        (0, 1, 27) => "fcvtzs",
        (0, 1, 28) => "urecpe",
        (0, 1, 29) => "frecpe",
        (0, 1, 31) => "frecpx",
        (1, 0, 24) => "frinta",
        (1, 0, 25) => "frintx",
        (1, 0, 26) => "fcvtnu",
        (1, 0, 27) => "fcvtmu",
        (1, 0, 28) => "fcvtau",
        (1, 0, 29) => "ucvtf",
        (1, 0, 30) => "frint32x",
        (1, 0, 31) => "frint64x",
        (1, 1, 12) => "fcmge",
        (1, 1, 13) => "fcmle",
        (1, 1, 15) => "fneg",
        (1, 1, 25) => "frinti",
        (1, 1, 26) => "fcvtpu",
        (1, 1, 27) => "fcvtzu",
        (1, 1, 28) => "ursqrte",
        (1, 1, 29) => "frsqrte",
        (1, 1, 31) => "fsqrt",
        _ => return None,
    };
    let scalar_ok =
        matches!(opcode, 12..=14 | 26..=29) && !matches!(name, "urecpe" | "ursqrte") || name == "frecpx";
    let vector_ok = name != "frecpx";
    if scalar && !scalar_ok || !scalar && !vector_ok {
        return None;
    }
    let (e, arr) = if half {
        if matches!(
            name,
            "urecpe" | "ursqrte" | "frint32z" | "frint32x" | "frint64z" | "frint64x"
        ) {
            return None;
        }
        ("h", if scalar { "" } else { arrangement(1, q) })
    } else if name == "urecpe" || name == "ursqrte" {
        if sz == 1 {
            return None;
        }
        ("s", arrangement(2, q))
    } else {
        (
            if sz == 1 { "d" } else { "s" },
            if scalar { "" } else { fp_arrangement(sz, q)? },
        )
    };
    let o = |n| operand(n, scalar, e, arr);
    if (12..=14).contains(&opcode) {
        Some(format!("{name} {}, {}, #0.0", o(rd), o(rn)))
    } else {
        Some(format!("{name} {}, {}", o(rd), o(rn)))
    }
}

/// Reductions across lanes and scalar pairwise, printed from the decoded form.
fn reduction(w: u32) -> Option<String> {
    Some(match decode_simd_fp(w)? {
        SimdInsn::AcrossLanes { op, unsigned, q, size, rd, rn } => {
            let (q, size) = (q as u32, size as u32);
            let is_fp = matches!(op, ReduceOp::FMax | ReduceOp::FMin | ReduceOp::FMaxNm | ReduceOp::FMinNm);
            let sign = if is_fp || op == ReduceOp::Add { "" } else if unsigned { "u" } else { "s" };
            let (e, arr) = match (is_fp, size) {
                (true, 2) => ("s", "4s"),
                (true, _) => ("h", arrangement(1, q)),
                _ => (elem(size + (op == ReduceOp::AddLong) as u32), arrangement(size, q)),
            };
            format!("{sign}{}v {e}{rd}, {}", op.stem(), v(rn as u32, arr))
        }
        SimdInsn::PairwiseScalar { op, size, rd, rn } => {
            let (e, arr) = [("h", "2h"), ("s", "2s"), ("d", "2d")][size as usize - 1];
            format!("{}p {e}{rd}, {}", op.stem(), v(rn as u32, arr))
        }
        _ => return None,
    })
}

/// DUP, INS, UMOV, SMOV, printed from the decoded form.
fn copy(w: u32) -> Option<String> {
    let text = |size: u8, index: u8| (elem(size as u32), lane(index as u32));
    Some(match decode_simd_fp(w)? {
        SimdInsn::DupElement { scalar, q, size, index, rd, rn } => {
            let (e, index) = text(size, index);
            if scalar {
                format!("mov {e}{rd}, v{rn}.{e}{index}")
            } else {
                format!("dup {}, v{rn}.{e}{index}", v(rd as u32, arrangement(size as u32, q as u32)))
            }
        }
        SimdInsn::DupGeneral { q, size, rd, rn } => {
            format!("dup {}, {}", v(rd as u32, arrangement(size as u32, q as u32)), r(rn as u32, size == 3))
        }
        SimdInsn::InsElement { size, index, from, rd, rn } => {
            let (e, index) = text(size, index);
            format!("mov v{rd}.{e}{index}, v{rn}.{e}{}", lane(from as u32))
        }
        SimdInsn::InsGeneral { size, index, rd, rn } => {
            let (e, index) = text(size, index);
            format!("mov v{rd}.{e}{index}, {}", r(rn as u32, size == 3))
        }
        SimdInsn::MoveToGeneral { signed, sf, size, index, rd, rn } => {
            let (e, index) = text(size, index);
            let name = match (signed, size) {
                (true, _) => "smov",
                (false, 0 | 1) => "umov",
                _ => "mov",
            };
            format!("{name} {}, v{rn}.{e}{index}", r(rd as u32, sf))
        }
        _ => return None,
    })
}

/// "By element", printed from the decoded form; the later by-element forms (dot products,
/// FMLAL, FCMLA, BFloat16, int8 matrix multiply) read as `.inst` with a note.
fn indexed_element(w: u32) -> Option<String> {
    let Some(SimdInsn::ByElement { op, unsigned, scalar, q, size, index, rd, rn, rm }) = decode_simd_fp(w) else {
        let later = matches!((bit(w, 29), bits(w, 15, 12)), (0, 0 | 4 | 14 | 15) | (1, 1 | 3 | 5 | 7 | 8 | 11 | 12 | 14));
        return if later && bit(w, 28) == 0 { not_executed(w, LATER) } else { None };
    };
    let (q, size, rd, rn) = (q as u32, size as u32, rd as u32, rn as u32);
    let index = lane(index as u32);
    let name = match op {
        ElementOp::Fp(op) => {
            let e = ["h", "", "s", "d"][size as usize];
            let arr = match size {
                _ if scalar => "",
                0 => arrangement(1, q),
                _ => fp_arrangement(size & 1, q)?,
            };
            let o = |n| operand(n, scalar, e, arr);
            return Some(format!("{} {}, {}, v{rm}.{e}{index}", fp_three_same_op_name(op), o(rd), o(rn)));
        }
        ElementOp::Same(op) => three_same_name(op, false),
        ElementOp::Different(op) => three_different_name(op, unsigned),
        ElementOp::RoundingDoublingMulAccHigh { sub } => if sub { "sqrdmlsh" } else { "sqrdmlah" },
    };
    let e = elem(size);
    let long = matches!(op, ElementOp::Different(_));
    if scalar {
        let d = if long { elem(size + 1) } else { e };
        return Some(format!("{name} {d}{rd}, {e}{rn}, v{rm}.{e}{index}"));
    }
    let arr = arrangement(size, q);
    Some(if long {
        let suffix2 = if q == 1 { "2" } else { "" };
        format!("{name}{suffix2} {}, {}, v{rm}.{e}{index}", v(rd, arrangement(size + 1, 1)), v(rn, arr))
    } else {
        format!("{name} {}, {}, v{rm}.{e}{index}", v(rd, arr), v(rn, arr))
    })
}

/// UZP, TRN, ZIP, EXT, TBL, TBX, printed from the decoded form.
fn permute(w: u32) -> Option<String> {
    Some(match decode_simd_fp(w)? {
        SimdInsn::Permute { op, second, q, size, rd, rn, rm } => {
            let name = ["uzp", "trn", "zip"][op as usize];
            let arr = arrangement(size as u32, q as u32);
            let (rd, rn, rm) = (v(rd as u32, arr), v(rn as u32, arr), v(rm as u32, arr));
            format!("{name}{} {rd}, {rn}, {rm}", 1 + second as u8)
        }
        SimdInsn::Extract { q, index, rd, rn, rm } => {
            let arr = if q { "16b" } else { "8b" };
            let (rd, rn, rm) = (v(rd as u32, arr), v(rn as u32, arr), v(rm as u32, arr));
            format!("ext {rd}, {rn}, {rm}, {}", uimm(index as u64))
        }
        SimdInsn::Table { q, tbx, len, rd, rn, rm } => {
            let name = if tbx { "tbx" } else { "tbl" };
            let arr = if q { "16b" } else { "8b" };
            let list: Vec<String> = (0..len as u32).map(|i| v((rn as u32 + i) % 32, "16b")).collect();
            format!("{name} {}, {{{}}}, {}", v(rd as u32, arr), list.join(", "), v(rm as u32, arr))
        }
        _ => return None,
    })
}
