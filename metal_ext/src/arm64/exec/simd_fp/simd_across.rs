//! AdvSIMD reductions, executed from the decoded form: across-lanes (ADDV, SADDLV, UADDLV, SMAXV,
//! UMAXV, SMINV, UMINV and the FP forms) and scalar pairwise (ADDP and the FP forms).

use super::lanes::{lane, write_v, Shape};
use super::simd_float;
use super::simd_int::int_of;
use crate::arm64::decode::{ReduceOp, SimdInsn};
use crate::arm64::state::CpuState;

pub fn execute(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    match insn {
        SimdInsn::AcrossLanes { op, unsigned, q, size, rd, rn } => {
            let (rd, rn) = (rd as usize, rn as usize);
            if let ReduceOp::FMax | ReduceOp::FMin | ReduceOp::FMaxNm | ReduceOp::FMinNm = op {
                // Half precision is not part of the implemented architecture.
                return if size == 2 { simd_float::across(cpu, op, rd, rn) } else { None };
            }
            let shape = Shape::vector(size as u32, q);
            let e = shape.esize;
            let va = cpu.v[rn];
            let values = (0..shape.lanes).map(|i| int_of(lane(va, i, e), e, !unsigned));
            let (r, bits) = match op {
                ReduceOp::AddLong => (values.sum::<i128>(), 2 * e),
                ReduceOp::Max => (values.max()?, e),
                ReduceOp::Min => (values.min()?, e),
                _ => (values.sum::<i128>(), e),
            };
            write_v(cpu, rd, r as u128, bits);
        }
        SimdInsn::PairwiseScalar { op: ReduceOp::Add, rd, rn, .. } => {
            let va = cpu.v[rn as usize];
            write_v(cpu, rd as usize, (lane(va, 0, 64).wrapping_add(lane(va, 1, 64))) as u128, 64);
        }
        SimdInsn::PairwiseScalar { op, size, rd, rn } if size >= 2 => {
            simd_float::scalar_pairwise(cpu, op, size == 3, rd as usize, rn as usize)
        }
        _ => return None,
    }
    Some(())
}
