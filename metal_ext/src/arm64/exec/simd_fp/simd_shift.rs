//! AdvSIMD shifts by immediate (vector and scalar): plain, rounding, accumulating, inserting,
//! saturating, narrowing and lengthening shifts, and fixed-point conversions.

use super::fp_env::{with_fp_env, Fmt, Rounding, QC};
use super::lanes::{from_lanes, lane, map_lanes, ones, unzip, write_v, Shape};
use super::simd_int::{int_of, saturate};
use crate::arm64::decode::{ShiftImmOp, SimdInsn};
use crate::arm64::state::CpuState;

/// A shift by immediate, from the decoded form.
#[inline(always)]
pub fn execute(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    let SimdInsn::ShiftImm { op, unsigned, scalar, q, size, shift, rd, rn } = insn else {
        return None;
    };
    let (size, amount, signed) = (size as u32, shift as u32, !unsigned);
    let esize = 8 << size;
    let (va, vd) = (cpu.v[rn as usize], cpu.v[rd as usize]);
    let shape = if scalar { Shape::scalar(esize) } else { Shape::vector(size, q) };
    let mut qc = false;
    // Each arm instantiates its own lane loop, so the operation is chosen once per instruction.
    let result: (u128, u32) = match op {
        ShiftImmOp::ShiftRight { round, accumulate } => {
            let r = map_lanes(shape, va, 0, vd, |x, _, old| {
                let shifted = shift_right(int_of(x, esize, signed), amount, round) as u64;
                if accumulate {
                    old.wrapping_add(shifted)
                } else {
                    shifted
                }
            });
            (r, shape.bits())
        }
        ShiftImmOp::ShiftRightInsert => {
            let keep = !(ones(esize).checked_shr(amount).unwrap_or(0));
            let r = map_lanes(shape, va, 0, vd, |x, _, old| (old & keep) | x.checked_shr(amount).unwrap_or(0));
            (r, shape.bits())
        }
        ShiftImmOp::ShiftLeft => (map_lanes(shape, va, 0, vd, |x, _, _| x << amount), shape.bits()),
        ShiftImmOp::ShiftLeftInsert => {
            let r = map_lanes(shape, va, 0, vd, |x, _, old| (old & !(ones(esize) << amount)) | x << amount);
            (r, shape.bits())
        }
        ShiftImmOp::SatShiftLeft | ShiftImmOp::SatShiftLeftUnsigned => {
            let (from_signed, to_signed) = if op == ShiftImmOp::SatShiftLeft { (signed, signed) } else { (true, false) };
            let r = map_lanes(shape, va, 0, 0, |x, _, _| {
                saturate(int_of(x, esize, from_signed) << amount, esize, to_signed, &mut qc)
            });
            (r, shape.bits())
        }
        ShiftImmOp::ShiftRightNarrow { round }
        | ShiftImmOp::SatShiftRightNarrowUnsigned { round }
        | ShiftImmOp::SatShiftRightNarrow { round } => {
            // Shift each wide lane, then keep the low halves (the even narrow lanes).
            let wide = Shape { esize: 2 * esize, lanes: if scalar { 1 } else { (64 / esize) as usize } };
            let e2 = 2 * esize;
            let shifted = match op {
                ShiftImmOp::ShiftRightNarrow { .. } => {
                    map_lanes(wide, va, 0, 0, |x, _, _| shift_right(x as i128, amount, round) as u64)
                }
                ShiftImmOp::SatShiftRightNarrowUnsigned { .. } => map_lanes(wide, va, 0, 0, |x, _, _| {
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
        ShiftImmOp::ShiftLeftLong => {
            let src = if q { va >> 64 } else { va };
            let r = from_lanes((64 / esize) as usize, 2 * esize, |i| {
                (int_of(lane(src, i, esize), esize, signed) << amount) as u64
            });
            (r, 128)
        }
        // SCVTF, UCVTF, FCVTZS, FCVTZU with `amount` fraction bits; half precision (an
        // Armv8.2 feature) is undefined here.
        ShiftImmOp::FixedToFp | ShiftImmOp::FpToFixed => {
            if esize < 32 {
                return None;
            }
            let fmt = Fmt::of_bits(esize);
            let to_fp = op == ShiftImmOp::FixedToFp;
            let r = with_fp_env(cpu, |env| {
                let mode = env.rounding();
                map_lanes(shape, va, 0, 0, |x, _, _| {
                    if to_fp {
                        env.fixed_to_fp(fmt, x, amount, unsigned, esize, mode)
                    } else {
                        env.fp_to_fixed(fmt, x, amount, unsigned, esize, Rounding::Zero)
                    }
                })
            });
            (r, shape.bits())
        }
    };
    write_v(cpu, rd as usize, result.0, result.1);
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
