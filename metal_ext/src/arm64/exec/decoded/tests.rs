//! The decoded handlers against the interpreter: every word, from many states, must leave the
//! same registers, flags, memory and exception.

use super::decode;
use crate::arm64::exec::{execute_word, Exception};
use crate::arm64::mem::{Memory, EXEC, READ, WRITE};
use crate::arm64::state::CpuState;

const CODE: u64 = 0x40_0000;
const DATA: u64 = 0x10_0000;

/// A small deterministic generator for the differential tests (SplitMix64).
pub(crate) fn splitmix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn machine(seed: &mut u64) -> (CpuState, Memory) {
    let mut cpu = CpuState::default();
    for r in 0..32 {
        // Mostly addresses inside the data pages, so loads and stores land; some arbitrary.
        cpu.x[r] = match splitmix(seed) % 4 {
            0 => splitmix(seed),
            1 => splitmix(seed) % 64,
            _ => DATA + 0x1000 + splitmix(seed) % 0x2000,
        };
        cpu.v[r] = (splitmix(seed) as u128) << 64 | splitmix(seed) as u128;
    }
    cpu.nzcv = (splitmix(seed) as u32) & 0xF000_0000;
    cpu.tpidr_el0 = splitmix(seed);
    cpu.pc = CODE + 0x800;
    let mut mem = Memory::new();
    mem.map(CODE, 0x1000, READ | EXEC);
    mem.map(DATA, 0x4000, READ | WRITE);
    let fill: Vec<u8> = (0..0x800).flat_map(|_| splitmix(seed).to_le_bytes()).collect();
    mem.write(DATA, &fill).unwrap();
    // Warm the translation cache, so that the handlers' fast paths are what runs.
    for page in (DATA..DATA + 0x4000).step_by(0x1000) {
        mem.store_bytes(page, &fill[(page - DATA) as usize..][..1]).unwrap();
    }
    let v = mem.load_cached::<8>(DATA + 8).expect("a warm page");
    assert!(mem.store_cached::<8>(DATA + 8, v));
    (cpu, mem)
}

fn same(a: &(CpuState, Memory, Result<(), Exception>), b: &(CpuState, Memory, Result<(), Exception>)) -> bool {
    let mut ma = vec![0u8; 0x4000];
    let mut mb = vec![0u8; 0x4000];
    a.1.peek(DATA, &mut ma).unwrap();
    b.1.peek(DATA, &mut mb).unwrap();
    a.0.x == b.0.x && a.0.v == b.0.v && a.0.pc == b.0.pc && a.0.nzcv == b.0.nzcv && ma == mb && a.2 == b.2
}

/// Runs `word` from a state drawn from `seed` through the interpreter and the decoded handler.
fn compare(word: u32, seed: &mut u64) {
    let op = decode(word, CODE + 0x800);
    // Two identical machines (a clone would share pages and leave the fast paths cold).
    let mut again = *seed;
    let (mut cpu, mut mem) = machine(seed);
    let (mut cpu2, mut mem2) = machine(&mut again);
    let interpreted = execute_word(&mut cpu, &mut mem, word);
    let start = cpu2.clone();
    let decoded = match (op.run)(&mut cpu2, &mut mem2, &op, CODE + 0x800) {
        Ok(next) => {
            cpu2.pc = next;
            Ok(())
        }
        Err(e) => {
            // Where the code cache leaves the PC after an exception.
            let svc = matches!(*e, Exception::Svc { .. });
            cpu2.pc = if svc { CODE + 0x804 } else { CODE + 0x800 };
            Err(*e)
        }
    };
    // The trace compares only the registers a specialised handler says it may write.
    if let Some(fields) = op.written_registers() {
        let mask = fields.iter().fold(0u32, |mask, &r| mask | 1 << r);
        let system = (start.fpcr, start.fpsr, start.tpidr_el0) != (cpu2.fpcr, cpu2.fpsr, cpu2.tpidr_el0);
        assert!(!system, "word 0x{word:08x} wrote FPCR, FPSR or TPIDR_EL0");
        for i in 0..32 {
            let written = start.x[i] != cpu2.x[i] || start.v[i] != cpu2.v[i];
            assert!(!written || mask & (1 << i) != 0, "word 0x{word:08x} wrote register {i} outside {mask:#x}");
        }
    }
    let a = (cpu, mem, interpreted);
    let b = (cpu2, mem2, decoded);
    assert!(same(&a, &b), "word 0x{word:08x}: interpreter {:?} vs decoded {:?}", a.2, b.2);
}

/// System instructions too rare among random words: hints, MRS of TPIDR_EL0 and neighbours.
#[test]
fn decoded_system_instructions_agree_with_the_interpreter() {
    let words = [0xD503_201F, 0xD503_245F, 0xD503_233F, 0xD503_203F, 0xD53B_D043, 0xD53B_D05F, 0xD53B_D060, 0xD53B_4200];
    let mut seed = 11;
    for word in words {
        for _ in 0..50 {
            compare(word, &mut seed);
        }
    }
}

/// Random words from the encoding groups the decoder specialises, each run both ways.
#[test]
fn decoded_handlers_agree_with_the_interpreter() {
    // (mask, value) of the integer, branch and load/store groups.
    let groups: [(u32, u32); 6] = [
        (0x1C00_0000, 0x1000_0000), // data processing, immediate
        (0x0E00_0000, 0x0A00_0000), // data processing, register
        (0x1C00_0000, 0x1400_0000), // branches
        (0x3A00_0000, 0x3800_0000), // single-register loads and stores
        (0x3A00_0000, 0x2800_0000), // pairs
        (0, 0),                     // anything
    ];
    let mut seed = 7;
    let mut specialised = 0;
    for i in 0..120_000 {
        let (mask, value) = groups[i % groups.len()];
        let word = (splitmix(&mut seed) as u32 & !mask) | value;
        if decode(word, CODE + 0x800).run as *const () != super::generic as *const () {
            specialised += 1;
        }
        compare(word, &mut seed);
    }
    assert!(specialised > 40_000, "only {specialised} words took a specialised handler");
}
