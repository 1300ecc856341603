//! Advanced SIMD reductions (bit 21 set, bits 20..17 = 1000, bits 11..10 = 10): across lanes
//! (vector, bit 28 clear) and scalar pairwise (bit 28 set).

use super::simd_form::{ReduceOp, SimdInsn};

#[inline(always)]
pub(crate) fn decode(w: u32) -> Option<SimdInsn> {
    let (q, u, size, opcode) = (w >> 30 & 1 == 1, w >> 29 & 1 == 1, ((w >> 22) & 3) as u8, (w >> 12) & 31);
    let (rd, rn) = ((w & 31) as u8, ((w >> 5) & 31) as u8);
    let fp_op = |opcode: u32| match (opcode, size >> 1) {
        (12, 0) => Some(ReduceOp::FMaxNm),
        (12, _) => Some(ReduceOp::FMinNm),
        (13, 0) => Some(ReduceOp::FAdd),
        (15, 0) => Some(ReduceOp::FMax),
        (15, _) => Some(ReduceOp::FMin),
        _ => None,
    };
    if w >> 28 & 1 == 1 {
        // Scalar pairwise: ADDP of the two 64-bit lanes, or the FP forms, where U selects
        // single/double precision (by sz) or half precision.
        if !u && opcode == 27 {
            return if size == 3 { Some(SimdInsn::PairwiseScalar { op: ReduceOp::Add, size, rd, rn }) } else { None };
        }
        let op = fp_op(opcode)?;
        let size = match (u, size & 1) {
            (false, 0) => 1,
            (false, _) => return None,
            (true, 1) => 3,
            _ => 2,
        };
        return Some(SimdInsn::PairwiseScalar { op, size, rd, rn });
    }
    if opcode == 12 || opcode == 15 {
        // U selects single precision (4s only) or half precision.
        if size & 1 == 1 || u && !q {
            return None;
        }
        let op = fp_op(opcode)?;
        return Some(SimdInsn::AcrossLanes { op, unsigned: false, q, size: if u { 2 } else { 1 }, rd, rn });
    }
    let op = match (u, opcode) {
        (_, 3) => ReduceOp::AddLong,
        (_, 10) => ReduceOp::Max,
        (_, 26) => ReduceOp::Min,
        (false, 27) => ReduceOp::Add,
        _ => return None,
    };
    if size == 3 || size == 2 && !q {
        return None;
    }
    Some(SimdInsn::AcrossLanes { op, unsigned: u, q, size, rd, rn })
}
