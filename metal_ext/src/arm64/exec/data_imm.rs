//! Data processing with an immediate (op0 = 100x): PC-relative addresses, add/subtract,
//! logical, move wide, bitfield and extract.

use super::alu::{add_with_carry, extract, logic_flags, logical, sign_extend, width};
use crate::arm64::decode::{decode_bit_masks, move_wide};
use super::Exception;
use crate::arm64::state::CpuState;

#[inline]
pub fn execute(cpu: &mut CpuState, word: u32, pc: u64) -> Result<(), Exception> {
    let sf = word >> 31 == 1;
    let rd = word & 31;
    let rn = (word >> 5) & 31;
    let undefined = || Exception::undefined(pc, word);
    match (word >> 23) & 7 {
        0 | 1 => {
            let imm = sign_extend((((word >> 5) & 0x7FFFF) << 2 | (word >> 29) & 3) as u64, 21);
            let adrp = word >> 31 == 1;
            let v = if adrp { (pc & !0xFFF).wrapping_add(imm << 12) } else { pc.wrapping_add(imm) };
            cpu.set_xr(rd, v);
        }
        2 => {
            let imm = (((word >> 10) & 0xFFF) as u64) << (12 * ((word >> 22) & 1));
            let subtract = word & (1 << 30) != 0;
            let set_flags = word & (1 << 29) != 0;
            let y = if subtract { !imm } else { imm };
            let (r, nzcv) = add_with_carry(cpu.xr_sp(rn), y, subtract, sf);
            if set_flags {
                cpu.nzcv = nzcv;
                cpu.set_xr(rd, r);
            } else {
                cpu.set_xr_sp(rd, r);
            }
        }
        4 => {
            let n = (word >> 22) & 1;
            if !sf && n == 1 {
                return Err(undefined());
            }
            let datasize = if sf { 64 } else { 32 };
            let (imm, _) = decode_bit_masks(n, (word >> 10) & 63, (word >> 16) & 63, true, datasize)
                .ok_or_else(undefined)?;
            let x = cpu.xr(rn);
            let r = logical((word >> 29) & 3, x, imm, sf);
            if (word >> 29) & 3 == 3 {
                cpu.nzcv = logic_flags(r, sf);
                cpu.set_xr(rd, r);
            } else {
                cpu.set_xr_sp(rd, r);
            }
        }
        5 => {
            let (opc, shift, imm) = move_wide(word).ok_or_else(undefined)?;
            let r = match opc {
                0 => !imm,
                2 => imm,
                _ => (cpu.xr(rd) & !(0xFFFF << shift)) | imm,
            };
            cpu.set_xr(rd, width(r, sf));
        }
        6 => {
            let opc = (word >> 29) & 3;
            let n = (word >> 22) & 1;
            let immr = (word >> 16) & 63;
            let imms = (word >> 10) & 63;
            if opc == 3 || n != sf as u32 || (!sf && (immr | imms) >= 32) {
                return Err(undefined());
            }
            let datasize = if sf { 64 } else { 32 };
            let (wmask, tmask) = decode_bit_masks(n, imms, immr, false, datasize).ok_or_else(undefined)?;
            let src = width(cpu.xr(rn), sf);
            let dst = if opc == 1 { cpu.xr(rd) } else { 0 };
            let rotated = if immr == 0 { src } else { width((src >> immr) | (src << (datasize - immr)), sf) };
            let bottom = (dst & !wmask) | (rotated & wmask);
            // SBFM fills above the field with its top bit; BFM keeps the destination; UBFM zeroes.
            let top = if opc == 0 { 0u64.wrapping_sub((src >> imms) & 1) } else { dst };
            cpu.set_xr(rd, width((top & !tmask) | (bottom & tmask), sf));
        }
        7 => {
            let lsb = (word >> 10) & 63;
            let n = (word >> 22) & 1;
            if (word >> 29) & 3 != 0 || word & (1 << 21) != 0 || n != sf as u32 || (!sf && lsb >= 32) {
                return Err(undefined());
            }
            cpu.set_xr(rd, extract(cpu.xr(rn), cpu.xr((word >> 16) & 31), lsb, sf));
        }
        _ => return Err(undefined()),
    }
    Ok(())
}
