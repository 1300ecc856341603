//! AdvSIMD modified immediate: MOVI, MVNI, ORR, BIC (vector, immediate) and FMOV (vector).

use super::fp_env::Fmt;
use super::fp_scalar::expand_fp_imm;
use super::lanes::{bit, field, rd, write_v};
use crate::arm64::state::CpuState;

/// AdvSIMDExpandImm: the 64-bit pattern that `op:cmode` makes of imm8.
fn expand(op: bool, cmode: u32, imm8: u64) -> Option<u64> {
    let twice = |x: u64| x | x << 32;
    let four = |x: u64| x * 0x0001_0001_0001_0001;
    Some(match cmode >> 1 {
        0..=3 => twice(imm8 << (8 * (cmode >> 1))),
        4 | 5 => four(imm8 << (8 * (cmode >> 1 & 1))),
        6 if cmode & 1 == 0 => twice(imm8 << 8 | 0xFF),
        6 => twice(imm8 << 16 | 0xFFFF),
        _ => match (cmode & 1, op) {
            (0, false) => imm8 * 0x0101_0101_0101_0101,
            (0, true) => (0..8).filter(|i| imm8 >> i & 1 == 1).fold(0, |acc, i| acc | 0xFF << (8 * i)),
            (_, false) => twice(expand_fp_imm(imm8 as u32, Fmt::S)),
            (_, true) => expand_fp_imm(imm8 as u32, Fmt::D),
        },
    })
}

pub fn execute(cpu: &mut CpuState, w: u32) -> Option<()> {
    let (q, op, cmode) = (bit(w, 30), bit(w, 29), field(w, 12, 4));
    if bit(w, 11) || (cmode == 0b1111 && op && !q) {
        return None;
    }
    let imm8 = (field(w, 16, 3) << 5 | field(w, 5, 5)) as u64;
    let imm = expand(op, cmode, imm8)?;
    let wide = imm as u128 | (imm as u128) << 64;
    let bits = if q { 128 } else { 64 };
    let d = rd(w);
    // ORR and BIC are the odd cmodes below 0b1100; the rest write the (inverted for MVNI) pattern.
    let r = if cmode < 0b1100 && cmode & 1 == 1 {
        if op {
            cpu.v[d] & !wide
        } else {
            cpu.v[d] | wide
        }
    } else if op && cmode < 0b1110 {
        !wide
    } else {
        wide
    };
    write_v(cpu, d, r, bits);
    Some(())
}
