//! The trace ring: the last N executed instructions with the registers each one changed.

use std::collections::VecDeque;

use crate::arm64::state::CpuState;

/// Register numbering used in trace entries: x0..x30, sp, v0..v31, fpcr, fpsr, tpidr_el0.
pub fn register_name(index: u8) -> String {
    match index {
        0..=30 => format!("x{index}"),
        31 => "sp".into(),
        32..=63 => format!("v{}", index - 32),
        64 => "fpcr".into(),
        65 => "fpsr".into(),
        _ => "tpidr_el0".into(),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceEntry {
    pub pid: u32,
    pub pc: u64,
    pub word: u32,
    /// (register, old value, new value) for every register the instruction changed.
    pub changes: Vec<(u8, u128, u128)>,
    pub nzcv_before: u32,
    pub nzcv_after: u32,
}

#[derive(Clone, Debug, Default)]
pub struct TraceRing {
    pub depth: usize,
    pub entries: VecDeque<TraceEntry>,
}

/// Registers that differ between two states.
pub fn changes(before: &CpuState, after: &CpuState) -> Vec<(u8, u128, u128)> {
    let mut out = vec![];
    for i in 0..32 {
        if before.x[i] != after.x[i] {
            out.push((i as u8, before.x[i] as u128, after.x[i] as u128));
        }
    }
    for i in 0..32 {
        if before.v[i] != after.v[i] {
            out.push((32 + i as u8, before.v[i], after.v[i]));
        }
    }
    let system = [
        (64, before.fpcr as u128, after.fpcr as u128),
        (65, before.fpsr as u128, after.fpsr as u128),
        (66, before.tpidr_el0 as u128, after.tpidr_el0 as u128),
    ];
    out.extend(system.into_iter().filter(|(_, a, b)| a != b));
    out
}

impl TraceRing {
    pub fn set_depth(&mut self, depth: usize) {
        self.depth = depth;
        while self.entries.len() > depth {
            self.entries.pop_front();
        }
    }

    pub fn push(&mut self, entry: TraceEntry) {
        if self.depth == 0 {
            return;
        }
        if self.entries.len() == self.depth {
            self.entries.pop_front();
        }
        self.entries.push_back(entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_entries_and_their_changes() {
        let mut ring = TraceRing::default();
        ring.set_depth(2);
        let mut a = CpuState::default();
        let mut b = a.clone();
        b.x[3] = 9;
        b.x[31] = 16;
        b.v[1] = 1 << 100;
        assert_eq!(changes(&a, &b), vec![(3, 0, 9), (31, 0, 16), (33, 0, 1 << 100)]);
        a.tpidr_el0 = 5;
        assert_eq!(changes(&b, &a).last(), Some(&(66, 0, 5)));
        for pc in 0..3 {
            ring.push(TraceEntry { pid: 1, pc, word: 0, changes: vec![], nzcv_before: 0, nzcv_after: 0 });
        }
        assert_eq!(ring.entries.iter().map(|e| e.pc).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(register_name(31), "sp");
        assert_eq!(register_name(40), "v8");
    }
}
