//! Advanced SIMD "by element" (bit 31 clear, bits 27..24 = 1111, bit 10 clear), vector and
//! scalar: the second operand is one element of Vm. The integer forms are the "three same" and
//! "three different" multiplies with that element; the FP ones FMLA, FMLS, FMUL, FMULX.

use super::simd_form::{ElementOp, FpThreeSameOp, SimdInsn, ThreeDifferentOp, ThreeSameOp};

#[inline(always)]
pub(crate) fn decode(w: u32) -> Option<SimdInsn> {
    let (q, unsigned, scalar) = (w >> 30 & 1 == 1, w >> 29 & 1 == 1, w >> 28 & 1 == 1);
    let (size, opcode) = (((w >> 22) & 3) as u8, (w >> 12) & 15);
    let (h, l, m) = ((w >> 11) & 1, (w >> 21) & 1, (w >> 20) & 1);
    let (rd, rn, rm4) = ((w & 31) as u8, ((w >> 5) & 31) as u8, ((w >> 16) & 15) as u8);
    use ElementOp::*;
    let op = match (unsigned, opcode) {
        (false, 1) => Fp(FpThreeSameOp::MulAdd),
        (false, 5) => Fp(FpThreeSameOp::MulSub),
        (false, 9) => Fp(FpThreeSameOp::Mul),
        (true, 9) => Fp(FpThreeSameOp::Mulx),
        (false, 8) => Same(ThreeSameOp::Mul),
        (true, 0) => Same(ThreeSameOp::MulAcc),
        (true, 4) => Same(ThreeSameOp::MulSub),
        (false, 12) => Same(ThreeSameOp::DoublingMulHigh),
        (false, 13) => Same(ThreeSameOp::RoundingDoublingMulHigh),
        (_, 2) => Different(ThreeDifferentOp::MulAccLong),
        (_, 6) => Different(ThreeDifferentOp::MulSubLong),
        (_, 10) => Different(ThreeDifferentOp::MulLong),
        (false, 3) => Different(ThreeDifferentOp::SatDoublingMulAccLong),
        (false, 7) => Different(ThreeDifferentOp::SatDoublingMulSubLong),
        (false, 11) => Different(ThreeDifferentOp::SatDoublingMulLong),
        (true, 13) => RoundingDoublingMulAccHigh { sub: false },
        (true, 15) => RoundingDoublingMulAccHigh { sub: true },
        _ => return None,
    };
    // The index is H:L:M with a 4-bit Rm for 16-bit elements, H:L for 32-bit and H for 64-bit
    // ones (L must be clear), with M the top bit of Rm.
    let (index, rm) = match (op, size) {
        (Fp(_), 0) | (Same(_) | Different(_) | RoundingDoublingMulAccHigh { .. }, 1) => (h << 2 | l << 1 | m, rm4),
        (_, 2) => (h << 1 | l, (m as u8) << 4 | rm4),
        (Fp(_), 3) if l == 0 => (h, (m as u8) << 4 | rm4),
        _ => return None,
    };
    let allocated = match op {
        // Vectors of doubles need Q = 1.
        Fp(_) => scalar || size != 3 || q,
        // The scalar integer forms are the saturating doubling ones.
        Same(ThreeSameOp::DoublingMulHigh | ThreeSameOp::RoundingDoublingMulHigh)
        | Different(
            ThreeDifferentOp::SatDoublingMulAccLong
            | ThreeDifferentOp::SatDoublingMulSubLong
            | ThreeDifferentOp::SatDoublingMulLong,
        )
        | RoundingDoublingMulAccHigh { .. } => true,
        _ => !scalar,
    };
    allocated.then_some(SimdInsn::ByElement { op, unsigned, scalar, q, size, index: index as u8, rd, rn, rm })
}
