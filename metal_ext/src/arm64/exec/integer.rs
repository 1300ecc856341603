//! Integer data processing (op0 = 100x and x101), executed from the decoded form: add/subtract
//! with or without carry, logical, moves, bitfields, extract, shifts, bit and byte reversal,
//! counting, division, multiply-accumulate, CRC32, conditional select and compare.

use super::alu::{add_with_carry, condition_holds, extend, extract, logic_flags, logical, shift, width, C_FLAG};
use crate::arm64::decode::{Insn, Operand, Unary};
use crate::arm64::state::CpuState;

/// Executes an integer data-processing instruction (none of them can fail).
#[inline]
pub fn execute(cpu: &mut CpuState, insn: &Insn) {
    match *insn {
        Insn::AddSub { sf, sub, flags, rd, rn, op } => {
            let y = operand(cpu, op, sf);
            let (r, nzcv) = add_with_carry(cpu.reg(rn), if sub { !y } else { y }, sub, sf);
            if flags {
                cpu.nzcv = nzcv;
            }
            cpu.set_reg(rd, r);
        }
        Insn::AddCarry { sf, sub, flags, rd, rn, rm } => {
            let y = if sub { !cpu.reg(rm) } else { cpu.reg(rm) };
            let (r, nzcv) = add_with_carry(cpu.reg(rn), y, cpu.nzcv & C_FLAG != 0, sf);
            if flags {
                cpu.nzcv = nzcv;
            }
            cpu.set_reg(rd, r);
        }
        Insn::Logic { sf, opc, invert, rd, rn, op } => {
            let y = operand(cpu, op, sf);
            let r = logical(opc as u32, cpu.reg(rn), if invert { !y } else { y }, sf);
            if opc == 3 {
                cpu.nzcv = logic_flags(r, sf);
            }
            cpu.set_reg(rd, r);
        }
        Insn::Const { rd, value, .. } => cpu.set_reg(rd, value),
        Insn::Insert { sf, rd, value, mask } => cpu.set_reg(rd, width((cpu.reg(rd) & !mask) | value, sf)),
        Insn::Bitfield { sf, opc, rd, rn, immr, imms, wmask, tmask } => {
            let src = width(cpu.reg(rn), sf);
            let dst = if opc == 1 { cpu.reg(rd) } else { 0 };
            let rotated = if sf { src.rotate_right(immr as u32) } else { (src as u32).rotate_right(immr as u32) as u64 };
            let bottom = (dst & !wmask) | (rotated & wmask);
            // SBFM fills above the field with its top bit; BFM keeps the destination; UBFM zeroes.
            let top = if opc == 0 { 0u64.wrapping_sub((src >> imms) & 1) } else { dst };
            cpu.set_reg(rd, width((top & !tmask) | (bottom & tmask), sf));
        }
        Insn::Extract { sf, rd, rn, rm, lsb } => cpu.set_reg(rd, extract(cpu.reg(rn), cpu.reg(rm), lsb as u32, sf)),
        Insn::ShiftVariable { sf, kind, rd, rn, rm } => {
            let amount = (width(cpu.reg(rm), sf) % if sf { 64 } else { 32 }) as u32;
            cpu.set_reg(rd, shift(width(cpu.reg(rn), sf), kind as u32, amount, sf));
        }
        Insn::Divide { sf, signed, rd, rn, rm } => {
            let (x, y) = (width(cpu.reg(rn), sf), width(cpu.reg(rm), sf));
            // Division by zero gives 0; the one overflowing quotient (MIN / -1) is MIN.
            let q = match (signed, sf) {
                (false, _) => x.checked_div(y).unwrap_or(0),
                (true, true) => (x as i64).checked_div(y as i64).map_or(if y == 0 { 0 } else { x }, |q| q as u64),
                (true, false) => (x as i32).checked_div(y as i32).map_or(if y == 0 { 0 } else { x }, |q| q as u32 as u64),
            };
            cpu.set_reg(rd, q);
        }
        Insn::Crc32 { castagnoli, bytes, rd, rn, rm } => {
            cpu.set_reg(rd, crc32(cpu.reg(rn) as u32, cpu.reg(rm), bytes as usize, castagnoli) as u64)
        }
        Insn::MultiplyAdd { sf, sub, rd, rn, rm, ra } => {
            let product = cpu.reg(rn).wrapping_mul(cpu.reg(rm));
            let a = cpu.reg(ra);
            cpu.set_reg(rd, width(if sub { a.wrapping_sub(product) } else { a.wrapping_add(product) }, sf));
        }
        Insn::MultiplyLong { signed, sub, rd, rn, rm, ra } => {
            let (n, m) = (cpu.reg(rn), cpu.reg(rm));
            let product = if signed {
                (n as i32 as i64).wrapping_mul(m as i32 as i64) as u64
            } else {
                (n as u32 as u64) * (m as u32 as u64)
            };
            let a = cpu.reg(ra);
            cpu.set_reg(rd, if sub { a.wrapping_sub(product) } else { a.wrapping_add(product) });
        }
        Insn::MultiplyHigh { signed, rd, rn, rm } => {
            let (n, m) = (cpu.reg(rn), cpu.reg(rm));
            let high = if signed {
                ((n as i64 as i128 * m as i64 as i128) >> 64) as u64
            } else {
                ((n as u128 * m as u128) >> 64) as u64
            };
            cpu.set_reg(rd, high);
        }
        Insn::Unary { sf, op, rd, rn } => cpu.set_reg(rd, unary(op, cpu.reg(rn), sf)),
        Insn::Select { sf, cond, invert, increment, rd, rn, rm } => {
            let r = if condition_holds(cond as u32, cpu.nzcv) {
                cpu.reg(rn)
            } else {
                let m = cpu.reg(rm);
                let m = if invert { !m } else { m };
                if increment {
                    m.wrapping_add(1)
                } else {
                    m
                }
            };
            cpu.set_reg(rd, width(r, sf));
        }
        Insn::CondCompare { sf, add, cond, nzcv, rn, op } => {
            cpu.nzcv = if condition_holds(cond as u32, cpu.nzcv) {
                let y = match op {
                    Operand::Shifted { rm, .. } | Operand::Extended { rm, .. } => cpu.reg(rm),
                    _ => op.immediate().expect("an immediate"),
                };
                add_with_carry(cpu.reg(rn), if add { y } else { !y }, !add, sf).1
            } else {
                (nzcv as u32) << 28
            };
        }
        _ => unreachable!("not integer data processing: {insn:?}"),
    }
}

/// The second operand of an add/subtract or logical instruction, at width.
#[inline(always)]
fn operand(cpu: &CpuState, op: Operand, sf: bool) -> u64 {
    match op {
        Operand::Imm(_) | Operand::ShiftedImm { .. } => op.immediate().expect("an immediate"),
        Operand::Shifted { rm, kind, amount } => shift(width(cpu.reg(rm), sf), kind as u32, amount as u32, sf),
        Operand::Extended { rm, option, lsl } => extend(cpu.reg(rm), option as u32, lsl as u32),
    }
}

/// RBIT, REV16, REV32, REV, CLZ, CLS.
fn unary(op: Unary, x: u64, sf: bool) -> u64 {
    let w = x as u32;
    match (op, sf) {
        (Unary::Rbit, true) => x.reverse_bits(),
        (Unary::Rbit, false) => w.reverse_bits() as u64,
        (Unary::Rev16, _) => width(((x >> 8) & 0x00FF_00FF_00FF_00FF) | ((x & 0x00FF_00FF_00FF_00FF) << 8), sf),
        (Unary::Rev, false) => w.swap_bytes() as u64,
        (Unary::Rev32, _) => (((x >> 32) as u32).swap_bytes() as u64) << 32 | w.swap_bytes() as u64,
        (Unary::Rev, true) => x.swap_bytes(),
        (Unary::Clz, true) => x.leading_zeros() as u64,
        (Unary::Clz, false) => w.leading_zeros() as u64,
        (Unary::Cls, true) => (((x as i64) ^ ((x as i64) >> 63)) as u64).leading_zeros() as u64 - 1,
        (Unary::Cls, false) => (((w as i32) ^ ((w as i32) >> 31)) as u32).leading_zeros() as u64 - 1,
    }
}

/// The CRC32/CRC32C update of the Arm ARM: reflected polynomials, no pre- or post-inversion.
fn crc32(mut crc: u32, data: u64, bytes: usize, castagnoli: bool) -> u32 {
    let poly = if castagnoli { 0x82F6_3B78 } else { 0xEDB8_8320 };
    for byte in data.to_le_bytes().iter().take(bytes) {
        crc ^= *byte as u32;
        for _ in 0..8 {
            crc = (crc >> 1) ^ (poly & 0u32.wrapping_sub(crc & 1));
        }
    }
    crc
}
