//! `ncpu_nb._metal.LinuxMachine`: the AArch64 Linux machine as a Python object. Runs happen with
//! the GIL released; Python calls `run` in short chunks so that Ctrl-C is seen between them.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::create_exception;
use pyo3::exceptions::{PyConnectionRefusedError, PyKeyError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use super::disasm::disassemble;
use super::python_core::readable_size;
use super::linux::framebuffer;
use super::linux::limits::Limits;
use super::linux::coverage::{COMPARE_SLOTS, COVERAGE_SLOTS};
use super::linux::machine::{BootError, Config, Machine, Stop};
use super::linux::observation::Observation;
use super::linux::profile::Profile;
use super::linux::procfs::ProcContext;
use super::linux::signals::{SigInfo, SI_KERNEL};
use super::linux::syscalls;
use super::linux::trace::register_name;
use super::mem::{Memory, WatchRange, EXEC, READ, WRITE};
use super::state::{CpuState, RegisterName};

create_exception!(_metal, ElfError, PyValueError, "The executable is not a static AArch64 ELF the machine can load.");
create_exception!(_metal, MachineError, PyRuntimeError, "The machine itself failed (never the guest program).");

/// Everything in a machine: processes, memory (copy-on-write), files, terminal, counters.
#[pyclass(module = "ncpu_nb._metal", frozen)]
pub struct LinuxSnapshot {
    machine: Machine,
}

#[pyclass(module = "ncpu_nb._metal")]
pub struct LinuxMachine {
    machine: Machine,
}

/// Most instructions one `disassemble` lists (each costs the host ~100 bytes; the guest's memory
/// may hold a billion words).
const MAX_DISASSEMBLE: usize = 1 << 20;

type StopTuple = (&'static str, u64, String);

fn stop_tuple(m: &Machine, stop: Stop) -> StopTuple {
    let pc = m.view().map_or(0, |(_, cpu, _)| cpu.pc);
    match stop {
        Stop::Exited => ("exited", pc, format!("exit status {}", m.exit_status.unwrap_or(0))),
        Stop::Budget => ("budget", pc, String::new()),
        Stop::Breakpoint(at) => ("breakpoint", at, String::new()),
        Stop::Watchpoint { pc, address, write } => {
            ("watchpoint", pc, format!("{} of 0x{address:x}", if write { "write" } else { "read" }))
        }
        Stop::Stdin => ("stdin", pc, "waiting for input on stdin".into()),
        Stop::Network => ("network", pc, "waiting for a connection through a port forward".into()),
        Stop::Fault(why) => ("fault", pc, why),
    }
}

/// Where the machine was when it failed, for the error message.
fn location(m: &Machine) -> String {
    match m.view() {
        Some((pid, cpu, mem)) => {
            let pc = cpu.pc;
            let mut b = [0u8; 4];
            match mem.peek(pc, &mut b) {
                Ok(()) => {
                    let word = u32::from_le_bytes(b);
                    format!("pid {pid} at pc 0x{pc:x}: {word:08x} {}", disassemble(word, pc))
                }
                Err(_) => format!("pid {pid} at pc 0x{pc:x} (unmapped)"),
            }
        }
        None => "no process has run".into(),
    }
}

fn perms_text(p: u8) -> String {
    let bit = |b: u8, c: char| if p & b != 0 { c } else { '-' };
    format!("{}{}{}", bit(READ, 'r'), bit(WRITE, 'w'), bit(EXEC, 'x'))
}

thread_local! {
    static GUARDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, turning a panic into Err. The default panic hook's message and backtrace on stderr
/// would only repeat the typed error the caller raises, so it stays quiet inside.
fn guarded<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    static QUIET_HOOK: std::sync::Once = std::sync::Once::new();
    QUIET_HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !GUARDED.with(|g| g.get()) {
                default(info)
            }
        }));
    });
    GUARDED.with(|g| g.set(true));
    let outcome = catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(false));
    outcome
}

impl LinuxMachine {
    fn view(&self) -> PyResult<(u32, &CpuState, &Memory)> {
        self.machine.view().ok_or_else(|| PyValueError::new_err("no process has run"))
    }

    fn view_mut(&mut self) -> PyResult<(&mut CpuState, &mut Memory)> {
        self.machine.view_mut().ok_or_else(|| PyValueError::new_err("no process has run"))
    }

    fn run_guarded(&mut self, py: Python<'_>, budget: u64, over_breakpoint: bool) -> PyResult<StopTuple> {
        let machine = &mut self.machine;
        let outcome = py.detach(|| {
            guarded(|| {
                if over_breakpoint {
                    machine.step_over_breakpoint();
                }
                machine.run(budget)
            })
        });
        match outcome {
            Ok(stop) => Ok(stop_tuple(&self.machine, stop)),
            Err(panic) => {
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Err(MachineError::new_err(format!("internal error ({why}) {}", location(&self.machine))))
            }
        }
    }
}

#[pymethods]
impl LinuxMachine {
    #[new]
    #[pyo3(signature = (elf, argv, env, *, exe_path = "/bin/busybox".to_string(), files = vec![], mounts = vec![],
                        cwd = "/".to_string(), stdin = vec![], stdin_closed = true, deterministic = true,
                        memory_limit = None, file_limit = None, task_limit = None, tty = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        elf: Vec<u8>,
        argv: Vec<String>,
        env: Vec<String>,
        exe_path: String,
        files: Vec<(String, Vec<u8>, u32)>,
        mounts: Vec<(String, String, bool)>,
        cwd: String,
        stdin: Vec<u8>,
        stdin_closed: bool,
        deterministic: bool,
        memory_limit: Option<u64>,
        file_limit: Option<u64>,
        task_limit: Option<usize>,
        tty: Option<(u16, u16)>,
    ) -> PyResult<Self> {
        if !exe_path.starts_with('/') {
            return Err(PyValueError::new_err(format!("exe_path must be absolute, not {exe_path:?}")));
        }
        let config = Config {
            exe: elf,
            exe_path,
            argv: argv.into_iter().map(String::into_bytes).collect(),
            envp: env.into_iter().map(String::into_bytes).collect(),
            files,
            mounts,
            cwd,
            stdin,
            stdin_closed,
            deterministic,
            limits: {
                let d = Limits::default();
                Limits {
                    memory: memory_limit.unwrap_or(d.memory),
                    file_bytes: file_limit.unwrap_or(d.file_bytes),
                    tasks: task_limit.unwrap_or(d.tasks),
                }
            },
            tty,
        };
        match Machine::boot(config) {
            Ok(machine) => Ok(LinuxMachine { machine }),
            Err(BootError::Elf(e)) => Err(ElfError::new_err(e.to_string())),
            Err(e) => Err(PyValueError::new_err(e.to_string())),
        }
    }

    /// Runs at most `max_instructions` (over all processes) and says why it stopped.
    fn run(&mut self, py: Python<'_>, max_instructions: u64) -> PyResult<StopTuple> {
        self.run_guarded(py, max_instructions, false)
    }

    /// Executes `n` instructions, stepping over a breakpoint at the current PC.
    #[pyo3(signature = (n = 1))]
    fn step(&mut self, py: Python<'_>, n: u64) -> PyResult<StopTuple> {
        self.run_guarded(py, n, true)
    }

    #[getter]
    fn exit_status(&self) -> Option<i32> {
        self.machine.exit_status
    }

    /// The signal that killed the first process, or None (it exited, or runs on).
    #[getter]
    fn exit_signal(&self) -> Option<i32> {
        self.machine.exit_signal
    }

    #[getter]
    fn instructions(&self) -> u64 {
        self.machine.instructions
    }

    #[getter]
    fn syscalls(&self) -> u64 {
        self.machine.syscalls
    }

    /// The guest's /dev/fb0: (width, height, pixels), 4 bytes a pixel (blue, green, red, unused).
    fn framebuffer<'py>(&self, py: Python<'py>) -> (u32, u32, Bound<'py, PyBytes>) {
        (framebuffer::WIDTH, framebuffer::HEIGHT, PyBytes::new(py, &self.machine.framebuffer.pixels()))
    }

    /// Frames the guest has presented on /dev/fb0 (FBIOPAN_DISPLAY calls).
    #[getter]
    fn frames(&self) -> u64 {
        self.machine.framebuffer.frames
    }

    fn take_stdout<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &std::mem::take(&mut self.machine.terminal.stdout))
    }

    fn take_stderr<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &std::mem::take(&mut self.machine.terminal.stderr))
    }

    /// Input: on a machine with a terminal, keys typed (its line discipline echoes and edits them).
    fn write_stdin(&mut self, data: Vec<u8>) -> PyResult<()> {
        let closed = self.machine.tty.as_ref().map_or(self.machine.terminal.stdin_closed, |t| t.hung_up);
        if closed {
            return Err(PyValueError::new_err("stdin is closed"));
        }
        if !self.machine.type_keys(&data) {
            self.machine.terminal.stdin.extend(data);
        }
        Ok(())
    }

    /// End of input: with a terminal, it is hung up (reads find end of file).
    fn close_stdin(&mut self) {
        match self.machine.tty.as_mut() {
            Some(tty) => tty.hung_up = true,
            None => self.machine.terminal.stdin_closed = true,
        }
    }

    /// The terminal's size (rows, columns), or None for a machine without one.
    #[getter]
    fn tty(&self) -> Option<(u16, u16)> {
        self.machine.tty.as_ref().map(|t| (t.rows, t.cols))
    }

    /// A new window size for the terminal: programs read it (TIOCGWINSZ) and the foreground
    /// process group gets SIGWINCH.
    fn resize(&mut self, rows: u16, cols: u16) -> PyResult<()> {
        if rows == 0 || cols == 0 {
            return Err(PyValueError::new_err(format!("a terminal of {rows} rows and {cols} columns")));
        }
        if !self.machine.resize_terminal(rows, cols) {
            return Err(PyValueError::new_err("the machine has no terminal: make it with tty=(rows, cols)"));
        }
        Ok(())
    }

    /// Sends signal `signal` to process `pid` as the kernel would (a terminal's Ctrl-C is SIGINT).
    fn send_signal(&mut self, pid: u32, signal: u32) -> PyResult<()> {
        if !(1..=64).contains(&signal) {
            return Err(PyValueError::new_err(format!("no signal {signal} (signals are 1..64)")));
        }
        if self.machine.processes.get(&pid).is_none_or(|p| p.is_zombie()) {
            return Err(PyValueError::new_err(format!("no live process {pid}")));
        }
        self.machine.signal_from_outside(pid, SigInfo { signo: signal, code: SI_KERNEL, ..SigInfo::default() });
        Ok(())
    }

    /// Lets the host connect to guest port `port` (`host_connect`): a guest server listening there
    /// then waits for the outside world instead of ending the run as a deadlock.
    fn forward_port(&mut self, port: u16) {
        self.machine.files.net.forwarded.insert(port);
    }

    /// A new connection from the host to guest port `port` on the guest's loopback; its id.
    fn host_connect(&mut self, port: u16) -> PyResult<usize> {
        self.machine.files.net.host_connect(port).map_err(|e| net_error(e, port))
    }

    /// Bytes from the host into connection `conn`: how many the guest's buffer took.
    fn host_send(&mut self, conn: usize, data: &[u8]) -> PyResult<usize> {
        self.machine.files.net.host_send(conn, data).map_err(|e| net_error(e, 0))
    }

    /// (bytes the guest sent on `conn`, whether it has closed its side).
    fn host_recv<'py>(&mut self, py: Python<'py>, conn: usize, max: usize) -> PyResult<(Bound<'py, PyBytes>, bool)> {
        let (data, ended) = self.machine.files.net.host_recv(conn, max).map_err(|e| net_error(e, 0))?;
        Ok((PyBytes::new(py, &data), ended))
    }

    /// The host ends connection `conn` (`write_only`: only its sending side, as shutdown(SHUT_WR)).
    #[pyo3(signature = (conn, write_only = false))]
    fn host_close(&mut self, conn: usize, write_only: bool) -> PyResult<()> {
        self.machine.files.net.host_close(conn, write_only).map_err(|e| net_error(e, 0))
    }

    /// Every register of the current thread by name.
    fn registers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (_, cpu, _) = self.view()?;
        let d = PyDict::new(py);
        for i in 0..31 {
            d.set_item(format!("x{i}"), cpu.x[i])?;
        }
        d.set_item("sp", cpu.x[31])?;
        d.set_item("pc", cpu.pc)?;
        d.set_item("nzcv", cpu.nzcv)?;
        d.set_item("fpcr", cpu.fpcr)?;
        d.set_item("fpsr", cpu.fpsr)?;
        d.set_item("tpidr_el0", cpu.tpidr_el0)?;
        for i in 0..32 {
            d.set_item(format!("v{i}"), cpu.v[i])?;
        }
        Ok(d)
    }

    fn get_register(&self, name: &str) -> PyResult<u128> {
        let r = thread_register(name)?;
        Ok(self.view()?.1.register(r))
    }

    fn set_register(&mut self, name: &str, value: u128) -> PyResult<()> {
        let r = thread_register(name)?;
        self.view_mut()?.0.set_register(r, value);
        Ok(())
    }

    fn read_memory<'py>(&self, py: Python<'py>, address: u64, size: usize) -> PyResult<Bound<'py, PyBytes>> {
        let mem = self.view()?.2;
        let mut buf = vec![0u8; readable_size(mem, size)?];
        mem.peek(address, &mut buf)
            .map_err(|f| PyValueError::new_err(format!("guest memory at 0x{:x} is not mapped", f.addr)))?;
        Ok(PyBytes::new(py, &buf))
    }

    fn write_memory(&mut self, address: u64, data: Vec<u8>) -> PyResult<()> {
        self.view_mut()?
            .1
            .poke(address, &data)
            .map_err(|f| PyValueError::new_err(format!("guest memory at 0x{:x} is not mapped", f.addr)))
    }

    fn memory_map(&self) -> PyResult<Vec<(u64, u64, String)>> {
        let regions = self.view()?.2.regions();
        Ok(regions.into_iter().map(|(a, b, p)| (a, b, perms_text(p))).collect())
    }

    fn set_trace(&mut self, depth: usize) {
        self.machine.debug.trace.set_depth(depth);
    }

    /// Whether traced instructions also record their memory accesses.
    fn set_trace_accesses(&mut self, on: bool) {
        self.machine.debug.trace.accesses = on;
    }

    /// Turns edge coverage on (an empty map) or off (the map is dropped). While on, runs take the
    /// debugging loop, and every branch-class instruction counts its (pc, next pc) edge.
    fn set_coverage(&mut self, on: bool) {
        self.machine.debug.coverage = on.then(|| vec![0; COVERAGE_SLOTS]);
        self.machine.debug.compares = if on { vec![0; COMPARE_SLOTS] } else { vec![] };
    }

    /// The distinct operands of the comparisons run since coverage was cleared (see `DebugState`).
    fn compares(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self.machine.debug.compares.iter().copied().filter(|&c| c != 0).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The edge-coverage map (one saturating hit count per slot), or None while coverage is off.
    fn coverage<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.machine.debug.coverage.as_deref().map(|map| PyBytes::new(py, map))
    }

    /// Turns the observation digest on (afresh) or off: while on, runs take the debugging loop and
    /// fold every instruction's PC, next PC and memory accesses into it (see `observation.rs`).
    fn set_observation(&mut self, on: bool) {
        self.machine.debug.observation = on.then(Observation::default);
    }

    /// (instructions observed, digest as 32 hex digits), or None while the digest is off.
    fn observation(&self) -> Option<(u64, String)> {
        self.machine.debug.observation.as_ref().map(|o| (o.steps, format!("{:016x}{:016x}", o.digest[0], o.digest[1])))
    }

    /// Turns the profile on, sampling the call stack every `period` instructions (0: off, dropped).
    fn set_profile(&mut self, period: u64) {
        self.machine.debug.profile = (period > 0).then(|| Profile::new(period));
    }

    /// ([(pc, instructions)], [(return addresses then the pc, samples)], [addresses called]), or
    /// None while off.
    #[allow(clippy::type_complexity)]
    fn profile(&self) -> Option<(Vec<(u64, u64)>, Vec<(Vec<u64>, u64)>, Vec<u64>)> {
        self.machine.debug.profile.as_ref().map(|p| {
            let mut counts: Vec<(u64, u64)> = p.counts.iter().map(|(&pc, &n)| (pc, n)).collect();
            counts.sort_unstable();
            let samples = p.samples.iter().map(|(stack, &n)| (stack.clone(), n)).collect();
            let mut entries: Vec<u64> = p.entries.iter().copied().collect();
            entries.sort_unstable();
            (counts, samples, entries)
        })
    }

    /// Zeroes the coverage map (a snapshot taken now then restores an empty one).
    fn clear_coverage(&mut self) {
        if let Some(map) = self.machine.debug.coverage.as_mut() {
            map.fill(0);
        }
        self.machine.debug.compares.fill(0);
    }

    /// Oldest first: (pc, word, [(register, old, new)], nzcv before, nzcv after,
    /// [(address, size, write)] of the guest memory it accessed, the process it ran in).
    #[allow(clippy::type_complexity)]
    fn trace(&self) -> Vec<(u64, u32, Vec<(String, u128, u128)>, u32, u32, Vec<(u64, u8, bool)>, u32)> {
        self.machine
            .debug
            .trace
            .iter()
            .map(|e| {
                let changes = e.changes.iter().map(|&(r, a, b)| (register_name(r), a, b)).collect();
                let accesses = e.accesses.iter().map(|a| (a.addr, a.size, a.write)).collect();
                (e.pc, e.word, changes, e.nzcv_before, e.nzcv_after, accesses, e.pid)
            })
            .collect()
    }

    fn add_breakpoint(&mut self, address: u64) {
        self.machine.debug.breakpoints.insert(address);
    }

    fn remove_breakpoint(&mut self, address: u64) {
        self.machine.debug.breakpoints.remove(&address);
    }

    fn breakpoints(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self.machine.debug.breakpoints.iter().copied().collect();
        v.sort_unstable();
        v
    }

    #[pyo3(signature = (address, size, read = false, write = true))]
    fn add_watchpoint(&mut self, address: u64, size: u64, read: bool, write: bool) -> PyResult<()> {
        if size == 0 || !(read || write) {
            return Err(PyValueError::new_err("a watchpoint needs a size and read and/or write"));
        }
        self.machine.set_watchpoint(WatchRange { addr: address, len: size, read, write }, true);
        Ok(())
    }

    fn remove_watchpoint(&mut self, address: u64, size: u64) {
        self.machine.set_watchpoint(WatchRange { addr: address, len: size, read: false, write: false }, false);
    }

    fn watchpoints(&self) -> Vec<(u64, u64, bool, bool)> {
        self.machine.debug.watchpoints.iter().map(|w| (w.addr, w.len, w.read, w.write)).collect()
    }

    fn snapshot(&self) -> LinuxSnapshot {
        LinuxSnapshot { machine: self.machine.clone() }
    }

    fn restore(&mut self, snapshot: &LinuxSnapshot) {
        self.machine = snapshot.machine.clone();
    }

    /// Back to a snapshot, keeping the trace ring as it is now: a trace rebuilt by re-executing
    /// from an earlier snapshot survives the return to the exact state a run stopped in.
    fn restore_keeping_trace(&mut self, snapshot: &LinuxSnapshot) {
        let trace = std::mem::take(&mut self.machine.debug.trace);
        self.machine = snapshot.machine.clone();
        self.machine.debug.trace = trace;
    }

    /// `n` instructions from `address` in the current process: (address, word, text).
    fn disassemble(&self, address: u64, n: usize) -> PyResult<Vec<(u64, u32, String)>> {
        if n > MAX_DISASSEMBLE {
            return Err(PyValueError::new_err(format!(
                "disassemble: n = {n} is more than the {MAX_DISASSEMBLE} instructions one call lists"
            )));
        }
        let mem = self.view()?.2;
        let mut out = vec![];
        for i in 0..n as u64 {
            let at = address + 4 * i;
            let mut b = [0u8; 4];
            if mem.peek(at, &mut b).is_err() {
                break;
            }
            let word = u32::from_le_bytes(b);
            out.push((at, word, disassemble(word, at)));
        }
        Ok(out)
    }

    /// The most recent system calls, oldest first: (pid, nr, name, args, result, instructions
    /// retired when it was made).
    #[allow(clippy::type_complexity)]
    fn syscall_log(&self) -> Vec<(u32, u64, &'static str, Vec<u64>, i64, u64)> {
        self.machine
            .syscall_log
            .iter()
            .map(|r| (r.pid, r.nr, syscalls::name(r.nr), r.args.to_vec(), r.result, r.at))
            .collect()
    }

    fn unknown_syscalls(&self) -> Vec<(u64, &'static str)> {
        self.machine.unknown_syscalls.iter().map(|&nr| (nr, syscalls::name(nr))).collect()
    }

    /// Processes killed by a fault: (pid, signal, pc, description).
    fn faults(&self) -> Vec<(u32, u32, u64, String)> {
        self.machine.faults.iter().map(|f| (f.pid, f.signal, f.pc, f.detail.clone())).collect()
    }

    fn processes(&self) -> Vec<(u32, u32, String, String)> {
        self.machine
            .pids()
            .into_iter()
            .filter_map(|pid| self.machine.process(pid))
            .map(|p| {
                let state = match p.state {
                    'R' => "running",
                    'Z' => "zombie",
                    _ => "sleeping",
                };
                (p.pid, p.ppid, state.to_string(), p.exe)
            })
            .collect()
    }

    fn pid(&self) -> PyResult<u32> {
        Ok(self.view()?.0)
    }

    /// Creates or replaces a file of the machine's own filesystem (not a host mount) with `data`:
    /// input for a program, put in place from outside (a fuzzer's, a test's).
    fn write_file(&mut self, path: &str, data: &[u8]) -> PyResult<()> {
        use super::linux::inode::Node;
        use super::linux::vfs::Loc;
        use std::sync::Arc;
        let fail = |what: &str, e: i32| PyValueError::new_err(format!("{path}: cannot {what} (errno {e})"));
        let m = &mut self.machine;
        let ino = match m.vfs.resolve("/", path, true, &*m) {
            Ok(walk) => match walk.loc {
                Loc::Mem(ino) => {
                    m.vfs.truncate_file(ino, 0).map_err(|e| fail("truncate", e.0))?;
                    ino
                }
                _ => return Err(PyValueError::new_err(format!("{path}: not a file of the machine's own filesystem"))),
            },
            Err(_) => {
                let (parent, name) = m.vfs.resolve_parent("/", path, &*m).map_err(|e| fail("resolve", e.0))?;
                match m.vfs.create(&parent.loc, &name, Node::File(Arc::new(vec![])), 0o644) {
                    Ok(Loc::Mem(ino)) => ino,
                    Ok(_) => return Err(PyValueError::new_err(format!("{path}: not in the machine's own filesystem"))),
                    Err(e) => return Err(fail("create", e.0)),
                }
            }
        };
        m.vfs.write_file(ino, Some(0), data).map_err(|e| fail("write", e.0))?;
        Ok(())
    }

    fn read_file<'py>(&self, py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyBytes>> {
        let m = &self.machine;
        let walk = m
            .vfs
            .resolve("/", path, true, m)
            .map_err(|e| PyValueError::new_err(format!("{path}: cannot resolve (errno {})", e.0)))?;
        let data = match &walk.loc {
            super::linux::vfs::Loc::Proc(node) => super::linux::procfs::content(node, m).unwrap_or_default(),
            loc => m.vfs.read_file(loc, m.limits.memory).map_err(|e| PyValueError::new_err(format!("{path}: cannot read (errno {})", e.0)))?.to_vec(),
        };
        Ok(PyBytes::new(py, &data))
    }
}

/// "x7" -> ('x', 7) for x0..x30, "v31" -> ('v', 31).
/// The registers a guest thread offers by name: those of the bare core but its test switches
/// (`counter`, which the machine's clock stands for, and `lse`, which a Linux guest never turns
/// on) and tpidrro_el0, which Linux keeps 0.
/// A guest socket error as Python's: refused connections as ConnectionRefusedError.
fn net_error(e: super::linux::errno::Errno, port: u16) -> PyErr {
    if e == super::linux::socket::ECONNREFUSED {
        return PyConnectionRefusedError::new_err(format!("nothing in the machine listens on port {port}"));
    }
    PyOSError::new_err((e.0, format!("guest socket error {}", e.0)))
}

fn thread_register(name: &str) -> PyResult<RegisterName> {
    match RegisterName::parse(name) {
        Some(RegisterName::Counter | RegisterName::Lse | RegisterName::TpidrroEl0) | None => {
            Err(PyKeyError::new_err(format!("no register {name:?}")))
        }
        Some(r) => Ok(r),
    }
}

/// The block compiler in this process: whether it runs here (x86-64 hosts, unless
/// NCPU_NB_JIT=0), how many regions of guest code it compiled and the bytes of executable memory
/// they take (a page or more each).
#[pyfunction]
fn compiled_code(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let (regions, bytes) = super::exec::jit::totals();
    let d = PyDict::new(py);
    d.set_item("available", super::exec::jit::available())?;
    d.set_item("regions", regions)?;
    d.set_item("bytes", bytes)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(compiled_code, m)?)?;
    m.add_class::<LinuxMachine>()?;
    m.add_class::<LinuxSnapshot>()?;
    m.add("ElfError", m.py().get_type::<ElfError>())?;
    m.add("MachineError", m.py().get_type::<MachineError>())?;
    Ok(())
}
