//! AdvSIMD shifts by immediate (vector and scalar): plain, rounding, accumulating, inserting,
//! saturating, narrowing and lengthening shifts, and fixed-point conversions.

use super::fp_env::{with_fp_env, Fmt, Rounding, QC};
use super::lanes::{bit, field, from_lanes, lane, map_lanes, ones, rd, rn, unzip, write_v, Shape};
use super::simd_int::{int_of, saturate};
use crate::arm64::state::CpuState;

pub fn execute(cpu: &mut CpuState, w: u32, scalar: bool) -> Option<()> {
    let (u, q, immh, opcode) = (bit(w, 29), bit(w, 30), field(w, 19, 4), field(w, 11, 5));
    debug_assert!(immh != 0);
    let size = 31 - immh.leading_zeros(); // log2(esize / 8)
    let esize = 8 << size;
    let immhb = field(w, 16, 7);
    let signed = !u;
    let (va, vd) = (cpu.v[rn(w)], cpu.v[rd(w)]);
    let shape = if scalar { Shape::scalar(esize) } else { Shape::vector(size, q) };
    let full_shape_ok = scalar || esize != 64 || q;
    let mut qc = false;
    let result: (u128, u32) = match (opcode, u) {
        (0b00000 | 0b00010 | 0b00100 | 0b00110, _) | (0b01000, true) | (0b01010, _) => {
            if !full_shape_ok || (scalar && esize != 64) {
                return None;
            }
            let left = opcode == 0b01010;
            let amount = if left { immhb - esize } else { 2 * esize - immhb };
            let round = opcode & 0b00100 != 0 && opcode != 0b01010;
            let accumulate = opcode & 0b00010 != 0 && opcode < 0b01000;
            let r = map_lanes(shape, va, 0, vd, |x, _, old| {
                match (opcode, u) {
                    (0b01000, _) => {
                        let keep = !(ones(esize).checked_shr(amount).unwrap_or(0));
                        (old & keep) | x.checked_shr(amount).unwrap_or(0)
                    }
                    (0b01010, false) => x << amount,
                    (0b01010, true) => (old & !(ones(esize) << amount)) | x << amount,
                    _ => {
                        let shifted = shift_right(int_of(x, esize, signed), amount, round) as u64;
                        if accumulate {
                            old.wrapping_add(shifted)
                        } else {
                            shifted
                        }
                    }
                }
            });
            (r, shape.bits())
        }
        // SQSHLU, SQSHL, UQSHL (immediate).
        (0b01100, true) | (0b01110, _) => {
            if !full_shape_ok {
                return None;
            }
            let amount = immhb - esize;
            let to_signed = opcode == 0b01110 && signed;
            let from_signed = signed || opcode == 0b01100;
            let r = map_lanes(shape, va, 0, 0, |x, _, _| {
                saturate(int_of(x, esize, from_signed) << amount, esize, to_signed, &mut qc)
            });
            (r, shape.bits())
        }
        // SHRN, RSHRN, SQSHRUN, SQRSHRUN, SQSHRN, UQSHRN, SQRSHRN, UQRSHRN.
        (0b10000..=0b10011, _) => {
            if esize == 64 || (scalar && opcode < 0b10010 && !u) {
                return None;
            }
            let amount = 2 * esize - immhb;
            let round = opcode & 1 == 1;
            // Shift each wide lane, then keep the low halves (the even narrow lanes).
            let wide = Shape { esize: 2 * esize, lanes: if scalar { 1 } else { (64 / esize) as usize } };
            let e2 = 2 * esize;
            let shifted = match (opcode >> 1 & 1, u) {
                (0, false) => map_lanes(wide, va, 0, 0, |x, _, _| shift_right(x as i128, amount, round) as u64),
                (0, true) => map_lanes(wide, va, 0, 0, |x, _, _| {
                    saturate(shift_right(int_of(x, e2, true), amount, round), esize, false, &mut qc)
                }),
                _ => map_lanes(wide, va, 0, 0, |x, _, _| {
                    saturate(shift_right(int_of(x, e2, signed), amount, round), esize, signed, &mut qc)
                }),
            };
            let narrowed = unzip(shifted, 0, Shape::vector(size, true), 0) & u64::MAX as u128;
            if scalar {
                (narrowed, esize)
            } else if q {
                ((vd & u64::MAX as u128) | narrowed << 64, 128)
            } else {
                (narrowed, 64)
            }
        }
        // SSHLL, USHLL (SXTL, UXTL when the shift is 0).
        (0b10100, _) => {
            if esize == 64 || scalar {
                return None;
            }
            let amount = immhb - esize;
            let src = if q { va >> 64 } else { va };
            let r = from_lanes((64 / esize) as usize, 2 * esize, |i| {
                (int_of(lane(src, i, esize), esize, signed) << amount) as u64
            });
            (r, 128)
        }
        // SCVTF, UCVTF, FCVTZS, FCVTZU with fbits = 2 * esize - immh:immb.
        (0b11100 | 0b11111, _) => {
            if esize < 32 || !full_shape_ok {
                return None;
            }
            let fbits = 2 * esize - immhb;
            let fmt = Fmt::of_bits(esize);
            let r = with_fp_env(cpu, |env| {
                let mode = env.rounding();
                map_lanes(shape, va, 0, 0, |x, _, _| {
                    if opcode == 0b11100 {
                        env.fixed_to_fp(fmt, x, fbits, u, esize, mode)
                    } else {
                        env.fp_to_fixed(fmt, x, fbits, u, esize, Rounding::Zero)
                    }
                })
            });
            (r, shape.bits())
        }
        _ => return None,
    };
    write_v(cpu, rd(w), result.0, result.1);
    if qc {
        cpu.fpsr |= QC;
    }
    Some(())
}

/// `x >> amount` (arithmetic on the exact value), rounding half up when `round`.
fn shift_right(x: i128, amount: u32, round: bool) -> i128 {
    let bias = if round && amount > 0 { 1i128 << (amount - 1) } else { 0 };
    (x + bias) >> amount
}
