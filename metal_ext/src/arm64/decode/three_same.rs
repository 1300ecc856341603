//! Advanced SIMD "three same" (bit 31 clear, bits 27..24 = 1110, bits 21 and 10 set), vector
//! and scalar: the integer operations, the bitwise logic (opcode 00011) and the floating-point
//! operations (opcodes 11xxx).

use super::simd_form::{BitwiseOp, FpThreeSameOp, SimdInsn, ThreeSameOp};

#[inline(always)]
pub(crate) fn decode(w: u32) -> Option<SimdInsn> {
    let (q, unsigned, scalar) = (w >> 30 & 1 == 1, w >> 29 & 1 == 1, w >> 28 & 1 == 1);
    let (size, opcode) = (((w >> 22) & 3) as u8, (w >> 11) & 31);
    let (rd, rn, rm) = ((w & 31) as u8, ((w >> 5) & 31) as u8, ((w >> 16) & 31) as u8);
    if opcode >= 0b11000 {
        return floating_point(w, scalar, q, [rd, rn, rm]);
    }
    if opcode == 0b00011 {
        // Bitwise logic on whole registers: U and size select the operation.
        let op = [
            BitwiseOp::And,
            BitwiseOp::Bic,
            BitwiseOp::Orr,
            BitwiseOp::Orn,
            BitwiseOp::Eor,
            BitwiseOp::Bsl,
            BitwiseOp::Bit,
            BitwiseOp::Bif,
        ][(unsigned as usize) << 2 | size as usize];
        return (!scalar).then_some(SimdInsn::Bitwise { op, q, rd, rn, rm });
    }
    use ThreeSameOp::*;
    let op = match (opcode, unsigned) {
        (0, _) => HalvingAdd,
        (1, _) => SatAdd,
        (2, _) => RoundingHalvingAdd,
        (4, _) => HalvingSub,
        (5, _) => SatSub,
        (6, _) => CompareGreater,
        (7, _) => CompareGreaterEqual,
        (8, _) => ShiftLeft,
        (9, _) => SatShiftLeft,
        (10, _) => RoundingShiftLeft,
        (11, _) => SatRoundingShiftLeft,
        (12, _) => Max,
        (13, _) => Min,
        (14, _) => AbsDiff,
        (15, _) => AbsDiffAcc,
        (16, false) => Add,
        (16, true) => Sub,
        (17, false) => Test,
        (17, true) => CompareEqual,
        (18, false) => MulAcc,
        (18, true) => MulSub,
        (19, false) => Mul,
        (19, true) => PolyMul,
        (20, _) => MaxPairwise,
        (21, _) => MinPairwise,
        (22, false) => DoublingMulHigh,
        (22, true) => RoundingDoublingMulHigh,
        (23, false) => AddPairwise,
        _ => return None,
    };
    // Which element sizes each operation has: the scalar forms are the saturating ones (any
    // size), the doubling multiplies, and a few more on 64-bit elements only.
    let allocated = match op {
        SatAdd | SatSub | SatShiftLeft | SatRoundingShiftLeft => true,
        CompareGreater | CompareGreaterEqual | ShiftLeft | RoundingShiftLeft | Add | Sub | Test | CompareEqual => {
            !scalar || size == 3
        }
        DoublingMulHigh | RoundingDoublingMulHigh => size == 1 || size == 2,
        _ if scalar => false,
        PolyMul => size == 0,
        AddPairwise => true,
        _ => size != 3,
    };
    // 64-bit elements need a full vector.
    if !allocated || !scalar && size == 3 && !q {
        return None;
    }
    Some(SimdInsn::ThreeSame { op, unsigned, scalar, q, size, rd, rn, rm })
}

/// The FP opcodes, keyed by U, a (bit 23) and opcode<2:0>; sz (bit 22) picks double precision.
#[inline(always)]
fn floating_point(w: u32, scalar: bool, q: bool, [rd, rn, rm]: [u8; 3]) -> Option<SimdInsn> {
    use FpThreeSameOp::*;
    let double = w >> 22 & 1 == 1;
    let op = match (w >> 29 & 1, w >> 23 & 1, (w >> 11) & 7) {
        (0, 0, 0) => MaxNum,
        (0, 0, 1) => MulAdd,
        (0, 0, 2) => Add,
        (0, 0, 3) => Mulx,
        (0, 0, 4) => CompareEqual,
        (0, 0, 6) => Max,
        (0, 0, 7) => RecipStep,
        (0, 1, 0) => MinNum,
        (0, 1, 1) => MulSub,
        (0, 1, 2) => Sub,
        (0, 1, 6) => Min,
        (0, 1, 7) => RsqrtStep,
        (1, 0, 0) => MaxNumPairwise,
        (1, 0, 2) => AddPairwise,
        (1, 0, 3) => Mul,
        (1, 0, 4) => CompareGreaterEqual,
        (1, 0, 5) => AbsCompareGreaterEqual,
        (1, 0, 6) => MaxPairwise,
        (1, 0, 7) => Div,
        (1, 1, 0) => MinNumPairwise,
        (1, 1, 2) => AbsDiff,
        (1, 1, 4) => CompareGreater,
        (1, 1, 5) => AbsCompareGreater,
        (1, 1, 6) => MinPairwise,
        _ => return None,
    };
    let scalar_form = matches!(
        op,
        Mulx | CompareEqual | RecipStep | RsqrtStep | CompareGreaterEqual | AbsCompareGreaterEqual | AbsDiff
            | CompareGreater | AbsCompareGreater
    );
    // Vectors of doubles need Q = 1.
    if scalar && !scalar_form || !scalar && double && !q {
        return None;
    }
    Some(SimdInsn::FpThreeSame { op, scalar, q, double, rd, rn, rm })
}
