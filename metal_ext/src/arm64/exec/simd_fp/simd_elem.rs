//! AdvSIMD "by element" operations, from the decoded form: the second operand is one lane of
//! Vm. Integer forms run as their "three same" or "three different" counterparts with that lane
//! broadcast; the FP ones are in `simd_float`.

use super::lanes::{broadcast, lane};
use super::simd_float;
use super::simd_int::{three_different_with, three_same_with};
use crate::arm64::decode::{ElementOp, SimdInsn};
use crate::arm64::state::CpuState;

pub fn execute(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    let SimdInsn::ByElement { op, unsigned, scalar, q, size, index, rd, rn, rm } = insn else {
        return None;
    };
    let esize = 8 << size;
    let element = || broadcast(lane(cpu.v[rm as usize], index as usize, esize), esize);
    match op {
        ElementOp::Fp(op) => simd_float::by_element(cpu, op, scalar, q, size, index, [rd, rn, rm]),
        ElementOp::Same(op) => {
            let vb = element();
            three_same_with(cpu, SimdInsn::ThreeSame { op, unsigned: false, scalar, q, size, rd, rn, rm }, vb)
        }
        ElementOp::Different(op) => {
            let vb = element();
            three_different_with(cpu, SimdInsn::ThreeDifferent { op, unsigned, scalar, q, size, rd, rn, rm }, vb)
        }
        // SQRDMLAH, SQRDMLSH are Armv8.1.
        ElementOp::RoundingDoublingMulAccHigh { .. } => None,
    }
}
