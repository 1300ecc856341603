//! Advanced SIMD "two-register miscellaneous" (bit 31 clear, bits 27..24 = 1110, bits 21..17 =
//! 10000, bits 11..10 = 10), vector and scalar: the integer operations and the floating-point
//! ones (conversions, rounding, compares with zero, estimates).

use super::simd_form::{FpMiscOp, MiscOp, RoundMode, SimdInsn};

#[inline(always)]
pub(crate) fn decode(w: u32) -> Option<SimdInsn> {
    let (q, unsigned, scalar) = (w >> 30 & 1 == 1, w >> 29 & 1 == 1, w >> 28 & 1 == 1);
    let (size, opcode) = (((w >> 22) & 3) as u8, (w >> 12) & 31);
    let (rd, rn) = ((w & 31) as u8, ((w >> 5) & 31) as u8);
    // Opcodes 01100..01111 and 10110 up are floating point.
    if opcode >= 0b10110 || (0b01100..=0b01111).contains(&opcode) {
        return floating_point(w, scalar, q, rd, rn);
    }
    use MiscOp::*;
    let op = match (unsigned, opcode) {
        (false, 0) => Rev64,
        (true, 0) => Rev32,
        (false, 1) => Rev16,
        (_, 2) => AddLongPairwise,
        (_, 3) => SatAccumulateOther,
        (false, 4) => CountLeadingSign,
        (true, 4) => CountLeadingZeros,
        (false, 5) if size == 0 => PopCount,
        (true, 5) if size == 0 => Not,
        (true, 5) if size == 1 => ReverseBits,
        (_, 6) => AddAccLongPairwise,
        (false, 7) => SatAbs,
        (true, 7) => SatNeg,
        (false, 8) => CompareGreaterZero,
        (true, 8) => CompareGreaterEqualZero,
        (false, 9) => CompareEqualZero,
        (true, 9) => CompareLessEqualZero,
        (false, 10) => CompareLessZero,
        (false, 11) => Abs,
        (true, 11) => Neg,
        (false, 18) => ExtractNarrow,
        (true, 18) => SatExtractUnsignedNarrow,
        (_, 20) => SatExtractNarrow,
        (true, 19) => ShiftLeftLong,
        _ => return None,
    };
    let allocated = match op {
        // Reversals within 64-, 32- and 16-bit containers of smaller elements.
        Rev64 => !scalar && size < 3,
        Rev32 => !scalar && size < 2,
        Rev16 => !scalar && size < 1,
        AddLongPairwise | AddAccLongPairwise | CountLeadingSign | CountLeadingZeros | ShiftLeftLong => {
            !scalar && size != 3
        }
        PopCount | Not | ReverseBits => !scalar,
        SatAccumulateOther | SatAbs | SatNeg => scalar || size != 3 || q,
        // The scalar compares with zero, ABS and NEG are 64-bit only.
        CompareGreaterZero | CompareGreaterEqualZero | CompareEqualZero | CompareLessEqualZero | CompareLessZero
        | Abs | Neg => if scalar { size == 3 } else { size != 3 || q },
        ExtractNarrow => !scalar && size != 3,
        SatExtractUnsignedNarrow | SatExtractNarrow => size != 3,
    };
    allocated.then_some(SimdInsn::TwoRegMisc { op, unsigned, scalar, q, size, rd, rn })
}

/// The FP opcodes, by U, a (bit 23) and opcode; sz (bit 22) picks double precision (or, for the
/// precision conversions, single to double rather than half to single).
#[inline(always)]
fn floating_point(w: u32, scalar: bool, q: bool, rd: u8, rn: u8) -> Option<SimdInsn> {
    use FpMiscOp::*;
    let (u, a, double, opcode) = (w >> 29 & 1 == 1, w >> 23 & 1 == 1, w >> 22 & 1 == 1, (w >> 12) & 31);
    let op = match (u, a, opcode) {
        (false, true, 22) if !double && !scalar => Bfcvtn,
        (false, false, 22) if !scalar => Narrow,
        (true, false, 22) if double => NarrowOdd,
        (false, false, 23) if !scalar => Widen,
        (false, false, 24) => Round(RoundMode::N),
        (false, false, 25) => Round(RoundMode::M),
        (false, true, 24) => Round(RoundMode::P),
        (false, true, 25) => Round(RoundMode::Z),
        (true, false, 24) => Round(RoundMode::A),
        (true, false, 25) => RoundCurrent { exact: true },
        (true, true, 25) => RoundCurrent { exact: false },
        (_, false, 26) => ToInt(RoundMode::N),
        (_, false, 27) => ToInt(RoundMode::M),
        (_, false, 28) => ToInt(RoundMode::A),
        (_, true, 26) => ToInt(RoundMode::P),
        (_, true, 27) => ToInt(RoundMode::Z),
        (_, false, 29) => FromInt,
        (_, false, 30 | 31) => RoundToInt { bits64: opcode == 31, exact: u },
        (false, true, 12) => CompareGreaterZero,
        (true, true, 12) => CompareGreaterEqualZero,
        (false, true, 13) => CompareEqualZero,
        (true, true, 13) => CompareLessEqualZero,
        (false, true, 14) => CompareLessZero,
        (false, true, 15) => Abs,
        (true, true, 15) => Neg,
        (false, true, 28) if !double => UnsignedRecipEstimate,
        (true, true, 28) if !double => UnsignedRsqrtEstimate,
        (false, true, 29) => RecipEstimate,
        (true, true, 29) => RsqrtEstimate,
        (false, true, 31) => RecipExponent,
        (true, true, 31) => Sqrt,
        _ => return None,
    };
    let scalar_form = matches!(
        op,
        NarrowOdd
            | ToInt(_)
            | FromInt
            | CompareGreaterZero
            | CompareGreaterEqualZero
            | CompareEqualZero
            | CompareLessEqualZero
            | CompareLessZero
            | RecipEstimate
            | RsqrtEstimate
            | RecipExponent
    );
    let vector_form = op != RecipExponent;
    // Vectors of doubles need Q = 1 (the precision conversions name their halves by Q instead).
    let lanes_fit = scalar || !double || q || matches!(op, Narrow | NarrowOdd | Widen);
    if scalar && !scalar_form || !scalar && !vector_form || !lanes_fit {
        return None;
    }
    Some(SimdInsn::FpTwoRegMisc { op, unsigned: u, scalar, q, double, rd, rn })
}
