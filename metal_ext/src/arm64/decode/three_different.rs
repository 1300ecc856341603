//! Advanced SIMD "three different" (bit 31 clear, bits 27..24 = 1110, bit 21 set, bits 11..10
//! clear), vector and scalar: the long, wide and narrowing-high forms.

use super::simd_form::{SimdInsn, ThreeDifferentOp};

#[inline(always)]
pub(crate) fn decode(w: u32) -> Option<SimdInsn> {
    let (q, unsigned, scalar) = (w >> 30 & 1 == 1, w >> 29 & 1 == 1, w >> 28 & 1 == 1);
    let (size, opcode) = (((w >> 22) & 3) as u8, (w >> 12) & 15);
    let (rd, rn, rm) = ((w & 31) as u8, ((w >> 5) & 31) as u8, ((w >> 16) & 31) as u8);
    use ThreeDifferentOp::*;
    let op = [
        AddLong,
        AddWide,
        SubLong,
        SubWide,
        AddHighNarrow,
        AbsDiffAccLong,
        SubHighNarrow,
        AbsDiffLong,
        MulAccLong,
        SatDoublingMulAccLong,
        MulSubLong,
        SatDoublingMulSubLong,
        MulLong,
        SatDoublingMulLong,
        PolyMulLong,
    ]
    .get(opcode as usize)
    .copied()?;
    let doubling = matches!(op, SatDoublingMulAccLong | SatDoublingMulSubLong | SatDoublingMulLong);
    let allocated = match op {
        // The scalar forms are the signed saturating doubling ones.
        _ if scalar => doubling && !unsigned && (size == 1 || size == 2),
        // PMULL on bytes, or on 64-bit lanes into 128 bits.
        PolyMulLong => !unsigned && (size == 0 || size == 3),
        _ if doubling => !unsigned && (size == 1 || size == 2),
        _ => size != 3,
    };
    allocated.then_some(SimdInsn::ThreeDifferent { op, unsigned, scalar, q, size, rd, rn, rm })
}
