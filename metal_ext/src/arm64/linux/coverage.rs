//! Edge coverage and compared operands, for fuzzing: what the debugging loop counts while
//! `DebugState::coverage` is on.

/// Slots in the edge-coverage map (a power of two).
pub const COVERAGE_SLOTS: usize = 1 << 16;

/// Slots for compared operands (a power of two).
pub const COMPARE_SLOTS: usize = 256;

/// Notes the operands of `word` if it is a comparison (SUBS with the zero register as destination):
/// the immediate, or both registers' values (32-bit forms: their low halves). Comparisons do not
/// write registers, so the values after the instruction are those it compared.
#[inline]
pub fn note_compare(compares: &mut [u64], word: u32, x: &[u64; 32]) {
    if word & 0x1F != 0x1F {
        return;
    }
    let mask = if word >> 31 == 1 { u64::MAX } else { u32::MAX as u64 };
    let reg = |r: u32| if r == 31 { 0 } else { x[r as usize] & mask };
    let mut keep = |v: u64| {
        if v != 0 {
            compares[(v.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize & (COMPARE_SLOTS - 1)] = v;
        }
    };
    if word & 0x7F80_0000 == 0x7100_0000 {
        // SUBS (immediate): imm12, shifted by 12 when sh is set
        keep((((word >> 10) & 0xFFF) as u64) << (12 * ((word >> 22) & 1)));
    } else if word & 0x7F20_0000 == 0x6B00_0000 {
        // SUBS (shifted register), no shift: Rn and Rm
        keep(reg((word >> 5) & 31));
        keep(reg((word >> 16) & 31));
    }
}

/// Counts the edge `from` -> `to` in a coverage map of up to `COVERAGE_SLOTS` slots (a power of
/// two: the nCPU's lanes use smaller maps, one per lane).
#[inline]
pub fn cover(map: &mut [u8], from: u64, to: u64) {
    const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
    let slot = ((from.wrapping_mul(MIX) ^ to).wrapping_mul(MIX) >> 48) as usize & (map.len() - 1);
    map[slot] = map[slot].saturating_add(1);
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn comparisons_leave_their_operands_for_the_fuzzer() {
        let mut x = [0u64; 32];
        x[2] = 0x5A5A_555A;
        x[3] = 0xFFFF_FFFF_0000_0046;
        let mut slots = vec![0u64; COMPARE_SLOTS];
        note_compare(&mut slots, 0x7100_543F, &x); // cmp w1, #0x15
        note_compare(&mut slots, 0xF140_047F, &x); // cmp x3, #0x1, lsl #12
        note_compare(&mut slots, 0x6B03_005F, &x); // cmp w2, w3: the low halves
        note_compare(&mut slots, 0x7100_5420, &x); // subs w0, w1, #0x15: not a comparison (writes w0)
        let mut kept: Vec<u64> = slots.into_iter().filter(|&v| v != 0).collect();
        kept.sort_unstable();
        assert_eq!(kept, vec![0x15, 0x46, 0x1000, 0x5A5A_555A]);
    }

    #[test]
    fn coverage_counts_each_edge_apart_and_saturates() {
        let mut map = vec![0u8; COVERAGE_SLOTS];
        for _ in 0..300 {
            cover(&mut map, 0x400100, 0x400104);
        }
        cover(&mut map, 0x400100, 0x400200);
        let mut counts: Vec<u8> = map.into_iter().filter(|&c| c != 0).collect();
        counts.sort_unstable();
        assert_eq!(counts, vec![1, 255]);
    }
}
