//! Random system calls with random arguments against a booted machine.

use super::tests::boot;
use super::*;

/// Random system calls with random arguments (small numbers, pointers into the stack, and
/// arbitrary words) never panic the machine.
#[test]
fn random_system_calls_never_panic() {
    let exe = std::fs::read(format!("{}/../programs/arm64/c/bin/hello", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut m = boot(exe.clone(), "/bin/hello", &["hello"]);
    for _ in 0..20_000 {
        if m.threads.is_empty() {
            m = boot(exe.clone(), "/bin/hello", &["hello"]);
        }
        let tid = m.focus().unwrap();
        let sp = m.threads[&tid].cpu.sp();
        let mut next = || splitmix(&mut seed);
        let nr = next() % 300;
        if matches!(nr, 93 | 94) {
            continue; // exiting is tested elsewhere and would only reboot
        }
        let mut args = [0u64; 6];
        for a in args.iter_mut() {
            *a = match next() % 4 {
                0 => next() % 64,
                1 => sp.wrapping_sub(next() % 4096) & !7,
                2 => (next() % 64).wrapping_neg(),
                _ => next(),
            };
        }
        let t = m.thread_mut(tid);
        t.cpu.x[8] = nr;
        t.cpu.x[..6].copy_from_slice(&args);
        t.cpu.pc = t.cpu.pc.wrapping_add(4);
        m.syscall(tid);
        if let Some(t) = m.threads.get_mut(&tid) {
            t.wait = None;
            t.deadline = None;
        }
    }
}
