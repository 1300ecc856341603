//! Clocks, sleeping, timers and CPU-time accounting. Guest time comes from the machine's clock
//! (deterministic by default: one nanosecond per instruction, time skipped while all sleep).

use super::outcome::{value, Flow, Outcome};
use crate::arm64::linux::errno::*;
use crate::arm64::linux::machine::Machine;
use crate::arm64::linux::process::Wait;

const CLOCK_REALTIME: u64 = 0;
const CLOCK_MONOTONIC: u64 = 1;
const TIMER_ABSTIME: u64 = 1;

fn timespec(ns: u64) -> Vec<u8> {
    let mut b = (ns / 1_000_000_000).to_le_bytes().to_vec();
    b.extend((ns % 1_000_000_000).to_le_bytes());
    b
}

fn read_ns(m: &Machine, tid: u32, addr: u64) -> SysResult<u64> {
    let sec = m.read_u64(tid, addr)?;
    let nsec = m.read_u64(tid, addr + 8)?;
    if nsec >= 1_000_000_000 || (sec as i64) < 0 {
        return Err(EINVAL);
    }
    Ok(sec.saturating_mul(1_000_000_000).saturating_add(nsec))
}

/// The clock's current value in ns; CPU-time clocks count the process's instructions.
fn clock_ns(m: &Machine, tid: u32, clock: u64) -> SysResult<u64> {
    match clock {
        CLOCK_REALTIME | 5 | 8 | 11 => Ok(m.realtime_ns()),
        CLOCK_MONOTONIC | 4 | 6 | 7 | 9 => Ok(m.monotonic_ns()),
        2 | 3 => Ok(m.process_of(tid).instructions),
        _ => Err(EINVAL),
    }
}

pub fn clock_gettime(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let ns = clock_ns(m, tid, a[0])?;
    m.write_guest(tid, a[1], &timespec(ns))?;
    Ok(value(0))
}

pub fn clock_getres(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    clock_ns(m, tid, a[0])?;
    if a[1] != 0 {
        m.write_guest(tid, a[1], &timespec(1))?;
    }
    Ok(value(0))
}

pub fn gettimeofday(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    if a[0] != 0 {
        let ns = m.realtime_ns();
        let mut b = (ns / 1_000_000_000).to_le_bytes().to_vec();
        b.extend((ns % 1_000_000_000 / 1000).to_le_bytes());
        m.write_guest(tid, a[0], &b)?;
    }
    if a[1] != 0 {
        m.write_guest(tid, a[1], &[0u8; 8])?;
    }
    Ok(value(0))
}

/// Sleeps until the monotonic clock reaches `deadline` (set on the first attempt).
fn sleep_until(m: &mut Machine, tid: u32, deadline: impl FnOnce(&Machine) -> SysResult<u64>) -> Flow {
    match m.thread(tid).deadline {
        Some(d) if m.monotonic_ns() >= d => Ok(value(0)),
        Some(_) => Ok(Outcome::Block(Wait::Sleep)),
        None => {
            let d = deadline(m)?;
            if m.monotonic_ns() >= d {
                return Ok(value(0));
            }
            m.thread_mut(tid).deadline = Some(d);
            Ok(Outcome::Block(Wait::Sleep))
        }
    }
}

pub fn nanosleep(m: &mut Machine, tid: u32, req: u64) -> Flow {
    sleep_until(m, tid, |m| Ok(m.monotonic_ns() + read_ns(m, tid, req)?))
}

pub fn clock_nanosleep(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (clock, flags, req) = (a[0], a[1], a[2]);
    sleep_until(m, tid, |m| {
        let ns = read_ns(m, tid, req)?;
        let now = clock_ns(m, tid, clock)?;
        let wait = if flags & TIMER_ABSTIME != 0 { ns.saturating_sub(now) } else { ns };
        Ok(m.monotonic_ns() + wait)
    })
}

/// ITIMER_REAL only (alarm() is built on it); the interval part is not repeated.
pub fn setitimer(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    if a[0] != 0 {
        return Err(EINVAL);
    }
    let old = getitimer_value(m, tid);
    let raw = m.read_guest(tid, a[1], 32)?;
    let sec = u64::from_le_bytes(raw[16..24].try_into().unwrap());
    let usec = u64::from_le_bytes(raw[24..32].try_into().unwrap());
    let ns = sec.saturating_mul(1_000_000_000).saturating_add(usec * 1000);
    let now = m.monotonic_ns();
    m.process_of_mut(tid).alarm = (ns > 0).then_some(now + ns);
    if a[2] != 0 {
        m.write_guest(tid, a[2], &old)?;
    }
    Ok(value(0))
}

fn getitimer_value(m: &Machine, tid: u32) -> Vec<u8> {
    let left = m.process_of(tid).alarm.map_or(0, |at| at.saturating_sub(m.monotonic_ns()));
    let mut b = vec![0u8; 16];
    b.extend((left / 1_000_000_000).to_le_bytes());
    b.extend((left % 1_000_000_000 / 1000).max(u64::from(left > 0 && left < 1000)).to_le_bytes());
    b
}

pub fn getitimer(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    if a[0] != 0 {
        return Err(EINVAL);
    }
    let v = getitimer_value(m, tid);
    m.write_guest(tid, a[1], &v)?;
    Ok(value(0))
}

/// struct tms in clock ticks (100 per second); the return value is ticks since boot.
pub fn times(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let p = m.process_of(tid);
    let ticks = |ns: u64| ns / 10_000_000;
    let words = [ticks(p.instructions), 0, ticks(p.children_instructions), 0];
    if a[0] != 0 {
        let b: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        m.write_guest(tid, a[0], &b)?;
    }
    Ok(value(ticks(m.monotonic_ns())))
}

pub fn getrusage(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let p = m.process_of(tid);
    let ns = match a[0] as i64 {
        0 | 1 => p.instructions,
        -1 => p.children_instructions,
        _ => return Err(EINVAL),
    };
    let mut b = vec![0u8; 144];
    b[0..8].copy_from_slice(&(ns / 1_000_000_000).to_le_bytes());
    b[8..16].copy_from_slice(&(ns % 1_000_000_000 / 1000).to_le_bytes());
    m.write_guest(tid, a[1], &b)?;
    Ok(value(0))
}
