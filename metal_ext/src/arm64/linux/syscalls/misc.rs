//! Identity of the machine and the process: uname, sysinfo, limits, umask, randomness, CPUs.

use super::outcome::{value, Flow};
use crate::arm64::linux::errno::*;
use crate::arm64::linux::machine::Machine;
use crate::arm64::linux::procfs::ProcContext;
use crate::arm64::linux::rootfs::HOSTNAME;

pub const SYSNAME: &str = "Linux";
pub const RELEASE: &str = "6.1.0";
pub const VERSION: &str = "#1 SMP PREEMPT_DYNAMIC";
pub const MACHINE: &str = "aarch64";

pub fn uname(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let mut b = vec![0u8; 65 * 6];
    for (i, field) in [SYSNAME, HOSTNAME, RELEASE, VERSION, MACHINE, "(none)"].iter().enumerate() {
        b[65 * i..65 * i + field.len()].copy_from_slice(field.as_bytes());
    }
    m.write_guest(tid, a[0], &b)?;
    Ok(value(0))
}

pub fn umask(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let p = m.process_of_mut(tid);
    let old = p.umask;
    p.umask = a[0] as u32 & 0o777;
    Ok(value(old as u64))
}

pub fn prctl(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    const PR_SET_NAME: u64 = 15;
    const PR_GET_NAME: u64 = 16;
    match a[0] {
        PR_SET_NAME => Ok(value(0)),
        PR_GET_NAME => {
            let exe = m.process_of(tid).exe.rsplit('/').next().unwrap_or("").to_string();
            let mut name = exe.into_bytes();
            name.truncate(15);
            name.push(0);
            m.write_guest(tid, a[1], &name)?;
            Ok(value(0))
        }
        _ => Err(EINVAL),
    }
}

pub fn getgroups(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    if a[0] > 0 {
        m.write_u32(tid, a[1], 0)?;
    }
    Ok(value(1))
}

/// getresuid / getresgid: root in all three.
pub fn getres_ids(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    for addr in &a[..3] {
        m.write_u32(tid, *addr, 0)?;
    }
    Ok(value(0))
}

/// prlimit64(pid, resource, new, old); only reading is supported, writes are accepted.
pub fn getrlimit(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    const RLIMIT_STACK: u64 = 3;
    const RLIMIT_NOFILE: u64 = 7;
    const INFINITY: u64 = u64::MAX;
    let (cur, max) = match a[1] {
        RLIMIT_STACK => (8 << 20, INFINITY),
        RLIMIT_NOFILE => (1024, 1024),
        0..=15 => (INFINITY, INFINITY),
        _ => return Err(EINVAL),
    };
    if a[3] != 0 {
        let mut b = cur.to_le_bytes().to_vec();
        b.extend(max.to_le_bytes());
        m.write_guest(tid, a[3], &b)?;
    }
    Ok(value(0))
}

pub fn sysinfo(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let mut b = vec![0u8; 112];
    let total = m.memory_total_kb() * 1024;
    let used = m.memory_used_kb() * 1024;
    let words: [(usize, u64); 4] =
        [(0, m.monotonic_ns() / 1_000_000_000), (32, total), (40, total.saturating_sub(used)), (72, 0)];
    for (at, v) in words {
        b[at..at + 8].copy_from_slice(&v.to_le_bytes());
    }
    b[80..82].copy_from_slice(&(m.processes.len() as u16).to_le_bytes());
    b[104..108].copy_from_slice(&1u32.to_le_bytes()); // mem_unit
    m.write_guest(tid, a[0], &b)?;
    Ok(value(0))
}

pub fn sched_getaffinity(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    if a[1] < 8 {
        return Err(EINVAL);
    }
    m.write_u64(tid, a[2], 1)?;
    Ok(value(8))
}

pub fn getcpu(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    for addr in [a[0], a[1]] {
        if addr != 0 {
            m.write_u32(tid, addr, 0)?;
        }
    }
    Ok(value(0))
}

pub fn getrandom(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let mut buf = vec![0u8; (a[1] as usize).min(1 << 25)];
    m.fill_random(&mut buf);
    m.write_guest(tid, a[0], &buf)?;
    Ok(value(buf.len() as u64))
}
