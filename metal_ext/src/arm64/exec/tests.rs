//! Whole-core tests that need no oracle: robustness on arbitrary words, copy-on-write through the
//! TLB, and speed (ignored by default; run with `cargo test --release -- --ignored --nocapture`).

use super::{step, Exception};
use crate::arm64::mem::{Memory, EXEC, READ, WRITE};
use crate::arm64::state::CpuState;
use std::time::Instant;

const CODE: u64 = 0x1_0000;
const DATA: u64 = 0x10_0000;

fn machine(code: &[u32]) -> (CpuState, Memory) {
    let mut mem = Memory::new();
    mem.map(CODE, 0x1000, READ | EXEC);
    mem.map(DATA, 0x10_0000, READ | WRITE);
    let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    mem.poke(CODE, &bytes).unwrap();
    let cpu = CpuState { pc: CODE, ..CpuState::default() };
    (cpu, mem)
}

/// xorshift64*: a tiny deterministic generator for the fuzz test.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

#[test]
fn arbitrary_words_never_panic_and_failures_change_nothing() {
    let mut mem = Memory::new();
    mem.map(CODE, 0x1000, READ | WRITE | EXEC);
    mem.map(DATA, 0x1000, READ | WRITE);
    mem.watch(DATA + 0x800, 0x40, true, true);
    let mut cpu = CpuState::default();
    let mut seed = 0x1234_5678_9ABC_DEF0u64;
    for i in 0..200_000u64 {
        let word = next(&mut seed) as u32;
        mem.poke(CODE, &word.to_le_bytes()).unwrap();
        for r in 0..32 {
            let v = next(&mut seed);
            cpu.x[r] = if v & 1 == 0 { DATA + (v >> 52) } else { v };
        }
        cpu.pc = CODE;
        cpu.exclusive = (i & 1 == 0).then(|| std::num::NonZeroU64::new(cpu.x[i as usize % 32])).flatten();
        let before = (cpu.clone(), mem.clone());
        match step(&mut cpu, &mut mem) {
            Ok(()) | Err(Exception::Svc { .. }) => {}
            Err(_) => {
                let (old_cpu, old_mem) = before;
                assert_eq!(cpu.pc, CODE, "word {word:#010x}");
                assert!((old_cpu.x, old_cpu.nzcv, old_cpu.v, old_cpu.counter) == (cpu.x, cpu.nzcv, cpu.v, cpu.counter));
                let (mut a, mut b) = ([0u8; 0x1000], [0u8; 0x1000]);
                old_mem.peek(DATA, &mut a).unwrap();
                mem.peek(DATA, &mut b).unwrap();
                assert!(a == b, "word {word:#010x} changed memory and failed");
            }
        }
    }
}

#[test]
fn stores_after_a_snapshot_do_not_leak_into_it() {
    // str x1, [x2]; str x1, [x2]
    let (mut cpu, mut mem) = machine(&[0xF900_0041, 0xF900_0041]);
    cpu.x[1] = 1;
    cpu.x[2] = DATA;
    step(&mut cpu, &mut mem).unwrap(); // the TLB now holds the page as owned
    let snapshot = mem.clone();
    cpu.x[1] = 2;
    step(&mut cpu, &mut mem).unwrap();
    assert_eq!(snapshot.read_u64(DATA).unwrap(), 1);
    assert_eq!(mem.read_u64(DATA).unwrap(), 2);
}

#[test]
fn remapping_a_page_drops_its_cached_bytes() {
    // ldr x0, [x1]
    let (mut cpu, mut mem) = machine(&[0xF940_0020, 0xF940_0020]);
    cpu.x[1] = DATA;
    mem.write_u64(DATA, 5).unwrap();
    step(&mut cpu, &mut mem).unwrap();
    mem.map(DATA, 0x1000, READ);
    step(&mut cpu, &mut mem).unwrap();
    assert_eq!(cpu.x[0], 0);
}

fn run_until_brk(cpu: &mut CpuState, mem: &mut Memory) -> u64 {
    let mut n = 0;
    loop {
        match step(cpu, mem) {
            Ok(()) => n += 1,
            Err(Exception::Breakpoint { .. }) => return n,
            Err(e) => panic!("{e:?}"),
        }
    }
}

/// Nanoseconds this thread has run on a CPU (Linux), so a busy shared machine does not count
/// against the figures; wall-clock time elsewhere.
fn cpu_time_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| std::time::UNIX_EPOCH.elapsed().unwrap().as_nanos() as u64)
}

/// Runs `code` from `setup` to its BRK `reps` times and prints the rate, best of three rounds.
fn measure(name: &str, code: &[u32], reps: u32, setup: impl Fn(&mut CpuState)) {
    let (mut cpu, mut mem) = machine(code);
    let mut n = 0;
    let mut best = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        let (wall, cpu_start) = (Instant::now(), cpu_time_ns());
        n = 0;
        for _ in 0..reps {
            setup(&mut cpu);
            cpu.pc = CODE;
            n += run_until_brk(&mut cpu, &mut mem);
        }
        let on_cpu = (cpu_time_ns() - cpu_start) as f64 / 1e9;
        best = (best.0.min(on_cpu), best.1.min(wall.elapsed().as_secs_f64()));
    }
    println!(
        "{name}: {n} instructions, {:.1} M instructions/s on CPU ({:.1} M/s wall clock)",
        n as f64 / best.0 / 1e6,
        n as f64 / best.1 / 1e6
    );
}

#[test]
#[ignore]
fn speed() {
    // movz x0, #0x200, lsl #16; loop: add x1, x1, #1; subs x0, x0, #1; b.ne loop; brk #0
    measure("add/subs/b.ne loop", &[0xD2A0_4000, 0x9100_0421, 0xF100_0400, 0x54FF_FFC1, 0xD420_0000], 1, |_| {});
    // loop: ldr x3, [x1], #8; str x3, [x2], #8; subs x0, x0, #1; b.ne loop; brk #0
    let copy = [0xF840_8423, 0xF800_8443, 0xF100_0400, 0x54FF_FFA1, 0xD420_0000];
    measure("ldr/str copy loop (512 KiB)", &copy, 400, |cpu| {
        cpu.x[0] = 0x1_0000;
        cpu.x[1] = DATA;
        cpu.x[2] = DATA + 0x8_0000;
    });
    // loop: ldp x3, x4, [x1], #16; stp x3, x4, [x2], #16; subs x0, x0, #1; b.ne loop; brk #0
    let pairs = [0xA8C1_1023, 0xA881_1043, 0xF100_0400, 0x54FF_FFA1, 0xD420_0000];
    measure("ldp/stp copy loop (512 KiB)", &pairs, 800, |cpu| {
        cpu.x[0] = 0x8000;
        cpu.x[1] = DATA;
        cpu.x[2] = DATA + 0x8_0000;
    });
}
