//! The trace ring: the last N executed instructions with the registers each one changed.

use crate::arm64::exec::code_cache::{Observer, Op};
use crate::arm64::mem::MemAccess;
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
    /// The guest memory the instruction read and wrote, in order (a system call's own reads and
    /// writes of guest buffers are the kernel's, not listed).
    pub accesses: Vec<MemAccess>,
}

/// One instruction as the ring holds it. Recording is on every traced step and reading is rare,
/// so an instruction whose decoded form names the registers it may write keeps only their values
/// before and after, and its changes are worked out when the ring is read.
#[derive(Clone, Debug, Default)]
struct Slot {
    pid: u32,
    pc: u64,
    word: u32,
    nzcv_before: u32,
    nzcv_after: u32,
    /// The x registers it may write and their values before and after; `changes` is used instead
    /// where this is None.
    candidates: Option<[u8; 4]>,
    old: [u64; 4],
    new: [u64; 4],
    changes: Vec<(u8, u128, u128)>,
    accesses: Vec<MemAccess>,
}

impl Slot {
    fn entry(&self) -> TraceEntry {
        let changes = match self.candidates {
            None => self.changes.clone(),
            Some(regs) => {
                let mut changed = 0u32;
                for ((r, old), new) in regs.iter().zip(self.old).zip(self.new) {
                    changed |= ((old != new) as u32) << r;
                }
                let mut changes = Vec::new();
                while changed != 0 {
                    let r = changed.trailing_zeros() as u8;
                    let k = regs.iter().position(|&c| c == r).expect("a changed register is a candidate");
                    changes.push((r, self.old[k] as u128, self.new[k] as u128));
                    changed &= changed - 1;
                }
                changes
            }
        };
        TraceEntry {
            pid: self.pid,
            pc: self.pc,
            word: self.word,
            changes,
            nzcv_before: self.nzcv_before,
            nzcv_after: self.nzcv_after,
            accesses: self.accesses.clone(),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct TraceRing {
    pub depth: usize,
    /// Also record each instruction's memory accesses (off by default: while on, every load and
    /// store takes the general path, so that all are seen alike).
    pub accesses: bool,
    /// A ring once `depth` entries are held: `next` is where the oldest is, and the next record
    /// goes, in place (moving entries in and out of a queue took most of a traced run's time).
    slots: Vec<Slot>,
    next: usize,
}

/// The registers an instruction may change, saved before it runs (one buffer, refilled for
/// every instruction): only the candidates where its decoded form names them and it cannot
/// write vector registers, else all of them (the 512 bytes of vector registers only for
/// instructions that can write them).
#[derive(Default)]
pub struct Before {
    pc: u64,
    word: u32,
    nzcv: u32,
    /// The x registers a decoded form may write (its register fields and the link register).
    candidates: Option<[u8; 4]>,
    old: [u64; 4],
    /// Whether the state below was saved (the instruction has no candidates or may write
    /// vector registers); then only the candidates, if any, are compared afterwards.
    whole: bool,
    x: [u64; 32],
    fpcr: u32,
    fpsr: u32,
    tpidr_el0: u64,
    v: [u128; 32],
    v_saved: bool,
}

/// Whether `word` can change a vector register: SIMD & FP data processing and SIMD loads
/// (encoding bits 27 and 26 both set), or a system call (sigreturn, execve).
fn may_write_vectors(word: u32) -> bool {
    (word >> 26) & 3 == 3 || word & 0xffe0_001f == 0xd400_0001
}

impl Before {
    #[inline(always)]
    pub fn save(&mut self, cpu: &CpuState, word: u32, candidates: Option<[u8; 4]>) {
        self.pc = cpu.pc;
        self.word = word;
        self.nzcv = cpu.nzcv;
        self.candidates = candidates;
        self.v_saved = may_write_vectors(word);
        self.whole = candidates.is_none() || self.v_saved;
        if !self.whole {
            self.old = candidates.unwrap().map(|r| cpu.x[(r & 31) as usize]);
            return;
        }
        self.x = cpu.x;
        self.fpcr = cpu.fpcr;
        self.fpsr = cpu.fpsr;
        self.tpidr_el0 = cpu.tpidr_el0;
        if self.v_saved {
            self.v = cpu.v;
        }
    }

    fn candidate_mask(&self) -> Option<u32> {
        self.candidates.map(|regs| regs.iter().fold(0, |mask, &r| mask | 1 << (r & 31)))
    }
}

/// Bit i set where `a[i] != b[i]`, looking at each register only in groups of four that
/// differ somewhere (an instruction changes one or two registers).
#[inline(always)]
fn differing<T: PartialEq + Copy>(a: &[T; 32], b: &[T; 32]) -> u32 {
    let mut mask = 0;
    for g in (0..32).step_by(4) {
        if a[g..g + 4] != b[g..g + 4] {
            for i in g..g + 4 {
                mask |= ((a[i] != b[i]) as u32) << i;
            }
        }
    }
    mask
}

/// As `differing`, looking only at the registers in `candidates`.
#[inline(always)]
fn differing_among<T: PartialEq + Copy>(a: &[T; 32], b: &[T; 32], mut candidates: u32) -> u32 {
    let mut mask = 0;
    while candidates != 0 {
        let i = candidates.trailing_zeros() as usize;
        mask |= ((a[i] != b[i]) as u32) << i;
        candidates &= candidates - 1;
    }
    mask
}

/// Registers that differ between the wholly saved state and now, into `out`.
fn changes(before: &Before, after: &CpuState, out: &mut Vec<(u8, u128, u128)>) {
    out.clear();
    let candidates = before.candidate_mask();
    let mut x = match candidates {
        Some(mask) => differing_among(&before.x, &after.x, mask),
        None => differing(&before.x, &after.x),
    };
    while x != 0 {
        let i = x.trailing_zeros() as usize;
        out.push((i as u8, before.x[i] as u128, after.x[i] as u128));
        x &= x - 1;
    }
    if before.v_saved {
        let mut v = match candidates {
            Some(mask) => differing_among(&before.v, &after.v, mask),
            None => differing(&before.v, &after.v),
        };
        while v != 0 {
            let i = v.trailing_zeros() as usize;
            out.push((32 + i as u8, before.v[i], after.v[i]));
            v &= v - 1;
        }
    }
    if before.fpcr != after.fpcr {
        out.push((64, before.fpcr as u128, after.fpcr as u128));
    }
    if before.fpsr != after.fpsr {
        out.push((65, before.fpsr as u128, after.fpsr as u128));
    }
    if before.tpidr_el0 != after.tpidr_el0 {
        out.push((66, before.tpidr_el0 as u128, after.tpidr_el0 as u128));
    }
}

impl TraceRing {
    pub fn set_depth(&mut self, depth: usize) {
        let mut kept: Vec<Slot> = std::mem::take(&mut self.slots);
        kept.rotate_left(self.next);
        kept.drain(..kept.len().saturating_sub(depth));
        self.slots = kept;
        self.next = 0;
        self.depth = depth;
    }

    /// The entries, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = TraceEntry> + '_ {
        let (newer, older) = self.slots.split_at(self.next);
        older.iter().chain(newer).map(Slot::entry)
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Records one executed instruction, reusing the oldest slot once the ring is full.
    #[inline(always)]
    pub fn record(&mut self, pid: u32, before: &Before, after: &CpuState, accesses: &[MemAccess]) {
        if self.depth == 0 {
            return;
        }
        if self.slots.len() < self.depth {
            self.slots.push(Slot::default());
            self.next = self.slots.len() - 1;
        }
        let Some(slot) = self.slots.get_mut(self.next) else { return };
        slot.pid = pid;
        slot.pc = before.pc;
        slot.word = before.word;
        slot.nzcv_before = before.nzcv;
        slot.nzcv_after = after.nzcv;
        if before.whole {
            slot.candidates = None;
            changes(before, after, &mut slot.changes);
        } else {
            let regs = before.candidates.unwrap_or_default();
            slot.candidates = before.candidates;
            slot.old = before.old;
            slot.new = regs.map(|r| after.x[(r & 31) as usize]);
        }
        if !(slot.accesses.is_empty() && accesses.is_empty()) {
            slot.accesses.clear();
            slot.accesses.extend_from_slice(accesses);
        }
        self.next += 1;
        if self.next == self.depth {
            self.next = 0;
        }
    }
}

/// Fills the ring with every instruction `CodeCache::run_observed` runs; `before` is left
/// holding the last one's state (a system call, which the caller records once it is done).
pub struct Recorder<'a> {
    pub ring: &'a mut TraceRing,
    pub before: &'a mut Before,
    pub pid: u32,
}

impl Observer for Recorder<'_> {
    #[inline(always)]
    fn before(&mut self, cpu: &CpuState, op: &Op) {
        self.before.save(cpu, op.word, op.written_registers());
    }

    #[inline(always)]
    fn after(&mut self, cpu: &CpuState) {
        self.ring.record(self.pid, self.before, cpu, &[]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_entries_and_their_changes() {
        let mut ring = TraceRing::default();
        ring.set_depth(2);
        let a = CpuState::default();
        let mut b = a.clone();
        b.pc = 99;
        b.x[3] = 9;
        b.x[31] = 16;
        b.v[1] = 1 << 100;
        b.tpidr_el0 = 5;
        b.nzcv = 0x4000_0000;
        let mut before = Before::default();
        for pc in 0..3 {
            let mut a = a.clone();
            a.pc = pc;
            before.save(&a, 0x4ea11c20, None); // mov v0.16b, v1.16b
            ring.record(1, &before, &b, &[]);
        }
        assert_eq!(ring.iter().map(|e| e.pc).collect::<Vec<_>>(), [1, 2]);
        let e = ring.iter().nth(1).unwrap();
        assert_eq!(e.changes, vec![(3, 0, 9), (31, 0, 16), (33, 0, 1 << 100), (66, 0, 5)]);
        assert_eq!((e.nzcv_before, e.nzcv_after, e.word), (0, 0x4000_0000, 0x4ea11c20));
        before.save(&b, 0, None);
        ring.record(1, &before, &b, &[]);
        assert!(ring.iter().nth(1).unwrap().changes.is_empty());
        assert_eq!(ring.iter().map(|e| e.pc).collect::<Vec<_>>(), [2, 99]);
        ring.set_depth(3);
        before.save(&a, 0, None);
        ring.record(1, &before, &b, &[]);
        assert_eq!(ring.iter().map(|e| e.pc).collect::<Vec<_>>(), [2, 99, 0]);
        ring.record(1, &before, &b, &[]);
        assert_eq!(ring.iter().map(|e| e.pc).collect::<Vec<_>>(), [99, 0, 0]);
        ring.set_depth(1);
        assert_eq!(ring.len(), 1);
        assert!(!may_write_vectors(0x8b020020) && !may_write_vectors(0x14000000)); // add, b
        assert!(may_write_vectors(0x3dc00020) && may_write_vectors(0xd4000001)); // ldr q0, svc
        assert_eq!(register_name(31), "sp");
        assert_eq!(register_name(40), "v8");
    }

    #[test]
    fn candidates_give_the_same_changes_as_the_whole_state() {
        let a = CpuState::default();
        let mut b = a.clone();
        b.x[2] = 7;
        b.x[30] = 0x1000;
        b.nzcv = 0x2000_0000;
        let (mut whole, mut picked) = (TraceRing::default(), TraceRing::default());
        whole.set_depth(4);
        picked.set_depth(4);
        let mut before = Before::default();
        for candidates in [None, Some([2, 2, 31, 30]), Some([30, 5, 2, 30])] {
            before.save(&a, 0x8b010042, candidates); // add x2, x2, x1
            picked.record(3, &before, &b, &[]);
        }
        before.save(&a, 0x8b010042, None);
        whole.record(3, &before, &b, &[]);
        let expected = whole.iter().next().unwrap();
        assert_eq!(expected.changes, vec![(2, 0, 7), (30, 0, 0x1000)]);
        assert!(picked.iter().all(|e| e == expected));
        // A vector-writing form saves everything and compares its candidates among x and v.
        let mut c = a.clone();
        c.v[2] = 5;
        c.x[4] = 1;
        before.save(&a, 0x3dc00022, Some([2, 1, 31, 30])); // ldr q2, [x1]
        picked.record(3, &before, &c, &[]);
        assert_eq!(picked.iter().last().unwrap().changes, vec![(34, 0, 5)]);
    }
}
