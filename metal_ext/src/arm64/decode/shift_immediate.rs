//! Advanced SIMD shifts by immediate, vector and scalar (bit 31 clear, bits 27..23 = 11110,
//! immh (bits 22..19) nonzero, bit 10 set): plain, rounding, accumulating, inserting,
//! saturating, narrowing and lengthening shifts, and the fixed-point conversions.

use super::simd_form::{ShiftImmOp, SimdInsn};

#[inline(always)]
pub(crate) fn decode(w: u32) -> Option<SimdInsn> {
    let (q, unsigned, scalar) = (w >> 30 & 1 == 1, w >> 29 & 1 == 1, w >> 28 & 1 == 1);
    let (immh, opcode) = ((w >> 19) & 15, (w >> 11) & 31);
    let (rd, rn) = ((w & 31) as u8, ((w >> 5) & 31) as u8);
    if immh == 0 {
        return None;
    }
    // immh's highest set bit gives the element size; immh:immb is the shift measured from it.
    let size = 31 - immh.leading_zeros();
    let esize = 8 << size;
    let immhb = (w >> 16) & 127;
    use ShiftImmOp::*;
    let op = match (unsigned, opcode) {
        (_, 0 | 2 | 4 | 6) => ShiftRight { round: opcode & 4 != 0, accumulate: opcode & 2 != 0 },
        (true, 8) => ShiftRightInsert,
        (false, 10) => ShiftLeft,
        (true, 10) => ShiftLeftInsert,
        (true, 12) => SatShiftLeftUnsigned,
        (_, 14) => SatShiftLeft,
        (false, 16 | 17) => ShiftRightNarrow { round: opcode & 1 == 1 },
        (true, 16 | 17) => SatShiftRightNarrowUnsigned { round: opcode & 1 == 1 },
        (_, 18 | 19) => SatShiftRightNarrow { round: opcode & 1 == 1 },
        (_, 20) => ShiftLeftLong,
        (_, 28) => FixedToFp,
        (_, 31) => FpToFixed,
        _ => return None,
    };
    let narrowing = matches!(op, ShiftRightNarrow { .. } | SatShiftRightNarrowUnsigned { .. } | SatShiftRightNarrow { .. });
    let long = op == ShiftLeftLong;
    let allocated = if narrowing || long {
        // The wide side holds elements of twice `esize`.
        size != 3 && !(scalar && (long || matches!(op, ShiftRightNarrow { .. })))
    } else if scalar {
        // Scalar shifts other than the saturating left ones and the conversions are 64-bit only.
        size == 3 || matches!(op, SatShiftLeft | SatShiftLeftUnsigned | FixedToFp | FpToFixed)
    } else {
        size != 3 || q
    };
    // The conversions have half, single and double precision lanes.
    if !allocated || matches!(op, FixedToFp | FpToFixed) && size == 0 {
        return None;
    }
    let left = matches!(op, ShiftLeft | ShiftLeftInsert | SatShiftLeftUnsigned | SatShiftLeft | ShiftLeftLong);
    let shift = if left { immhb - esize } else { 2 * esize - immhb } as u8;
    Some(SimdInsn::ShiftImm { op, unsigned, scalar, q, size: size as u8, shift, rd, rn })
}
