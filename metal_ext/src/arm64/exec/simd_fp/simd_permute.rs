//! AdvSIMD data movement: element copies (DUP, INS, UMOV, SMOV), permutes (UZP, TRN, ZIP),
//! EXT, and table lookups (TBL, TBX).

use super::lanes::{broadcast, from_lanes, lane, ones, read_x, sext, unzip, with_lane, write_v, write_x, Shape};
use crate::arm64::decode::{PermuteOp, SimdInsn};
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

/// UZP1/2, TRN1/2, ZIP1/2, EXT, TBL and TBX, from the decoded form.
pub fn permute(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    match insn {
        SimdInsn::Permute { op, second, q, size, rd, rn, rm } => {
            let shape = Shape::vector(size as u32, q);
            let (e, count) = (shape.esize, shape.lanes);
            let (va, vb) = (cpu.v[rn as usize], cpu.v[rm as usize]);
            let part = second as usize;
            let r = match op {
                // UZP: even (or odd) elements of Vm:Vn.
                PermuteOp::Uzp => unzip(va, vb, shape, part),
                // TRN: pairs interleave the even (or odd) elements of each operand.
                PermuteOp::Trn => from_lanes(count, e, |i| {
                    let base = i & !1;
                    lane(if i % 2 == 0 { va } else { vb }, base + part, e)
                }),
                // ZIP: interleave the low (or high) halves.
                PermuteOp::Zip => from_lanes(count, e, |i| {
                    let j = part * count / 2 + i / 2;
                    lane(if i % 2 == 0 { va } else { vb }, j, e)
                }),
            };
            write_v(cpu, rd as usize, r, shape.bits());
        }
        // EXT: bytes from Vm:Vn starting at byte `index` of Vn.
        SimdInsn::Extract { q, index, rd, rn, rm } => {
            let (va, vb) = (cpu.v[rn as usize], cpu.v[rm as usize]);
            let shift = 8 * index as u32;
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
            write_v(cpu, rd as usize, r, if q { 128 } else { 64 });
        }
        // TBL (out-of-range indices give 0) and TBX (they keep the destination byte).
        SimdInsn::Table { q, tbx, len, rd, rn, rm } => {
            let len = len as usize;
            let table: Vec<u128> = (0..len).map(|k| cpu.v[(rn as usize + k) % 32]).collect();
            let (indices, vd) = (cpu.v[rm as usize], cpu.v[rd as usize]);
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
            write_v(cpu, rd as usize, r, bytes as u32 * 8);
        }
        _ => return None,
    }
    Some(())
}
