//! The machine as /proc sees it: the processes, clock, mounts and memory that procfs.rs turns
//! into files. Kept apart from machine.rs, which runs the machine; procfs itself knows only the
//! `ProcContext` trait, not `Machine`.

use super::inode::Timespec;
use super::machine::{Machine, FIRST_PID, SIGRETURN_PAGE};
use super::procfs::{ProcContext, ProcInfo};
use super::stack;

impl ProcContext for Machine {
    fn current_pid(&self) -> u32 {
        self.threads.get(&self.current).map(|t| t.pid).unwrap_or(FIRST_PID)
    }

    fn pids(&self) -> Vec<u32> {
        self.processes.keys().copied().collect()
    }

    fn process(&self, pid: u32) -> Option<ProcInfo> {
        let p = self.processes.get(&pid)?;
        let state = if p.is_zombie() {
            'Z'
        } else if p.stopped {
            'T'
        } else if p.threads.iter().any(|t| self.threads[t].wait.is_none()) {
            'R'
        } else {
            'S'
        };
        let maps = match self.spaces.get(p.space) {
            Some(s) => s
                .mem
                .regions()
                .into_iter()
                .map(|(a, b, perms)| {
                    let name = if a >= stack::STACK_TOP - stack::STACK_LIMIT && b <= stack::STACK_TOP {
                        "[stack]"
                    } else if a == SIGRETURN_PAGE {
                        "[vdso]"
                    } else if a >= s.brk_start && b <= s.brk.max(s.brk_start) {
                        "[heap]"
                    } else {
                        ""
                    };
                    (a, b, perms, name.to_string())
                })
                .collect(),
            None => vec![],
        };
        let fds = p.fds.fds.iter().map(|(fd, d)| (*fd, self.files.open[d.file].path.clone())).collect();
        Some(ProcInfo {
            pid,
            ppid: p.ppid,
            state,
            threads: p.threads.len() as u32,
            exe: p.exe.clone(),
            comm: p.comm.clone(),
            cwd: p.cwd.clone(),
            argv: p.argv.clone(),
            envp: p.envp.clone(),
            maps,
            fds,
            cpu_ticks: p.instructions / 10_000_000,
            start_ticks: p.start_ns / 10_000_000,
        })
    }

    fn uptime(&self) -> f64 {
        self.monotonic_ns() as f64 / 1e9
    }

    fn cpu_ticks(&self) -> (u64, u64) {
        (self.instructions / 10_000_000, self.clock.idle_ns / 10_000_000)
    }

    fn boot_time(&self) -> Timespec {
        let boot = self.realtime_ns() - self.monotonic_ns();
        Timespec { sec: (boot / 1_000_000_000) as i64, nsec: (boot % 1_000_000_000) as u32 }
    }

    fn mounts(&self) -> Vec<(String, bool)> {
        self.vfs.mounts.iter().map(|m| (m.guest.clone(), m.writable)).collect()
    }

    fn memory_total_kb(&self) -> u64 {
        self.limits.memory / 1024
    }

    fn memory_used_kb(&self) -> u64 {
        self.spaces.iter().map(|(_, s)| s.mem.regions().iter().map(|r| r.1 - r.0).sum::<u64>()).sum::<u64>() / 1024
    }
}
