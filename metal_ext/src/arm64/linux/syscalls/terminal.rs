//! Reads, writes and ioctls of the machine's terminal (/dev/tty, and the standard streams of a
//! machine made with one): termios, the window size, the foreground process group, and job
//! control's SIGTTIN for a background process that reads it. The line discipline is tty.rs.

use super::outcome::{value, Flow};
use crate::arm64::linux::errno::*;
use crate::arm64::linux::machine::Machine;
use crate::arm64::linux::process::Wait;
use crate::arm64::linux::signals::*;
use crate::arm64::linux::tty::{Termios, VMIN, VTIME};

const TCGETS: u64 = 0x5401;
const TCSETS: u64 = 0x5402;
const TCSETSW: u64 = 0x5403;
const TCSETSF: u64 = 0x5404;
const TCSBRK: u64 = 0x5409;
const TCXONC: u64 = 0x540a;
const TCFLSH: u64 = 0x540b;
const TIOCSCTTY: u64 = 0x540e;
const TIOCGPGRP: u64 = 0x540f;
const TIOCSPGRP: u64 = 0x5410;
const TIOCOUTQ: u64 = 0x5411;
const TIOCGWINSZ: u64 = 0x5413;
const TIOCSWINSZ: u64 = 0x5414;
const TIOCNOTTY: u64 = 0x5422;
const TIOCGSID: u64 = 0x5429;

/// A read of the terminal: the bytes, or the wait that must come first.
pub fn read(m: &mut Machine, tid: u32, len: usize, nonblock: bool) -> SysResult<Result<Vec<u8>, Wait>> {
    let Some(tty) = m.tty.as_ref() else { return Err(EIO) };
    let p = m.process_of(tid);
    if p.sid == tty.session && p.pgid != tty.foreground {
        // A background job reading its terminal stops (SIGTTIN) until the shell brings it to the
        // foreground; one that ignores or blocks SIGTTIN, or has no shell left to continue it, fails.
        let ignored = p.actions[SIGTTIN as usize - 1].handler == SIG_IGN || m.thread(tid).sigmask & bit(SIGTTIN) != 0;
        if ignored || m.orphaned_group(p.pgid) {
            return Err(EIO);
        }
        let group: Vec<u32> = m.processes.values().filter(|q| q.pgid == p.pgid && !q.is_zombie()).map(|q| q.pid).collect();
        for pid in group {
            m.signal_process(pid, SigInfo { signo: SIGTTIN, code: SI_KERNEL, ..SigInfo::default() });
        }
        return Ok(Err(Wait::TtyRead));
    }
    let tty = m.tty.as_mut().unwrap();
    if len == 0 {
        return Ok(Ok(vec![])); // takes nothing, not even a ^D's end of file
    }
    if let Some(data) = tty.read(len) {
        return Ok(Ok(data));
    }
    if !tty.canonical() && tty.termios.cc[VMIN] == 0 {
        // VMIN 0: a read returns what there is, after at most VTIME tenths of a second.
        let tenths = tty.termios.cc[VTIME] as u64;
        let now = m.monotonic_ns();
        let deadline = *m.thread_mut(tid).deadline.get_or_insert(now + tenths * 100_000_000);
        if tenths == 0 || now >= deadline {
            return Ok(Ok(vec![]));
        }
    }
    if nonblock {
        Err(EAGAIN)
    } else {
        Ok(Err(Wait::TtyRead))
    }
}

/// A write to the terminal: shown as its output processing (OPOST) makes it.
pub fn write(m: &mut Machine, data: &[u8]) -> usize {
    if let Some(tty) = m.tty.as_ref() {
        tty.output(data, &mut m.terminal.stdout);
    }
    data.len()
}

/// Whether reading the terminal would find something (poll).
pub fn readable(m: &Machine) -> bool {
    m.tty.as_ref().is_none_or(|tty| tty.readable())
}

fn read_u32(m: &Machine, tid: u32, at: u64) -> SysResult<u32> {
    Ok(u32::from_le_bytes(m.read_guest(tid, at, 4)?.try_into().unwrap()))
}

/// A terminal ioctl on /dev/tty; None for a request that is not one.
pub fn ioctl(m: &mut Machine, tid: u32, request: u64, arg: u64) -> Option<Flow> {
    let known = matches!(
        request,
        TCGETS | TCSETS | TCSETSW | TCSETSF | TCSBRK | TCXONC | TCFLSH | TIOCSCTTY | TIOCGPGRP | TIOCSPGRP
            | TIOCOUTQ | TIOCGWINSZ | TIOCSWINSZ | TIOCNOTTY | TIOCGSID
    );
    known.then(|| terminal_request(m, tid, request, arg))
}

fn terminal_request(m: &mut Machine, tid: u32, request: u64, arg: u64) -> Flow {
    let (pid, pgid, sid) = {
        let p = m.process_of(tid);
        (p.pid, p.pgid, p.sid)
    };
    let Some(tty) = m.tty.as_ref() else { return Err(ENOTTY) };
    let controlling = tty.session == sid;
    match request {
        TCGETS => {
            let bytes = tty.termios.to_bytes();
            m.write_guest(tid, arg, &bytes)?;
        }
        TCSETS | TCSETSW | TCSETSF => {
            let t = Termios::from_bytes(&m.read_guest(tid, arg, 36)?);
            m.tty.as_mut().unwrap().set_termios(t, request == TCSETSF);
        }
        TCFLSH => {
            let tty = m.tty.as_mut().unwrap();
            if arg != 1 {
                // TCIFLUSH (0) and TCIOFLUSH (2) drop typed input; output is never held back here.
                tty.ready.clear();
                tty.line.clear();
            }
        }
        TCSBRK | TCXONC | TIOCNOTTY => {}
        TIOCOUTQ => m.write_u32(tid, arg, 0)?,
        TIOCGWINSZ => {
            let b: Vec<u8> = [tty.rows, tty.cols, 0, 0].iter().flat_map(|v| v.to_le_bytes()).collect();
            m.write_guest(tid, arg, &b)?;
        }
        TIOCSWINSZ => {
            let b = m.read_guest(tid, arg, 8)?;
            let (rows, cols) = (u16::from_le_bytes([b[0], b[1]]), u16::from_le_bytes([b[2], b[3]]));
            let tty = m.tty.as_mut().unwrap();
            if (tty.rows, tty.cols) != (rows, cols) {
                (tty.rows, tty.cols) = (rows, cols);
                let group = tty.foreground;
                let members: Vec<u32> = m.processes.values().filter(|p| p.pgid == group).map(|p| p.pid).collect();
                for p in members {
                    m.signal_process(p, SigInfo { signo: SIGWINCH, code: SI_KERNEL, ..SigInfo::default() });
                }
            }
        }
        TIOCGPGRP | TIOCGSID if !controlling => return Err(ENOTTY),
        TIOCGPGRP => m.write_u32(tid, arg, tty.foreground)?,
        TIOCGSID => m.write_u32(tid, arg, tty.session)?,
        TIOCSPGRP => {
            if !controlling {
                return Err(ENOTTY);
            }
            let group = read_u32(m, tid, arg)?;
            if !m.processes.values().any(|p| p.pgid == group && p.sid == sid && !p.is_zombie()) {
                return Err(EPERM);
            }
            m.tty.as_mut().unwrap().foreground = group;
        }
        TIOCSCTTY => {
            if pid != sid {
                return Err(EPERM); // only a session leader takes a controlling terminal
            }
            let tty = m.tty.as_mut().unwrap();
            tty.session = sid;
            tty.foreground = pgid;
        }
        _ => unreachable!("not a terminal request"),
    }
    Ok(value(0))
}
