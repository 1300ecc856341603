//! The code cache: each executable page decoded once into handlers (`decoded`), then run
//! without fetching or decoding again, until the memory's code epoch says the page table or an
//! executable page changed. Where jumps land often, the region starting there is compiled
//! (`jit`) and its marker takes the first instruction's place.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::decoded::decode;
pub use super::decoded::Op;
use super::jit;
use super::exception::Exception;
use crate::arm64::mem::{Memory, PageHasher, PAGE_SHIFT, PAGE_SIZE};
use crate::arm64::state::CpuState;

const OPS_PER_PAGE: usize = (PAGE_SIZE / 4) as usize;
/// Pages whose decoded form is one array index away.
const RECENT: usize = 64;
/// Jumps landing on an instruction before the region starting there is compiled (lower
/// thresholds compiled lukewarm code: more compile time than it saved on the BusyBox workloads).
const HOT: u16 = 1024;
/// Heat of an instruction where no region is compiled: it starts none, or one starts there.
const SETTLED: u16 = u16::MAX;

/// One executable page: its instructions decoded, and how often jumps landed on each.
struct Page {
    ops: [Op; OPS_PER_PAGE],
    heat: [u16; OPS_PER_PAGE],
}

/// What watches `CodeCache::run_observed` execute instructions one by one.
pub trait Observer {
    /// `op`, at `cpu.pc`, is about to run.
    fn before(&mut self, cpu: &CpuState, op: &Op);
    /// It retired; `cpu.pc` is the next instruction's.
    fn after(&mut self, cpu: &CpuState);
}

/// The decoded page a run is in, fetched again only when the PC leaves it or the epoch moves.
struct CurrentPage {
    /// The page's address, so that one comparison also rejects a misaligned PC.
    page: u64,
    decoded: *mut Page,
    epoch: u64,
}

impl CurrentPage {
    fn new(mem: &Memory) -> Self {
        CurrentPage { page: u64::MAX, decoded: std::ptr::null_mut(), epoch: mem.code_epoch() }
    }

    #[inline(always)]
    fn holding(&mut self, cache: &mut CodeCache, mem: &mut Memory, pc: u64) -> Result<*mut Page, Box<Exception>> {
        if pc & !(PAGE_SIZE - 4) != self.page || mem.code_epoch() != self.epoch {
            self.decoded = cache.page(mem, pc)?;
            self.page = pc & !(PAGE_SIZE - 1);
            self.epoch = mem.code_epoch();
        }
        Ok(self.decoded)
    }
}

/// Decoded pages of one address space. Cloning gives an empty cache: a clone of the memory has
/// an epoch of its own.
pub struct CodeCache {
    epoch: u64,
    pages: HashMap<u64, Box<Page>, BuildHasherDefault<PageHasher>>,
    /// Page number and decoded page of recently entered pages (`u64::MAX`: none).
    recent: [(u64, *mut Page); RECENT],
    /// Regions entered under the current epoch, for compiled code to go from one to the next.
    chain: Box<[jit::Link; jit::CHAIN_LINKS]>,
}

// SAFETY: the raw pointers point into boxes this cache owns; nothing else reaches them.
unsafe impl Send for CodeCache {}
unsafe impl Sync for CodeCache {}

impl Default for CodeCache {
    fn default() -> Self {
        CodeCache {
            epoch: 0,
            pages: HashMap::default(),
            recent: [(u64::MAX, std::ptr::null_mut()); RECENT],
            chain: jit::empty_chain(),
        }
    }
}

impl Clone for CodeCache {
    fn clone(&self) -> Self {
        CodeCache::default()
    }
}

impl CodeCache {
    /// Executes up to `limit` instructions, as that many calls of `exec::step` would. Returns how
    /// many retired (an SVC counts) and the exception that stopped them, if any.
    pub fn run(&mut self, cpu: &mut CpuState, mem: &mut Memory, limit: u64) -> (u64, Result<(), Exception>) {
        let mut n = 0;
        let mut pc = cpu.pc;
        let mut current = CurrentPage::new(mem);
        let compiling = jit::available();
        // Whether a jump (or the start of this run, or compiled code) led to `pc`: only such
        // places are counted, compiled and entered.
        let mut landed = compiling;
        while n < limit {
            let decoded = match current.holding(self, mem, pc) {
                Ok(p) => p,
                Err(e) => {
                    cpu.pc = pc;
                    return (n, Err(*e));
                }
            };
            let index = (pc & (PAGE_SIZE - 1)) as usize >> 2;
            // SAFETY: `decoded` is the page holding `pc`, which stays in the cache until the
            // epoch moves; a handler that moves it is the last to use it before the check
            // above fetches the page again.
            let mut op = unsafe { &(*decoded).ops[index] };
            // Whether the instruction after this one counts as landed on too: it may start the
            // region this place could not.
            let mut next_too = false;
            if landed {
                if let Some(region) = jit::region_of(op) {
                    if limit - n >= region.len {
                        self.chain[jit::link_slot(pc)] = region.link(pc);
                        if let Some((next, retired)) = region.run(cpu, mem, limit - n, &self.chain) {
                            if retired > 0 {
                                n += retired;
                                cpu.counter = cpu.counter.wrapping_add(retired);
                                pc = next;
                                continue;
                            }
                        }
                    }
                    // Its first access must go through the interpreter (or the budget is
                    // short): the next instruction may still start a region.
                    op = &region.original;
                    next_too = true;
                } else {
                    // SAFETY: as above.
                    let heat = unsafe { &mut (*decoded).heat[index] };
                    if *heat < HOT {
                        *heat += 1;
                    } else if *heat == HOT {
                        *heat = SETTLED;
                        if self.compile(mem, pc, decoded) {
                            continue;
                        }
                    }
                    next_too = *heat == SETTLED;
                }
            }
            match (op.run)(cpu, mem, op, pc) {
                Ok(next) => {
                    landed = compiling && (next_too || next != pc.wrapping_add(4));
                    pc = next;
                    n += 1;
                    cpu.counter = cpu.counter.wrapping_add(1);
                }
                Err(e) => return (n + Self::stopped(cpu, pc, &e) as u64, Err(*e)),
            }
        }
        cpu.pc = pc;
        (n, Ok(()))
    }

    /// Executes up to `limit` instructions as `run` does, but each on its own (no compiled code),
    /// calling `observer` just before each one runs and again once it has retired (not when it
    /// raises an exception: the caller sees that one).
    pub fn run_observed(
        &mut self,
        cpu: &mut CpuState,
        mem: &mut Memory,
        limit: u64,
        observer: &mut impl Observer,
    ) -> (u64, Result<(), Exception>) {
        let mut n = 0;
        let mut pc = cpu.pc;
        let mut current = CurrentPage::new(mem);
        while n < limit {
            let decoded = match current.holding(self, mem, pc) {
                Ok(p) => p,
                Err(e) => {
                    cpu.pc = pc;
                    return (n, Err(*e));
                }
            };
            // SAFETY: as in `run`.
            let op = unsafe { &(*decoded).ops[(pc & (PAGE_SIZE - 1)) as usize >> 2] };
            let op = jit::region_of(op).map_or(op, |region| &region.original);
            observer.before(cpu, op);
            match (op.run)(cpu, mem, op, pc) {
                Ok(next) => {
                    pc = next;
                    n += 1;
                    cpu.counter = cpu.counter.wrapping_add(1);
                    cpu.pc = pc;
                    observer.after(cpu);
                }
                Err(e) => return (n + Self::stopped(cpu, pc, &e) as u64, Err(*e)),
            }
        }
        (n, Ok(()))
    }

    /// Compiles the region starting at `pc` into `decoded`, its page; whether one was.
    #[cold]
    #[inline(never)]
    fn compile(&mut self, mem: &mut Memory, pc: u64, decoded: *mut Page) -> bool {
        let mut bytes = [0u8; PAGE_SIZE as usize];
        if mem.peek(pc & !(PAGE_SIZE - 1), &mut bytes).is_err() {
            return false;
        }
        let index = (pc & (PAGE_SIZE - 1)) as usize >> 2;
        match jit::compile(pc >> PAGE_SHIFT, &bytes, index) {
            Some(marker) => {
                // SAFETY: `decoded` is this cache's page holding `pc`; nothing borrows it now.
                unsafe { (*decoded).ops[index] = marker };
                true
            }
            None => false,
        }
    }

    /// Executes the instruction at `cpu.pc` as `exec::step` does.
    pub fn step(&mut self, cpu: &mut CpuState, mem: &mut Memory) -> Result<(), Exception> {
        let op = self.fetch(mem, cpu.pc)?;
        Self::execute(cpu, mem, op)
    }

    /// The decoded instruction at `pc`, or the exception fetching it raises. It stays valid
    /// while executing, even if that renews the memory's code epoch: pages are only dropped
    /// when the cache is next asked for one.
    pub fn fetch(&mut self, mem: &mut Memory, pc: u64) -> Result<&Op, Exception> {
        let decoded = self.page(mem, pc).map_err(|e| *e)?;
        // SAFETY: as in `run`.
        let op = unsafe { &(*decoded).ops[(pc & (PAGE_SIZE - 1)) as usize >> 2] };
        Ok(jit::region_of(op).map_or(op, |region| &region.original))
    }

    /// Executes `op`, fetched at `cpu.pc`, as `exec::step` does.
    pub fn execute(cpu: &mut CpuState, mem: &mut Memory, op: &Op) -> Result<(), Exception> {
        let pc = cpu.pc;
        match (op.run)(cpu, mem, op, pc) {
            Ok(next) => {
                cpu.pc = next;
                cpu.counter = cpu.counter.wrapping_add(1);
                Ok(())
            }
            Err(e) => {
                Self::stopped(cpu, pc, &e);
                Err(*e)
            }
        }
    }

    /// Puts `cpu.pc` where an exception leaves it (past an SVC, else at the instruction) and
    /// counts an SVC as retired; returns whether it was one.
    fn stopped(cpu: &mut CpuState, pc: u64, e: &Exception) -> bool {
        let svc = matches!(e, Exception::Svc { .. });
        cpu.pc = if svc { pc.wrapping_add(4) } else { pc };
        if svc {
            cpu.counter = cpu.counter.wrapping_add(1);
        }
        svc
    }

    /// The decoded page holding `pc`, decoding it on first use; the fetch's exception if `pc`
    /// is misaligned or its page not executable.
    #[inline(always)]
    fn page(&mut self, mem: &mut Memory, pc: u64) -> Result<*mut Page, Box<Exception>> {
        let number = pc >> PAGE_SHIFT;
        let slot = number as usize % RECENT;
        if pc & 3 == 0 && self.epoch == mem.code_epoch() && self.recent[slot].0 == number {
            return Ok(self.recent[slot].1);
        }
        self.enter(mem, pc)
    }

    #[inline(never)]
    fn enter(&mut self, mem: &mut Memory, pc: u64) -> Result<*mut Page, Box<Exception>> {
        if pc & 3 != 0 {
            return Err(Box::new(Exception::Alignment { pc, addr: pc }));
        }
        if self.epoch != mem.code_epoch() {
            self.pages.clear();
            self.recent.fill((u64::MAX, std::ptr::null_mut()));
            jit::clear_chain(&mut self.chain);
            self.epoch = mem.code_epoch();
        }
        let number = pc >> PAGE_SHIFT;
        if let Entry::Vacant(vacant) = self.pages.entry(number) {
            mem.fetch(pc).map_err(|fault| Exception::Memory { pc, fault })?;
            let start = number << PAGE_SHIFT;
            let mut bytes = [0u8; PAGE_SIZE as usize];
            mem.peek(start, &mut bytes).expect("an executable page is mapped");
            let mut decoded = Box::new(Page {
                ops: std::array::from_fn(|i| {
                    decode(u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()), start + 4 * i as u64)
                }),
                heat: [0; OPS_PER_PAGE],
            });
            if jit::available() {
                for (i, marker) in jit::markers_for(number, &bytes) {
                    decoded.ops[i] = marker;
                }
            }
            vacant.insert(decoded);
        }
        let ops: *mut Page = &mut **self.pages.get_mut(&number).unwrap();
        self.recent[number as usize % RECENT] = (number, ops);
        Ok(ops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arm64::mem::{EXEC, READ, WRITE};

    const MOV_X0_1: u32 = 0xD280_0020; // mov x0, #1
    const MOV_X0_2: u32 = 0xD280_0040; // mov x0, #2
    const RET: u32 = 0xD65F_03C0;

    fn run_at(code: &mut CodeCache, cpu: &mut CpuState, mem: &mut Memory, pc: u64) -> Result<(), Exception> {
        cpu.pc = pc;
        code.run(cpu, mem, 2).1
    }

    #[test]
    fn code_written_after_decoding_runs_as_written() {
        let mut mem = Memory::new();
        mem.map(0x1000, 0x1000, READ | WRITE | EXEC);
        mem.map(0x2000, 0x1000, READ | EXEC);
        mem.poke(0x2000, &0xB900_0022u32.to_le_bytes()).unwrap(); // str w2, [x1]
        mem.poke(0x2004, &RET.to_le_bytes()).unwrap();
        let (mut code, mut cpu) = (CodeCache::default(), CpuState::default());
        mem.write_u32(0x1000, MOV_X0_1).unwrap();
        mem.write_u32(0x1004, RET).unwrap();
        run_at(&mut code, &mut cpu, &mut mem, 0x1000).unwrap();
        assert_eq!(cpu.x[0], 1);
        // A guest store, as a JIT would make it, then the same address again.
        cpu.x[1] = 0x1000;
        cpu.x[2] = MOV_X0_2 as u64;
        cpu.x[30] = 0x1000;
        run_at(&mut code, &mut cpu, &mut mem, 0x2000).unwrap();
        assert_eq!(cpu.pc, 0x1000);
        code.run(&mut cpu, &mut mem, 1).1.unwrap();
        assert_eq!(cpu.x[0], 2);
    }

    #[test]
    fn pages_no_longer_executable_fault() {
        let mut mem = Memory::new();
        mem.map(0x1000, 0x1000, READ | EXEC);
        mem.poke(0x1000, &MOV_X0_1.to_le_bytes()).unwrap();
        let (mut code, mut cpu) = (CodeCache::default(), CpuState::default());
        cpu.pc = 0x1000;
        code.run(&mut cpu, &mut mem, 1).1.unwrap();
        mem.protect(0x1000, 0x1000, READ).unwrap();
        cpu.pc = 0x1000;
        assert!(matches!(code.run(&mut cpu, &mut mem, 1).1, Err(Exception::Memory { pc: 0x1000, .. })));
        cpu.pc = 0x1002;
        assert_eq!(code.run(&mut cpu, &mut mem, 1).1, Err(Exception::Alignment { pc: 0x1002, addr: 0x1002 }));
    }
}
