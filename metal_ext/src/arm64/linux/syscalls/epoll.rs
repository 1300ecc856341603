//! epoll: an instance is an open description holding what it watches (fd::Interest); a wait
//! scans them with poll's readiness. Readiness is level-triggered; EPOLLET is honoured as level
//! triggering, which reports at least every edge, and EPOLLONESHOT disarms after one report.

use super::files::install;
use super::outcome::{value, Flow, Outcome};
use super::poll::file_ready;
use crate::arm64::linux::errno::*;
use crate::arm64::linux::fd::*;
use crate::arm64::linux::machine::Machine;
use crate::arm64::linux::process::Wait;
use crate::arm64::linux::socket::Kind;

const EPOLLIN: u32 = 1;
const EPOLLOUT: u32 = 4;
const EPOLLERR: u32 = 8;
const EPOLLHUP: u32 = 0x10;
const EPOLLRDNORM: u32 = 0x40;
const EPOLLWRNORM: u32 = 0x100;
const EPOLLRDHUP: u32 = 0x2000;
const EPOLLONESHOT: u32 = 1 << 30;
const EPOLLET: u32 = 1 << 31;
const EPOLL_CTL_ADD: u64 = 1;
const EPOLL_CTL_DEL: u64 = 2;
const EPOLL_CTL_MOD: u64 = 3;

/// The events to report for one watched description, if any.
pub fn events_of(m: &Machine, i: &Interest) -> Option<u32> {
    let k = file_ready(m, i.file);
    let rdhup = match m.files.open[i.file].kind {
        FileKind::Socket(s) => {
            let sock = &m.files.net.sockets[s];
            sock.kind == Kind::Stream && (sock.eof || sock.shut_read)
        }
        _ => false,
    };
    let wanted = i.events;
    let ev = (if k.read { (EPOLLIN | EPOLLRDNORM) & wanted } else { 0 })
        | (if k.write { (EPOLLOUT | EPOLLWRNORM) & wanted } else { 0 })
        | (if rdhup { EPOLLRDHUP & wanted } else { 0 })
        | (if k.hung_up { EPOLLHUP } else { 0 })
        | (if k.error { EPOLLERR } else { 0 });
    // A disarmed one-shot entry reports nothing until EPOLL_CTL_MOD arms it again.
    let armed = wanted & !(EPOLLONESHOT | EPOLLET) != 0;
    (ev != 0 && armed).then_some(ev)
}

pub fn epoll_create1(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    if a[0] & !(O_CLOEXEC as u64) != 0 {
        return Err(EINVAL);
    }
    let flags = O_RDWR | (a[0] as u32 & O_CLOEXEC);
    Ok(value(install(m, tid, FileKind::Epoll(Default::default()), flags, "anon_inode:[eventpoll]".into())? as u64))
}

fn epoll_of(m: &Machine, tid: u32, fd: u64) -> SysResult<usize> {
    let file = m.description_of(tid, fd)?;
    match m.files.open[file].kind {
        FileKind::Epoll(_) => Ok(file),
        _ => Err(EINVAL),
    }
}

pub fn epoll_ctl(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let ep = epoll_of(m, tid, a[0])?;
    let fd = a[2] as i32;
    let target = m.description_of(tid, a[2])?;
    if target == ep {
        return Err(EINVAL);
    }
    // Regular files and directories are always ready, and Linux refuses to watch them.
    if matches!(m.files.open[target].kind, FileKind::Mem(_) | FileKind::Host { .. } | FileKind::Dir { .. }) {
        return Err(EPERM);
    }
    let event = if a[1] == EPOLL_CTL_DEL { None } else { Some(m.read_guest(tid, a[3], 16)?) };
    let FileKind::Epoll(set) = &mut m.files.open[ep].kind else { unreachable!() };
    match (a[1], set.contains_key(&fd)) {
        (EPOLL_CTL_ADD, true) => return Err(EEXIST),
        (EPOLL_CTL_DEL | EPOLL_CTL_MOD, false) => return Err(ENOENT),
        (EPOLL_CTL_DEL, true) => {
            set.remove(&fd);
            m.files.net.memory.release(EPOLL_ENTRY_COST);
        }
        (EPOLL_CTL_ADD, false) if !m.files.net.memory.charge(EPOLL_ENTRY_COST) => return Err(ENOMEM),
        (EPOLL_CTL_ADD | EPOLL_CTL_MOD, _) => {
            let e = event.unwrap();
            let events = u32::from_le_bytes(e[0..4].try_into().unwrap());
            let data = u64::from_le_bytes(e[8..16].try_into().unwrap());
            set.insert(fd, Interest { file: target, events, data });
        }
        _ => return Err(EINVAL),
    }
    Ok(value(0))
}

/// The ready entries of instance `ep`, at most `max`: (descriptor, events, data).
fn scan(m: &Machine, ep: usize, max: usize) -> Vec<(i32, u32, u64)> {
    let FileKind::Epoll(set) = &m.files.open[ep].kind else { return vec![] };
    set.iter().filter_map(|(&fd, i)| events_of(m, i).map(|ev| (fd, ev, i.data))).take(max).collect()
}

pub fn epoll_pwait(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let ep = epoll_of(m, tid, a[0])?;
    let max = a[2] as i32;
    if max <= 0 || max > 1 << 20 {
        return Err(EINVAL);
    }
    let ready = scan(m, ep, max as usize);
    if ready.is_empty() {
        let timeout_ms = a[3] as i32;
        if timeout_ms != 0 {
            if timeout_ms > 0 && m.thread(tid).deadline.is_none() {
                let deadline = m.monotonic_ns() + timeout_ms as u64 * 1_000_000;
                m.thread_mut(tid).deadline = Some(deadline);
            }
            let passed = m.thread(tid).deadline.is_some_and(|d| m.monotonic_ns() >= d);
            if !passed {
                super::poll::wait_with_mask(m, tid, a[4])?;
                return Ok(Outcome::Block(Wait::Poll));
            }
        }
        super::poll::restore_mask(m, tid);
        return Ok(value(0));
    }
    super::poll::restore_mask(m, tid);
    let mut out = Vec::with_capacity(16 * ready.len());
    for &(_, ev, data) in &ready {
        out.extend(ev.to_le_bytes());
        out.extend([0; 4]);
        out.extend(data.to_le_bytes());
    }
    m.write_guest(tid, a[1], &out)?;
    if let FileKind::Epoll(set) = &mut m.files.open[ep].kind {
        for (fd, ..) in &ready {
            if let Some(i) = set.get_mut(fd) {
                if i.events & EPOLLONESHOT != 0 {
                    i.events &= EPOLLONESHOT | EPOLLET;
                }
            }
        }
    }
    Ok(value(ready.len() as u64))
}

/// Whether an epoll_pwait blocked with these arguments has something to report now.
pub fn epoll_ready(m: &Machine, tid: u32, a: [u64; 6]) -> bool {
    epoll_of(m, tid, a[0]).map(|ep| !scan(m, ep, 1).is_empty()).unwrap_or(true)
}
