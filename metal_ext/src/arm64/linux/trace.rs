//! The trace ring: the last N executed instructions with the registers each one changed.

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

#[derive(Clone, Debug, Default)]
pub struct TraceRing {
    pub depth: usize,
    /// Also record each instruction's memory accesses (off by default: while on, every load and
    /// store takes the general path, so that all are seen alike).
    pub accesses: bool,
    /// A ring once `depth` entries are held: `next` is where the oldest is, and the next record
    /// goes, in place (moving entries in and out of a queue took most of a traced run's time).
    entries: Vec<TraceEntry>,
    next: usize,
}

/// The registers an instruction may change, saved before it runs (one buffer, refilled for
/// every instruction). The 512 bytes of vector registers are saved only for instructions that
/// can write them.
#[derive(Default)]
pub struct Before {
    pc: u64,
    word: u32,
    /// The registers the instruction may write, when its decoded form says (bit i: xi and vi);
    /// only these are compared afterwards.
    candidates: Option<u32>,
    x: [u64; 32],
    nzcv: u32,
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
    pub fn save(&mut self, cpu: &CpuState, word: u32, candidates: Option<u32>) {
        self.pc = cpu.pc;
        self.word = word;
        self.candidates = candidates;
        self.x = cpu.x;
        self.nzcv = cpu.nzcv;
        self.fpcr = cpu.fpcr;
        self.fpsr = cpu.fpsr;
        self.tpidr_el0 = cpu.tpidr_el0;
        self.v_saved = may_write_vectors(word);
        if self.v_saved {
            self.v = cpu.v;
        }
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

/// Registers that differ between the saved state and now, into `out`.
fn changes(before: &Before, after: &CpuState, out: &mut Vec<(u8, u128, u128)>) {
    out.clear();
    let mut x = match before.candidates {
        Some(mask) => differing_among(&before.x, &after.x, mask),
        None => differing(&before.x, &after.x),
    };
    while x != 0 {
        let i = x.trailing_zeros() as usize;
        out.push((i as u8, before.x[i] as u128, after.x[i] as u128));
        x &= x - 1;
    }
    if before.v_saved {
        let mut v = match before.candidates {
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
        let mut kept: Vec<TraceEntry> = std::mem::take(&mut self.entries);
        kept.rotate_left(self.next);
        kept.drain(..kept.len().saturating_sub(depth));
        self.entries = kept;
        self.next = 0;
        self.depth = depth;
    }

    /// The entries, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &TraceEntry> {
        let (newer, older) = self.entries.split_at(self.next);
        older.iter().chain(newer)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Records one executed instruction, reusing the oldest entry's storage once the ring is full.
    pub fn record(&mut self, pid: u32, before: &Before, after: &CpuState, accesses: &[MemAccess]) {
        let (pc, word) = (before.pc, before.word);
        if self.depth == 0 {
            return;
        }
        if self.entries.len() < self.depth {
            let changes = Vec::with_capacity(4);
            self.entries.push(TraceEntry { pid, pc, word, changes, nzcv_before: 0, nzcv_after: 0, accesses: Vec::new() });
            self.next = self.entries.len() - 1;
        }
        let entry = &mut self.entries[self.next];
        entry.pid = pid;
        entry.pc = pc;
        entry.word = word;
        entry.nzcv_before = before.nzcv;
        entry.nzcv_after = after.nzcv;
        changes(before, after, &mut entry.changes);
        entry.accesses.clear();
        entry.accesses.extend_from_slice(accesses);
        self.next += 1;
        if self.next == self.depth {
            self.next = 0;
        }
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
}
