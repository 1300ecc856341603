//! What a timing observer could see of a run, folded into a digest as it runs: each instruction's
//! PC and the PC after it (so every branch outcome), and each memory access's address, size and
//! direction. Two runs with equal digests (and counts) did the same thing in all those respects, so
//! checking a program for secret-dependent timing over many secrets needs one digest per run and a
//! full trace only of two runs that differ.

use crate::arm64::mem::MemAccess;

/// A running digest: two independent 64-bit mixes of the same words (a collision would need both).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    pub steps: u64,
    pub digest: [u64; 2],
}

impl Observation {
    fn fold(&mut self, word: u64) {
        self.digest[0] = (self.digest[0] ^ word).wrapping_mul(0x0000_0100_0000_01B3).rotate_left(29);
        let mixed = self.digest[1].wrapping_add(word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.digest[1] = mixed ^ (mixed >> 31);
    }

    /// One retired instruction: where it was, where execution went on, what it touched.
    pub fn step(&mut self, pc: u64, next: u64, accesses: &[MemAccess]) {
        self.steps += 1;
        self.fold(pc);
        self.fold(next);
        for a in accesses {
            self.fold(a.addr);
            self.fold(((a.size as u64) << 1) | a.write as u64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_different_branch_or_address_or_order_changes_the_digest() {
        let load = |addr| MemAccess { addr, size: 8, write: false };
        let run = |steps: &[(u64, u64, &[MemAccess])]| {
            let mut o = Observation::default();
            for &(pc, next, accesses) in steps {
                o.step(pc, next, accesses);
            }
            o
        };
        let base = run(&[(0x400000, 0x400004, &[load(0x1000)]), (0x400004, 0x400010, &[])]);
        assert_eq!(base, run(&[(0x400000, 0x400004, &[load(0x1000)]), (0x400004, 0x400010, &[])]));
        assert_ne!(base, run(&[(0x400000, 0x400004, &[load(0x1008)]), (0x400004, 0x400010, &[])]));
        assert_ne!(base, run(&[(0x400000, 0x400004, &[load(0x1000)]), (0x400004, 0x400008, &[])]));
        assert_ne!(base, run(&[(0x400004, 0x400010, &[]), (0x400000, 0x400004, &[load(0x1000)])]));
        let store = MemAccess { addr: 0x1000, size: 8, write: true };
        assert_ne!(base, run(&[(0x400000, 0x400004, &[store]), (0x400004, 0x400010, &[])]));
        assert_eq!(base.steps, 2);
    }
}
