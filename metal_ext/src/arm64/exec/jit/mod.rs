//! The block compiler: a hot stretch of guest code (a *region*: the instructions of one page
//! reachable from where jumps often land, see `compile`) translated once by Cranelift into host
//! code, then run in place of the interpreter by the code cache.
//!
//! A region is entered only with a budget covering one pass through it, and a jump backwards
//! inside it continues only while another pass fits, so instruction budgets stay exact. Where
//! it exits to a region the code cache's chain table knows, it goes straight on into that one
//! (a tail call) under the same rule; in the end it returns the next PC and how many
//! instructions retired, with the machine as the interpreter would have left it after those
//! (see `emit`). Debugging (traces, breakpoints, watchpoints) runs the interpreter only.
//!
//! Compiled regions depend on nothing but their page's bytes and address, so they are kept
//! for the whole process, keyed by both: a forked child, a re-executed BusyBox or the same
//! page after an `mmap` elsewhere finds its code already compiled.

mod abi;
mod arena;
mod decode;
mod emit;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use cranelift_codegen::ir::{types::I64, AbiParam, Function, InstBuilder, Signature, UserFuncName};
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

use abi::{region_signature, Enter, Env, Layout};
use decode::{Insn, Item};
pub use abi::{clear_chain, empty_chain, link_slot, Link, CHAIN_LINKS};
use super::decoded::{decode as decode_op, Next, Op};
use crate::arm64::mem::{Memory, PAGE_SIZE};
use crate::arm64::state::CpuState;

/// Longest region, in instructions.
const MAX_REGION: usize = 64;
/// Shorter regions are left to the interpreter: entering compiled code has a fixed cost they
/// would hardly repay.
const MIN_REGION: usize = 3;
/// Executable memory taken at most; past it nothing more is compiled.
const MAX_CODE_BYTES: usize = 256 << 20;

/// A compiled region.
pub struct Region {
    code: *const u8,
    enter: Enter,
    /// Instructions in it: the most one pass retires.
    pub len: u64,
    /// The decoded first instruction, for the interpreter and the debugger.
    pub original: Op,
}

// SAFETY: the code pointers point to executable memory that is never freed or written again.
unsafe impl Send for Region {}
unsafe impl Sync for Region {}

impl Region {
    /// Runs the region from its first instruction with `budget` ≥ `len`, going on into the
    /// regions `chain` links to; returns the next PC and the instructions retired (at least
    /// one, unless the first one's access must go to the interpreter). None if `mem` cannot
    /// be used by compiled code now (a watchpoint).
    #[inline]
    pub fn run(&self, cpu: &mut CpuState, mem: &mut Memory, budget: u64, chain: &[Link; CHAIN_LINKS]) -> Option<(u64, u64)> {
        debug_assert!(budget >= self.len);
        let tlb = mem.tlb_for_compiled_code()?;
        let mut env = Env { tlb, budget, retired: 0, chain: chain.as_ptr() };
        // SAFETY: the code was compiled for this layout; it touches only `cpu`, `env`, the
        // chain's regions (compiled for this memory's code epoch) and the guest pages the TLB
        // entries point to, which `mem` keeps alive during the call.
        let next = unsafe { (self.enter)(self.code, cpu, &mut env) };
        Some((next, env.retired))
    }

    /// This region's entry in a chain table.
    pub fn link(&self, pc: u64) -> Link {
        Link { pc, code: self.code, len: self.len }
    }
}

/// The op that stands in the decoded page for a region's first instruction. Run as a handler,
/// it executes that instruction alone, so anything calling ops directly stays correct.
fn marker(region: &'static Region) -> Op {
    Op { run: entry, imm: region as *const Region as u64, ..region.original }
}

fn entry(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    let original = &region_of(op).expect("a region marker").original;
    (original.run)(cpu, mem, original, pc)
}

/// The region `op` stands for, if it is a region's marker.
#[inline(always)]
pub fn region_of(op: &Op) -> Option<&'static Region> {
    if op.run as *const () == entry as *const () {
        // SAFETY: markers are made by `marker` from regions that are never freed.
        Some(unsafe { &*(op.imm as *const Region) })
    } else {
        None
    }
}

/// Whether this host can run compiled code (x86-64; elsewhere the interpreter runs alone) and
/// the environment has not turned it off (`NCPU_NB_JIT=0`).
pub fn available() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| cfg!(target_arch = "x86_64") && std::env::var("NCPU_NB_JIT").map_or(true, |v| v != "0"))
}

struct Compiler {
    isa: OwnedTargetIsa,
    enter: Enter,
    ctx: Context,
    builder: FunctionBuilderContext,
    arena: arena::Arena,
    layout: Layout,
}

impl Compiler {
    fn new() -> Option<Compiler> {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").ok()?;
        // The differential tests check the translation; verifying each function costs a third
        // of compile time.
        flags.set("enable_verifier", "false").ok()?;
        // Cranelift's tail calls on x86-64 rely on frame pointers.
        flags.set("preserve_frame_pointers", "true").ok()?;
        let isa = cranelift_native::builder().ok()?.finish(settings::Flags::new(flags)).ok()?;
        let mut ctx = Context::new();
        let mut builder = FunctionBuilderContext::new();
        let mut arena = arena::Arena::new();
        let mut sig = Signature::new(isa.default_call_conv());
        sig.params.extend([AbiParam::new(I64); 3]);
        sig.returns.push(AbiParam::new(I64));
        ctx.func = Function::with_name_signature(UserFuncName::user(0, 0), sig);
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut builder);
            let block = b.create_block();
            b.append_block_params_for_function_params(block);
            b.switch_to_block(block);
            b.seal_block(block);
            let (code, cpu, env) = (b.block_params(block)[0], b.block_params(block)[1], b.block_params(block)[2]);
            let sig = b.import_signature(region_signature());
            let call = b.ins().call_indirect(sig, code, &[cpu, env]);
            let next = b.inst_results(call)[0];
            b.ins().return_(&[next]);
            b.finalize(isa.frontend_config());
        }
        let at = arena.install(ctx.compile(&*isa, &mut Default::default()).ok()?.code_buffer())?;
        // SAFETY: `at` holds the function just built, in the host's C calling convention.
        let enter = unsafe { std::mem::transmute::<*const u8, Enter>(at) };
        let layout = Layout::new(isa.default_call_conv());
        Some(Compiler { isa, enter, ctx, builder, arena, layout })
    }

    fn compile(&mut self, region: &[(u64, Item)], entry: u64) -> Option<*const u8> {
        if self.arena.mapped > MAX_CODE_BYTES {
            return None;
        }
        self.ctx.clear();
        self.ctx.func = Function::with_name_signature(UserFuncName::user(0, 0), region_signature());
        {
            let mut b = FunctionBuilder::new(&mut self.ctx.func, &mut self.builder);
            emit::Emitter::translate(&mut b, &self.layout, region, entry);
            b.finalize(self.isa.frontend_config());
        }
        let compiled = self.ctx.compile(&*self.isa, &mut Default::default()).ok()?;
        // Compiled code reaches other code only through pointers it loads (the chain table) and
        // reads no constant pool outside itself: nothing to relocate.
        if !compiled.buffer.relocs().is_empty() {
            return None;
        }
        let code = self.arena.install(compiled.code_buffer())?;
        perf_map(code, compiled.code_buffer().len(), entry);
        Some(code)
    }
}

/// With `NCPU_NB_PERF_MAP=1`, names each region for Linux `perf` by the guest PC it starts at
/// (in /tmp/perf-PID.map, where perf looks for code made at run time).
fn perf_map(code: *const u8, len: usize, pc: u64) {
    use std::io::Write;
    static MAP: OnceLock<Option<Mutex<std::fs::File>>> = OnceLock::new();
    let file = MAP.get_or_init(|| {
        let on = std::env::var("NCPU_NB_PERF_MAP").is_ok_and(|v| v == "1");
        on.then(|| std::fs::File::create(format!("/tmp/perf-{}.map", std::process::id())).ok().map(Mutex::new)).flatten()
    });
    if let Some(file) = file {
        let _ = writeln!(file.lock().unwrap(), "{:x} {len:x} guest_{pc:x}", code as usize);
    }
}

/// The regions compiled from one version of a page.
struct PageCode {
    bytes: Box<[u8]>,
    regions: HashMap<usize, &'static Region>,
}

struct Store {
    /// Made on the first compile (None inside if the host ISA is not supported), so that short
    /// runs never pay for setting Cranelift up.
    compiler: Option<Option<Compiler>>,
    /// Versions by (page number, hash of their bytes): a process that runs many programs at the
    /// same address keeps many versions of that page, and a scan through all of them made every
    /// lookup slower than the last.
    pages: HashMap<(u64, u64), Vec<PageCode>>,
    regions: u64,
}

/// A quick hash of a page's bytes (equal bytes are still compared in full).
fn content_hash(bytes: &[u8]) -> u64 {
    bytes.chunks(8).fold(bytes.len() as u64, |h, c| {
        let mut word = [0u8; 8];
        word[..c.len()].copy_from_slice(c);
        (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x517C_C1B7_2722_0A95)
    })
}

fn store() -> &'static Mutex<Store> {
    static STORE: OnceLock<Mutex<Store>> = OnceLock::new();
    STORE.get_or_init(|| Mutex::new(Store { compiler: None, pages: HashMap::new(), regions: 0 }))
}

/// Regions compiled in this process so far, and the bytes of executable memory they take.
pub fn totals() -> (u64, u64) {
    let store = store().lock().unwrap();
    (store.regions, store.compiler.as_ref().and_then(Option::as_ref).map_or(0, |c| c.arena.mapped as u64))
}

/// Markers for the regions already compiled from the page `number` holding `bytes`, as
/// (instruction index, op) pairs.
pub fn markers_for(number: u64, bytes: &[u8]) -> Vec<(usize, Op)> {
    let store = store().lock().unwrap();
    let Some(versions) = store.pages.get(&(number, content_hash(bytes))) else {
        return Vec::new();
    };
    versions
        .iter()
        .find(|v| *v.bytes == *bytes)
        .map(|v| v.regions.iter().map(|(&i, &r)| (i, marker(r))).collect())
        .unwrap_or_default()
}

/// Compiles the region entered at instruction `index` of page `number` holding `bytes`;
/// returns its marker, or None where no region worth compiling starts there.
///
/// The region holds the instructions of this page reachable from the entry through fall-through
/// and direct jumps, up to `MAX_REGION`, stopping at those `decode` leaves to the interpreter.
/// Calls, indirect branches and everything outside it are exits (following calls into their
/// callees made regions larger, slower to compile and no faster to run).
pub fn compile(number: u64, bytes: &[u8], index: usize) -> Option<Op> {
    // Another machine with the same page may have compiled it meanwhile.
    if let Some(&(_, marker)) = markers_for(number, bytes).iter().find(|(i, _)| *i == index) {
        return Some(marker);
    }
    let start = number * PAGE_SIZE;
    let count = bytes.len() / 4;
    let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
    let index_of = |pc: u64| (pc >= start && pc < start + bytes.len() as u64).then(|| ((pc - start) / 4) as usize);
    let mut region = std::collections::BTreeMap::new();
    let mut pending = vec![index];
    while let Some(i) = pending.pop() {
        if i >= count || region.contains_key(&i) || region.len() == MAX_REGION {
            continue;
        }
        let pc = start + 4 * i as u64;
        let Some(item) = decode::decode(word(i), pc) else { continue };
        region.insert(i, item);
        match item {
            Item::Base(Insn::Indirect { .. } | Insn::Branch { link: true, .. }) => {}
            Item::Base(Insn::Branch { target, .. }) => pending.extend(index_of(target)),
            _ => {
                pending.push(i + 1);
                pending.extend(item.target().and_then(index_of));
            }
        }
    }
    if region.len() < MIN_REGION {
        return None;
    }
    let region: Vec<(u64, Item)> = region.into_iter().map(|(i, item)| (start + 4 * i as u64, item)).collect();
    let pc = start + 4 * index as u64;
    let mut store = store().lock().unwrap();
    let compiler = store.compiler.get_or_insert_with(Compiler::new).as_mut()?;
    let code = compiler.compile(&region, pc)?;
    let (enter, len, original) = (compiler.enter, region.len() as u64, decode_op(word(index), pc));
    let region: &'static Region = Box::leak(Box::new(Region { code, enter, len, original }));
    let versions = store.pages.entry((number, content_hash(bytes))).or_default();
    let at = match versions.iter().position(|v| *v.bytes == *bytes) {
        Some(at) => at,
        None => {
            versions.push(PageCode { bytes: bytes.into(), regions: HashMap::new() });
            versions.len() - 1
        }
    };
    versions[at].regions.insert(index, region);
    store.regions += 1;
    Some(marker(region))
}
