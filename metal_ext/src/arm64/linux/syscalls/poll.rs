//! Waiting on several descriptors: ppoll and pselect6 (epoll is in epoll.rs). A call with nothing ready blocks with
//! `Wait::Poll`; the machine asks `syscalls::poll_ready` (which comes here) when to run it again.

use super::outcome::{value, Flow, Outcome};
use crate::arm64::linux::errno::*;
use crate::arm64::linux::fd::{FileKind, Stream, MAX_FDS};
use crate::arm64::linux::inode::Device;
use crate::arm64::linux::machine::Machine;
use crate::arm64::linux::process::Wait;
use crate::arm64::linux::signals::UNBLOCKABLE;

/// How a description stands for poll, select and epoll.
#[derive(Clone, Copy, Default)]
pub struct Ready {
    pub read: bool,
    pub write: bool,
    pub hung_up: bool,
    pub error: bool,
}

/// How descriptor `fd` stands; None for a bad one.
fn readiness(m: &Machine, tid: u32, fd: i32) -> Option<Ready> {
    let d = m.process_of(tid).fds.get(fd).ok()?;
    Some(file_ready(m, d.file))
}

pub fn file_ready(m: &Machine, file: usize) -> Ready {
    let r = |read, write, hung_up| Ready { read, write, hung_up, error: false };
    match &m.files.open[file].kind {
        FileKind::PipeRead(p) => {
            let p = &m.files.pipes[*p];
            r(!p.buffer.is_empty() || p.at_eof(), false, p.at_eof())
        }
        FileKind::PipeWrite(p) => {
            let p = &m.files.pipes[*p];
            r(false, p.room() > 0 || p.broken(), p.broken())
        }
        FileKind::Terminal(Stream::Stdin) => r(!m.terminal.stdin.is_empty() || m.terminal.stdin_closed, false, false),
        FileKind::Terminal(_) => r(false, true, false),
        FileKind::Device(Device::Tty, _) => r(super::terminal::readable(m), true, m.tty.as_ref().is_some_and(|t| t.hung_up)),
        FileKind::Socket(s) => {
            let (read, write, hung_up, error) = m.files.net.poll(*s);
            Ready { read, write, hung_up, error }
        }
        // An epoll instance is readable when something it watches is (one level deep).
        FileKind::Epoll(set) => r(
            set.values().any(|i| {
                !matches!(m.files.open.get(i.file).map(|f| &f.kind), Some(FileKind::Epoll(_)) | None)
                    && super::epoll::events_of(m, i).is_some()
            }),
            false,
            false,
        ),
        _ => r(true, true, false),
    }
}

/// The signal mask a ppoll, pselect6 or epoll_pwait waits with (at `addr`, if given): set when the
/// call first runs, the caller's own kept as rt_sigsuspend keeps it, so a signal it unblocks ends
/// the wait and its handler returns to the caller's mask.
pub fn wait_with_mask(m: &mut Machine, tid: u32, addr: u64) -> SysResult<()> {
    if addr == 0 {
        return Ok(());
    }
    let mask = m.read_u64(tid, addr)? & !UNBLOCKABLE;
    let t = m.thread_mut(tid);
    if t.suspend_mask.is_none() {
        t.suspend_mask = Some(t.sigmask);
        t.sigmask = mask;
    }
    Ok(())
}

/// The call returns: the caller's own mask is back.
pub fn restore_mask(m: &mut Machine, tid: u32) {
    let t = m.thread_mut(tid);
    if let Some(mask) = t.suspend_mask.take() {
        t.sigmask = mask;
    }
}

pub fn timeout_deadline(m: &mut Machine, tid: u32, addr: u64) -> SysResult<Option<bool>> {
    // Some(true): the timeout has passed; Some(false): wait with a deadline; None: no timeout.
    if addr == 0 {
        return Ok(None);
    }
    if let Some(d) = m.thread(tid).deadline {
        return Ok(Some(m.monotonic_ns() >= d));
    }
    let sec = m.read_u64(tid, addr)?;
    let nsec = m.read_u64(tid, addr + 8)?;
    let ns = sec.saturating_mul(1_000_000_000).saturating_add(nsec);
    if ns == 0 {
        return Ok(Some(true));
    }
    let deadline = m.monotonic_ns() + ns;
    m.thread_mut(tid).deadline = Some(deadline);
    Ok(Some(false))
}

/// ppoll's events for each pollfd, and how many have some.
fn poll_scan(m: &Machine, tid: u32, fds: u64, n: u64) -> SysResult<(Vec<u16>, u64)> {
    const POLLIN: u16 = 1;
    const POLLOUT: u16 = 4;
    const POLLHUP: u16 = 0x10;
    const POLLERR: u16 = 8;
    const POLLNVAL: u16 = 0x20;
    let mut revents = vec![];
    let mut ready = 0;
    for i in 0..n {
        let raw = m.read_guest(tid, fds + 8 * i, 8)?;
        let fd = i32::from_le_bytes(raw[0..4].try_into().unwrap());
        let events = u16::from_le_bytes(raw[4..6].try_into().unwrap());
        let r = if fd < 0 {
            0
        } else {
            match readiness(m, tid, fd) {
                None => POLLNVAL,
                Some(k) => {
                    (if k.read { POLLIN & events } else { 0 })
                        | (if k.write { POLLOUT & events } else { 0 })
                        | (if k.hung_up { POLLHUP } else { 0 })
                        | (if k.error { POLLERR } else { 0 })
                }
            }
        };
        ready += (r != 0) as u64;
        revents.push(r);
    }
    Ok((revents, ready))
}

pub fn ppoll(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    if a[1] > 1024 {
        return Err(EINVAL);
    }
    let (revents, ready) = poll_scan(m, tid, a[0], a[1])?;
    if ready == 0 {
        match timeout_deadline(m, tid, a[2])? {
            Some(true) => {}
            _ => {
                wait_with_mask(m, tid, a[3])?;
                return Ok(Outcome::Block(Wait::Poll));
            }
        }
    }
    restore_mask(m, tid);
    for (i, r) in revents.iter().enumerate() {
        m.write_guest(tid, a[0] + 8 * i as u64 + 6, &r.to_le_bytes())?;
    }
    Ok(value(ready))
}

fn select_scan(m: &Machine, tid: u32, a: [u64; 6]) -> SysResult<(Vec<Vec<u8>>, u64)> {
    let n = (a[0] as usize).min(MAX_FDS as usize);
    let bytes = n.div_ceil(64) * 8;
    let mut out = vec![];
    let mut count = 0;
    for (set, which) in [(a[1], 0), (a[2], 1), (a[3], 2)] {
        let mut bits = vec![0u8; bytes];
        if set != 0 {
            let want = m.read_guest(tid, set, bytes)?;
            for fd in 0..n {
                if want[fd / 8] & (1 << (fd % 8)) == 0 {
                    continue;
                }
                let k = readiness(m, tid, fd as i32).ok_or(EBADF)?;
                if [k.read || k.error, k.write || k.error, false][which] {
                    bits[fd / 8] |= 1 << (fd % 8);
                    count += 1;
                }
            }
        }
        out.push(bits);
    }
    Ok((out, count))
}

pub fn pselect6(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (sets, count) = select_scan(m, tid, a)?;
    if count == 0 {
        match timeout_deadline(m, tid, a[4])? {
            Some(true) => {}
            _ => {
                // a[5] points at { const sigset_t *mask; size_t size }.
                let mask = if a[5] != 0 { m.read_u64(tid, a[5])? } else { 0 };
                wait_with_mask(m, tid, mask)?;
                return Ok(Outcome::Block(Wait::Poll));
            }
        }
    }
    restore_mask(m, tid);
    for (set, bits) in [a[1], a[2], a[3]].into_iter().zip(sets) {
        if set != 0 {
            m.write_guest(tid, set, &bits)?;
        }
    }
    Ok(value(count))
}

/// Whether a ppoll blocked with these arguments has something to report now.
pub fn ppoll_ready(m: &Machine, tid: u32, a: [u64; 6]) -> bool {
    poll_scan(m, tid, a[0], a[1]).map(|(_, n)| n > 0).unwrap_or(true)
}

/// Whether a pselect6 blocked with these arguments has something to report now.
pub fn pselect6_ready(m: &Machine, tid: u32, a: [u64; 6]) -> bool {
    select_scan(m, tid, a).map(|(_, n)| n > 0).unwrap_or(true)
}
