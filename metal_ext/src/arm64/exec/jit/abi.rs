//! What compiled code and Rust exchange: the environment of a call, the chain table of regions,
//! the field offsets compiled code uses, and the signature every region has.

use std::mem::offset_of;

use cranelift_codegen::ir::{types::{I32, I64}, AbiParam, Signature};
use cranelift_codegen::isa::CallConv;

use crate::arm64::mem::{TlbEntry, TLB_ADDEND, TLB_ENTRIES, TLB_ENTRY_SIZE, TLB_READ, TLB_WRITE};
use crate::arm64::state::CpuState;

/// What compiled code exchanges with its caller besides the registers.
#[repr(C)]
pub(super) struct Env {
    pub(super) tlb: *const TlbEntry,
    /// Instructions the regions of this call may retire in all.
    pub(super) budget: u64,
    /// Instructions they did retire (each region adds its own).
    pub(super) retired: u64,
    pub(super) chain: *const Link,
}

/// Entries of a chain table: a region's PC, code and length. An exit to a PC found here goes
/// straight on into that region (a tail call), while the budget allows a pass through it.
#[derive(Clone, Copy)]
#[repr(C)]
pub struct Link {
    pub(super) pc: u64,
    pub(super) code: *const u8,
    pub(super) len: u64,
}

/// Entries in a chain table (direct-mapped by PC).
pub const CHAIN_LINKS: usize = 1024;

/// The table slot of `pc`.
pub fn link_slot(pc: u64) -> usize {
    (pc >> 2) as usize & (CHAIN_LINKS - 1)
}

/// An empty slot `i` of a chain table: it holds a PC of another slot, so that no PC, whatever
/// a guest branches to, finds it.
fn no_link(i: usize) -> Link {
    Link { pc: ((i ^ 1) << 2) as u64, code: std::ptr::null(), len: 0 }
}

pub fn empty_chain() -> Box<[Link; CHAIN_LINKS]> {
    Box::new(std::array::from_fn(no_link))
}

pub fn clear_chain(chain: &mut [Link; CHAIN_LINKS]) {
    for (i, link) in chain.iter_mut().enumerate() {
        *link = no_link(i);
    }
}

/// Regions use Cranelift's tail-call convention, so that one region can end by jumping into
/// the next; `enter` (compiled once, C convention) is how Rust calls the first.
pub(super) type Enter = unsafe extern "C" fn(*const u8, *mut CpuState, *mut Env) -> u64;

/// Field offsets compiled code uses.
pub(super) struct Layout {
    pub(super) x: i32,
    pub(super) nzcv: i32,
    pub(super) v: i32,
    pub(super) tpidr_el0: i32,
    pub(super) exclusive: i32,
    pub(super) env_tlb: i32,
    pub(super) env_budget: i32,
    pub(super) env_retired: i32,
    pub(super) env_chain: i32,
    pub(super) link_pc: i32,
    pub(super) link_code: i32,
    pub(super) link_len: i32,
    pub(super) tlb_entries: i32,
    pub(super) tlb_entry_size: i32,
    pub(super) tlb_read: i32,
    pub(super) tlb_write: i32,
    pub(super) tlb_addend: i32,
    /// The host's C calling convention, for calls out of compiled code (`run_simd`).
    pub(super) host_call: CallConv,
}

impl Layout {
    pub(super) fn new(host_call: CallConv) -> Layout {
        Layout {
            x: offset_of!(CpuState, x) as i32,
            nzcv: offset_of!(CpuState, nzcv) as i32,
            v: offset_of!(CpuState, v) as i32,
            tpidr_el0: offset_of!(CpuState, tpidr_el0) as i32,
            // An Option<NonZeroU64>: a u64 with 0 for none.
            exclusive: offset_of!(CpuState, exclusive) as i32,
            env_tlb: offset_of!(Env, tlb) as i32,
            env_budget: offset_of!(Env, budget) as i32,
            env_retired: offset_of!(Env, retired) as i32,
            env_chain: offset_of!(Env, chain) as i32,
            link_pc: offset_of!(Link, pc) as i32,
            link_code: offset_of!(Link, code) as i32,
            link_len: offset_of!(Link, len) as i32,
            tlb_entries: TLB_ENTRIES as i32,
            tlb_entry_size: TLB_ENTRY_SIZE as i32,
            tlb_read: TLB_READ as i32,
            tlb_write: TLB_WRITE as i32,
            tlb_addend: TLB_ADDEND as i32,
            host_call,
        }
    }
}

/// `fn(cpu, env) -> next pc` in the tail-call convention: what every region is.
pub(super) fn region_signature() -> Signature {
    let mut sig = Signature::new(CallConv::Tail);
    sig.params.extend([AbiParam::new(I64); 2]);
    sig.returns.push(AbiParam::new(I64));
    sig
}

/// What compiled code calls for a SIMD&FP data-processing instruction: the interpreter's
/// executor, on the machine state in memory. 0 if it ran; otherwise nothing changed and the
/// interpreter must run it (it then raises the undefined-instruction exception).
pub(super) extern "C" fn run_simd(cpu: *mut CpuState, word: u32) -> u32 {
    // SAFETY: compiled code passes the `cpu` of the call that entered it.
    let cpu = unsafe { &mut *cpu };
    crate::arm64::exec::simd_fp::execute(cpu, word).is_err() as u32
}

/// `run_simd`'s signature in the host's C convention.
pub(super) fn simd_signature(layout: &Layout) -> Signature {
    let mut sig = Signature::new(layout.host_call);
    sig.params.extend([AbiParam::new(I64), AbiParam::new(I32)]);
    sig.returns.push(AbiParam::new(I32));
    sig
}
