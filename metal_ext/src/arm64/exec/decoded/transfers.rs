//! Specialised handlers for the loads and stores most code runs: single general-purpose
//! registers with an immediate or register offset and pre/post-index, SIMD&FP registers with an
//! immediate offset, and pairs of up to 16 bytes each.
//!
//! A handler only takes the translation cache's fast path (the page is cached with the needed
//! permission, the access stays within it, no watchpoint is set). Anything else, TLB misses,
//! faults and watchpoints included, goes to the interpreter for the whole instruction, as a tail
//! call, so the fast path needs no stack frame and the slow cases behave exactly as `step`.

use super::op::{field, generic, next, Handler, Next, Op};
use crate::arm64::decode::{Address, Insn, Reg, SIGN32, SIGN64, ZERO};
use crate::arm64::exec::alu::{extend, sign_extend};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

/// The immediate-offset addressing modes, as a handler parameter.
const OFFSET: u8 = 0;
const POST: u8 = 1;
const PRE: u8 = 3;

/// Picks `f::<SIZE, …>` for a runtime size of 1, 2, 4, 8 or 16 bytes.
macro_rules! sized {
    ($f:ident, $size:expr $(, $rest:expr)*) => {
        match $size {
            1 => $f::<1 $(, $rest)*> as Handler,
            2 => $f::<2 $(, $rest)*>,
            4 => $f::<4 $(, $rest)*>,
            8 => $f::<8 $(, $rest)*>,
            _ => $f::<16 $(, $rest)*>,
        }
    };
}

/// The handler of a load or store; None for other instructions and the forms left to the
/// interpreter (vectors with writeback or a register offset).
pub fn build(insn: &Insn, word: u32) -> Option<Op> {
    let with = |run: Handler, rt: Reg, base: Reg, imm: u64| Op { imm, a: field(rt), b: field(base), ..Op::new(run, word) };
    Some(match *insn {
        Insn::Load { size, ext, rt, addr } => single(word, Some(ext), rt, size, addr)?,
        Insn::Store { size, rt, addr } => single(word, None, rt, size, addr)?,
        Insn::LoadVector { size, vt, addr: Address::Offset { base, imm, .. } } => with(sized!(load_vector, size), vt, base, imm),
        Insn::StoreVector { size, vt, addr: Address::Offset { base, imm, .. } } => with(sized!(store_vector, size), vt, base, imm),
        Insn::LoadPair { size, rt, rt2, addr, .. } => pair(word, false, true, size, rt, rt2, addr)?,
        Insn::StorePair { size, rt, rt2, addr, .. } => pair(word, false, false, size, rt, rt2, addr)?,
        Insn::LoadVectorPair { size, vt, vt2, addr, .. } => pair(word, true, true, size, vt, vt2, addr)?,
        Insn::StoreVectorPair { size, vt, vt2, addr, .. } => pair(word, true, false, size, vt, vt2, addr)?,
        _ => return None,
    })
}

/// A general-purpose register's load (`load_ext` how it extends) or store.
fn single(word: u32, load_ext: Option<u8>, rt: Reg, size: u8, addr: Address) -> Option<Op> {
    let (mode, base, imm) = match addr {
        Address::Offset { base, imm, .. } => (OFFSET, base, imm),
        Address::Post { base, imm } => (POST, base, imm),
        Address::Pre { base, imm } => (PRE, base, imm),
        Address::Indexed { base, rm, option, lsl, .. } => {
            let run = match load_ext {
                None => sized!(store_register, size),
                Some(ZERO) => sized!(load_register, size, ZERO),
                Some(SIGN64) => sized!(load_register, size, SIGN64),
                Some(_) => sized!(load_register, size, SIGN32),
            };
            let (a, b, c) = (field(rt), field(base), field(rm));
            return Some(Op { a, b, c, d: option, imm: lsl as u64, ..Op::new(run, word) });
        }
    };
    Some(Op { imm, a: field(rt), b: field(base), ..Op::new(gpr_handler(size, load_ext, mode), word) })
}

fn gpr_handler(bytes: u8, load_ext: Option<u8>, mode: u8) -> Handler {
    match (load_ext, mode) {
        (None, OFFSET) => sized!(store_single, bytes, OFFSET),
        (None, POST) => sized!(store_single, bytes, POST),
        (None, _) => sized!(store_single, bytes, PRE),
        (Some(ext), OFFSET) => match ext {
            ZERO => sized!(load_single, bytes, ZERO, OFFSET),
            SIGN64 => sized!(load_single, bytes, SIGN64, OFFSET),
            _ => sized!(load_single, bytes, SIGN32, OFFSET),
        },
        (Some(ext), POST) => match ext {
            ZERO => sized!(load_single, bytes, ZERO, POST),
            SIGN64 => sized!(load_single, bytes, SIGN64, POST),
            _ => sized!(load_single, bytes, SIGN32, POST),
        },
        (Some(ext), _) => match ext {
            ZERO => sized!(load_single, bytes, ZERO, PRE),
            SIGN64 => sized!(load_single, bytes, SIGN64, PRE),
            _ => sized!(load_single, bytes, SIGN32, PRE),
        },
    }
}

#[allow(clippy::too_many_arguments)]
fn pair(word: u32, simd: bool, load: bool, bytes: u8, t: Reg, t2: Reg, addr: Address) -> Option<Op> {
    let (mode, base, imm) = match addr {
        Address::Offset { base, imm, .. } => (OFFSET, base, imm),
        Address::Post { base, imm } => (POST, base, imm),
        Address::Pre { base, imm } => (PRE, base, imm),
        Address::Indexed { .. } => return None,
    };
    let run = match (simd, load, mode) {
        (false, true, OFFSET) => sized!(load_pair, bytes, OFFSET),
        (false, true, POST) => sized!(load_pair, bytes, POST),
        (false, true, _) => sized!(load_pair, bytes, PRE),
        (false, false, OFFSET) => sized!(store_pair, bytes, OFFSET),
        (false, false, POST) => sized!(store_pair, bytes, POST),
        (false, false, _) => sized!(store_pair, bytes, PRE),
        (true, true, OFFSET) => sized!(load_vector_pair, bytes, OFFSET),
        (true, true, POST) => sized!(load_vector_pair, bytes, POST),
        (true, true, _) => sized!(load_vector_pair, bytes, PRE),
        (true, false, OFFSET) => sized!(store_vector_pair, bytes, OFFSET),
        (true, false, POST) => sized!(store_vector_pair, bytes, POST),
        (true, false, _) => sized!(store_vector_pair, bytes, PRE),
    };
    Some(Op { imm, a: field(t), b: field(base), c: field(t2), ..Op::new(run, word) })
}

/// The access address and the written-back base of an immediate-offset form.
#[inline(always)]
fn address<const MODE: u8>(cpu: &CpuState, op: &Op) -> (u64, u64) {
    let base = cpu.x[op.b as usize & 31];
    let moved = base.wrapping_add(op.imm);
    (if MODE == POST { base } else { moved }, moved)
}

#[inline(always)]
fn extended<const SIZE: usize, const EXT: u8>(v: u128) -> u64 {
    let v = v as u64;
    match EXT {
        ZERO => v,
        SIGN64 => sign_extend(v, 8 * SIZE as u32),
        _ => sign_extend(v, 8 * SIZE as u32) as u32 as u64,
    }
}

/// The register-offset address: base + extend(Rm, option `d`) << `imm`.
#[inline(always)]
fn indexed(cpu: &CpuState, op: &Op) -> u64 {
    cpu.x[op.b as usize & 31].wrapping_add(extend(cpu.xr(op.c as u32), op.d as u32, op.imm as u32))
}

fn load_single<const SIZE: usize, const EXT: u8, const MODE: u8>(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    let (addr, moved) = address::<MODE>(cpu, op);
    let Some(v) = mem.load_cached::<SIZE>(addr) else {
        return generic(cpu, mem, op, pc);
    };
    cpu.set_xr(op.a as u32, extended::<SIZE, EXT>(v));
    if MODE != OFFSET {
        cpu.x[op.b as usize & 31] = moved;
    }
    next(pc)
}

fn store_single<const SIZE: usize, const MODE: u8>(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    let (addr, moved) = address::<MODE>(cpu, op);
    if !mem.store_cached::<SIZE>(addr, cpu.xr(op.a as u32) as u128) {
        return generic(cpu, mem, op, pc);
    }
    if MODE != OFFSET {
        cpu.x[op.b as usize & 31] = moved;
    }
    next(pc)
}

fn load_register<const SIZE: usize, const EXT: u8>(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    let Some(v) = mem.load_cached::<SIZE>(indexed(cpu, op)) else {
        return generic(cpu, mem, op, pc);
    };
    cpu.set_xr(op.a as u32, extended::<SIZE, EXT>(v));
    next(pc)
}

fn store_register<const SIZE: usize>(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    if !mem.store_cached::<SIZE>(indexed(cpu, op), cpu.xr(op.a as u32) as u128) {
        return generic(cpu, mem, op, pc);
    }
    next(pc)
}

fn load_vector<const SIZE: usize>(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    let (addr, _) = address::<OFFSET>(cpu, op);
    let Some(v) = mem.load_cached::<SIZE>(addr) else {
        return generic(cpu, mem, op, pc);
    };
    cpu.v[op.a as usize & 31] = v;
    next(pc)
}

fn store_vector<const SIZE: usize>(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    let (addr, _) = address::<OFFSET>(cpu, op);
    if !mem.store_cached::<SIZE>(addr, cpu.v[op.a as usize & 31]) {
        return generic(cpu, mem, op, pc);
    }
    next(pc)
}

/// Both halves of a pair, read as one access so that the pair faults or hits a watchpoint as
/// a whole (the interpreter's rule); None when that access is not on the fast path.
#[inline(always)]
fn load_halves<const SIZE: usize>(mem: &Memory, addr: u64) -> Option<(u128, u128)> {
    if SIZE == 16 {
        let a = mem.load_cached::<16>(addr)?;
        // Both in one page, or the interpreter takes the whole pair.
        let b = if addr & 0xFFF <= 0xFE0 { mem.load_cached::<16>(addr + 16)? } else { return None };
        return Some((a, b));
    }
    let both = match SIZE {
        8 => mem.load_cached::<16>(addr)?,
        _ => mem.load_cached::<8>(addr)?,
    };
    let bits = 8 * SIZE as u32;
    Some((both & ((1 << bits) - 1), both >> bits))
}

/// Stores a pair as one access; false when that access is not on the fast path.
#[inline(always)]
fn store_halves<const SIZE: usize>(mem: &mut Memory, addr: u64, a: u128, b: u128) -> bool {
    if SIZE == 16 {
        // Both in one page, so once the first half is written the second cannot fail.
        return addr & 0xFFF <= 0xFE0 && mem.store_cached::<16>(addr, a) && mem.store_cached::<16>(addr + 16, b);
    }
    let bits = 8 * SIZE as u32;
    let both = (a & ((1 << bits) - 1)) | b << bits;
    match SIZE {
        8 => mem.store_cached::<16>(addr, both),
        _ => mem.store_cached::<8>(addr, both),
    }
}

fn load_pair<const SIZE: usize, const MODE: u8>(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    let (addr, moved) = address::<MODE>(cpu, op);
    let Some((a, b)) = load_halves::<SIZE>(mem, addr) else {
        return generic(cpu, mem, op, pc);
    };
    cpu.set_xr(op.a as u32, a as u64);
    cpu.set_xr(op.c as u32, b as u64);
    if MODE != OFFSET {
        cpu.x[op.b as usize & 31] = moved;
    }
    next(pc)
}

fn store_pair<const SIZE: usize, const MODE: u8>(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    let (addr, moved) = address::<MODE>(cpu, op);
    if !store_halves::<SIZE>(mem, addr, cpu.xr(op.a as u32) as u128, cpu.xr(op.c as u32) as u128) {
        return generic(cpu, mem, op, pc);
    }
    if MODE != OFFSET {
        cpu.x[op.b as usize & 31] = moved;
    }
    next(pc)
}

fn load_vector_pair<const SIZE: usize, const MODE: u8>(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    let (addr, moved) = address::<MODE>(cpu, op);
    let Some((a, b)) = load_halves::<SIZE>(mem, addr) else {
        return generic(cpu, mem, op, pc);
    };
    cpu.v[op.a as usize & 31] = a;
    cpu.v[op.c as usize & 31] = b;
    if MODE != OFFSET {
        cpu.x[op.b as usize & 31] = moved;
    }
    next(pc)
}

fn store_vector_pair<const SIZE: usize, const MODE: u8>(cpu: &mut CpuState, mem: &mut Memory, op: &Op, pc: u64) -> Next {
    let (addr, moved) = address::<MODE>(cpu, op);
    if !store_halves::<SIZE>(mem, addr, cpu.v[op.a as usize & 31], cpu.v[op.c as usize & 31]) {
        return generic(cpu, mem, op, pc);
    }
    if MODE != OFFSET {
        cpu.x[op.b as usize & 31] = moved;
    }
    next(pc)
}
