//! Specialised handlers for the loads and stores most code runs: single general-purpose
//! registers with an immediate or register offset and pre/post-index, SIMD&FP registers with an
//! immediate offset, and pairs of up to 16 bytes each.
//!
//! A handler only takes the translation cache's fast path (the page is cached with the needed
//! permission, the access stays within it, no watchpoint is set). Anything else, TLB misses,
//! faults and watchpoints included, goes to the interpreter for the whole instruction, as a tail
//! call, so the fast path needs no stack frame and the slow cases behave exactly as `step`.

use super::{generic, next, Handler, Next, Op};
use crate::arm64::decode::{pair_scale, single_form, SIGN32, SIGN64, ZERO};
use crate::arm64::exec::alu::{extend, sign_extend};
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

/// Addressing modes, as bits 11..10 of the immediate forms say them.
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

/// Loads and stores (op0 = x1x0); None leaves the word to the interpreter.
pub fn decode(word: u32) -> Option<Op> {
    match word & 0x3A00_0000 {
        0x3800_0000 => single(word),
        0x2800_0000 => pair(word),
        _ => None,
    }
}

fn single(word: u32) -> Option<Op> {
    let (simd, scale, load_ext) = single_form(word)?;
    let bytes = 1u32 << scale;
    let base = Op { a: (word & 31) as u8, b: ((word >> 5) & 31) as u8, ..Op::new(super::generic, word) };
    if word & (1 << 24) != 0 {
        let imm = (((word >> 10) & 0xFFF) as u64) << scale;
        return Some(Op { imm, run: offset_handler(simd, bytes, load_ext, OFFSET), ..base });
    }
    let mode = ((word >> 10) & 3) as u8;
    if word & (1 << 21) == 0 {
        // Mode 2 is the unprivileged LDTR/STTR family.
        if mode == 2 || (simd && mode != OFFSET) {
            return None;
        }
        let imm = sign_extend(((word >> 12) & 0x1FF) as u64, 9);
        return Some(Op { imm, run: offset_handler(simd, bytes, load_ext, mode), ..base });
    }
    let option = (word >> 13) & 7;
    if mode != 2 || option & 2 == 0 || simd {
        return None; // atomics, and reserved extends
    }
    let lsl = if word & (1 << 12) != 0 { scale } else { 0 };
    let run = match load_ext {
        None => sized!(store_register, bytes),
        Some(ZERO) => sized!(load_register, bytes, ZERO),
        Some(SIGN64) => sized!(load_register, bytes, SIGN64),
        Some(_) => sized!(load_register, bytes, SIGN32),
    };
    Some(Op { c: ((word >> 16) & 31) as u8, d: option as u8, imm: lsl as u64, run, ..base })
}

fn offset_handler(simd: bool, bytes: u32, load_ext: Option<u8>, mode: u8) -> Handler {
    match (simd, load_ext, mode) {
        (true, None, _) => sized!(store_vector, bytes),
        (true, Some(_), _) => sized!(load_vector, bytes),
        (false, None, OFFSET) => sized!(store_single, bytes, OFFSET),
        (false, None, POST) => sized!(store_single, bytes, POST),
        (false, None, _) => sized!(store_single, bytes, PRE),
        (false, Some(ext), OFFSET) => match ext {
            ZERO => sized!(load_single, bytes, ZERO, OFFSET),
            SIGN64 => sized!(load_single, bytes, SIGN64, OFFSET),
            _ => sized!(load_single, bytes, SIGN32, OFFSET),
        },
        (false, Some(ext), POST) => match ext {
            ZERO => sized!(load_single, bytes, ZERO, POST),
            SIGN64 => sized!(load_single, bytes, SIGN64, POST),
            _ => sized!(load_single, bytes, SIGN32, POST),
        },
        (false, Some(ext), _) => match ext {
            ZERO => sized!(load_single, bytes, ZERO, PRE),
            SIGN64 => sized!(load_single, bytes, SIGN64, PRE),
            _ => sized!(load_single, bytes, SIGN32, PRE),
        },
    }
}

fn pair(word: u32) -> Option<Op> {
    let simd = word & (1 << 26) != 0;
    let scale = pair_scale(word)?;
    let bytes = 1u32 << scale;
    let mode = match (word >> 23) & 3 {
        1 => POST,
        3 => PRE,
        _ => OFFSET, // 0 is the non-temporal LDNP/STNP
    };
    let run = match (simd, word & (1 << 22) != 0, mode) {
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
    let imm = sign_extend(((word >> 15) & 0x7F) as u64, 7) << scale;
    Some(Op { imm, a: (word & 31) as u8, b: ((word >> 5) & 31) as u8, c: ((word >> 10) & 31) as u8, ..Op::new(run, word) })
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
