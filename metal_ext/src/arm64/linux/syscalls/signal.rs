//! Signal system calls: dispositions, masks, sending, waiting and returning from handlers.

use super::outcome::{value, Flow, Outcome};
use crate::arm64::linux::errno::*;
use crate::arm64::linux::machine::Machine;
use crate::arm64::linux::process::Wait;
use crate::arm64::linux::signals::{self, *};

fn valid(sig: u64) -> SysResult<u32> {
    if (1..=NSIG as u64).contains(&sig) {
        Ok(sig as u32)
    } else {
        Err(EINVAL)
    }
}

pub fn rt_sigaction(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let sig = valid(a[0])?;
    if a[3] != 8 {
        return Err(EINVAL);
    }
    let old = m.process_of(tid).actions[sig as usize - 1];
    if a[1] != 0 {
        if sig == SIGKILL || sig == SIGSTOP {
            return Err(EINVAL);
        }
        let raw = m.read_guest(tid, a[1], 32)?;
        let word = |i: usize| u64::from_le_bytes(raw[8 * i..8 * i + 8].try_into().unwrap());
        let action = SigAction { handler: word(0), flags: word(1), restorer: word(2), mask: word(3) & !UNBLOCKABLE };
        m.process_of_mut(tid).actions[sig as usize - 1] = action;
        // Setting SIG_IGN discards what is pending (and so does SIG_DFL for ignored defaults).
        let ignored = action.handler == SIG_IGN
            || (action.handler == SIG_DFL && default_action(sig) == DefaultAction::Ignore);
        if ignored {
            let threads = m.process_of(tid).threads.clone();
            for t in threads {
                m.thread_mut(t).pending.remove(&sig);
            }
        }
    }
    if a[2] != 0 {
        let bytes: Vec<u8> = [old.handler, old.flags, old.restorer, old.mask].iter().flat_map(|w| w.to_le_bytes()).collect();
        m.write_guest(tid, a[2], &bytes)?;
    }
    Ok(value(0))
}

pub fn rt_sigprocmask(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    const SIG_BLOCK: u64 = 0;
    const SIG_UNBLOCK: u64 = 1;
    const SIG_SETMASK: u64 = 2;
    let old = m.thread(tid).sigmask;
    if a[1] != 0 {
        let set = m.read_u64(tid, a[1])?;
        let new = match a[0] {
            SIG_BLOCK => old | set,
            SIG_UNBLOCK => old & !set,
            SIG_SETMASK => set,
            _ => return Err(EINVAL),
        };
        m.thread_mut(tid).sigmask = new & !UNBLOCKABLE;
    }
    if a[2] != 0 {
        m.write_u64(tid, a[2], old)?;
    }
    Ok(Outcome::Return(0))
}

pub fn rt_sigpending(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let set = m.thread(tid).pending.keys().fold(0u64, |acc, &s| acc | bit(s));
    m.write_u64(tid, a[0], set)?;
    Ok(value(0))
}

pub fn rt_sigsuspend(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let mask = m.read_u64(tid, a[0])? & !UNBLOCKABLE;
    let t = m.thread_mut(tid);
    if t.suspend_mask.is_none() {
        t.suspend_mask = Some(t.sigmask);
    }
    t.sigmask = mask;
    Ok(Outcome::Block(Wait::Signal))
}

/// rt_sigtimedwait(set, info, timeout): takes a pending signal of the set without running its
/// handler; waits for one (until the timeout) if none is pending.
pub fn rt_sigtimedwait(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let set = m.read_u64(tid, a[0])? & !UNBLOCKABLE;
    let found = m.thread(tid).pending.keys().copied().find(|&s| set & bit(s) != 0);
    if let Some(sig) = found {
        let info = m.thread_mut(tid).pending.remove(&sig).unwrap();
        if a[1] != 0 {
            m.write_guest(tid, a[1], &signals::siginfo_bytes(&info))?;
        }
        return Ok(value(sig as u64));
    }
    if a[2] != 0 {
        match m.thread(tid).deadline {
            Some(d) if m.monotonic_ns() >= d => return Err(EAGAIN),
            Some(_) => {}
            None => {
                let ns = m.read_u64(tid, a[2])?.saturating_mul(1_000_000_000).saturating_add(m.read_u64(tid, a[2] + 8)?);
                let deadline = m.monotonic_ns().saturating_add(ns);
                m.thread_mut(tid).deadline = Some(deadline);
            }
        }
    }
    Ok(Outcome::Block(Wait::SignalOf(set)))
}

pub fn rt_sigreturn(m: &mut Machine, tid: u32) -> Flow {
    let pid = m.thread(tid).pid;
    let space = m.process_of(tid).space;
    let t = m.threads.get_mut(&tid).unwrap();
    match signals::leave_handler(&mut t.cpu, &m.spaces[space].mem) {
        Ok(mask) => t.sigmask = mask & !UNBLOCKABLE,
        Err(_) => m.exit_process(pid, crate::arm64::linux::process::killed_status(SIGSEGV)),
    }
    Ok(Outcome::Done)
}

pub fn sigaltstack(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (sp, size) = m.thread(tid).altstack;
    if a[1] != 0 {
        let mut old = sp.to_le_bytes().to_vec();
        old.extend((if size == 0 { 2u32 } else { 0u32 }).to_le_bytes()); // SS_DISABLE
        old.extend(0u32.to_le_bytes());
        old.extend(size.to_le_bytes());
        m.write_guest(tid, a[1], &old)?;
    }
    if a[0] != 0 {
        let raw = m.read_guest(tid, a[0], 24)?;
        let base = u64::from_le_bytes(raw[0..8].try_into().unwrap());
        let flags = u32::from_le_bytes(raw[8..12].try_into().unwrap());
        let len = u64::from_le_bytes(raw[16..24].try_into().unwrap());
        m.thread_mut(tid).altstack = if flags & 2 != 0 { (0, 0) } else { (base, len) };
    }
    Ok(value(0))
}

pub fn kill(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let target = a[0] as i32;
    let sig = a[1] as u32;
    if sig != 0 {
        valid(sig as u64)?;
    }
    let me = m.thread(tid).pid;
    let targets: Vec<u32> = match target {
        t if t > 0 => vec![t as u32],
        0 => {
            let pgid = m.process_of(tid).pgid;
            m.processes.values().filter(|p| p.pgid == pgid).map(|p| p.pid).collect()
        }
        -1 => m.processes.keys().copied().filter(|&p| p != me).collect(),
        t => m.processes.values().filter(|p| p.pgid == (-t) as u32).map(|p| p.pid).collect(),
    };
    let live: Vec<u32> = targets.into_iter().filter(|p| m.processes.get(p).is_some_and(|p| !p.is_zombie())).collect();
    if live.is_empty() {
        return Err(ESRCH);
    }
    for pid in live {
        m.signal_process(pid, SigInfo { signo: sig, code: SI_USER, pid: me, ..SigInfo::default() });
    }
    Ok(value(0))
}

pub fn tkill(m: &mut Machine, tid: u32, target: i32, sig: u64) -> Flow {
    if sig != 0 {
        valid(sig)?;
    }
    if target <= 0 || !m.threads.contains_key(&(target as u32)) {
        return Err(ESRCH);
    }
    let me = m.thread(tid).pid;
    if sig != 0 {
        m.signal_thread(target as u32, SigInfo { signo: sig as u32, code: SI_TKILL, pid: me, ..SigInfo::default() });
    }
    Ok(value(0))
}
