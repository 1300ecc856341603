//! Job control: processes stopped by SIGSTOP, SIGTSTP, SIGTTIN and SIGTTOU and continued by SIGCONT,
//! the reports a parent's wait4 gets of both (WUNTRACED, WCONTINUED), orphaned process groups,
//! and signals to a whole process group (what the terminal sends for ^C and ^Z).

use super::machine::Machine;
use super::process::Wait;
use super::signals::*;

/// wait4's status for a process stopped by `sig`, and for one continued.
pub fn stopped_status(sig: u32) -> i32 {
    ((sig as i32) << 8) | 0x7f
}
pub const CONTINUED_STATUS: i32 = 0xffff;
const CLD_STOPPED: i32 = 5;
const CLD_CONTINUED: i32 = 6;
const SA_NOCLDSTOP: u64 = 1;

pub fn is_stop_signal(sig: u32) -> bool {
    matches!(sig, SIGSTOP | SIGTSTP | SIGTTIN | SIGTTOU)
}

impl Machine {
    /// What sending `sig` to process `pid` does before it is queued, as Linux's prepare_signal:
    /// SIGCONT (and SIGKILL) resume a stopped process and drop its pending stops; a stop signal
    /// drops a pending SIGCONT.
    pub(super) fn job_control_on_send(&mut self, pid: u32, sig: u32) {
        let Some(p) = self.processes.get(&pid) else { return };
        let threads = p.threads.clone();
        if sig == SIGCONT || sig == SIGKILL {
            for t in &threads {
                if let Some(t) = self.threads.get_mut(t) {
                    t.pending.retain(|&s, _| !is_stop_signal(s));
                }
            }
            let p = self.processes.get_mut(&pid).unwrap();
            if p.stopped && sig == SIGCONT {
                p.stopped = false;
                // A read of the terminal starts again, as Linux restarts the call the stop
                // interrupted: continued in the background, it must meet SIGTTIN.
                for t in &threads {
                    if let Some(t) = self.threads.get_mut(t) {
                        if t.wait == Some(Wait::TtyRead) {
                            t.wait = None;
                        }
                    }
                }
                let p = self.processes.get_mut(&pid).unwrap();
                p.report = Some(CONTINUED_STATUS);
                self.events += 1;
                self.tell_parent(pid, CLD_CONTINUED, SIGCONT as i32);
            } else if sig == SIGKILL {
                p.stopped = false;
            }
        } else if is_stop_signal(sig) {
            for t in &threads {
                if let Some(t) = self.threads.get_mut(t) {
                    t.pending.remove(&SIGCONT);
                }
            }
        }
    }

    /// A stop signal's default action: the whole process stops until SIGCONT. Terminal stops
    /// (SIGTSTP, SIGTTIN, SIGTTOU) to an orphaned process group are dropped, as on Linux: no job
    /// control shell is left to continue it.
    pub(super) fn stop_process(&mut self, pid: u32, sig: u32) {
        let Some(p) = self.processes.get(&pid) else { return };
        if sig != SIGSTOP && self.orphaned_group(p.pgid) {
            return;
        }
        let p = self.processes.get_mut(&pid).unwrap();
        p.stopped = true;
        p.report = Some(stopped_status(sig));
        self.events += 1;
        self.tell_parent(pid, CLD_STOPPED, sig as i32);
    }

    /// SIGCHLD for a child that stopped or continued, unless the parent asked not to hear of it.
    fn tell_parent(&mut self, pid: u32, code: i32, status: i32) {
        let ppid = self.processes[&pid].ppid;
        let Some(parent) = self.processes.get(&ppid) else { return };
        if parent.actions[SIGCHLD as usize - 1].flags & SA_NOCLDSTOP != 0 {
            return;
        }
        self.signal_process(ppid, SigInfo { signo: SIGCHLD, code, pid, uid: 0, status, addr: 0 });
    }

    /// A process group is orphaned when no member has a parent in another group of the same session.
    pub fn orphaned_group(&self, pgid: u32) -> bool {
        !self.processes.values().filter(|p| p.pgid == pgid && !p.is_zombie()).any(|p| {
            self.processes.get(&p.ppid).is_some_and(|q| !q.is_zombie() && q.pgid != pgid && q.sid == p.sid)
        })
    }

    /// A signal to every live process of group `pgid`, from outside the machine (the terminal).
    pub fn signal_group_from_outside(&mut self, pgid: u32, sig: u32) {
        let members: Vec<u32> =
            self.processes.values().filter(|p| p.pgid == pgid && !p.is_zombie()).map(|p| p.pid).collect();
        for pid in members {
            self.signal_from_outside(pid, SigInfo { signo: sig, code: SI_KERNEL, ..SigInfo::default() });
        }
    }
}
