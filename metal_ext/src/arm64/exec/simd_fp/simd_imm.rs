//! AdvSIMD modified immediate, executed from the decoded form: MOVI, MVNI, ORR, BIC (vector,
//! immediate) and FMOV (vector).

use super::fp_env::Fmt;
use super::fp_scalar::expand_fp_imm;
use super::lanes::write_v;
use crate::arm64::decode::{SimdInsn, VectorImmOp};
use crate::arm64::state::CpuState;

/// AdvSIMDExpandImm: the 64-bit pattern of the form's immediate; None for half-precision FMOV.
fn expand(op: VectorImmOp, esize: u8, shift: u8, msl: bool, imm8: u8) -> Option<u64> {
    let twice = |x: u64| x | x << 32;
    let imm8 = imm8 as u64;
    Some(match (op, esize) {
        (VectorImmOp::Fmov, 16) => return None,
        (VectorImmOp::Fmov, 32) => twice(expand_fp_imm(imm8 as u32, Fmt::S)),
        (VectorImmOp::Fmov, _) => expand_fp_imm(imm8 as u32, Fmt::D),
        (_, 8) => imm8 * 0x0101_0101_0101_0101,
        (_, 16) => (imm8 << shift) * 0x0001_0001_0001_0001,
        (_, 32) => twice(imm8 << shift | if msl { (1 << shift) - 1 } else { 0 }),
        _ => (0..8).filter(|i| imm8 >> i & 1 == 1).fold(0, |acc, i| acc | 0xFF << (8 * i)),
    })
}

pub fn execute(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    let SimdInsn::VectorImm { q, op, esize, shift, msl, imm8, rd } = insn else {
        return None;
    };
    let imm = expand(op, esize, shift, msl, imm8)?;
    let wide = imm as u128 | (imm as u128) << 64;
    let d = rd as usize;
    let r = match op {
        VectorImmOp::Orr => cpu.v[d] | wide,
        VectorImmOp::Bic => cpu.v[d] & !wide,
        VectorImmOp::Mvni => !wide,
        VectorImmOp::Movi | VectorImmOp::Fmov => wide,
    };
    write_v(cpu, d, r, if q { 128 } else { 64 });
    Some(())
}
