//! Guest processes and threads: what each owns (address space, descriptors, signal state) and
//! what a blocked thread waits for.

use std::collections::BTreeMap;

use super::fd::FdTable;
use super::signals::{SigAction, SigInfo};
use crate::arm64::exec::code_cache::CodeCache;
use crate::arm64::mem::Memory;
use crate::arm64::state::CpuState;

/// Where anonymous mmaps are placed, top down (below the stack and its guard gap).
pub const MMAP_TOP: u64 = 0x0000_7fff_b000_0000;

/// An address space, shared by the threads of a process and by a vfork child until it execs.
#[derive(Clone)]
pub struct Space {
    pub mem: Memory,
    /// `mem`'s executable pages, decoded.
    pub code: CodeCache,
    pub brk_start: u64,
    pub brk: u64,
    /// Next free address below which anonymous mappings go.
    pub mmap_next: u64,
    /// Processes using this space.
    pub users: u32,
    /// Bytes granted by brk, mmap and mremap (and not unmapped since): bounded, because guest
    /// pages are host memory.
    pub mapped: u64,
}

/// Why a thread is not running. The thread's PC points at its `svc`, which is executed again
/// when the wait is over (so every blocking system call is restartable by construction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    PipeRead(usize),
    PipeWrite(usize),
    Stdin,
    /// wait4 for a child of the process.
    Child,
    Futex { space: usize, addr: u64 },
    /// nanosleep and friends: only the deadline ends it.
    Sleep,
    /// rt_sigsuspend / pause: only a signal ends it.
    Signal,
    /// rt_sigtimedwait: a signal of the set becomes pending (or the deadline passes).
    SignalOf(u64),
    /// A vfork parent waiting for its child (pid) to exec or exit.
    Vfork(u32),
    /// A read of the terminal (tty.rs) with nothing typed yet.
    TtyRead,
    /// ppoll/pselect6/epoll_pwait on the listed descriptions.
    Poll,
    /// Data (or a connection to accept) on a socket.
    SocketData(usize),
    /// Room in a socket's receive queue (or in a listener's queue, for a connect).
    SocketRoom(usize),
}

impl Wait {
    /// Whether SA_RESTART makes the call start again after a handler (else it fails with EINTR).
    pub fn restartable(&self) -> bool {
        !matches!(self, Wait::Sleep | Wait::Signal | Wait::SignalOf(_) | Wait::Poll | Wait::Futex { .. })
    }
}

#[derive(Clone)]
pub struct Thread {
    pub tid: u32,
    pub pid: u32,
    pub cpu: CpuState,
    pub wait: Option<Wait>,
    /// Deadline (machine clock, ns) of the blocking call in progress, if it has one.
    pub deadline: Option<u64>,
    /// Set by FUTEX_WAKE for a waiter, consumed when its futex call runs again.
    pub woken: bool,
    pub sigmask: u64,
    pub pending: BTreeMap<u32, SigInfo>,
    /// The mask rt_sigsuspend replaced, restored when the handler returns.
    pub suspend_mask: Option<u64>,
    pub clear_child_tid: u64,
    pub altstack: (u64, u64),
    /// While non-zero, a signal sent from outside the machine waits for this running thread's next
    /// safepoint (see `Machine::signal_from_outside`): at most this many more instructions.
    pub signal_hold: u64,
}

impl Thread {
    pub fn new(tid: u32, pid: u32, cpu: CpuState, sigmask: u64) -> Self {
        Thread {
            tid,
            pid,
            cpu,
            wait: None,
            deadline: None,
            woken: false,
            sigmask,
            pending: BTreeMap::new(),
            suspend_mask: None,
            clear_child_tid: 0,
            altstack: (0, 0),
            signal_hold: 0,
        }
    }
}

#[derive(Clone)]
pub struct Process {
    pub pid: u32,
    pub ppid: u32,
    pub pgid: u32,
    pub sid: u32,
    pub space: usize,
    pub fds: FdTable,
    pub cwd: String,
    pub umask: u32,
    /// Canonical guest path of the running executable (/proc/self/exe).
    pub exe: String,
    /// The command name (/proc/PID/comm): the last name of the path execve was given, as on
    /// Linux, at most 15 bytes.
    pub comm: String,
    pub argv: Vec<Vec<u8>>,
    pub envp: Vec<Vec<u8>>,
    pub actions: Vec<SigAction>,
    pub threads: Vec<u32>,
    /// Wait status once the process has ended (a zombie until its parent reaps it).
    pub exit: Option<i32>,
    /// True once a vfork child has exec'd or exited (its parent may go on).
    pub vfork_released: bool,
    /// SIGALRM deadline on the machine clock (ns).
    pub alarm: Option<u64>,
    pub start_ns: u64,
    pub instructions: u64,
    /// Instructions of reaped children (getrusage RUSAGE_CHILDREN, times).
    pub children_instructions: u64,
    /// Stopped by a job control signal, until SIGCONT (jobs.rs).
    pub stopped: bool,
    /// A stop or continue not yet reported to the parent's wait4 (its wait status).
    pub report: Option<i32>,
}

impl Process {
    pub fn is_zombie(&self) -> bool {
        self.exit.is_some()
    }
}

/// Wait status word as wait4 reports it.
pub fn exited_status(code: i32) -> i32 {
    (code & 0xff) << 8
}

pub fn killed_status(sig: u32) -> i32 {
    sig as i32 & 0x7f
}

/// A wait status as a shell reports it: the exit code, or 128 + the signal.
pub fn shell_status(status: i32) -> i32 {
    if status & 0x7f == 0 {
        (status >> 8) & 0xff
    } else {
        128 + (status & 0x7f)
    }
}
