//! AdvSIMD "by element" operations: the second operand is one lane of Vm. Integer forms run as
//! their "three same" or "three different" counterparts with that lane broadcast.

use super::lanes::{bit, broadcast, field, lane};
use super::simd_float;
use super::simd_int::{three_different_with, three_same_with};
use crate::arm64::decode::decode_simd_fp;
use crate::arm64::state::CpuState;

pub fn execute(cpu: &mut CpuState, w: u32, scalar: bool) -> Option<()> {
    let (u, size, opcode) = (bit(w, 29), field(w, 22, 2), field(w, 12, 4));
    if matches!((u, opcode), (false, 0b0001 | 0b0101 | 0b1001) | (true, 0b1001)) {
        return simd_float::by_element(cpu, w, scalar);
    }
    let (h, l, m) = (field(w, 11, 1), field(w, 21, 1), field(w, 20, 1));
    let (index, reg) = match size {
        1 => ((h << 2 | l << 1 | m) as usize, field(w, 16, 4) as usize),
        2 => ((h << 1 | l) as usize, field(w, 16, 5) as usize),
        _ => return None,
    };
    let esize = 8 << size;
    let x = lane(cpu.v[reg], index, esize);
    let broadcast = broadcast(x, esize);
    // The equivalent encoding: same Q, U, size, Rn, Rd; the group's opcode in its own field.
    let base = w & 0x60C0_03FF;
    let group = if scalar { 0b11110 } else { 0b01110 } << 24 | 1 << 21;
    let (same, different) = (|op: u32, u: u32| base & !(1 << 29) | u << 29 | group | op << 11 | 1 << 10, |op: u32| base | group | op << 12);
    match (u, opcode) {
        (false, 0b1000) if !scalar => three_same_with(cpu, decode_simd_fp(same(0b10011, 0))?, broadcast),
        (true, 0b0000) if !scalar => three_same_with(cpu, decode_simd_fp(same(0b10010, 0))?, broadcast),
        (true, 0b0100) if !scalar => three_same_with(cpu, decode_simd_fp(same(0b10010, 1))?, broadcast),
        (false, 0b1100) => three_same_with(cpu, decode_simd_fp(same(0b10110, 0))?, broadcast),
        (false, 0b1101) => three_same_with(cpu, decode_simd_fp(same(0b10110, 1))?, broadcast),
        (_, 0b0010) if !scalar => three_different_with(cpu, decode_simd_fp(different(0b1000))?, broadcast),
        (_, 0b0110) if !scalar => three_different_with(cpu, decode_simd_fp(different(0b1010))?, broadcast),
        (_, 0b1010) if !scalar => three_different_with(cpu, decode_simd_fp(different(0b1100))?, broadcast),
        (false, 0b0011) => three_different_with(cpu, decode_simd_fp(different(0b1001))?, broadcast),
        (false, 0b0111) => three_different_with(cpu, decode_simd_fp(different(0b1011))?, broadcast),
        (false, 0b1011) => three_different_with(cpu, decode_simd_fp(different(0b1101))?, broadcast),
        _ => None,
    }
}
