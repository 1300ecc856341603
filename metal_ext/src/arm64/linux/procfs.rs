//! `/proc`: names and contents computed from the machine's processes when they are looked up or
//! opened. Only what BusyBox's applets (ps, free, uptime, mount, df, …) and glibc read.

use super::inode::{DirEntry, Stat, Timespec, DT_DIR, DT_LNK, DT_REG, S_IFDIR, S_IFLNK, S_IFREG};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Global {
    Cpuinfo,
    Meminfo,
    Uptime,
    Loadavg,
    Mounts,
    Version,
    Filesystems,
    Stat,
}

const GLOBALS: [(&str, Global); 8] = [
    ("cpuinfo", Global::Cpuinfo),
    ("filesystems", Global::Filesystems),
    ("loadavg", Global::Loadavg),
    ("meminfo", Global::Meminfo),
    ("mounts", Global::Mounts),
    ("stat", Global::Stat),
    ("uptime", Global::Uptime),
    ("version", Global::Version),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Cmdline,
    Comm,
    Cwd,
    Environ,
    Exe,
    Fd,
    Maps,
    Mounts,
    Stat,
    Status,
}

const ENTRIES: [(&str, Entry); 10] = [
    ("cmdline", Entry::Cmdline),
    ("comm", Entry::Comm),
    ("cwd", Entry::Cwd),
    ("environ", Entry::Environ),
    ("exe", Entry::Exe),
    ("fd", Entry::Fd),
    ("maps", Entry::Maps),
    ("mounts", Entry::Mounts),
    ("stat", Entry::Stat),
    ("status", Entry::Status),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcNode {
    Root,
    Global(Global),
    SelfLink,
    Pid(u32),
    Entry(u32, Entry),
    Fd(u32, i32),
}

/// What procfs needs to know about one process.
pub struct ProcInfo {
    pub pid: u32,
    pub ppid: u32,
    /// 'R', 'S', 'T' (stopped) or 'Z'.
    pub state: char,
    pub threads: u32,
    pub exe: String,
    pub comm: String,
    pub cwd: String,
    pub argv: Vec<Vec<u8>>,
    pub envp: Vec<Vec<u8>>,
    /// (start, end, perms as "rwx" bits, name) of each mapping.
    pub maps: Vec<(u64, u64, u8, String)>,
    pub fds: Vec<(i32, String)>,
    /// Clock ticks (1/100 s) of CPU time and of start time since boot.
    pub cpu_ticks: u64,
    pub start_ticks: u64,
}

/// The machine as procfs sees it.
pub trait ProcContext {
    fn current_pid(&self) -> u32;
    fn pids(&self) -> Vec<u32>;
    fn process(&self, pid: u32) -> Option<ProcInfo>;
    /// Seconds since the machine booted.
    fn uptime(&self) -> f64;
    /// Clock ticks (1/100 s) the CPU spent running guest code and idle.
    fn cpu_ticks(&self) -> (u64, u64);
    /// When the machine booted (the time stamp of every /proc entry).
    fn boot_time(&self) -> Timespec;
    /// (guest path, writable) of each host mount. The host path is not the guest's business.
    fn mounts(&self) -> Vec<(String, bool)>;
    fn memory_total_kb(&self) -> u64;
    fn memory_used_kb(&self) -> u64;
}

pub fn lookup(node: &ProcNode, name: &str, ctx: &dyn ProcContext) -> Option<ProcNode> {
    match node {
        ProcNode::Root => {
            if name == "self" {
                return Some(ProcNode::SelfLink);
            }
            if let Some((_, g)) = GLOBALS.iter().find(|(n, _)| *n == name) {
                return Some(ProcNode::Global(*g));
            }
            let pid: u32 = name.parse().ok()?;
            ctx.pids().contains(&pid).then_some(ProcNode::Pid(pid))
        }
        ProcNode::Pid(pid) => ENTRIES.iter().find(|(n, _)| *n == name).map(|(_, e)| ProcNode::Entry(*pid, *e)),
        ProcNode::Entry(pid, Entry::Fd) => {
            let fd: i32 = name.parse().ok()?;
            ctx.process(*pid)?.fds.iter().any(|(n, _)| *n == fd).then_some(ProcNode::Fd(*pid, fd))
        }
        _ => None,
    }
}

pub fn readlink(node: &ProcNode, ctx: &dyn ProcContext) -> Option<String> {
    match node {
        ProcNode::SelfLink => Some(ctx.current_pid().to_string()),
        ProcNode::Entry(pid, Entry::Exe) => ctx.process(*pid).map(|p| p.exe),
        ProcNode::Entry(pid, Entry::Cwd) => ctx.process(*pid).map(|p| p.cwd),
        ProcNode::Fd(pid, fd) => ctx.process(*pid)?.fds.into_iter().find(|(n, _)| n == fd).map(|(_, t)| t),
        _ => None,
    }
}

fn is_dir(node: &ProcNode) -> bool {
    matches!(node, ProcNode::Root | ProcNode::Pid(_) | ProcNode::Entry(_, Entry::Fd))
}

fn inode_number(node: &ProcNode) -> u64 {
    let (pid, item) = match node {
        ProcNode::Root => (0, 1),
        ProcNode::Global(g) => (0, 2 + *g as u64),
        ProcNode::SelfLink => (0, 100),
        ProcNode::Pid(p) => (*p as u64, 0),
        ProcNode::Entry(p, e) => (*p as u64, 1 + *e as u64),
        ProcNode::Fd(p, fd) => (*p as u64, 1000 + *fd as u64),
    };
    (pid << 16) | item
}

pub fn stat(node: &ProcNode, ctx: &dyn ProcContext) -> Stat {
    let mode = if is_dir(node) {
        S_IFDIR | 0o555
    } else if readlink(node, ctx).is_some() || matches!(node, ProcNode::SelfLink) {
        S_IFLNK | 0o777
    } else {
        S_IFREG | 0o444
    };
    let boot = ctx.boot_time();
    Stat { dev: 3, ino: inode_number(node), mode, nlink: 1, atime: boot, mtime: boot, ctime: boot, ..Stat::default() }
}

pub fn list(node: &ProcNode, ctx: &dyn ProcContext) -> Vec<DirEntry> {
    let entry = |name: String, n: ProcNode, kind: u8| DirEntry { name, ino: inode_number(&n), kind };
    match node {
        ProcNode::Root => {
            let mut out: Vec<DirEntry> =
                ctx.pids().into_iter().map(|p| entry(p.to_string(), ProcNode::Pid(p), DT_DIR)).collect();
            out.push(entry("self".into(), ProcNode::SelfLink, DT_LNK));
            out.extend(GLOBALS.iter().map(|(n, g)| entry(n.to_string(), ProcNode::Global(*g), DT_REG)));
            out
        }
        ProcNode::Pid(pid) => ENTRIES
            .iter()
            .map(|(n, e)| {
                let kind = match e {
                    Entry::Fd => DT_DIR,
                    Entry::Exe | Entry::Cwd => DT_LNK,
                    _ => DT_REG,
                };
                entry(n.to_string(), ProcNode::Entry(*pid, *e), kind)
            })
            .collect(),
        ProcNode::Entry(pid, Entry::Fd) => ctx
            .process(*pid)
            .map(|p| p.fds.iter().map(|(fd, _)| entry(fd.to_string(), ProcNode::Fd(*pid, *fd), DT_LNK)).collect())
            .unwrap_or_default(),
        _ => vec![],
    }
}

fn perms_text(p: u8) -> String {
    let bit = |b: u8, c: char| if p & b != 0 { c } else { '-' };
    format!("{}{}{}p", bit(1, 'r'), bit(2, 'w'), bit(4, 'x'))
}

fn comm(info: &ProcInfo) -> String {
    info.comm.clone()
}

/// The bytes a read of this file returns, computed now. None for directories and links.
pub fn content(node: &ProcNode, ctx: &dyn ProcContext) -> Option<Vec<u8>> {
    let text = match node {
        ProcNode::Global(g) => match g {
            Global::Cpuinfo => "processor\t: 0\nBogoMIPS\t: 100.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n\
                               CPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd03\nCPU revision\t: 4\n\n"
                .to_string(),
            Global::Meminfo => {
                let (total, used) = (ctx.memory_total_kb(), ctx.memory_used_kb());
                let free = total.saturating_sub(used);
                format!(
                    "MemTotal:       {total:8} kB\nMemFree:        {free:8} kB\nMemAvailable:   {free:8} kB\n\
                     Buffers:               0 kB\nCached:                0 kB\nSwapCached:            0 kB\n\
                     SwapTotal:             0 kB\nSwapFree:              0 kB\nShmem:                 0 kB\n"
                )
            }
            Global::Uptime => {
                let up = ctx.uptime();
                format!("{up:.2} {up:.2}\n")
            }
            Global::Loadavg => format!("0.00 0.00 0.00 1/{} {}\n", ctx.pids().len(), ctx.current_pid()),
            Global::Mounts => mounts_text(ctx),
            Global::Version => "Linux version 6.1.0 (ncpu_nb) #1 SMP PREEMPT_DYNAMIC\n".to_string(),
            Global::Filesystems => "nodev\ttmpfs\nnodev\tproc\n".to_string(),
            Global::Stat => {
                let (busy, idle) = ctx.cpu_ticks();
                let cpu = format!("{busy} 0 0 {idle} 0 0 0 0 0 0");
                let running = ctx.pids().iter().filter_map(|&p| ctx.process(p)).filter(|p| p.state == 'R').count();
                format!(
                    "cpu  {cpu}\ncpu0 {cpu}\nintr 0\nctxt 0\nbtime {}\nprocesses {}\nprocs_running {running}\nprocs_blocked 0\n",
                    ctx.boot_time().sec,
                    ctx.pids().len()
                )
            }
        },
        ProcNode::Entry(pid, e) => {
            let p = ctx.process(*pid)?;
            match e {
                Entry::Cmdline => return Some(p.argv.iter().flat_map(|a| a.iter().copied().chain([0])).collect()),
                Entry::Environ => return Some(p.envp.iter().flat_map(|a| a.iter().copied().chain([0])).collect()),
                Entry::Comm => format!("{}\n", comm(&p)),
                Entry::Stat => format!(
                    "{} ({}) {} {} {} {} 0 -1 4194560 0 0 0 0 {} 0 0 0 20 0 {} 0 {} {} 0 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n",
                    p.pid,
                    comm(&p),
                    p.state,
                    p.ppid,
                    p.pid,
                    p.pid,
                    p.cpu_ticks,
                    p.threads,
                    p.start_ticks,
                    p.maps.iter().map(|m| m.1 - m.0).sum::<u64>()
                ),
                Entry::Status => {
                    let vm_kb = p.maps.iter().map(|m| m.1 - m.0).sum::<u64>() / 1024;
                    let state = match p.state {
                        'R' => "R (running)",
                        'Z' => "Z (zombie)",
                        'T' => "T (stopped)",
                        _ => "S (sleeping)",
                    };
                    format!(
                        "Name:\t{}\nUmask:\t0022\nState:\t{state}\nTgid:\t{}\nPid:\t{}\nPPid:\t{}\n\
                         Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nVmSize:\t{vm_kb:8} kB\nVmRSS:\t{vm_kb:8} kB\nThreads:\t{}\n",
                        comm(&p),
                        p.pid,
                        p.pid,
                        p.ppid,
                        p.threads
                    )
                }
                Entry::Maps => p
                    .maps
                    .iter()
                    .map(|(s, e, perms, name)| {
                        format!("{s:08x}-{e:08x} {} 00000000 00:00 0 {:>w$}{name}\n", perms_text(*perms), "", w = 10)
                    })
                    .collect(),
                Entry::Mounts => mounts_text(ctx),
                Entry::Exe | Entry::Cwd | Entry::Fd => return None,
            }
        }
        _ => return None,
    };
    Some(text.into_bytes())
}

fn mounts_text(ctx: &dyn ProcContext) -> String {
    let mut out = "tmpfs / tmpfs rw 0 0\nproc /proc proc rw,nosuid,nodev,noexec 0 0\n".to_string();
    for (guest, writable) in ctx.mounts() {
        out += &format!("hostfs {guest} hostfs {},nosuid,nodev 0 0\n", if writable { "rw" } else { "ro" });
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A context without processes, for VFS tests.
    pub struct NoProcesses;

    impl ProcContext for NoProcesses {
        fn current_pid(&self) -> u32 {
            1
        }
        fn pids(&self) -> Vec<u32> {
            vec![]
        }
        fn process(&self, _: u32) -> Option<ProcInfo> {
            None
        }
        fn uptime(&self) -> f64 {
            0.0
        }
        fn boot_time(&self) -> Timespec {
            Timespec::default()
        }
        fn cpu_ticks(&self) -> (u64, u64) {
            (0, 0)
        }
        fn mounts(&self) -> Vec<(String, bool)> {
            vec![]
        }
        fn memory_total_kb(&self) -> u64 {
            0
        }
        fn memory_used_kb(&self) -> u64 {
            0
        }
    }
}
