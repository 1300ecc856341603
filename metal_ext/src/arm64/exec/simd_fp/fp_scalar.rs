//! Scalar floating point (bits 28..24 = 1111x, bit 30 = 0): data processing with one, two and
//! three sources, compares, conditional compare and select, immediates, and conversions to and
//! from general registers and fixed point. `None` means the encoding is unallocated here.

use super::fp_env::{with_fp_env, Fmt, Rounding};
use super::lanes::{bit, field, rd, read_x, rm, rn, write_x};
use crate::arm64::exec::alu::condition_holds;
use crate::arm64::state::CpuState;

pub fn execute(cpu: &mut CpuState, w: u32) -> Option<()> {
    // Bit 31 is the register width (sf) of the conversions and must be 0 (M) elsewhere.
    let conversion = !bit(w, 24) && (!bit(w, 21) || field(w, 10, 6) == 0);
    if bit(w, 30) || bit(w, 29) || (bit(w, 31) && !conversion) {
        return None;
    }
    if field(w, 24, 5) == 0b11111 {
        return data_3src(cpu, w);
    }
    if !bit(w, 21) {
        return fixed_point(cpu, w);
    }
    match field(w, 10, 2) {
        0b01 => cond_compare(cpu, w),
        0b10 => data_2src(cpu, w),
        0b11 => cond_select(cpu, w),
        _ if bit(w, 12) => immediate(cpu, w),
        _ if bit(w, 13) => compare(cpu, w),
        _ if bit(w, 14) => data_1src(cpu, w),
        _ if field(w, 10, 6) == 0 => int_convert(cpu, w),
        _ => None,
    }
}

/// Single or double precision from `ftype` (bits 23..22); half precision arithmetic is not
/// part of the implemented architecture.
fn arith_fmt(w: u32) -> Option<Fmt> {
    match field(w, 22, 2) {
        0 => Some(Fmt::S),
        1 => Some(Fmt::D),
        _ => None,
    }
}

fn get(cpu: &CpuState, n: usize, fmt: Fmt) -> u64 {
    cpu.v[n] as u64 & super::lanes::ones(fmt.width())
}

/// Scalar writes clear the rest of the vector register.
fn put(cpu: &mut CpuState, d: usize, bits: u64) {
    cpu.v[d] = bits as u128;
}

fn data_1src(cpu: &mut CpuState, w: u32) -> Option<()> {
    let opcode = field(w, 15, 6);
    let (n, d) = (rn(w), rd(w));
    if opcode >> 2 == 0b0001 {
        // FCVT between precisions; half precision is allowed here as source or target.
        let of = |t| match t {
            0 => Some(Fmt::S),
            1 => Some(Fmt::D),
            3 => Some(Fmt::H),
            _ => None,
        };
        let (from, to) = (of(field(w, 22, 2))?, of(opcode & 3)?);
        if from == to {
            return None;
        }
        let a = get(cpu, n, from);
        let r = with_fp_env(cpu, |e| {
            let mode = e.rounding();
            e.convert(from, to, a, mode)
        });
        put(cpu, d, r);
        return Some(());
    }
    let fmt = arith_fmt(w)?;
    let a = get(cpu, n, fmt);
    let r = match opcode {
        0b000000 => a,
        0b000001 => a & !fmt.sign_bit(),
        0b000010 => a ^ fmt.sign_bit(),
        0b000011 => with_fp_env(cpu, |e| e.sqrt(fmt, a)),
        0b001000..=0b001111 => {
            let (mode, exact) = match opcode & 7 {
                0b000 => (Rounding::TiesEven, false),
                0b001 => (Rounding::PlusInf, false),
                0b010 => (Rounding::MinusInf, false),
                0b011 => (Rounding::Zero, false),
                0b100 => (Rounding::TiesAway, false),
                0b110 => (Rounding::from_rmode(cpu.fpcr >> 22), true),
                0b111 => (Rounding::from_rmode(cpu.fpcr >> 22), false),
                _ => return None,
            };
            with_fp_env(cpu, |e| e.round_int(fmt, a, mode, exact))
        }
        _ => return None,
    };
    put(cpu, d, r);
    Some(())
}

fn data_2src(cpu: &mut CpuState, w: u32) -> Option<()> {
    let fmt = arith_fmt(w)?;
    let (a, b) = (get(cpu, rn(w), fmt), get(cpu, rm(w), fmt));
    let r = with_fp_env(cpu, |e| {
        Some(match field(w, 12, 4) {
            0b0000 => e.mul(fmt, a, b),
            0b0001 => e.div(fmt, a, b),
            0b0010 => e.add(fmt, a, b, false),
            0b0011 => e.add(fmt, a, b, true),
            0b0100 => e.max_min(fmt, a, b, true),
            0b0101 => e.max_min(fmt, a, b, false),
            0b0110 => e.max_min_num(fmt, a, b, true),
            0b0111 => e.max_min_num(fmt, a, b, false),
            0b1000 => e.mul(fmt, a, b) ^ fmt.sign_bit(),
            _ => return None,
        })
    })?;
    put(cpu, rd(w), r);
    Some(())
}

/// FMADD, FMSUB, FNMADD, FNMSUB: negations are applied to the operands (NaNs included) before
/// the fused multiply-add, as the architecture specifies.
fn data_3src(cpu: &mut CpuState, w: u32) -> Option<()> {
    let fmt = arith_fmt(w)?;
    let (negate_addend, negate_product) = (bit(w, 21), bit(w, 21) != bit(w, 15));
    let s = fmt.sign_bit();
    let n = get(cpu, rn(w), fmt) ^ if negate_product { s } else { 0 };
    let m = get(cpu, rm(w), fmt);
    let a = get(cpu, field(w, 10, 5) as usize, fmt) ^ if negate_addend { s } else { 0 };
    let r = with_fp_env(cpu, |e| e.mul_add(fmt, a, n, m));
    put(cpu, rd(w), r);
    Some(())
}

fn compare(cpu: &mut CpuState, w: u32) -> Option<()> {
    let fmt = arith_fmt(w)?;
    if field(w, 14, 2) != 0 || field(w, 0, 3) != 0 {
        return None;
    }
    let a = get(cpu, rn(w), fmt);
    let b = if bit(w, 3) { 0 } else { get(cpu, rm(w), fmt) };
    let flags = with_fp_env(cpu, |e| e.compare(fmt, a, b, bit(w, 4)));
    cpu.nzcv = flags << 28;
    Some(())
}

fn cond_compare(cpu: &mut CpuState, w: u32) -> Option<()> {
    let fmt = arith_fmt(w)?;
    let flags = if condition_holds(field(w, 12, 4), cpu.nzcv) {
        let (a, b) = (get(cpu, rn(w), fmt), get(cpu, rm(w), fmt));
        with_fp_env(cpu, |e| e.compare(fmt, a, b, bit(w, 4)))
    } else {
        field(w, 0, 4)
    };
    cpu.nzcv = flags << 28;
    Some(())
}

fn cond_select(cpu: &mut CpuState, w: u32) -> Option<()> {
    let fmt = arith_fmt(w)?;
    let src = if condition_holds(field(w, 12, 4), cpu.nzcv) { rn(w) } else { rm(w) };
    let r = get(cpu, src, fmt);
    put(cpu, rd(w), r);
    Some(())
}

/// FMOV (scalar, immediate).
fn immediate(cpu: &mut CpuState, w: u32) -> Option<()> {
    let fmt = arith_fmt(w)?;
    if field(w, 5, 5) != 0 {
        return None;
    }
    put(cpu, rd(w), expand_fp_imm(field(w, 13, 8), fmt));
    Some(())
}

/// VFPExpandImm: imm8 = a:b:c:d:e:f:g:h as sign a, exponent NOT(b):b..b:c:d, fraction efgh0…
pub fn expand_fp_imm(imm8: u32, fmt: Fmt) -> u64 {
    let sign = (imm8 >> 7) as u64;
    let b = (imm8 >> 6) as u64 & 1;
    let exp_bits = fmt.width() - 1 - fmt.frac_bits();
    let replicated = if b == 1 { (1u64 << (exp_bits - 3)) - 1 } else { 0 };
    let exp = ((b ^ 1) << (exp_bits - 1)) | (replicated << 2) | ((imm8 >> 4) as u64 & 3);
    let frac = ((imm8 & 0xF) as u64) << (fmt.frac_bits() - 4);
    sign << (fmt.width() - 1) | exp << fmt.frac_bits() | frac
}

/// Conversions between FP and general registers, and FMOV (general).
fn int_convert(cpu: &mut CpuState, w: u32) -> Option<()> {
    let wide = bit(w, 31);
    let width = if wide { 64 } else { 32 };
    let (ftype, rmode, opcode) = (field(w, 22, 2), field(w, 19, 2), field(w, 16, 3));
    let (n, d) = (rn(w), rd(w));
    if opcode >= 0b110 {
        return fmov_general(cpu, w, wide, ftype, rmode);
    }
    let fmt = arith_fmt(w)?;
    let unsigned = opcode & 1 == 1;
    match opcode >> 1 {
        // FCVT{N,P,M,Z}{S,U}: the rounding mode is in the encoding.
        0b00 => {
            let a = get(cpu, n, fmt);
            let r = with_fp_env(cpu, |e| e.fp_to_fixed(fmt, a, 0, unsigned, width, Rounding::from_rmode(rmode)));
            write_x(cpu, d, r, wide);
        }
        0b01 if rmode == 0 => {
            let x = read_x(cpu, n);
            let r = with_fp_env(cpu, |e| {
                let mode = e.rounding();
                e.fixed_to_fp(fmt, x, 0, unsigned, width, mode)
            });
            put(cpu, d, r);
        }
        0b10 if rmode == 0 => {
            let a = get(cpu, n, fmt);
            let r = with_fp_env(cpu, |e| e.fp_to_fixed(fmt, a, 0, unsigned, width, Rounding::TiesAway));
            write_x(cpu, d, r, wide);
        }
        _ => return None,
    }
    Some(())
}

fn fmov_general(cpu: &mut CpuState, w: u32, wide: bool, ftype: u32, rmode: u32) -> Option<()> {
    let to_fp = bit(w, 16);
    let (n, d) = (rn(w), rd(w));
    match (wide, ftype, rmode) {
        (false, 0b00, 0b00) | (true, 0b01, 0b00) => {
            if to_fp {
                let x = read_x(cpu, n);
                put(cpu, d, if wide { x } else { x & 0xFFFF_FFFF });
            } else {
                write_x(cpu, d, cpu.v[n] as u64, wide);
            }
        }
        // The upper 64 bits of a vector register, V.D[1].
        (true, 0b10, 0b01) => {
            if to_fp {
                let x = read_x(cpu, n);
                cpu.v[d] = (cpu.v[d] & u64::MAX as u128) | (x as u128) << 64;
            } else {
                write_x(cpu, d, (cpu.v[n] >> 64) as u64, true);
            }
        }
        _ => return None,
    }
    Some(())
}

/// SCVTF/UCVTF/FCVTZS/FCVTZU with a fixed-point scale (fbits = 64 - scale).
fn fixed_point(cpu: &mut CpuState, w: u32) -> Option<()> {
    let fmt = arith_fmt(w)?;
    let wide = bit(w, 31);
    let width = if wide { 64 } else { 32 };
    let scale = field(w, 10, 6);
    if !wide && scale < 32 {
        return None;
    }
    let fbits = 64 - scale;
    let (n, d) = (rn(w), rd(w));
    match (field(w, 19, 2), field(w, 16, 3)) {
        (0b00, op @ (0b010 | 0b011)) => {
            let x = read_x(cpu, n);
            let r = with_fp_env(cpu, |e| {
                let mode = e.rounding();
                e.fixed_to_fp(fmt, x, fbits, op == 0b011, width, mode)
            });
            put(cpu, d, r);
        }
        (0b11, op @ (0b000 | 0b001)) => {
            let a = get(cpu, n, fmt);
            let r = with_fp_env(cpu, |e| e.fp_to_fixed(fmt, a, fbits, op == 0b001, width, Rounding::Zero));
            write_x(cpu, d, r, wide);
        }
        _ => return None,
    }
    Some(())
}
