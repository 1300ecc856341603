//! Process and thread system calls: clone (fork, vfork, threads), execve, wait4, exit, futex.

use super::outcome::{value, Flow, Outcome};
use crate::arm64::linux::elf;
use crate::arm64::linux::errno::*;
use crate::arm64::linux::inode::{S_IFMT, S_IFREG};
use crate::arm64::linux::jobs;
use crate::arm64::linux::machine::Machine;
use crate::arm64::linux::process::{exited_status, Process, Thread, Wait};
use crate::arm64::linux::vfs::Loc;

const CLONE_VM: u64 = 0x100;
const CLONE_SIGHAND: u64 = 0x800;
const CLONE_VFORK: u64 = 0x4000;
const CLONE_PARENT: u64 = 0x8000;
const CLONE_THREAD: u64 = 0x10000;
const CLONE_SETTLS: u64 = 0x80000;
const CLONE_PARENT_SETTID: u64 = 0x100000;
const CLONE_CHILD_CLEARTID: u64 = 0x200000;
const CLONE_CHILD_SETTID: u64 = 0x1000000;

pub fn exit(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    m.exit_thread(tid, a[0] as i32);
    Ok(Outcome::Done)
}

pub fn exit_group(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let pid = m.thread(tid).pid;
    m.exit_process(pid, exited_status(a[0] as i32));
    Ok(Outcome::Done)
}

pub fn set_tid_address(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    m.thread_mut(tid).clear_child_tid = a[0];
    Ok(value(tid as u64))
}

pub fn clone(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (flags, stack, ptid, tls, ctid) = (a[0], a[1], a[2], a[3], a[4]);
    if flags & CLONE_THREAD != 0 && flags & (CLONE_VM | CLONE_SIGHAND) != CLONE_VM | CLONE_SIGHAND {
        return Err(EINVAL);
    }
    if m.threads.len() >= m.limits.tasks {
        return Err(EAGAIN);
    }
    let parent = m.thread(tid).clone();
    let child_tid = m.alloc_pid();
    let mut cpu = parent.cpu.clone();
    cpu.x[0] = 0;
    if stack != 0 {
        cpu.x[31] = stack;
    }
    if flags & CLONE_SETTLS != 0 {
        cpu.tpidr_el0 = tls;
    }
    let mut thread = Thread::new(child_tid, parent.pid, cpu, parent.sigmask);
    if flags & CLONE_CHILD_CLEARTID != 0 {
        thread.clear_child_tid = ctid;
    }
    if flags & CLONE_THREAD != 0 {
        thread.pid = parent.pid;
        m.process_of_mut(tid).threads.push(child_tid);
    } else {
        let p = m.process_of(tid).clone();
        let space = if flags & CLONE_VM != 0 {
            m.spaces[p.space].users += 1;
            p.space
        } else {
            if m.mapped_total() + m.spaces[p.space].mapped + m.files.net.memory.used() > m.limits.memory {
                return Err(ENOMEM);
            }
            let mut copy = m.spaces[p.space].clone();
            copy.users = 1;
            m.spaces.insert(copy)
        };
        // Without CLONE_THREAD, descriptor tables and the working directory are copied even when
        // CLONE_FILES or CLONE_FS ask to share them (no program here relies on that sharing).
        let fds = m.files.fork_table(&p.fds);
        let ppid = if flags & CLONE_PARENT != 0 { p.ppid } else { p.pid };
        let now = m.monotonic_ns();
        let child = Process {
            pid: child_tid,
            ppid,
            space,
            fds,
            threads: vec![child_tid],
            exit: None,
            vfork_released: flags & CLONE_VFORK == 0,
            alarm: None,
            start_ns: now,
            instructions: 0,
            children_instructions: 0,
            stopped: false,
            report: None,
            ..p
        };
        thread.pid = child_tid;
        m.processes.insert(child_tid, child);
    }
    m.threads.insert(child_tid, thread);
    if flags & CLONE_PARENT_SETTID != 0 {
        m.write_u32(tid, ptid, child_tid)?;
    }
    if flags & CLONE_CHILD_SETTID != 0 {
        m.mem_mut(child_tid).write_u32(ctid, child_tid).map_err(|_| EFAULT)?;
    }
    if flags & CLONE_VFORK != 0 {
        // The parent waits until the child execs or exits, then returns the child's id.
        return Ok(Outcome::Suspend(Wait::Vfork(child_tid), child_tid as i64));
    }
    Ok(value(child_tid as u64))
}

/// The bytes of a file execve may run: a regular file with an x bit (else EACCES, as Linux says
/// for a folder too; glibc's execvp goes on along PATH after EACCES, not after EISDIR), and
/// ENOMEM for one larger than the machine can hold.
fn read_executable(m: &Machine, loc: &Loc) -> SysResult<std::sync::Arc<Vec<u8>>> {
    let st = m.vfs.stat(loc, m)?;
    if st.mode & S_IFMT != S_IFREG || st.mode & 0o111 == 0 {
        return Err(EACCES);
    }
    m.vfs.read_file(loc, m.executable_limit())
}

/// execve: a new program in this process. "#!" scripts run their interpreter.
pub fn execve(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let path = m.read_path(tid, a[0])?;
    let mut argv = m.read_string_array(tid, a[1])?;
    let envp = m.read_string_array(tid, a[2])?;
    let mut walk = m.resolve_at(tid, -100, &path, true)?;
    let mut bytes = read_executable(m, &walk.loc)?;
    if bytes.starts_with(b"#!") {
        let line_end = bytes.iter().position(|&b| b == b'\n').unwrap_or(bytes.len()).min(256);
        let line = String::from_utf8_lossy(&bytes[2..line_end]).trim().to_string();
        let mut parts = line.splitn(2, [' ', '\t']);
        let interpreter = parts.next().filter(|s| !s.is_empty()).ok_or(ENOEXEC)?.to_string();
        let mut new_argv = vec![interpreter.clone().into_bytes()];
        if let Some(arg) = parts.next().map(str::trim).filter(|s| !s.is_empty()) {
            new_argv.push(arg.as_bytes().to_vec());
        }
        new_argv.push(path.clone().into_bytes());
        new_argv.extend(argv.into_iter().skip(1));
        argv = new_argv;
        walk = m.resolve_at(tid, -100, &interpreter, true)?;
        bytes = read_executable(m, &walk.loc)?;
    }
    if !elf::is_elf(&bytes) {
        return Err(ENOEXEC);
    }
    m.exec_image(tid, &bytes, &path, walk, argv, envp)
        .map_err(|e| if e == elf::ElfError::ArgumentsTooLong { E2BIG } else { ENOEXEC })?;
    Ok(Outcome::Done)
}

/// wait4(pid, status, options, rusage): reaps a child that has ended.
const WNOHANG: u64 = 1;
const WUNTRACED: u64 = 2;
const WCONTINUED: u64 = 8;

/// The child a wait4 with arguments `a` may report now: (pid, wait status, whether it is reaped),
/// or Err(ECHILD) when the caller has no such child at all.
fn reportable(m: &Machine, tid: u32, a: [u64; 6]) -> SysResult<Option<(u32, i32, bool)>> {
    let want = a[0] as i32;
    let me = m.thread(tid).pid;
    let pgid = m.process_of(tid).pgid;
    let matches = |c: &Process| {
        c.ppid == me
            && match want {
                -1 => true,
                0 => c.pgid == pgid,
                w if w < -1 => c.pgid == (-w) as u32,
                w => c.pid == w as u32,
            }
    };
    let mut any = false;
    for c in m.processes.values().filter(|c| matches(c)) {
        any = true;
        if let Some(status) = c.exit {
            return Ok(Some((c.pid, status, true)));
        }
        match c.report {
            Some(s) if s == jobs::CONTINUED_STATUS && a[2] & WCONTINUED != 0 => return Ok(Some((c.pid, s, false))),
            Some(s) if s != jobs::CONTINUED_STATUS && a[2] & WUNTRACED != 0 => return Ok(Some((c.pid, s, false))),
            _ => {}
        }
    }
    if any {
        Ok(None)
    } else {
        Err(ECHILD)
    }
}

/// Whether a wait4 blocked with these arguments can finish now (read back from its registers).
pub fn wait_ready(m: &Machine, tid: u32) -> bool {
    let x = &m.thread(tid).cpu.x;
    !matches!(reportable(m, tid, [x[0], x[1], x[2], x[3], 0, 0]), Ok(None))
}

pub fn wait4(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let Some((pid, status, reaped)) = reportable(m, tid, a)? else {
        return if a[2] & WNOHANG != 0 { Ok(value(0)) } else { Ok(Outcome::Block(Wait::Child)) };
    };
    if a[1] != 0 {
        m.write_u32(tid, a[1], status as u32)?;
    }
    if a[3] != 0 {
        m.write_guest(tid, a[3], &[0u8; 144])?;
    }
    if !reaped {
        m.processes.get_mut(&pid).unwrap().report = None; // a stop or continue is reported once
        return Ok(value(pid as u64));
    }
    let child = m.processes.remove(&pid).unwrap();
    m.process_of_mut(tid).children_instructions += child.instructions + child.children_instructions;
    Ok(value(pid as u64))
}

pub fn setpgid(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let me = m.thread(tid).pid;
    let pid = if a[0] == 0 { me } else { a[0] as u32 };
    let pgid = if a[1] == 0 { pid } else { a[1] as u32 };
    let p = m.processes.get_mut(&pid).filter(|p| p.pid == me || p.ppid == me).ok_or(ESRCH)?;
    p.pgid = pgid;
    Ok(value(0))
}

pub fn getpgid(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let pid = if a[0] == 0 { m.thread(tid).pid } else { a[0] as u32 };
    Ok(value(m.processes.get(&pid).ok_or(ESRCH)?.pgid as u64))
}

pub fn setsid(m: &mut Machine, tid: u32) -> Flow {
    let p = m.process_of_mut(tid);
    if p.pgid == p.pid {
        return Err(EPERM);
    }
    p.sid = p.pid;
    p.pgid = p.pid;
    Ok(value(p.pid as u64))
}

/// futex: WAIT and WAKE (with or without bitsets, private or shared); enough for glibc's locks,
/// condition variables and pthread_join.
pub fn futex(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    const FUTEX_WAIT: u64 = 0;
    const FUTEX_WAKE: u64 = 1;
    const FUTEX_WAIT_BITSET: u64 = 9;
    const FUTEX_WAKE_BITSET: u64 = 10;
    let (addr, op, val) = (a[0], a[1] & 0x7f, a[2] as u32);
    let space = m.process_of(tid).space;
    match op {
        FUTEX_WAIT | FUTEX_WAIT_BITSET => {
            if m.thread(tid).woken {
                return Ok(value(0));
            }
            if let Some(deadline) = m.thread(tid).deadline {
                if m.monotonic_ns() >= deadline {
                    return Err(ETIMEDOUT);
                }
                return Ok(Outcome::Block(Wait::Futex { space, addr }));
            }
            let current = m.mem(tid).read_u32(addr).map_err(|_| EFAULT)?;
            if current != val {
                return Err(EAGAIN);
            }
            if a[3] != 0 {
                let sec = m.read_u64(tid, a[3])?;
                let nsec = m.read_u64(tid, a[3] + 8)?;
                let ns = sec.saturating_mul(1_000_000_000).saturating_add(nsec);
                // FUTEX_WAIT takes a relative timeout, the BITSET form an absolute one.
                let now = m.monotonic_ns();
                let deadline = if op == FUTEX_WAIT { now + ns } else if a[1] & 256 != 0 { ns.saturating_sub(m.realtime_ns() - now) } else { ns };
                m.thread_mut(tid).deadline = Some(deadline);
            }
            Ok(Outcome::Block(Wait::Futex { space, addr }))
        }
        FUTEX_WAKE | FUTEX_WAKE_BITSET => Ok(value(m.futex_wake(space, addr, val) as u64)),
        _ => Err(ENOSYS),
    }
}
