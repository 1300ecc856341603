//! Where a run spends its instructions: a count per PC, and call stacks sampled every `period`
//! instructions (a shadow stack per thread, kept from BL/BLR and RET), for flat profiles and
//! flame graphs. Counted by the debugging loop while `DebugState::profile` is on.
//!
//! A sample is the stack's return addresses and then the PC: each return address lies in the
//! function that made the call, so a tail call (`b`) cannot misname a frame.

use std::collections::{HashMap, HashSet};

/// Frames a thread's shadow stack keeps (the oldest go first when a recursion runs deeper).
const MAX_DEPTH: usize = 512;

#[derive(Clone, Debug, Default)]
pub struct Profile {
    /// Instructions executed at each PC.
    pub counts: HashMap<u64, u64>,
    /// Per thread: (entry of the function called, return address), outermost first.
    stacks: HashMap<u32, Vec<(u64, u64)>>,
    /// Sampled stacks (return addresses outermost first, then the PC) and how often each came up.
    pub samples: HashMap<Vec<u64>, u64>,
    /// Every address a BL/BLR called: the function entries of a program without symbols.
    pub entries: HashSet<u64>,
    period: u64,
    countdown: u64,
}

impl Profile {
    pub fn new(period: u64) -> Profile {
        let period = period.max(1);
        Profile { period, countdown: period, ..Profile::default() }
    }

    /// One instruction `word` at `pc` executed by thread `tid`; `next` is the PC after it.
    #[inline]
    pub fn count(&mut self, tid: u32, pc: u64, word: u32, next: u64) {
        *self.counts.entry(pc).or_insert(0) += 1;
        // Sampled before a call or return moves the stack: the instruction belongs to its own function.
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = self.period;
            let mut key: Vec<u64> = self.stacks.get(&tid).map_or(vec![], |s| s.iter().map(|&(_, back)| back).collect());
            key.push(pc);
            *self.samples.entry(key).or_insert(0) += 1;
        }
        let is_call = word & 0xFC00_0000 == 0x9400_0000 || word & 0xFFFF_FC1F == 0xD63F_0000; // bl, blr
        let is_return = word & 0xFFFF_FC1F == 0xD65F_0000; // ret
        if is_call || is_return {
            let stack = self.stacks.entry(tid).or_default();
            if is_call {
                if stack.len() == MAX_DEPTH {
                    stack.remove(0);
                }
                stack.push((next, pc + 4));
                self.entries.insert(next);
            } else if let Some(i) = stack.iter().rposition(|&(_, back)| back == next) {
                stack.truncate(i); // a return to a caller further out (longjmp-like) pops them all
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_and_returns_shape_the_sampled_stacks() {
        let mut p = Profile::new(1);
        p.count(1, 0x100, 0x9400_0040, 0x200); // bl 0x200
        p.count(1, 0x200, 0xD503_201F, 0x204); // nop, in the callee
        p.count(1, 0x204, 0xD65F_03C0, 0x104); // ret
        p.count(1, 0x104, 0xD503_201F, 0x108);
        assert_eq!(p.counts[&0x200], 1);
        assert_eq!(p.samples[&vec![0x104, 0x200]], 1); // the return address, in the caller
        assert_eq!(p.samples[&vec![0x104, 0x204]], 1);
        assert!(p.entries.contains(&0x200));
        assert_eq!(p.samples[&vec![0x104]], 1);
        assert_eq!(p.samples[&vec![0x100]], 1); // the bl itself, in the caller
    }
}
