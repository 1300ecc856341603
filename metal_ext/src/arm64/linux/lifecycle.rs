//! Processes begin and end here: a new program replaces a process (execve), processes and
//! threads exit and are reaped, signals are sent, and pending ones are delivered to handlers.

use super::elf::{self, ElfError};
use super::errno::*;
use super::machine::{Machine, FIRST_PID, SAFEPOINT_WAIT, SIGRETURN_PAGE};
use super::process::*;
use super::signals::{self, *};
use super::stack::{self, StartInfo};
use super::vfs::Walk;
use crate::arm64::mem::{Memory, EXEC, PAGE_SIZE, READ};
use crate::arm64::state::CpuState;

/// The last name of `path`, cut to the 15 bytes Linux keeps.
fn command_name(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or("");
    let mut end = name.len().min(15);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].to_string()
}

/// The signal-return trampoline's code: mov x8, #139 (rt_sigreturn); svc #0.
const SIGRETURN_CODE: [u32; 2] = [0xd280_1168, 0xd400_0001];

impl Machine {
    /// Replaces the process's program (execve and boot): a fresh address space with the image
    /// and its start-up stack, default signal handlers, one thread.
    pub fn exec_image(
        &mut self,
        tid: u32,
        bytes: &[u8],
        path: &str,
        walk: Walk,
        argv: Vec<Vec<u8>>,
        envp: Vec<Vec<u8>>,
    ) -> Result<(), ElfError> {
        let interp = match elf::interpreter(bytes)? {
            Some(path) => Some((self.read_interpreter(&path)?, path)),
            None => None,
        };
        let mut mem = Memory::new();
        let mut image = elf::load(bytes, &mut mem)?;
        let mut start = image.entry;
        if let Some((interp_bytes, path)) = interp {
            let loader = elf::load_at(&interp_bytes, &mut mem, elf::INTERP_BASE).map_err(|e| ElfError::Interpreter {
                path: path.clone(),
                why: e.to_string(),
            })?;
            image.interp_base = elf::INTERP_BASE;
            start = loader.entry;
        }
        mem.map(SIGRETURN_PAGE, PAGE_SIZE, READ);
        let code: Vec<u8> = SIGRETURN_CODE.iter().flat_map(|w| w.to_le_bytes()).collect();
        mem.poke(SIGRETURN_PAGE, &code).unwrap();
        mem.protect(SIGRETURN_PAGE, PAGE_SIZE, READ | EXEC).unwrap();
        for w in &self.debug.watchpoints {
            mem.watch(w.addr, w.len, w.read, w.write);
        }
        let mut random = [0u8; 16];
        self.fill_random(&mut random);
        let info = StartInfo { argv: &argv, envp: &envp, execfn: path.as_bytes(), random, uid: 0, gid: 0 };
        let sp = stack::build(&mut mem, &image, &info).map_err(|_| ElfError::ArgumentsTooLong)?;
        let pid = self.threads[&tid].pid;
        // Other threads of the process end; the caller becomes the only one, keeping its id only
        // if it is the leader (Linux gives the leader's id to the exec'ing thread).
        let others: Vec<u32> = self.processes[&pid].threads.iter().copied().filter(|t| *t != tid).collect();
        for t in others {
            self.threads.remove(&t);
        }
        let mut thread = self.threads.remove(&tid).unwrap();
        thread.tid = pid;
        thread.cpu = CpuState { pc: start, ..CpuState::default() };
        thread.cpu.x[31] = sp;
        thread.clear_child_tid = 0;
        thread.pending.clear();
        thread.altstack = (0, 0);
        self.threads.insert(pid, thread);
        if self.current == tid {
            self.current = pid;
        }
        let space = Space { mem, code: Default::default(), brk_start: image.brk, brk: image.brk, mmap_next: MMAP_TOP, users: 1, mapped: 0 };
        let new_space = self.spaces.insert(space);
        let now = self.monotonic_ns();
        let p = self.processes.get_mut(&pid).unwrap();
        let old_space = std::mem::replace(&mut p.space, new_space);
        p.threads = vec![pid];
        p.exe = walk.path;
        p.comm = command_name(path);
        p.argv = argv;
        p.envp = envp;
        for a in p.actions.iter_mut() {
            if a.handler != SIG_IGN {
                *a = SigAction::default();
            }
        }
        if p.start_ns == 0 {
            p.start_ns = now;
        }
        p.vfork_released = true;
        if old_space != usize::MAX {
            self.release_space(old_space);
        }
        let cloexec: Vec<i32> =
            self.processes[&pid].fds.fds.iter().filter(|(_, d)| d.cloexec).map(|(fd, _)| *fd).collect();
        let mut fds = std::mem::take(&mut self.processes.get_mut(&pid).unwrap().fds);
        for fd in cloexec {
            let _ = self.files.close(&mut fds, fd);
        }
        self.processes.get_mut(&pid).unwrap().fds = fds;
        Ok(())
    }

    /// How many bytes an executable or dynamic loader may have: its bytes are host memory while it
    /// loads, so they count against what the machine's memory limit leaves (and at most MAX_FILE).
    pub fn executable_limit(&self) -> u64 {
        elf::MAX_FILE.min(self.limits.memory.saturating_sub(self.mapped_total()))
    }

    /// The bytes of the dynamic loader named in PT_INTERP, looked up in the guest's file system
    /// (so only what the guest itself can see: its tree and its mounts).
    fn read_interpreter(&self, path: &str) -> Result<std::sync::Arc<Vec<u8>>, ElfError> {
        let fail = |why: String| ElfError::Interpreter { path: path.to_string(), why };
        let walk = self.vfs.resolve("/", path, true, self).map_err(|e| fail(format!("not found (errno {})", e.0)))?;
        let bytes = self
            .vfs
            .read_file(&walk.loc, self.executable_limit())
            .map_err(|e| fail(format!("cannot be read (errno {})", e.0)))?;
        if elf::interpreter(&bytes).map_err(|e| fail(e.to_string()))?.is_some() {
            return Err(fail("names a dynamic loader itself".into()));
        }
        Ok(bytes)
    }

    pub fn release_space(&mut self, space: usize) {
        let s = &mut self.spaces[space];
        s.users -= 1;
        if s.users == 0 {
            self.spaces.remove(space);
        }
    }

    /// Sends a signal to a process (kill): queued on a thread that does not block it.
    pub fn signal_process(&mut self, pid: u32, info: SigInfo) {
        let Some(p) = self.processes.get(&pid) else { return };
        if p.is_zombie() || info.signo == 0 {
            return;
        }
        let tid = p
            .threads
            .iter()
            .copied()
            .find(|t| self.threads[t].sigmask & bit(info.signo) == 0)
            .unwrap_or(p.threads[0]);
        self.signal_thread(tid, info);
    }

    /// A signal from outside the machine (the host's Ctrl-C). Linux may deliver it at any instruction
    /// of a running thread, but a handler that longjmps out instead of returning (BusyBox ash's
    /// SIGINT handler does) abandons what the interrupted code was doing: caught in the few
    /// instructions where glibc's stdio lock is taken but its owner not yet recorded (or the other
    /// way round), the shell waits on that lock forever the next time it prints. The host's stop
    /// falls on whatever instruction a time slice ended at, so a running thread takes the signal at
    /// its next safepoint instead: a system call or a loop's backward branch (glibc takes a lock and
    /// records its owner in straight-line code, so neither falls between the two); or after
    /// SAFEPOINT_WAIT instructions at the latest. A waiting thread is at a system call already.
    pub fn signal_from_outside(&mut self, pid: u32, info: SigInfo) {
        self.signal_process(pid, info);
        let Some(p) = self.processes.get(&pid) else { return };
        for tid in p.threads.clone() {
            let t = self.threads.get_mut(&tid).unwrap();
            if t.wait.is_none() && !t.pending.is_empty() {
                t.signal_hold = SAFEPOINT_WAIT;
            }
        }
    }

    /// Queues a signal on one thread; ignored signals are discarded at once, as on Linux.
    pub fn signal_thread(&mut self, tid: u32, info: SigInfo) {
        let Some(t) = self.threads.get(&tid) else { return };
        let sig = info.signo;
        self.job_control_on_send(t.pid, sig);
        let t = &self.threads[&tid];
        let action = self.processes[&t.pid].actions[sig as usize - 1];
        let ignored = action.handler == SIG_IGN
            || (action.handler == SIG_DFL && default_action(sig) == DefaultAction::Ignore);
        if ignored && t.sigmask & bit(sig) == 0 && sig != SIGKILL {
            return;
        }
        let t = self.threads.get_mut(&tid).unwrap();
        t.pending.entry(sig).or_insert(info);
        self.events += 1;
    }

    /// Ends a whole process with a wait status: its threads stop, descriptors close, memory is
    /// released, children are handed to init, the parent gets SIGCHLD.
    pub fn exit_process(&mut self, pid: u32, status: i32) {
        let Some(p) = self.processes.get_mut(&pid) else { return };
        if p.is_zombie() {
            return;
        }
        p.exit = Some(status);
        self.events += 1;
        p.vfork_released = true;
        let threads = std::mem::take(&mut p.threads);
        let space = std::mem::replace(&mut p.space, usize::MAX);
        let mut fds = std::mem::take(&mut p.fds);
        let ppid = p.ppid;
        if self.threads.len() == threads.len() {
            let last = threads.iter().find(|&&t| t == self.current).unwrap_or(&threads[0]);
            if let Some(s) = self.spaces.get(space) {
                self.remains = Some((pid, self.threads[last].cpu.clone(), s.mem.clone()));
            }
        }
        for t in threads {
            if let Some(thread) = self.threads.remove(&t) {
                self.clear_child_tid(&thread, space);
            }
        }
        self.files.close_all(&mut fds);
        self.release_space(space);
        let orphans: Vec<u32> = self.processes.values().filter(|c| c.ppid == pid).map(|c| c.pid).collect();
        for c in orphans {
            self.processes.get_mut(&c).unwrap().ppid = 1;
            if self.processes[&c].is_zombie() {
                self.processes.remove(&c);
            }
        }
        if pid == FIRST_PID {
            self.exit_status = Some(shell_status(status));
            self.exit_signal = (status & 0x7f != 0).then_some(status & 0x7f);
        }
        let parent_waits = self.processes.get(&ppid).is_some_and(|pp| {
            let a = pp.actions[SIGCHLD as usize - 1];
            !pp.is_zombie() && a.handler != SIG_IGN && a.flags & SA_NOCLDWAIT == 0
        });
        if !parent_waits {
            self.processes.remove(&pid);
            return;
        }
        let (code, value) =
            if status & 0x7f == 0 { (CLD_EXITED, (status >> 8) & 0xff) } else { (CLD_KILLED, status & 0x7f) };
        self.signal_process(ppid, SigInfo { signo: SIGCHLD, code, pid, uid: 0, status: value, addr: 0 });
    }

    /// CLONE_CHILD_CLEARTID: zero the tid word and wake a joiner.
    pub(super) fn clear_child_tid(&mut self, thread: &Thread, space: usize) {
        if thread.clear_child_tid == 0 {
            return;
        }
        if let Some(s) = self.spaces.get_mut(space) {
            if s.users > 1 || self.threads.values().any(|t| self.processes.get(&t.pid).is_some_and(|p| p.space == space)) {
                let _ = s.mem.write_u32(thread.clear_child_tid, 0);
                self.futex_wake(space, thread.clear_child_tid, u32::MAX);
            }
        }
    }

    /// Ends one thread (exit); the process ends with it if it was the last.
    pub fn exit_thread(&mut self, tid: u32, code: i32) {
        let pid = self.threads[&tid].pid;
        if self.processes[&pid].threads.len() == 1 {
            self.exit_process(pid, exited_status(code));
            return;
        }
        let thread = self.threads.remove(&tid).unwrap();
        let space = self.processes[&pid].space;
        self.processes.get_mut(&pid).unwrap().threads.retain(|t| *t != tid);
        self.clear_child_tid(&thread, space);
    }

    pub fn futex_wake(&mut self, space: usize, addr: u64, count: u32) -> u32 {
        let mut woken = 0;
        for t in self.threads.values_mut() {
            if woken == count {
                break;
            }
            if t.wait == Some(Wait::Futex { space, addr }) && !t.woken {
                t.woken = true;
                woken += 1;
            }
        }
        woken
    }


    pub(super) fn deliver_signals(&mut self, tid: u32) {
        loop {
            let Some(t) = self.threads.get(&tid) else { return };
            let Some(sig) = t.pending.keys().copied().find(|&s| t.sigmask & bit(s) == 0 || s == SIGKILL) else {
                return;
            };
            let pid = t.pid;
            let info = self.threads.get_mut(&tid).unwrap().pending.remove(&sig).unwrap();
            let action = self.processes[&pid].actions[sig as usize - 1];
            if action.handler == SIG_IGN && sig != SIGKILL {
                continue;
            }
            if action.handler == SIG_DFL || sig == SIGKILL {
                match default_action(sig) {
                    _ if sig == SIGKILL => {}
                    DefaultAction::Stop => {
                        self.stop_process(pid, sig);
                        return;
                    }
                    DefaultAction::Ignore => continue,
                    DefaultAction::Terminate => {}
                }
                self.exit_process(pid, killed_status(sig));
                return;
            }
            self.run_handler(tid, sig, action, info);
            return;
        }
    }

    fn run_handler(&mut self, tid: u32, sig: u32, action: SigAction, info: SigInfo) {
        let pid = self.threads[&tid].pid;
        let space = self.processes[&pid].space;
        let t = self.threads.get_mut(&tid).unwrap();
        if let Some(w) = t.wait.take() {
            // Interrupted in a blocking call: restart it after the handler, or fail with EINTR.
            if !(action.flags & SA_RESTART != 0 && w.restartable()) {
                t.cpu.x[0] = (-(EINTR.0 as i64)) as u64;
                t.cpu.pc += 4;
            }
            t.deadline = None;
            t.woken = false;
        }
        let old_mask = t.suspend_mask.take().unwrap_or(t.sigmask);
        let mut new_mask = t.sigmask | action.mask;
        if action.flags & SA_NODEFER == 0 {
            new_mask |= bit(sig);
        }
        t.sigmask = new_mask & !UNBLOCKABLE;
        if action.flags & SA_ONSTACK != 0 && t.altstack.1 != 0 {
            let sp = t.cpu.sp();
            let (base, size) = t.altstack;
            if !(base..base + size).contains(&sp) {
                t.cpu.x[31] = base + size;
            }
        }
        let ok = signals::enter_handler(&mut t.cpu, &mut self.spaces[space].mem, &action, &info, old_mask, SIGRETURN_PAGE);
        if action.flags & SA_RESETHAND != 0 {
            self.processes.get_mut(&pid).unwrap().actions[sig as usize - 1] = SigAction::default();
        }
        if ok.is_err() {
            self.exit_process(pid, killed_status(SIGSEGV));
        }
    }

    /// Fires SIGALRM for alarms whose time has come.
    pub(super) fn fire_timers(&mut self) {
        let now = self.monotonic_ns();
        let due: Vec<u32> = self.processes.values().filter(|p| p.alarm.is_some_and(|a| a <= now)).map(|p| p.pid).collect();
        for pid in due {
            self.processes.get_mut(&pid).unwrap().alarm = None;
            self.signal_process(pid, SigInfo { signo: SIGALRM, code: SI_KERNEL, ..SigInfo::default() });
        }
    }
}
