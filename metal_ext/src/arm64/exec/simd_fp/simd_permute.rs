//! AdvSIMD data movement: element copies (DUP, INS, UMOV, SMOV), permutes (UZP, TRN, ZIP),
//! EXT, and table lookups (TBL, TBX).

use super::lanes::{bit, broadcast, field, from_lanes, lane, ones, rd, read_x, rm, rn, sext, unzip, with_lane, write_v, write_x, Shape};
use crate::arm64::decode::SimdInsn;
use crate::arm64::state::CpuState;

/// The "copy" group, from the decoded form: DUP (element, general; vector and scalar), INS
/// (element, general), UMOV, SMOV.
#[inline(always)]
pub fn copy(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    match insn {
        SimdInsn::DupElement { scalar, q, size, index, rd, rn } => {
            let esize = 8 << size;
            let x = lane(cpu.v[rn as usize], index as usize, esize);
            if scalar {
                write_v(cpu, rd as usize, x as u128, esize);
            } else {
                write_v(cpu, rd as usize, broadcast(x, esize), if q { 128 } else { 64 });
            }
        }
        SimdInsn::DupGeneral { q, size, rd, rn } => {
            let esize = 8 << size;
            let x = read_x(cpu, rn as usize);
            write_v(cpu, rd as usize, broadcast(x & ones(esize), esize), if q { 128 } else { 64 });
        }
        SimdInsn::InsElement { size, index, from, rd, rn } => {
            let esize = 8 << size;
            let x = lane(cpu.v[rn as usize], from as usize, esize);
            cpu.v[rd as usize] = with_lane(cpu.v[rd as usize], index as usize, esize, x);
        }
        SimdInsn::InsGeneral { size, index, rd, rn } => {
            let x = read_x(cpu, rn as usize);
            cpu.v[rd as usize] = with_lane(cpu.v[rd as usize], index as usize, 8 << size, x);
        }
        SimdInsn::MoveToGeneral { signed, sf, size, index, rd, rn } => {
            let esize = 8 << size;
            let x = lane(cpu.v[rn as usize], index as usize, esize);
            let x = if signed { sext(x, esize) as u64 } else { x };
            write_x(cpu, rd as usize, x, sf);
        }
        _ => return None,
    }
    Some(())
}

/// UZP1/2, TRN1/2, ZIP1/2.
pub fn permute(cpu: &mut CpuState, w: u32) -> Option<()> {
    let (q, size, opcode) = (bit(w, 30), field(w, 22, 2), field(w, 12, 3));
    if (size == 3 && !q) || opcode & 3 == 0 {
        return None;
    }
    let shape = Shape::vector(size, q);
    let (e, count) = (shape.esize, shape.lanes);
    let (va, vb) = (cpu.v[rn(w)], cpu.v[rm(w)]);
    let part = (opcode >> 2) as usize; // 0 for the "1" forms, 1 for the "2" forms
    if opcode & 3 == 1 {
        // UZP: even (or odd) elements of Vm:Vn.
        write_v(cpu, rd(w), unzip(va, vb, shape, part), shape.bits());
        return Some(());
    }
    let r = from_lanes(count, e, |i| match opcode & 3 {
        // TRN: pairs interleave the even (or odd) elements of each operand.
        2 => {
            let base = i & !1;
            if i % 2 == 0 {
                lane(va, base + part, e)
            } else {
                lane(vb, base + part, e)
            }
        }
        // ZIP: interleave the low (or high) halves.
        _ => {
            let j = part * count / 2 + i / 2;
            if i % 2 == 0 {
                lane(va, j, e)
            } else {
                lane(vb, j, e)
            }
        }
    });
    write_v(cpu, rd(w), r, shape.bits());
    Some(())
}

/// EXT: bytes from Vm:Vn starting at byte `imm4` of Vn.
pub fn ext(cpu: &mut CpuState, w: u32) -> Option<()> {
    let (q, imm4) = (bit(w, 30), field(w, 11, 4));
    if !q && imm4 >= 8 {
        return None;
    }
    let (va, vb) = (cpu.v[rn(w)], cpu.v[rm(w)]);
    let shift = 8 * imm4;
    let r = if q {
        if shift == 0 {
            va
        } else {
            va >> shift | vb << (128 - shift)
        }
    } else {
        let low = u64::MAX as u128;
        ((vb & low) << 64 | (va & low)) >> shift
    };
    write_v(cpu, rd(w), r, if q { 128 } else { 64 });
    Some(())
}

/// TBL (out-of-range indices give 0) and TBX (they keep the destination byte), tables of one
/// to four consecutive registers (wrapping from v31 to v0).
pub fn table(cpu: &mut CpuState, w: u32) -> Option<()> {
    let (q, len, tbx) = (bit(w, 30), field(w, 13, 2) as usize + 1, bit(w, 12));
    let n = rn(w);
    let table: Vec<u128> = (0..len).map(|k| cpu.v[(n + k) % 32]).collect();
    let (indices, vd) = (cpu.v[rm(w)], cpu.v[rd(w)]);
    let bytes = if q { 16 } else { 8 };
    let r = from_lanes(bytes, 8, |i| {
        let idx = lane(indices, i, 8) as usize;
        if idx < 16 * len {
            lane(table[idx / 16], idx % 16, 8)
        } else if tbx {
            lane(vd, i, 8)
        } else {
            0
        }
    });
    write_v(cpu, rd(w), r, bytes as u32 * 8);
    Some(())
}
