//! Data processing on registers (op0 = x101): logical and add/subtract with shifted or extended
//! operands, add/subtract with carry, conditional compare and select, and the 1-, 2- and
//! 3-source operations (bit reversal, division, variable shifts, CRC32, multiply-accumulate).

use super::alu::{add_with_carry, condition_holds, extend, logic_flags, logical, shift, width};
use super::Exception;
use crate::arm64::state::CpuState;

#[inline(never)]
pub fn execute(cpu: &mut CpuState, word: u32, pc: u64) -> Result<(), Exception> {
    let sf = word >> 31 == 1;
    let rd = word & 31;
    let rn = (word >> 5) & 31;
    let rm = (word >> 16) & 31;
    let undefined = || Exception::undefined(pc, word);
    let op2 = (word >> 21) & 15;
    if word & (1 << 28) == 0 {
        if word & (1 << 24) == 0 {
            return logical_shifted(cpu, word, pc);
        }
        return if op2 & 1 == 0 { add_sub_shifted(cpu, word, pc) } else { add_sub_extended(cpu, word, pc) };
    }
    let subtract = word & (1 << 30) != 0;
    let set_flags = word & (1 << 29) != 0;
    match op2 {
        0 => {
            // ADC, ADCS, SBC, SBCS (bits 15..10 non-zero are the FEAT_FlagM forms)
            if (word >> 10) & 63 != 0 {
                return Err(undefined());
            }
            let y = if subtract { !cpu.xr(rm) } else { cpu.xr(rm) };
            let (r, nzcv) = add_with_carry(cpu.xr(rn), y, cpu.nzcv & super::alu::C_FLAG != 0, sf);
            if set_flags {
                cpu.nzcv = nzcv;
            }
            cpu.set_xr(rd, r);
        }
        2 => {
            // CCMN, CCMP (register or 5-bit immediate)
            if !set_flags || word & (1 << 10) != 0 || word & (1 << 4) != 0 {
                return Err(undefined());
            }
            cpu.nzcv = if condition_holds((word >> 12) & 15, cpu.nzcv) {
                let y = if word & (1 << 11) != 0 { rm as u64 } else { cpu.xr(rm) };
                let y = if subtract { !y } else { y };
                add_with_carry(cpu.xr(rn), y, subtract, sf).1
            } else {
                (word & 15) << 28
            };
        }
        4 => {
            // CSEL, CSINC, CSINV, CSNEG
            let op = (word >> 10) & 3;
            if set_flags || op > 1 {
                return Err(undefined());
            }
            let r = if condition_holds((word >> 12) & 15, cpu.nzcv) {
                cpu.xr(rn)
            } else {
                let m = cpu.xr(rm);
                match (subtract, op) {
                    (false, 0) => m,
                    (false, _) => m.wrapping_add(1),
                    (true, 0) => !m,
                    (true, _) => m.wrapping_neg(),
                }
            };
            cpu.set_xr(rd, width(r, sf));
        }
        6 => {
            if set_flags {
                return Err(undefined());
            }
            let r = if subtract { one_source(cpu.xr(rn), word, sf) } else { two_source(cpu, word, sf) };
            cpu.set_xr(rd, r.ok_or_else(undefined)?);
        }
        8..=15 => {
            let product = three_source(cpu, word, sf).ok_or_else(undefined)?;
            cpu.set_xr(rd, product);
        }
        _ => return Err(undefined()),
    }
    Ok(())
}

fn logical_shifted(cpu: &mut CpuState, word: u32, pc: u64) -> Result<(), Exception> {
    let sf = word >> 31 == 1;
    let amount = (word >> 10) & 63;
    if !sf && amount >= 32 {
        return Err(Exception::undefined(pc, word));
    }
    let y = shift(width(cpu.xr((word >> 16) & 31), sf), (word >> 22) & 3, amount, sf);
    let y = if word & (1 << 21) != 0 { !y } else { y };
    let x = cpu.xr((word >> 5) & 31);
    let opc = (word >> 29) & 3;
    let r = logical(opc, x, y, sf);
    if opc == 3 {
        cpu.nzcv = logic_flags(r, sf);
    }
    cpu.set_xr(word & 31, r);
    Ok(())
}

fn add_sub_shifted(cpu: &mut CpuState, word: u32, pc: u64) -> Result<(), Exception> {
    let sf = word >> 31 == 1;
    let kind = (word >> 22) & 3;
    let amount = (word >> 10) & 63;
    if kind == 3 || (!sf && amount >= 32) {
        return Err(Exception::undefined(pc, word));
    }
    let y = shift(width(cpu.xr((word >> 16) & 31), sf), kind, amount, sf);
    let subtract = word & (1 << 30) != 0;
    let (r, nzcv) = add_with_carry(cpu.xr((word >> 5) & 31), if subtract { !y } else { y }, subtract, sf);
    if word & (1 << 29) != 0 {
        cpu.nzcv = nzcv;
    }
    cpu.set_xr(word & 31, r);
    Ok(())
}

fn add_sub_extended(cpu: &mut CpuState, word: u32, pc: u64) -> Result<(), Exception> {
    let sf = word >> 31 == 1;
    let lsl = (word >> 10) & 7;
    if (word >> 22) & 3 != 0 || lsl > 4 {
        return Err(Exception::undefined(pc, word));
    }
    let y = extend(cpu.xr((word >> 16) & 31), (word >> 13) & 7, lsl);
    let subtract = word & (1 << 30) != 0;
    let (r, nzcv) = add_with_carry(cpu.xr_sp((word >> 5) & 31), if subtract { !y } else { y }, subtract, sf);
    if word & (1 << 29) != 0 {
        cpu.nzcv = nzcv;
        cpu.set_xr(word & 31, r);
    } else {
        cpu.set_xr_sp(word & 31, r);
    }
    Ok(())
}

/// RBIT, REV16, REV32, REV, CLZ, CLS; None for other opcodes.
fn one_source(x: u64, word: u32, sf: bool) -> Option<u64> {
    if (word >> 16) & 31 != 0 {
        return None;
    }
    let w = x as u32;
    Some(match ((word >> 10) & 63, sf) {
        (0, true) => x.reverse_bits(),
        (0, false) => w.reverse_bits() as u64,
        (1, _) => width(((x >> 8) & 0x00FF_00FF_00FF_00FF) | ((x & 0x00FF_00FF_00FF_00FF) << 8), sf),
        (2, false) => w.swap_bytes() as u64,
        (2, true) => (((x >> 32) as u32).swap_bytes() as u64) << 32 | w.swap_bytes() as u64,
        (3, true) => x.swap_bytes(),
        (4, true) => x.leading_zeros() as u64,
        (4, false) => w.leading_zeros() as u64,
        (5, true) => (((x as i64) ^ ((x as i64) >> 63)) as u64).leading_zeros() as u64 - 1,
        (5, false) => (((w as i32) ^ ((w as i32) >> 31)) as u32).leading_zeros() as u64 - 1,
        _ => return None,
    })
}

/// UDIV, SDIV, LSLV, LSRV, ASRV, RORV, CRC32*; None for other opcodes.
fn two_source(cpu: &CpuState, word: u32, sf: bool) -> Option<u64> {
    let x = width(cpu.xr((word >> 5) & 31), sf);
    let y = width(cpu.xr((word >> 16) & 31), sf);
    let opcode = (word >> 10) & 63;
    Some(match opcode {
        2 => x.checked_div(y).unwrap_or(0),
        3 if sf => (x as i64).checked_div(y as i64).map_or(if y == 0 { 0 } else { x }, |q| q as u64),
        3 => (x as i32).checked_div(y as i32).map_or(if y == 0 { 0 } else { x }, |q| q as u32 as u64),
        8..=11 => shift(x, opcode - 8, (y % if sf { 64 } else { 32 }) as u32, sf),
        16..=23 => {
            let bytes = 1usize << (opcode & 3);
            if (bytes == 8) != sf {
                return None;
            }
            crc32(x as u32, y, bytes, opcode & 4 != 0) as u64
        }
        _ => return None,
    })
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

/// MADD, MSUB, SMADDL, SMSUBL, SMULH, UMADDL, UMSUBL, UMULH; None for other encodings.
fn three_source(cpu: &CpuState, word: u32, sf: bool) -> Option<u64> {
    let n = cpu.xr((word >> 5) & 31);
    let m = cpu.xr((word >> 16) & 31);
    let a = cpu.xr((word >> 10) & 31);
    let negate = word & (1 << 15) != 0;
    let accumulate = |p: u64| if negate { a.wrapping_sub(p) } else { a.wrapping_add(p) };
    if (word >> 29) & 3 != 0 {
        return None;
    }
    Some(match ((word >> 21) & 7, sf) {
        (0, _) => width(accumulate(n.wrapping_mul(m)), sf),
        (1, true) => accumulate((n as i32 as i64).wrapping_mul(m as i32 as i64) as u64),
        (2, true) if !negate => ((n as i64 as i128 * m as i64 as i128) >> 64) as u64,
        (5, true) => accumulate((n as u32 as u64) * (m as u32 as u64)),
        (6, true) if !negate => ((n as u128 * m as u128) >> 64) as u64,
        _ => return None,
    })
}
