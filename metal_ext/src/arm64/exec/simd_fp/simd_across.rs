//! AdvSIMD reductions: across-lanes (ADDV, SADDLV, UADDLV, SMAXV, UMAXV, SMINV, UMINV and the FP
//! forms) and scalar pairwise (ADDP and the FP forms).

use super::lanes::{bit, field, lane, rd, rn, write_v, Shape};
use super::simd_float;
use super::simd_int::int_of;
use crate::arm64::state::CpuState;

pub fn across_lanes(cpu: &mut CpuState, w: u32) -> Option<()> {
    let (u, size, q, opcode) = (bit(w, 29), field(w, 22, 2), bit(w, 30), field(w, 12, 5));
    if opcode == 0b01100 || opcode == 0b01111 {
        return simd_float::across(cpu, w);
    }
    if size == 3 || (size == 2 && !q) {
        return None;
    }
    let shape = Shape::vector(size, q);
    let e = shape.esize;
    let va = cpu.v[rn(w)];
    let signed = !u;
    let values = (0..shape.lanes).map(|i| int_of(lane(va, i, e), e, signed));
    let (r, bits) = match (opcode, u) {
        (0b00011, _) => (values.sum::<i128>(), 2 * e),
        (0b01010, _) => (values.max()?, e),
        (0b11010, _) => (values.min()?, e),
        (0b11011, false) => (values.sum::<i128>(), e),
        _ => return None,
    };
    write_v(cpu, rd(w), r as u128, bits);
    Some(())
}

pub fn scalar_pairwise(cpu: &mut CpuState, w: u32) -> Option<()> {
    if field(w, 12, 5) != 0b11011 || bit(w, 29) {
        return simd_float::scalar_pairwise(cpu, w);
    }
    if field(w, 22, 2) != 3 {
        return None;
    }
    let va = cpu.v[rn(w)];
    write_v(cpu, rd(w), (lane(va, 0, 64).wrapping_add(lane(va, 1, 64))) as u128, 64);
    Some(())
}
