//! The nCPU lane executor: many independent nCPU machines ("lanes") stepped over micro-ops.
//!
//! State is laid out as integer tensors: `regs[lane * NREGS + r]`, `pc[lane]`, `flags[lane]`,
//! `mem[lane * mem_size ..]`. Micro-ops are lowered from the one ISA table in Python
//! (`ncpu_nb.isa.encoding.lower`); this file only knows their numeric fields.

use std::collections::VecDeque;

use super::alu::Alu;
use crate::arm64::linux::coverage::cover;

pub const NREGS: usize = 9; // R0-R7, SP
pub const SP: usize = 8;
pub const ZERO_REG: u8 = 15;
pub const NONE: u8 = 255;
/// Slots in each lane's edge-coverage map (a power of two; nCPU programs have few branches).
pub const COVERAGE_SLOTS: usize = 1 << 12;

/// Micro-op kinds, in the order of `ncpu_nb.isa.table.KINDS`.
pub const KIND_NAMES: [&str; 10] = ["nop", "halt", "alu", "jump", "load", "store", "push", "pop", "call", "ret"];
/// Branch conditions, in the order of `ncpu_nb.isa.table.CONDITION_NAMES`.
pub const CONDITION_NAMES: [&str; 15] = ["al", "z", "nz", "s", "ns", "c", "nc", "o", "no", "l", "ge", "g", "le", "a", "be"];

const ADD: u8 = 1; // ALU operation indices (ALU_NAMES)
const SUB: u8 = 2;
const ZF: u8 = 1;
const SF: u8 = 2;
const CF: u8 = 4;
const OF: u8 = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MicroOp {
    pub kind: u8,
    pub alu: u8,
    pub dst: u8,
    pub a: u8,
    pub b: u8,
    pub imm: u32,
    pub flags: u8, // 0: none, 1: ZF SF, 2: ZF SF CF OF
    pub cond: u8,
    pub width: u8,
    pub target: u32,
}

/// Why a lane is not running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Status {
    Running = 0,
    Halted = 1,
    Fault = 2,
    Breakpoint = 3,
    Watchpoint = 4,
}

/// What went wrong in a faulted lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Fault {
    pub kind: u8, // 1: memory access out of range, 2: jump outside the program, 3/4: watched read/write
    pub value: u32,
}

/// Memory bytes `start..end` whose reads and/or writes stop a lane before the access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watch {
    pub start: u32,
    pub end: u64,
    pub read: bool,
    pub write: bool,
}

fn watched(watches: &[Watch], addr: u32, width: u32, write: bool) -> bool {
    let (start, end) = (addr as u64, addr as u64 + width as u64);
    watches.iter().any(|w| (if write { w.write } else { w.read }) && (start < w.end && (w.start as u64) < end))
}

/// One executed instruction, with what it changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEntry {
    pub cycle: u64,
    pub pc: u32,
    pub next_pc: u32,
    pub flags_before: u8,
    pub flags_after: u8,
    pub changes: [(u8, u32, u32); 2], // (register, old, new); an instruction changes at most two
    pub n_changes: u8,
    pub access: Option<(u32, u8, bool)>, // (address, width, write) of the memory it read or wrote
}

/// The last `depth` trace entries of one lane.
#[derive(Clone, Default)]
pub struct TraceRing {
    pub depth: usize,
    pub entries: VecDeque<TraceEntry>,
}

impl TraceRing {
    #[inline(always)]
    fn push(&mut self, e: TraceEntry) {
        if self.entries.len() == self.depth {
            self.entries.pop_front();
        }
        self.entries.push_back(e);
    }
}

/// Validates the static fields of a micro-op so execution never indexes out of bounds.
pub fn check_op(op: &MicroOp, program_len: usize) -> Result<(), String> {
    let reg_ok = |r: u8| (r as usize) < NREGS || r == NONE;
    if op.kind as usize >= KIND_NAMES.len() {
        return Err(format!("unknown micro-op kind {}", op.kind));
    }
    if op.alu as usize >= super::alu::ALU_NAMES.len() || op.cond as usize >= CONDITION_NAMES.len() {
        return Err("unknown ALU operation or condition".into());
    }
    let memory = op.kind == 4 || op.kind == 5;
    if !reg_ok(op.dst) || !(reg_ok(op.a) || (memory && op.a == ZERO_REG)) || !reg_ok(op.b) {
        return Err("register index out of range".into());
    }
    let needs = |r: u8, what: &str| if r == NONE { Err(format!("{} needs a register", what)) } else { Ok(()) };
    match op.kind {
        4 => needs(op.dst, "load").and(needs(op.a, "load address")),
        5 => needs(op.b, "store").and(needs(op.a, "store address")),
        6 => needs(op.b, "push"),
        7 => needs(op.dst, "pop"),
        _ => Ok(()),
    }?;
    if op.flags > 2 {
        return Err(format!("flag mode {} is not 0, 1 or 2", op.flags));
    }
    if (op.kind == 4 || op.kind == 5) && op.width != 1 && op.width != 4 {
        return Err(format!("memory width {} is not 1 or 4", op.width));
    }
    if (op.kind == 3 || op.kind == 8) && op.target as usize > program_len {
        return Err(format!("jump target {} is outside the program", op.target));
    }
    Ok(())
}

/// Bytes each lane holds besides its data memory (one entry in every per-lane vector of `Lanes`).
pub const LANE_STATE_BYTES: usize = NREGS * 4 + 4 + 1 + 8 + size_of::<Status>() + size_of::<Fault>() + 1 + 4;

#[derive(Clone)]
pub struct Lanes {
    pub lanes: usize,
    pub mem_size: usize,
    pub regs: Vec<u32>,
    pub pc: Vec<u32>,
    pub flags: Vec<u8>,
    pub cycles: Vec<u64>,
    pub status: Vec<Status>,
    pub fault: Vec<Fault>,
    pub skip_breakpoint: Vec<bool>,
    pub mem: Vec<u8>,
    pub lane_program: Vec<u32>,
    /// While coverage is on, `COVERAGE_SLOTS` hit counts per lane: each jump, call and return counts
    /// its (pc, next pc) edge, taken or not. Empty while off (the run loop then has no coverage code).
    pub coverage: Vec<u8>,
}

impl Lanes {
    pub fn new(lanes: usize, mem_size: usize) -> Self {
        let mut s = Lanes {
            lanes,
            mem_size,
            regs: vec![0; lanes * NREGS],
            pc: vec![0; lanes],
            flags: vec![0; lanes],
            cycles: vec![0; lanes],
            status: vec![Status::Halted; lanes], // nothing to run until a program is loaded
            fault: vec![Fault::default(); lanes],
            skip_breakpoint: vec![false; lanes],
            mem: vec![0; lanes * mem_size],
            lane_program: vec![0; lanes],
            coverage: Vec::new(),
        };
        for lane in 0..lanes {
            s.regs[lane * NREGS + SP] = mem_size as u32;
        }
        s
    }

    /// Back to power-on state, with `data` (the lane's program image) at address 0.
    pub fn reset_lane(&mut self, lane: usize, data: &[u8]) {
        let r = &mut self.regs[lane * NREGS..(lane + 1) * NREGS];
        r.fill(0);
        r[SP] = self.mem_size as u32;
        self.pc[lane] = 0;
        self.flags[lane] = 0;
        self.cycles[lane] = 0;
        self.status[lane] = Status::Running;
        self.fault[lane] = Fault::default();
        self.skip_breakpoint[lane] = false;
        let m = &mut self.mem[lane * self.mem_size..(lane + 1) * self.mem_size];
        m.fill(0);
        let n = data.len().min(self.mem_size);
        m[..n].copy_from_slice(&data[..n]);
        if !self.coverage.is_empty() {
            self.coverage[lane * COVERAGE_SLOTS..(lane + 1) * COVERAGE_SLOTS].fill(0);
        }
    }

    /// Edge coverage on (every lane's map zeroed) or off (the maps dropped).
    pub fn set_coverage(&mut self, on: bool) {
        self.coverage = if on { vec![0; self.lanes * COVERAGE_SLOTS] } else { Vec::new() };
    }
}

/// Below this many running lanes, one thread does all the work.
const PARALLEL_LANES: usize = 64;

/// One lane's state, borrowed out of `Lanes` so lanes can run on different threads.
pub struct LaneMut<'s> {
    index: usize,
    program: u32,
    regs: &'s mut [u32; NREGS],
    mem: &'s mut [u8],
    pc: &'s mut u32,
    flags: &'s mut u8,
    cycles: &'s mut u64,
    status: &'s mut Status,
    fault: &'s mut Fault,
    skip: &'s mut bool,
    coverage: &'s mut [u8], // empty while coverage is off
}

impl Lanes {
    fn views(&mut self) -> Vec<LaneMut<'_>> {
        let mem_size = self.mem_size.max(1);
        let mut mems = self.mem.chunks_mut(mem_size);
        let mut maps = self.coverage.chunks_mut(COVERAGE_SLOTS);
        self.regs
            .chunks_exact_mut(NREGS)
            .zip(self.pc.iter_mut())
            .zip(self.flags.iter_mut())
            .zip(self.cycles.iter_mut())
            .zip(self.status.iter_mut())
            .zip(self.fault.iter_mut())
            .zip(self.skip_breakpoint.iter_mut())
            .zip(self.lane_program.iter())
            .enumerate()
            .map(|(index, (((((((regs, pc), flags), cycles), status), fault), skip), &program))| LaneMut {
                index,
                program,
                regs: regs.try_into().unwrap(),
                mem: if self.mem_size == 0 { &mut [] } else { mems.next().unwrap() },
                pc,
                flags,
                cycles,
                status,
                fault,
                skip,
                coverage: maps.next().unwrap_or_default(),
            })
            .collect()
    }
}

/// Executes lanes; `programs[lane_program[lane]]` holds each lane's micro-ops. Every value the
/// program computes (results, ZF, addresses, stack pointer moves) comes from `alu`.
pub struct Runner<'a, A: Alu + Sync> {
    pub alu: &'a A,
    pub programs: &'a [Vec<MicroOp>],
    pub breakpoints: &'a [Vec<bool>], // per program, indexed by pc
    pub watches: &'a [Watch],          // every lane's
    pub trace_lane: Option<usize>,
}

#[inline(always)]
fn condition(cond: u8, f: u8) -> bool {
    let (z, s, c, o) = (f & ZF != 0, f & SF != 0, f & CF != 0, f & OF != 0);
    match cond {
        0 => true,
        1 => z,
        2 => !z,
        3 => s,
        4 => !s,
        5 => c,
        6 => !c,
        7 => o,
        8 => !o,
        9 => s != o,
        10 => s == o,
        11 => !z && s == o,
        12 => z || s != o,
        13 => !c && !z,
        _ => c || z,
    }
}

impl<'a, A: Alu + Sync> Runner<'a, A> {
    /// Runs every running lane for at most `max_steps` instructions each.
    /// With `honor_breakpoints`, a lane stops *before* an instruction that has a breakpoint
    /// (except the first one it executes after `resume`); with or without it, a lane stops before a
    /// memory access that `watches` covers (again, except right after `resume`). Returns instructions executed,
    /// and appends trace entries of the traced lane to `trace`.
    pub fn run(&self, s: &mut Lanes, max_steps: u64, honor_breakpoints: bool, trace: &mut TraceRing) -> u64 {
        let running: Vec<LaneMut> = s.views().into_iter().filter(|l| *l.status == Status::Running).collect();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        if threads < 2 || running.len() < PARALLEL_LANES {
            return running.into_iter().map(|lane| self.run_lane(lane, max_steps, honor_breakpoints, trace)).sum();
        }
        // Lanes are independent: split them over the cores. Each part keeps its own trace ring;
        // only the part holding the traced lane writes one.
        let per_thread = running.len().div_ceil(threads);
        let mut parts: Vec<Vec<LaneMut>> = Vec::new();
        let mut rest = running;
        while !rest.is_empty() {
            let tail = rest.split_off(per_thread.min(rest.len()));
            parts.push(std::mem::replace(&mut rest, tail));
        }
        let depth = trace.depth;
        let results: Vec<(u64, TraceRing)> = std::thread::scope(|scope| {
            let handles: Vec<_> = parts
                .into_iter()
                .map(|part| {
                    scope.spawn(move || {
                        let mut ring = TraceRing { depth, entries: VecDeque::new() };
                        let done = part.into_iter().map(|l| self.run_lane(l, max_steps, honor_breakpoints, &mut ring)).sum();
                        (done, ring)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("lane thread panicked")).collect()
        });
        let mut total = 0;
        for (done, ring) in results {
            total += done;
            ring.entries.into_iter().for_each(|e| trace.push(e));
        }
        total
    }

    fn run_lane(&self, lane: LaneMut, max_steps: u64, honor_breakpoints: bool, trace: &mut TraceRing) -> u64 {
        let traced = self.trace_lane == Some(lane.index) && trace.depth > 0;
        let bps = honor_breakpoints && self.breakpoints[lane.program as usize].iter().any(|&b| b);
        let checks = bps || !self.watches.is_empty(); // the checked loop stops at breakpoints and watches
        let covered = !lane.coverage.is_empty();
        match (traced, checks, covered) {
            (false, false, false) => self.run_lane_as::<false, false, false>(lane, max_steps, bps, trace),
            (false, true, false) => self.run_lane_as::<false, true, false>(lane, max_steps, bps, trace),
            (true, false, false) => self.run_lane_as::<true, false, false>(lane, max_steps, bps, trace),
            (true, true, false) => self.run_lane_as::<true, true, false>(lane, max_steps, bps, trace),
            (false, false, true) => self.run_lane_as::<false, false, true>(lane, max_steps, bps, trace),
            (false, true, true) => self.run_lane_as::<false, true, true>(lane, max_steps, bps, trace),
            (true, false, true) => self.run_lane_as::<true, false, true>(lane, max_steps, bps, trace),
            (true, true, true) => self.run_lane_as::<true, true, true>(lane, max_steps, bps, trace),
        }
    }

    fn run_lane_as<const TRACE: bool, const CHECKS: bool, const COVER: bool>(
        &self,
        lane: LaneMut,
        max_steps: u64,
        bps: bool,
        trace: &mut TraceRing,
    ) -> u64 {
        let program = &self.programs[lane.program as usize];
        let bp = &self.breakpoints[lane.program as usize];
        let LaneMut { regs, mem, coverage, .. } = lane;
        let mem_size = mem.len();
        let mut pc = *lane.pc;
        let mut flags = *lane.flags;
        let mut skip = *lane.skip;
        let mut status = Status::Running;
        let mut fault = Fault::default();
        let mut done = 0u64;
        let read = |regs: &[u32; NREGS], r: u8| if r == ZERO_REG { 0 } else { regs[r as usize] };
        let watches = self.watches;
        'run: while done < max_steps {
            let Some(op) = program.get(pc as usize) else {
                status = Status::Halted; // running off the end halts, without a cycle
                break;
            };
            let resuming = skip; // the instruction a breakpoint or watch stopped before: it runs now
            if CHECKS && bps && !resuming && bp[pc as usize] {
                status = Status::Breakpoint;
                break;
            }
            skip = false;
            // A watched access stops the lane before the instruction changes anything.
            macro_rules! watch {
                ($addr:expr, $width:expr, $write:expr) => {
                    if CHECKS && !resuming && watched(watches, $addr, $width, $write) {
                        status = Status::Watchpoint;
                        fault = Fault { kind: 3 + $write as u8, value: $addr };
                        break 'run;
                    }
                };
            }
            let before = if TRACE { Some((*regs, flags)) } else { None };
            let mut access = None;
            let mut next = pc + 1;
            match op.kind {
                0 => {}
                1 => {
                    status = Status::Halted;
                    next = pc;
                }
                2 => {
                    let a = if op.a == NONE { 0 } else { regs[op.a as usize] };
                    let b = if op.b == NONE { op.imm } else { regs[op.b as usize] };
                    let (r, c, o) = self.alu.op(op.alu, a, b);
                    if op.dst != NONE {
                        regs[op.dst as usize] = r;
                    }
                    if op.flags != 0 {
                        let carry = if op.flags == 2 { (c as u8 * CF) | (o as u8 * OF) } else { flags & (CF | OF) };
                        flags = (self.alu.is_zero(r) as u8 * ZF) | (((r >> 31) as u8) * SF) | carry;
                    }
                }
                3 => {
                    if condition(op.cond, flags) {
                        next = op.target;
                    }
                }
                4 | 5 => {
                    let addr = self.alu.op(ADD, read(regs, op.a), op.imm).0;
                    let w = op.width as usize;
                    let at = addr as usize;
                    watch!(addr, op.width as u32, op.kind == 5);
                    access = Some((addr, op.width, op.kind == 5));
                    if at + w > mem_size {
                        fault = Fault { kind: 1, value: addr };
                    } else if op.kind == 4 {
                        regs[op.dst as usize] = if w == 1 {
                            mem[at] as u32
                        } else {
                            u32::from_le_bytes(mem[at..at + 4].try_into().unwrap())
                        };
                    } else {
                        let v = regs[op.b as usize];
                        if w == 1 {
                            mem[at] = v as u8;
                        } else {
                            mem[at..at + 4].copy_from_slice(&v.to_le_bytes());
                        }
                    }
                }
                6 | 8 => {
                    // push Rb / call: the stack grows down by one word
                    let value = if op.kind == 6 { regs[op.b as usize] } else { pc + 1 };
                    let addr = self.alu.op(SUB, regs[SP], 4).0;
                    let at = addr as usize;
                    watch!(addr, 4, true);
                    if at + 4 > mem_size {
                        fault = Fault { kind: 1, value: addr };
                    } else {
                        mem[at..at + 4].copy_from_slice(&value.to_le_bytes());
                        regs[SP] = addr;
                        access = Some((addr, 4, true));
                        if op.kind == 8 {
                            next = op.target;
                        }
                    }
                }
                _ => {
                    // pop Rd / ret
                    let addr = regs[SP];
                    let at = addr as usize;
                    watch!(addr, 4, false);
                    access = Some((addr, 4, false));
                    if at + 4 > mem_size {
                        fault = Fault { kind: 1, value: addr };
                    } else {
                        let value = u32::from_le_bytes(mem[at..at + 4].try_into().unwrap());
                        let sp = self.alu.op(ADD, addr, 4).0;
                        if op.kind == 7 {
                            regs[SP] = sp;
                            regs[op.dst as usize] = value;
                        } else if value as usize > program.len() {
                            fault = Fault { kind: 2, value };
                        } else {
                            regs[SP] = sp;
                            next = value;
                        }
                    }
                }
            }
            if fault.kind != 0 {
                status = Status::Fault; // a faulting instruction changes nothing and takes no cycle
                break;
            }
            if COVER && matches!(op.kind, 3 | 8 | 9) {
                cover(coverage, pc as u64, next as u64); // jump (taken or not), call, return
            }
            if let Some((old, f0)) = before {
                let mut changes = [(0u8, 0u32, 0u32); 2];
                let mut n = 0;
                for i in (0..NREGS).filter(|&i| old[i] != regs[i]).take(2) {
                    changes[n] = (i as u8, old[i], regs[i]);
                    n += 1;
                }
                trace.push(TraceEntry {
                    cycle: *lane.cycles + done,
                    pc,
                    next_pc: next,
                    flags_before: f0,
                    flags_after: flags,
                    changes,
                    n_changes: n as u8,
                    access,
                });
            }
            pc = next;
            done += 1;
            if status == Status::Halted {
                break;
            }
        }
        *lane.pc = pc;
        *lane.flags = flags;
        *lane.cycles += done;
        *lane.status = status;
        *lane.fault = fault;
        *lane.skip = skip;
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[allow(clippy::too_many_arguments)] // one argument per MicroOp field
    fn op(kind: u8, alu: u8, dst: u8, a: u8, b: u8, imm: u32, flags: u8, cond: u8, target: u32) -> MicroOp {
        MicroOp { kind, alu, dst, a, b, imm, flags, cond, width: 4, target }
    }

    /// R1 = R0 + (R0-1) + ... + 1, as: loop: ADD R1,R1,R0; SUB R0,R0,1; JNZ loop; HALT
    fn sum_program() -> Vec<MicroOp> {
        vec![
            op(2, 1, 1, 1, 0, 0, 2, 0, 0),
            op(2, 2, 0, 0, NONE, 1, 2, 0, 0),
            op(3, 0, NONE, NONE, NONE, 0, 0, 2, 0),
            op(1, 0, NONE, NONE, NONE, 0, 0, 0, 0),
        ]
    }

    fn run(programs: &[Vec<MicroOp>], s: &mut Lanes, steps: u64, bps: &[Vec<bool>]) -> (u64, TraceRing) {
        let mut trace = TraceRing { depth: 4, entries: VecDeque::new() };
        let runner = Runner { alu: &crate::ncpu::alu::FastAlu, programs, breakpoints: bps, watches: &[], trace_lane: Some(0) };
        (runner.run(s, steps, true, &mut trace), trace)
    }

    #[test]
    fn lanes_run_independently_to_halt() {
        let programs = vec![sum_program()];
        let mut s = Lanes::new(3, 16);
        for (lane, n) in [10u32, 1, 100].into_iter().enumerate() {
            s.reset_lane(lane, &[]);
            s.regs[lane * NREGS] = n;
        }
        let (done, trace) = run(&programs, &mut s, 1_000, &[vec![false; 5]]);
        assert_eq!(done, 31 + 4 + 301);
        assert_eq!([s.regs[1], s.regs[NREGS + 1], s.regs[2 * NREGS + 1]], [55, 1, 5050]);
        assert!(s.status.iter().all(|&st| st == Status::Halted));
        assert_eq!(trace.entries.len(), 4);
        assert_eq!(trace.entries.back().unwrap().pc, 3);
    }

    #[test]
    fn breakpoint_stops_before_and_resumes_over() {
        let programs = vec![sum_program()];
        let mut bps = vec![vec![false; 5]];
        bps[0][2] = true;
        let mut s = Lanes::new(1, 16);
        s.reset_lane(0, &[]);
        s.regs[0] = 2;
        run(&programs, &mut s, 100, &bps);
        assert_eq!((s.status[0], s.pc[0], s.cycles[0]), (Status::Breakpoint, 2, 2));
        s.status[0] = Status::Running;
        s.skip_breakpoint[0] = true;
        run(&programs, &mut s, 100, &bps);
        assert_eq!((s.status[0], s.pc[0], s.cycles[0]), (Status::Breakpoint, 2, 5));
    }

    #[test]
    fn a_watched_store_stops_before_it_and_resumes_over_it() {
        // R1 = 0 + 7; ST [ZERO+8], R1; HALT
        let programs = vec![vec![op(2, ADD, 1, NONE, NONE, 7, 0, 0, 0), op(5, 0, NONE, ZERO_REG, 1, 8, 0, 0, 0), op(1, 0, 0, 0, 0, 0, 0, 0, 0)]];
        let mut s = Lanes::new(1, 64);
        s.reset_lane(0, &[]);
        let watches = [Watch { start: 10, end: 11, read: false, write: true }];
        let runner = Runner { alu: &crate::ncpu::alu::FastAlu, programs: &programs, breakpoints: &[vec![false; 3]], watches: &watches, trace_lane: None };
        let mut ring = TraceRing::default();
        runner.run(&mut s, 100, false, &mut ring);
        assert_eq!((s.status[0], s.pc[0], s.cycles[0], s.fault[0]), (Status::Watchpoint, 1, 1, Fault { kind: 4, value: 8 }));
        assert_eq!(&s.mem[8..12], &[0, 0, 0, 0]); // nothing written yet
        s.status[0] = Status::Running;
        s.skip_breakpoint[0] = true;
        runner.run(&mut s, 100, false, &mut ring);
        assert_eq!((s.status[0], s.cycles[0]), (Status::Halted, 3));
        assert_eq!(&s.mem[8..12], &[7, 0, 0, 0]);
        let reads = [Watch { start: 8, end: 12, read: true, write: false }]; // a store is not a read
        s.reset_lane(0, &[]);
        Runner { watches: &reads, ..runner }.run(&mut s, 100, false, &mut ring);
        assert_eq!(s.status[0], Status::Halted);
    }

    #[test]
    fn coverage_counts_each_lanes_branch_edges_taken_or_not() {
        // SUB flags of R0 - 0; JZ 3; NOP; HALT: lane 0 (R0 = 0) takes the jump, lane 1 (R0 = 5) falls through
        let programs = vec![vec![
            op(2, SUB, NONE, 0, NONE, 0, 2, 0, 0),
            op(3, 0, NONE, NONE, NONE, 0, 0, 1, 3),
            op(0, 0, NONE, NONE, NONE, 0, 0, 0, 0),
            op(1, 0, NONE, NONE, NONE, 0, 0, 0, 0),
        ]];
        let mut s = Lanes::new(2, 16);
        s.set_coverage(true);
        for lane in 0..2 {
            s.reset_lane(lane, &[]);
        }
        s.regs[NREGS] = 5;
        run(&programs, &mut s, 10, &[vec![false; 5]]);
        let hits = |s: &Lanes, lane: usize| -> Vec<(usize, u8)> {
            s.coverage[lane * COVERAGE_SLOTS..(lane + 1) * COVERAGE_SLOTS].iter().copied().enumerate().filter(|e| e.1 != 0).collect()
        };
        let (taken, fallen) = (hits(&s, 0), hits(&s, 1));
        let mut map = vec![0u8; COVERAGE_SLOTS];
        cover(&mut map, 1, 3);
        assert_eq!(taken, vec![(map.iter().position(|&c| c != 0).unwrap(), 1)]); // the edge 1 -> 3, once
        assert_eq!(fallen.len(), 1);
        assert_ne!(taken[0].0, fallen[0].0); // 1 -> 2 lands in another slot
        s.reset_lane(0, &[]);
        assert!(hits(&s, 0).is_empty() && !hits(&s, 1).is_empty()); // a reset clears that lane's map only
        s.set_coverage(false);
        assert!(s.coverage.is_empty());
    }

    #[test]
    fn out_of_range_store_faults_without_a_cycle() {
        let programs = vec![vec![op(5, 0, NONE, ZERO_REG, 0, 14, 0, 0, 0)]];
        let mut s = Lanes::new(1, 16);
        s.reset_lane(0, &[]);
        run(&programs, &mut s, 10, &[vec![false; 2]]);
        assert_eq!((s.status[0], s.cycles[0], s.fault[0]), (Status::Fault, 0, Fault { kind: 1, value: 14 }));
    }

    #[test]
    fn malformed_micro_ops_are_rejected_before_they_run() {
        assert!(check_op(&op(5, 0, NONE, ZERO_REG, NONE, 0, 0, 0, 0), 1).is_err()); // store of nothing
        assert!(check_op(&op(2, 0, 12, NONE, NONE, 0, 0, 0, 0), 1).is_err()); // no register 12
        assert!(check_op(&op(3, 0, NONE, NONE, NONE, 0, 0, 0, 9), 1).is_err()); // jump past the end
        assert!(check_op(&op(2, 0, 0, ZERO_REG, NONE, 0, 0, 0, 0), 1).is_err()); // zero base outside memory ops
    }
}
