//! The whole machine: processes and threads, their address spaces, the filesystem, the terminal,
//! the clock and the debugging state; and the run loop that executes guest instructions, turns
//! `svc` into system calls and faults into signals, and schedules threads round-robin.
//! What /proc shows of the machine is in proc_view.rs; the tests are in machine/.

use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use super::coverage::{cover, note_compare};
use super::observation::Observation;
use super::profile::Profile;

use super::elf::ElfError;
use super::limits::Limits;
use super::fd::{FileKind, Files, OpenFile, Stream, Terminal, O_RDWR, O_WRONLY};
use super::framebuffer::Framebuffer;
use super::inode::{Device, Timespec};
use super::process::*;
use super::rootfs;
use super::signals::*;
use super::slab::Slab;
use super::stack;
use super::syscalls::{self, Outcome};
use super::trace::{Before, Recorder, TraceRing};
use super::tty::Tty;
use super::vfs::{Loc, Vfs};
use crate::arm64::exec::code_cache::CodeCache;
use crate::arm64::exec::Exception;
use crate::arm64::mem::{Access, Memory, WatchRange, PAGE_SIZE};
use crate::arm64::state::CpuState;

/// Instructions a thread runs before the scheduler moves on.
const SLICE: u64 = 50_000;
/// Instructions a running thread may run before a signal from outside reaches it anyway, when it
/// meets no safepoint (a loop made only of indirect branches).
pub const SAFEPOINT_WAIT: u64 = 1_000_000;
/// Deterministic clock: the machine boots at 2024-01-01 00:00:00 UTC and each instruction
/// takes one nanosecond.
pub const BOOT_EPOCH_SECONDS: u64 = 1_704_067_200;
/// The signal-return trampoline page (like the kernel's vDSO sigreturn).
pub const SIGRETURN_PAGE: u64 = 0x0000_7fff_ffff_f000;
/// Bytes of system call history kept.
const SYSCALL_LOG_CAPACITY: usize = 4096;
pub const FIRST_PID: u32 = 100;

/// Why `run` returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    Exited,
    Budget,
    Breakpoint(u64),
    Watchpoint { pc: u64, address: u64, write: bool },
    /// A process waits for terminal input that has not been closed.
    Stdin,
    /// Every process waits, and only the host may wake one: through a port forward.
    Network,
    /// The machine itself cannot go on (deadlock).
    Fault(String),
}

#[derive(Clone, Debug)]
pub struct SyscallRecord {
    /// Instructions retired by the whole machine when the call was made (its svc included).
    pub at: u64,
    pub pid: u32,
    pub nr: u64,
    pub args: [u64; 6],
    pub result: i64,
}

/// A process killed by a fault (SIGSEGV, SIGILL, SIGTRAP): what Linux would not tell, kept for
/// the user.
#[derive(Clone, Debug)]
pub struct FaultRecord {
    pub pid: u32,
    pub signal: u32,
    pub pc: u64,
    pub word: Option<u32>,
    pub detail: String,
}

/// Breakpoint addresses are looked up before every instruction while any is set: a multiply
/// spreads them well enough and costs far less than the default hasher.
#[derive(Clone, Default)]
pub struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(26)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[derive(Clone, Debug, Default)]
pub struct DebugState {
    pub trace: TraceRing,
    pub breakpoints: HashSet<u64, BuildHasherDefault<AddressHasher>>,
    /// Watched ranges, applied to every address space.
    pub watchpoints: Vec<WatchRange>,
    /// The breakpoint or watchpoint a thread stopped at: it executes that instruction when resumed.
    pub resume_over: Option<(u32, u64)>,
    /// Edge coverage for fuzzing, when on: a hit count (saturating) per hashed (branch pc, next pc)
    /// of every branch-class instruction executed, taken or not.
    pub coverage: Option<Vec<u8>>,
    /// While coverage is on, the operands of the comparisons executed (CMP with an immediate, the
    /// two registers of a register CMP), each kept in a slot chosen by its value: a fuzzer's
    /// dictionary of what the program compared its input with.
    pub compares: Vec<u64>,
    /// Instruction counts per PC and sampled call stacks, when on.
    pub profile: Option<Profile>,
    /// A digest of every PC, next PC and memory access, when on (a timing observer's view).
    pub observation: Option<Observation>,
}

#[derive(Clone)]
pub struct Clock {
    pub deterministic: bool,
    /// Time skipped while every thread slept (deterministic mode).
    pub idle_ns: u64,
    host_boot: std::time::Instant,
    host_boot_epoch_ns: u64,
}

/// What the first process is started with.
pub struct Config {
    pub exe: Vec<u8>,
    pub exe_path: String,
    pub argv: Vec<Vec<u8>>,
    pub envp: Vec<Vec<u8>>,
    pub files: Vec<(String, Vec<u8>, u32)>,
    /// (host folder, guest path, writable)
    pub mounts: Vec<(String, String, bool)>,
    pub cwd: String,
    pub stdin: Vec<u8>,
    pub stdin_closed: bool,
    pub deterministic: bool,
    pub limits: Limits,
    /// (rows, columns): the standard streams are a terminal with a line discipline (tty.rs).
    pub tty: Option<(u16, u16)>,
}

#[derive(Debug)]
pub enum BootError {
    Elf(ElfError),
    Mount(String),
    Cwd(String),
    Files(String),
}

impl std::fmt::Display for BootError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BootError::Elf(e) => write!(f, "cannot load the executable: {e}"),
            BootError::Mount(m) => write!(f, "cannot mount: {m}"),
            BootError::Cwd(m) => write!(f, "bad working directory: {m}"),
            BootError::Files(m) => write!(f, "{m}"),
        }
    }
}

#[derive(Clone)]
pub struct Machine {
    pub limits: Limits,
    pub vfs: Vfs,
    pub files: Files,
    pub terminal: Terminal,
    /// The terminal, when the machine has one: its standard streams and /dev/tty.
    pub tty: Option<Tty>,
    pub framebuffer: Framebuffer,
    pub spaces: Slab<Space>,
    pub processes: BTreeMap<u32, Process>,
    pub threads: BTreeMap<u32, Thread>,
    /// The thread running now (or last run).
    pub current: u32,
    next_pid: u32,
    /// Shell-style status of the first process once it has ended.
    pub exit_status: Option<i32>,
    /// The signal that killed the first process, if one did (`exit_status` is then 128 + it).
    pub exit_signal: Option<i32>,
    pub instructions: u64,
    pub syscalls: u64,
    pub clock: Clock,
    rng: u64,
    pub debug: DebugState,
    pub syscall_log: VecDeque<SyscallRecord>,
    pub unknown_syscalls: BTreeSet<u64>,
    pub faults: Vec<FaultRecord>,
    /// Counts process exits and signals sent, so the scheduler can tell that a pass over the
    /// threads changed something.
    pub events: u64,
    /// The registers and memory of the last thread to end, kept for looking at after the run.
    pub remains: Option<(u32, CpuState, Memory)>,
    slice_left: u64,
    /// The thread that ran last: switching away clears its exclusive monitor, as the kernel's
    /// exception return does, so LDXR/STXR pairs stay atomic across threads.
    last_run: u32,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn host_seed() -> u64 {
    let mut b = [0u8; 8];
    if let Ok(mut f) = std::fs::File::open("/dev/urandom") {
        use std::io::Read;
        let _ = f.read_exact(&mut b);
    }
    u64::from_le_bytes(b) ^ std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
}

impl Machine {
    pub fn boot(config: Config) -> Result<Machine, BootError> {
        let host_epoch =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos() as u64;
        let clock = Clock {
            deterministic: config.deterministic,
            idle_ns: 0,
            host_boot: std::time::Instant::now(),
            host_boot_epoch_ns: host_epoch,
        };
        let boot_time = if config.deterministic {
            Timespec { sec: BOOT_EPOCH_SECONDS as i64, nsec: 0 }
        } else {
            Timespec { sec: (host_epoch / 1_000_000_000) as i64, nsec: (host_epoch % 1_000_000_000) as u32 }
        };
        let exe = Arc::new(config.exe);
        let mut vfs = rootfs::build(&config.exe_path, exe.clone(), &config.files, boot_time).map_err(BootError::Files)?;
        vfs.file_capacity = vfs.file_bytes().saturating_add(config.limits.file_bytes);
        for (host, guest, writable) in &config.mounts {
            vfs.mount(host.into(), guest, *writable).map_err(|e| BootError::Mount(format!("{host} at {guest}: {e}")))?;
        }
        let mut m = Machine {
            limits: config.limits,
            vfs,
            files: Files::default(),
            terminal: Terminal { stdin: config.stdin.into(), stdin_closed: config.stdin_closed, ..Terminal::default() },
            tty: None,
            framebuffer: Framebuffer::default(),
            spaces: Slab::default(),
            processes: BTreeMap::new(),
            threads: BTreeMap::new(),
            current: FIRST_PID,
            next_pid: FIRST_PID,
            exit_status: None,
            exit_signal: None,
            instructions: 0,
            syscalls: 0,
            clock,
            rng: if config.deterministic { 0x6e63_7075_5f6e_6221 } else { host_seed() },
            debug: DebugState::default(),
            syscall_log: VecDeque::new(),
            unknown_syscalls: BTreeSet::new(),
            faults: vec![],
            events: 0,
            remains: None,
            slice_left: SLICE,
            last_run: 0,
        };
        let cwd = m
            .vfs
            .resolve("/", &config.cwd, true, &m)
            .map_err(|e| BootError::Cwd(format!("{}: errno {}", config.cwd, e.0)))?;
        let exe_walk = m.vfs.resolve("/", &config.exe_path, true, &m).expect("the executable was just installed");
        let pid = m.alloc_pid();
        let mut fds = super::fd::FdTable::default();
        if let Some((rows, cols)) = config.tty {
            // One read-write description of /dev/tty on 0, 1 and 2, as a login's terminal is.
            m.tty = Some(Tty::new(rows, cols, pid));
            let dev = m.vfs.resolve("/", "/dev/tty", true, &m).expect("the root has /dev/tty");
            let Loc::Mem(ino) = dev.loc else { unreachable!("/dev/tty is in the in-memory tree") };
            let file = m.files.add(OpenFile::new(FileKind::Device(Device::Tty, ino), O_RDWR, "/dev/tty".into()));
            for fd in 0..3 {
                m.files.install_at(&mut fds, fd, file, false).unwrap();
            }
        } else {
            for (fd, stream, flags) in [(0, Stream::Stdin, 0), (1, Stream::Stdout, O_WRONLY), (2, Stream::Stderr, O_WRONLY)] {
                let file = m.files.add(OpenFile::new(FileKind::Terminal(stream), flags, "pipe:[terminal]".into()));
                m.files.install_at(&mut fds, fd, file, false).unwrap();
            }
        }
        let process = Process {
            pid,
            ppid: 1,
            pgid: pid,
            sid: pid,
            space: usize::MAX,
            fds,
            cwd: cwd.path,
            umask: 0o022,
            exe: String::new(),
            comm: String::new(),
            argv: vec![],
            envp: vec![],
            actions: vec![SigAction::default(); NSIG as usize],
            threads: vec![pid],
            exit: None,
            vfork_released: false,
            alarm: None,
            start_ns: 0,
            instructions: 0,
            children_instructions: 0,
            stopped: false,
            report: None,
        };
        m.processes.insert(pid, process);
        m.threads.insert(pid, Thread::new(pid, pid, CpuState::default(), 0));
        m.exec_image(pid, &exe, &config.exe_path, exe_walk, config.argv, config.envp).map_err(BootError::Elf)?;
        m.current = pid;
        Ok(m)
    }

    pub fn alloc_pid(&mut self) -> u32 {
        let pid = self.next_pid;
        self.next_pid += 1;
        pid
    }

    pub fn next_random(&mut self) -> u64 {
        splitmix(&mut self.rng)
    }

    pub fn fill_random(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let r = self.next_random().to_le_bytes();
            chunk.copy_from_slice(&r[..chunk.len()]);
        }
    }

    // ---- clock ----

    /// Nanoseconds since boot.
    pub fn monotonic_ns(&self) -> u64 {
        if self.clock.deterministic {
            self.instructions + self.clock.idle_ns
        } else {
            self.clock.host_boot.elapsed().as_nanos() as u64
        }
    }

    /// Nanoseconds since the Unix epoch.
    pub fn realtime_ns(&self) -> u64 {
        let boot = if self.clock.deterministic { BOOT_EPOCH_SECONDS * 1_000_000_000 } else { self.clock.host_boot_epoch_ns };
        boot + self.monotonic_ns()
    }

    pub fn realtime(&self) -> Timespec {
        let ns = self.realtime_ns();
        Timespec { sec: (ns / 1_000_000_000) as i64, nsec: (ns % 1_000_000_000) as u32 }
    }

    // ---- scheduling ----

    /// Whether what a blocked thread waits for has happened.
    fn wait_over(&self, t: &Thread, wait: Wait) -> bool {
        let now = self.monotonic_ns();
        if t.deadline.is_some_and(|d| now >= d) {
            return true;
        }
        match wait {
            Wait::PipeRead(p) => self.files.pipes.get(p).is_none_or(|p| !p.buffer.is_empty() || p.at_eof()),
            Wait::PipeWrite(p) => {
                self.files.pipes.get(p).is_none_or(|p| p.room() > 0 || p.broken())
            }
            Wait::Stdin => !self.terminal.stdin.is_empty() || self.terminal.stdin_closed,
            Wait::TtyRead => self.tty.as_ref().is_none_or(|tty| tty.readable()),
            Wait::Child => syscalls::process::wait_ready(self, t.tid),
            Wait::Futex { .. } => t.woken,
            Wait::Sleep | Wait::Signal => false,
            Wait::SignalOf(set) => t.pending.keys().any(|&s| set & bit(s) != 0),
            Wait::Vfork(child) => self.processes.get(&child).is_none_or(|c| c.vfork_released),
            Wait::Poll => syscalls::poll_ready(self, t.tid),
            Wait::SocketData(s) => self.files.net.readable_or_gone(s),
            Wait::SocketRoom(s) => self.files.net.room_or_gone(s),
        }
    }

    fn deliverable(t: &Thread) -> bool {
        t.pending.keys().any(|&s| t.sigmask & bit(s) == 0 || s == SIGKILL)
    }

    /// Makes `tid` runnable if it can be: ends a finished wait, delivers signals. Returns
    /// whether it can run now.
    fn prepare(&mut self, tid: u32) -> bool {
        let t = &self.threads[&tid];
        if self.processes[&t.pid].stopped && !t.pending.contains_key(&SIGKILL) {
            return false; // stopped by job control until SIGCONT
        }
        if t.signal_hold > 0 && t.wait.is_none() {
            return true; // runs on to a safepoint first (execute_to_safepoint)
        }
        if let Some(w) = t.wait {
            if self.wait_over(t, w) {
                self.threads.get_mut(&tid).unwrap().wait = None;
            } else if matches!(w, Wait::Vfork(_)) || !Self::deliverable(t) {
                return false;
            }
        }
        self.deliver_signals(tid);
        self.threads.get(&tid).is_some_and(|t| t.wait.is_none() && !self.processes[&t.pid].stopped)
    }

    /// The thread to run next, round-robin over runnable threads in id order.
    fn pick(&mut self) -> Option<u32> {
        self.fire_timers();
        if self.slice_left > 0 && self.threads.contains_key(&self.current) && self.prepare(self.current) {
            return Some(self.current);
        }
        self.slice_left = SLICE;
        // Preparing one thread can wake another that was already passed over (a signal kills a
        // child whose parent waits): go round again until a pass changes nothing.
        loop {
            let events = self.events;
            let order: Vec<u32> = self
                .threads
                .range(self.current + 1..)
                .chain(self.threads.range(..=self.current))
                .map(|(t, _)| *t)
                .collect();
            for tid in order {
                if self.threads.contains_key(&tid) && self.prepare(tid) {
                    self.current = tid;
                    return Some(tid);
                }
            }
            if self.events == events {
                return None;
            }
        }
    }

    /// Nothing can run: let time pass to the next deadline, or report why the machine stops.
    fn idle(&mut self) -> Result<(), Stop> {
        // A host connection (port forward) is open: its next bytes are the host's to send, so a
        // deterministic clock does not jump to the next deadline (a server's read timeout) meanwhile.
        if self.clock.deterministic && !self.files.net.host_held.is_empty() {
            return Err(Stop::Network);
        }
        let keys_may_come = self.tty.as_ref().map_or(!self.terminal.stdin_closed, |tty| !tty.hung_up);
        let waits_for_keys = |t: &Thread| matches!(t.wait, Some(Wait::Stdin | Wait::Poll | Wait::TtyRead));
        let running = |t: &Thread| !self.processes[&t.pid].stopped;
        let someone_reads = keys_may_come && self.threads.values().any(|t| running(t) && waits_for_keys(t));
        // On the host's clock, a terminal's foreground is not kept waiting for a background job's
        // timer (`sleep 60 &` at a prompt): the run stops for input, and background timers are
        // served when it runs again. The foreground's own timers (vi's after Escape, top's
        // refresh, the shell's) are waited for.
        if let (Some(tty), false) = (&self.tty, self.clock.deterministic) {
            let foreground_timer = self
                .threads
                .values()
                .any(|t| running(t) && t.deadline.is_some() && self.processes[&t.pid].pgid == tty.foreground);
            if someone_reads && !foreground_timer {
                return Err(Stop::Stdin);
            }
        }
        let now = self.monotonic_ns();
        let next = self
            .threads
            .values()
            .filter_map(|t| t.deadline)
            .chain(self.processes.values().filter_map(|p| p.alarm))
            .min();
        if let Some(at) = next {
            if self.clock.deterministic {
                self.clock.idle_ns += at.saturating_sub(now);
            } else {
                let wait = at.saturating_sub(now).min(20_000_000);
                std::thread::sleep(std::time::Duration::from_nanos(wait));
                if at > now + wait {
                    return Err(Stop::Budget);
                }
            }
            return Ok(());
        }
        if someone_reads {
            return Err(Stop::Stdin);
        }
        if self.files.net.waits_on_outside() {
            return Err(Stop::Network);
        }
        // The first process has ended and what it left behind waits for what will never come (a
        // server for its next client): the run is over, as a script's is when it leaves a daemon.
        if self.exit_status.is_some() {
            return Err(Stop::Exited);
        }
        Err(Stop::Fault("deadlock: every thread waits for something no thread will do".into()))
    }

    /// Runs until `budget` instructions have retired or something stops the machine.
    pub fn run(&mut self, budget: u64) -> Stop {
        let end = self.instructions.saturating_add(budget);
        loop {
            if self.threads.is_empty() {
                return Stop::Exited;
            }
            if self.instructions >= end {
                return Stop::Budget;
            }
            let Some(tid) = self.pick() else {
                if self.threads.is_empty() {
                    return Stop::Exited;
                }
                match self.idle() {
                    Ok(()) => continue,
                    Err(stop) => return stop,
                }
            };
            let limit = (end - self.instructions).min(self.slice_left.max(1));
            if let Some(stop) = self.execute(tid, limit) {
                return stop;
            }
        }
    }

    fn debugging(&self) -> bool {
        self.debug.trace.depth > 0
            || !self.debug.breakpoints.is_empty()
            || !self.debug.watchpoints.is_empty()
            || self.debug.coverage.is_some()
            || self.debug.profile.is_some()
            || self.debug.observation.is_some()
    }

    /// Adds or removes a watched range in every address space.
    pub fn set_watchpoint(&mut self, w: WatchRange, on: bool) {
        self.debug.watchpoints.retain(|x| (x.addr, x.len) != (w.addr, w.len));
        if on {
            self.debug.watchpoints.push(w);
        }
        let spaces: Vec<usize> = self.spaces.iter().map(|(i, _)| i).collect();
        for i in spaces {
            let mem = &mut self.spaces[i].mem;
            mem.unwatch(w.addr, w.len);
            if on {
                mem.watch(w.addr, w.len, w.read, w.write);
            }
        }
    }

    /// Runs up to `limit` instructions of one thread.
    fn execute(&mut self, tid: u32, limit: u64) -> Option<Stop> {
        if self.threads[&tid].signal_hold > 0 {
            return self.execute_to_safepoint(tid, limit);
        }
        self.execute_some(tid, limit)
    }

    /// One instruction at a time until a safepoint, where the signal from outside that the thread
    /// holds is delivered (the scheduler's next `prepare`): after a system call, after a taken
    /// backward branch (B, B.cond, CBZ/CBNZ, TBZ/TBNZ; not calls and returns), or once the hold
    /// has run out.
    fn execute_to_safepoint(&mut self, tid: u32, limit: u64) -> Option<Stop> {
        for _ in 0..limit {
            let pc = self.threads[&tid].cpu.pc;
            let word = peek_word(self.mem(tid), pc).unwrap_or(0);
            let stop = self.execute_some(tid, 1);
            let Some(t) = self.threads.get_mut(&tid) else { return stop };
            let svc = word & 0xffe0_001f == 0xd400_0001;
            let branch = word & 0xfc00_0000 == 0x1400_0000 // B (not BL)
                || word & 0xff00_0010 == 0x5400_0000 // B.cond
                || word & 0x7c00_0000 == 0x3400_0000; // CBZ/CBNZ, TBZ/TBNZ
            t.signal_hold = t.signal_hold.saturating_sub(1);
            if svc || (branch && t.cpu.pc <= pc) || t.wait.is_some() {
                t.signal_hold = 0;
            }
            if stop.is_some() || t.signal_hold == 0 {
                return stop;
            }
        }
        None
    }

    fn execute_some(&mut self, tid: u32, limit: u64) -> Option<Stop> {
        if self.last_run != tid {
            self.last_run = tid;
            self.threads.get_mut(&tid).unwrap().cpu.exclusive = None;
        }
        if self.debugging() {
            return self.execute_traced(tid, limit);
        }
        let thread = self.threads.get_mut(&tid).unwrap();
        let pid = thread.pid;
        let space = &mut self.spaces[self.processes[&pid].space];
        let (n, result) = space.code.run(&mut thread.cpu, &mut space.mem, limit);
        self.account(pid, n);
        match result {
            Ok(()) => None,
            Err(e) => self.exception(tid, e),
        }
    }

    fn account(&mut self, pid: u32, n: u64) {
        self.instructions += n;
        self.slice_left = self.slice_left.saturating_sub(n);
        if let Some(p) = self.processes.get_mut(&pid) {
            p.instructions += n;
        }
    }

    /// The debugging loop: breakpoints checked before each instruction, the trace ring filled
    /// after it. Registers and memory stay borrowed until an exception needs the whole machine.
    fn execute_traced(&mut self, tid: u32, limit: u64) -> Option<Stop> {
        let thread = self.threads.get_mut(&tid)?;
        if thread.wait.is_some() {
            return None;
        }
        let pid = thread.pid;
        let space = &mut self.spaces[self.processes[&pid].space];
        let (cpu, mem, code) = (&mut thread.cpu, &mut space.mem, &mut space.code);
        let DebugState { trace: ring, breakpoints, resume_over, coverage, compares, profile, observation, .. } =
            &mut self.debug;
        let tracing = ring.depth > 0;
        let traced_accesses = tracing && ring.accesses;
        let logging = traced_accesses || observation.is_some();
        let mut before = Before::default();
        let mut n = 0;
        let mut failed = None;
        // Only the trace on: nothing to check before an instruction or to log during it.
        if tracing && !logging && breakpoints.is_empty() && resume_over.is_none() && profile.is_none() && coverage.is_none()
        {
            let (retired, result) = code.run_observed(cpu, mem, limit, &mut Recorder { ring, before: &mut before, pid });
            n = retired - matches!(result, Err(Exception::Svc { .. })) as u64;
            failed = result.err();
        }
        while n < limit && failed.is_none() {
            let pc = cpu.pc;
            let resuming = resume_over.take() == Some((tid, pc));
            if !resuming && !breakpoints.is_empty() && breakpoints.contains(&pc) {
                *resume_over = Some((tid, pc));
                self.account(pid, n);
                return Some(Stop::Breakpoint(pc));
            }
            let op = match code.fetch(mem, pc) {
                Ok(op) => op,
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            };
            if tracing {
                before.save(cpu, op.word, op.written_registers());
            }
            // Resuming from a watchpoint: the watched access happens once, unwatched.
            let watches: Vec<WatchRange> = if resuming { mem.watchpoints().to_vec() } else { vec![] };
            for w in &watches {
                mem.unwatch(w.addr, w.len);
            }
            if logging {
                mem.open_access_log();
            }
            let word = op.word;
            let result = CodeCache::execute(cpu, mem, op);
            let accesses = if logging { mem.close_access_log() } else { &[] };
            match result {
                Ok(()) => {
                    n += 1;
                    if tracing {
                        ring.record(pid, &before, cpu, if traced_accesses { accesses } else { &[] });
                    }
                    if let Some(o) = observation.as_mut() {
                        o.step(pc, cpu.pc, accesses);
                    }
                    // Branches, exception generation and system: op0 bits 28..26 = 101.
                    if let Some(p) = profile.as_mut() {
                        p.count(tid, pc, word, cpu.pc);
                    }
                    if let Some(map) = coverage.as_deref_mut() {
                        match (word >> 26) & 7 {
                            5 => cover(map, pc, cpu.pc),
                            2 | 4 => note_compare(compares, word, &cpu.x), // SUBS imm (4), reg (2)
                            _ => {}
                        }
                    }
                }
                Err(e) => {
                    if let (Some(p), Exception::Svc { .. }) = (profile.as_mut(), &e) {
                        p.count(tid, pc, word, pc + 4); // a system call retires too
                    }
                    if let (Some(o), Exception::Svc { .. }) = (observation.as_mut(), &e) {
                        o.step(pc, pc + 4, &[]);
                    }
                    failed = Some(e)
                }
            }
            for w in &watches {
                mem.watch(w.addr, w.len, w.read, w.write);
            }
            if failed.is_some() {
                break;
            }
        }
        let Some(e) = failed else {
            self.account(pid, n);
            return None;
        };
        let retired = matches!(e, Exception::Svc { .. });
        self.account(pid, n + retired as u64);
        let stop = self.exception(tid, e);
        // A system call's effect (x0, or a whole new program) belongs to its svc's entry.
        if tracing && retired {
            if let Some(after) = self.threads.get(&tid).map(|t| &t.cpu) {
                self.debug.trace.record(pid, &before, after, &[]);
            }
        }
        // Back to the scheduler after every exception, as the untraced path does: a system call
        // may have made a signal deliverable (abort's tgkill, then unblocking it) or woken
        // another thread, and tracing must not change what the program does.
        stop
    }

    /// Turns an exception of the core into a system call or a signal.
    fn exception(&mut self, tid: u32, e: Exception) -> Option<Stop> {
        let (signal, code, addr, pc, word, detail) = match e {
            Exception::Svc { .. } => {
                self.syscall(tid);
                return None;
            }
            Exception::Watchpoint { pc, addr, write, .. } => {
                self.debug.resume_over = Some((tid, pc));
                return Some(Stop::Watchpoint { pc, address: addr, write });
            }
            Exception::Breakpoint { pc, imm } => (SIGTRAP, TRAP_BRKPT, pc, pc, None, format!("brk #{imm}")),
            Exception::Alignment { pc, addr } => {
                (SIGBUS, BUS_ADRALN, addr, pc, peek_word(self.mem(tid), pc), format!("unaligned access to 0x{addr:x}"))
            }
            Exception::Undefined { pc, word } => (
                SIGILL,
                ILL_ILLOPC,
                pc,
                pc,
                Some(word),
                format!("undefined instruction 0x{word:08x} ({})", crate::arm64::disasm::disassemble(word, pc)),
            ),
            Exception::Memory { fault, .. } if self.grow_stack(tid, fault.addr) => return None,
            Exception::Memory { pc, fault } => {
                let access = match fault.access {
                    Access::Read => "read",
                    Access::Write => "write",
                    Access::Fetch => "fetch",
                };
                let why = if fault.mapped { "not permitted" } else { "unmapped" };
                let word = peek_word(self.mem(tid), pc);
                let code = if fault.mapped { SEGV_ACCERR } else { SEGV_MAPERR };
                (SIGSEGV, code, fault.addr, pc, word, format!("{access} of 0x{:x} ({why})", fault.addr))
            }
        };
        let pid = self.threads[&tid].pid;
        self.faults.push(FaultRecord { pid, signal, pc, word, detail });
        // A fault signal that is blocked or ignored kills the process anyway, as on Linux.
        let p = self.processes.get_mut(&pid).unwrap();
        let t = self.threads.get_mut(&tid).unwrap();
        if t.sigmask & bit(signal) != 0 || p.actions[signal as usize - 1].handler == SIG_IGN {
            p.actions[signal as usize - 1] = SigAction::default();
            t.sigmask &= !bit(signal);
        }
        t.pending.insert(signal, SigInfo { signo: signal, code, addr, ..SigInfo::default() });
        self.slice_left = self.slice_left.min(1);
        self.deliver_signals(tid);
        None
    }

    /// A touch of the unmapped part of the main stack's 8 MiB maps the pages down to it, as
    /// Linux grows the stack; the instruction then runs again.
    fn grow_stack(&mut self, tid: u32, addr: u64) -> bool {
        let floor = stack::STACK_TOP - stack::STACK_LIMIT;
        if !(floor..stack::STACK_TOP).contains(&addr) {
            return false;
        }
        let mem = self.mem_mut(tid);
        let first = addr & !(PAGE_SIZE - 1);
        if mem.is_mapped(first) {
            return false;
        }
        let mut end = first;
        while end < stack::STACK_TOP && !mem.is_mapped(end) {
            end += PAGE_SIZE;
        }
        if end == stack::STACK_TOP {
            return false;
        }
        mem.map(first, end - first, crate::arm64::mem::READ | crate::arm64::mem::WRITE);
        true
    }

    fn syscall(&mut self, tid: u32) {
        let cpu = &self.threads[&tid].cpu;
        let nr = cpu.x[8];
        let args = [cpu.x[0], cpu.x[1], cpu.x[2], cpu.x[3], cpu.x[4], cpu.x[5]];
        let pid = self.threads[&tid].pid;
        self.thread_mut(tid).cpu.exclusive = None;
        self.vfs.now = self.realtime();
        // Kernel-side buffers may take what guest pages leave of the machine's memory.
        self.files.net.memory.limit = self.limits.memory.saturating_sub(self.mapped_total());
        match syscalls::dispatch(self, tid, nr, args) {
            Outcome::Return(result) => {
                if let Some(t) = self.threads.get_mut(&tid) {
                    t.cpu.x[0] = result as u64;
                    t.deadline = None;
                    t.woken = false;
                }
                self.log_syscall(pid, nr, args, result);
            }
            Outcome::Block(wait) => {
                let t = self.threads.get_mut(&tid).unwrap();
                t.wait = Some(wait);
                t.cpu.pc -= 4;
                self.slice_left = 0;
            }
            Outcome::Suspend(wait, result) => {
                let t = self.threads.get_mut(&tid).unwrap();
                t.cpu.x[0] = result as u64;
                t.wait = Some(wait);
                self.slice_left = 0;
                self.log_syscall(pid, nr, args, result);
            }
            Outcome::Done => {
                self.log_syscall(pid, nr, args, 0);
                self.slice_left = self.slice_left.min(1);
            }
        }
    }

    fn log_syscall(&mut self, pid: u32, nr: u64, args: [u64; 6], result: i64) {
        self.syscalls += 1;
        if self.syscall_log.len() == SYSCALL_LOG_CAPACITY {
            self.syscall_log.pop_front();
        }
        self.syscall_log.push_back(SyscallRecord { at: self.instructions, pid, nr, args, result });
    }

    // ---- for the debugger ----

    /// The thread registers and memory refer to: the current one if it lives, else the first.
    pub fn focus(&self) -> Option<u32> {
        if self.threads.contains_key(&self.current) {
            Some(self.current)
        } else {
            self.threads.keys().next().copied()
        }
    }

    /// The process, registers and memory the debugger shows: the focused thread's, or after the
    /// run those of the last thread that ended.
    pub fn view(&self) -> Option<(u32, &CpuState, &Memory)> {
        match self.focus() {
            Some(tid) => Some((self.threads[&tid].pid, &self.threads[&tid].cpu, self.mem(tid))),
            None => self.remains.as_ref().map(|(pid, cpu, mem)| (*pid, cpu, mem)),
        }
    }

    pub fn view_mut(&mut self) -> Option<(&mut CpuState, &mut Memory)> {
        match self.focus() {
            Some(tid) => {
                let space = self.process_of(tid).space;
                Some((&mut self.threads.get_mut(&tid).unwrap().cpu, &mut self.spaces[space].mem))
            }
            None => self.remains.as_mut().map(|(_, cpu, mem)| (cpu, mem)),
        }
    }

    pub fn step_over_breakpoint(&mut self) {
        if let Some(tid) = self.focus() {
            self.debug.resume_over = Some((tid, self.threads[&tid].cpu.pc));
        }
    }
}

/// The instruction word at `pc` for error messages, if it can be read at all.
fn peek_word(mem: &Memory, pc: u64) -> Option<u32> {
    let mut b = [0u8; 4];
    mem.peek(pc, &mut b).ok().map(|_| u32::from_le_bytes(b))
}

#[cfg(test)]
pub(crate) mod tests;

#[cfg(test)]
mod fuzz;
