//! File system calls: opening and closing, descriptor juggling (dup, fcntl, pipe2), the stat
//! family, directories, links and attributes. Reading and writing are in read_write.rs, waiting
//! on several descriptors in poll.rs.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::outcome::{value, Flow};
use crate::arm64::linux::errno::*;
use crate::arm64::linux::fd::*;
use crate::arm64::linux::framebuffer::*;
use crate::arm64::linux::inode::*;
use crate::arm64::linux::machine::Machine;
use crate::arm64::linux::procfs;
use crate::arm64::linux::raw_names;
use crate::arm64::linux::vfs::*;
use crate::arm64::mem::PAGE_SIZE;

const AT_SYMLINK_NOFOLLOW: u64 = 0x100;
const AT_REMOVEDIR: u64 = 0x200;
const AT_SYMLINK_FOLLOW: u64 = 0x400;
const AT_EMPTY_PATH: u64 = 0x1000;

// ---- opening and closing ----

pub fn openat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let path = m.read_path(tid, a[1])?;
    let flags = a[2] as u32;
    let fd = open_path(m, tid, a[0] as i32, &path, flags, a[3] as u32)?;
    Ok(value(fd as u64))
}

pub fn open_path(m: &mut Machine, tid: u32, dirfd: i32, path: &str, flags: u32, mode: u32) -> SysResult<i32> {
    let follow = flags & O_NOFOLLOW == 0 && !(flags & O_CREAT != 0 && flags & O_EXCL != 0);
    let wants_write = matches!(flags & O_ACCMODE, O_WRONLY | O_RDWR) || flags & O_TRUNC != 0;
    let walk = match m.resolve_at(tid, dirfd, path, follow) {
        Ok(w) => {
            if flags & O_CREAT != 0 && flags & O_EXCL != 0 {
                return Err(EEXIST);
            }
            w
        }
        Err(ENOENT) if flags & O_CREAT != 0 => {
            let path = &if follow { dangling_target(m, tid, dirfd, path)? } else { path.to_string() };
            let (dir, name) = m.resolve_parent_at(tid, dirfd, path)?;
            if path.ends_with('/') {
                return Err(EISDIR);
            }
            let umask = m.process_of(tid).umask;
            let loc = m.vfs.create(&dir.loc, &name, Node::File(Arc::default()), mode & !umask & 0o7777)?;
            let path = if dir.path == "/" { format!("/{name}") } else { format!("{}/{name}", dir.path) };
            Walk { loc, path }
        }
        Err(e) => return Err(e),
    };
    if let Loc::Proc(procfs::ProcNode::Fd(pid, n)) = walk.loc {
        let d = m.processes.get(&pid).ok_or(ENOENT)?.fds.get(n).map_err(|_| ENOENT)?;
        return with_fds(m, tid, |files, fds| files.install(fds, d.file, 0, flags & O_CLOEXEC != 0));
    }
    let st = m.vfs.stat(&walk.loc, &*m)?;
    let kind_bits = st.mode & S_IFMT;
    if flags & O_PATH != 0 {
        let kind = if kind_bits == S_IFDIR { FileKind::Dir { walk: walk.clone(), entries: None } } else { FileKind::Generated(Arc::default()) };
        return install(m, tid, kind, flags, walk.path);
    }
    if kind_bits == S_IFLNK {
        return Err(ELOOP);
    }
    if flags & O_DIRECTORY != 0 && kind_bits != S_IFDIR {
        return Err(ENOTDIR);
    }
    let kind = match &walk.loc {
        _ if kind_bits == S_IFDIR => {
            if wants_write {
                return Err(EISDIR);
            }
            FileKind::Dir { walk: walk.clone(), entries: None }
        }
        Loc::Mem(ino) => match &m.vfs.inode(*ino).node {
            Node::File(_) => {
                if flags & O_TRUNC != 0 && wants_write {
                    m.vfs.truncate_file(*ino, 0)?;
                }
                FileKind::Mem(*ino)
            }
            // /dev/tty is the caller's controlling terminal: one the machine has, in its session.
            Node::Device(Device::Tty) if m.tty.as_ref().is_none_or(|t| t.session != m.process_of(tid).sid) => {
                return Err(ENXIO)
            }
            Node::Fifo => m.files.open_fifo(FifoKey::Mem(*ino), flags)?,
            Node::Device(d) => FileKind::Device(*d, *ino),
            _ => return Err(ENXIO),
        },
        Loc::Host { mount, .. } if kind_bits == S_IFIFO => m.files.open_fifo(FifoKey::Host { mount: *mount, ino: st.ino }, flags)?,
        Loc::Host { mount, rel } => {
            if wants_write && !m.vfs.mounts[*mount].writable {
                return Err(EROFS);
            }
            let file = m.vfs.host(*mount).open_file(rel, wants_write, flags & O_TRUNC != 0 && wants_write)?;
            FileKind::Host { file: Arc::new(file), mount: *mount, rel: rel.clone() }
        }
        Loc::Proc(node) => {
            if wants_write {
                return Err(EACCES);
            }
            FileKind::Generated(Arc::new(procfs::content(node, &*m).ok_or(EACCES)?))
        }
    };
    install(m, tid, kind, flags, walk.path)
}

/// Where O_CREAT makes the file for `path`: `path` itself, or, when it names a dangling symlink,
/// the path its chain of links ends at (as Linux does).
fn dangling_target(m: &Machine, tid: u32, dirfd: i32, path: &str) -> SysResult<String> {
    let mut path = path.to_string();
    for _ in 0..40 {
        let link = match m.resolve_at(tid, dirfd, &path, false) {
            Ok(w) => w,
            Err(ENOENT) => return Ok(path),
            Err(e) => return Err(e),
        };
        let target = m.vfs.readlink(&link.loc, m).ok_or(EEXIST)?;
        path = if target.starts_with('/') {
            target
        } else {
            let dir = &link.path[..link.path.rfind('/').unwrap_or(0)];
            format!("{dir}/{target}")
        };
    }
    Err(ELOOP)
}

pub(super) fn install(m: &mut Machine, tid: u32, kind: FileKind, flags: u32, path: String) -> SysResult<i32> {
    let file = m.files.add(OpenFile::new(kind, flags & !(O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC), path));
    let pid = m.thread(tid).pid;
    let mut fds = std::mem::take(&mut m.processes.get_mut(&pid).unwrap().fds);
    let r = m.files.install(&mut fds, file, 0, flags & O_CLOEXEC != 0);
    if r.is_err() {
        m.files.retain(file);
        m.files.release(file);
    }
    m.processes.get_mut(&pid).unwrap().fds = fds;
    r
}

/// Runs `f` on the calling process's descriptor table and the machine's descriptions.
fn with_fds<T>(m: &mut Machine, tid: u32, f: impl FnOnce(&mut Files, &mut FdTable) -> T) -> T {
    let pid = m.thread(tid).pid;
    let mut fds = std::mem::take(&mut m.processes.get_mut(&pid).unwrap().fds);
    let r = f(&mut m.files, &mut fds);
    m.processes.get_mut(&pid).unwrap().fds = fds;
    r
}

pub fn close(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    with_fds(m, tid, |files, fds| files.close(fds, a[0] as i32))?;
    Ok(value(0))
}

pub fn dup(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let file = m.description_of(tid, a[0])?;
    let fd = with_fds(m, tid, |files, fds| files.install(fds, file, 0, false))?;
    Ok(value(fd as u64))
}

pub fn dup3(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let file = m.description_of(tid, a[0])?;
    if a[0] == a[1] || a[2] as u32 & !O_CLOEXEC != 0 {
        return Err(EINVAL);
    }
    with_fds(m, tid, |files, fds| files.install_at(fds, a[1] as i32, file, a[2] as u32 & O_CLOEXEC != 0))?;
    Ok(value(a[1]))
}

pub fn pipe2(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let flags = a[1] as u32;
    if flags & !(O_CLOEXEC | O_NONBLOCK) != 0 {
        return Err(EINVAL);
    }
    let (r, w) = m.files.new_pipe(flags);
    let cloexec = flags & O_CLOEXEC != 0;
    let (rfd, wfd) = with_fds(m, tid, |files, fds| {
        let rfd = files.install(fds, r, 0, cloexec)?;
        match files.install(fds, w, 0, cloexec) {
            Ok(wfd) => Ok((rfd, wfd)),
            Err(e) => {
                files.close(fds, rfd)?;
                Err(e)
            }
        }
    })?;
    let mut out = (rfd as u32).to_le_bytes().to_vec();
    out.extend((wfd as u32).to_le_bytes());
    m.write_guest(tid, a[0], &out)?;
    Ok(value(0))
}

pub fn fcntl(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    const F_DUPFD: u64 = 0;
    const F_GETFD: u64 = 1;
    const F_SETFD: u64 = 2;
    const F_GETFL: u64 = 3;
    const F_SETFL: u64 = 4;
    const F_GETLK: u64 = 5;
    const F_SETLK: u64 = 6;
    const F_SETLKW: u64 = 7;
    const F_DUPFD_CLOEXEC: u64 = 1030;
    const F_GETPIPE_SZ: u64 = 1032;
    let fd = a[0] as i32;
    let d = m.process_of(tid).fds.get(fd)?;
    match a[1] {
        F_DUPFD | F_DUPFD_CLOEXEC => {
            if a[2] >= MAX_FDS as u64 {
                return Err(EINVAL);
            }
            let new = with_fds(m, tid, |files, fds| files.install(fds, d.file, a[2] as i32, a[1] == F_DUPFD_CLOEXEC))?;
            Ok(value(new as u64))
        }
        F_GETFD => Ok(value(d.cloexec as u64)),
        F_SETFD => {
            m.process_of_mut(tid).fds.fds.get_mut(&fd).unwrap().cloexec = a[2] & 1 != 0;
            Ok(value(0))
        }
        F_GETFL => Ok(value(m.files.open[d.file].flags as u64)),
        F_SETFL => {
            let f = &mut m.files.open[d.file];
            f.flags = (f.flags & !SETFL_MASK) | (a[2] as u32 & SETFL_MASK);
            Ok(value(0))
        }
        F_GETLK => {
            // No locks are ever held by others: report the lock as free (l_type = F_UNLCK).
            m.write_guest(tid, a[2], &2u16.to_le_bytes())?;
            Ok(value(0))
        }
        F_SETLK | F_SETLKW => Ok(value(0)),
        F_GETPIPE_SZ => Ok(value(PIPE_CAPACITY as u64)),
        _ => Err(EINVAL),
    }
}

pub fn ioctl(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    const FIONREAD: u64 = 0x541b;
    const FIONBIO: u64 = 0x5421;
    const FIOCLEX: u64 = 0x5451;
    const FIONCLEX: u64 = 0x5450;
    let fd = a[0] as i32;
    let d = m.process_of(tid).fds.get(fd)?;
    if matches!(m.files.open[d.file].kind, FileKind::Device(Device::Tty, _)) {
        if let Some(flow) = super::terminal::ioctl(m, tid, a[1], a[2]) {
            return flow;
        }
    }
    match a[1] {
        FIONREAD => {
            let n = match &m.files.open[d.file].kind {
                FileKind::PipeRead(p) => m.files.pipes[*p].buffer.len(),
                FileKind::Socket(s) => m.files.net.sockets[*s].stream_in.len(),
                FileKind::Device(Device::Tty, _) => m.tty.as_ref().map_or(0, |t| t.available()),
                FileKind::Terminal(Stream::Stdin) => m.terminal.stdin.len(),
                _ => 0,
            };
            m.write_u32(tid, a[2], n as u32)?;
            Ok(value(0))
        }
        FIONBIO => {
            let on = m.read_guest(tid, a[2], 4)? != [0; 4];
            let f = &mut m.files.open[d.file];
            f.flags = if on { f.flags | O_NONBLOCK } else { f.flags & !O_NONBLOCK };
            Ok(value(0))
        }
        FBIOGET_VSCREENINFO | FBIOPUT_VSCREENINFO | FBIOGET_FSCREENINFO | FBIOPAN_DISPLAY
            if matches!(m.files.open[d.file].kind, FileKind::Device(Device::Framebuffer, _)) =>
        {
            // The geometry is fixed: "setting" it answers what it is, as a driver that cannot change it.
            match a[1] {
                FBIOGET_FSCREENINFO => m.write_guest(tid, a[2], &Framebuffer::fix_screeninfo())?,
                FBIOPAN_DISPLAY => {
                    m.read_guest(tid, a[2], 160)?;
                    m.framebuffer.frames += 1;
                }
                _ => m.write_guest(tid, a[2], &Framebuffer::var_screeninfo())?,
            }
            Ok(value(0))
        }
        FIOCLEX | FIONCLEX => {
            m.process_of_mut(tid).fds.fds.get_mut(&fd).unwrap().cloexec = a[1] == FIOCLEX;
            Ok(value(0))
        }
        // No descriptor is a terminal: the guest's standard streams behave like pipes, as when
        // a program's output is captured (TCGETS, TIOCGWINSZ, TIOCGPGRP, … all say so).
        _ => Err(ENOTTY),
    }
}

/// flock: granted at once (advisory locks between guest processes are not modelled); the
/// descriptor must be open.
pub fn flock(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    m.description_of(tid, a[0])?;
    Ok(value(0))
}

/// mknodat: regular files and named pipes; device nodes are not the guest's to make.
pub fn mknodat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let path = m.read_path(tid, a[1])?;
    let mode = a[2] as u32;
    let node = match mode & S_IFMT {
        0 | S_IFREG => Node::File(Arc::default()),
        S_IFIFO => Node::Fifo,
        _ => return Err(EPERM),
    };
    let (dir, name) = m.resolve_parent_at(tid, a[0] as i32, &path)?;
    let umask = m.process_of(tid).umask;
    m.vfs.create(&dir.loc, &name, node, mode & !umask & 0o7777)?;
    Ok(value(0))
}

// ---- the stat family ----

fn stat_of_description(m: &Machine, file: usize) -> SysResult<Stat> {
    let f = &m.files.open[file];
    if let Some(loc) = f.kind.loc() {
        let mut st = m.vfs.stat(&loc, m)?;
        if let FileKind::Host { file: h, .. } = &f.kind {
            st.size = h.metadata()?.len();
        }
        return Ok(st);
    }
    let (mode, ino) = match &f.kind {
        FileKind::Generated(_) => (S_IFREG | 0o444, 0x1_0000 + file as u64),
        FileKind::PipeRead(p) | FileKind::PipeWrite(p) => (S_IFIFO | 0o600, 0x2_0000 + *p as u64),
        FileKind::Socket(s) => (S_IFSOCK | 0o777, super::net::socket_ino(*s)),
        FileKind::Epoll(_) => (0o600, 0x4_0000 + file as u64), // an anonymous inode: no file type
        _ => (S_IFIFO | 0o600, 1),
    };
    let now = m.realtime();
    Ok(Stat { dev: 9, ino, mode, nlink: 1, atime: now, mtime: now, ctime: now, ..Stat::default() })
}

fn stat_bytes(st: &Stat) -> Vec<u8> {
    let mut b = vec![0u8; 128];
    let mut put = |at: usize, v: &[u8]| b[at..at + v.len()].copy_from_slice(v);
    put(0, &st.dev.to_le_bytes());
    put(8, &st.ino.to_le_bytes());
    put(16, &st.mode.to_le_bytes());
    put(20, &st.nlink.to_le_bytes());
    put(24, &st.uid.to_le_bytes());
    put(28, &st.gid.to_le_bytes());
    put(32, &st.rdev.to_le_bytes());
    put(48, &st.size.to_le_bytes());
    put(56, &4096u32.to_le_bytes());
    put(64, &st.blocks.to_le_bytes());
    for (at, t) in [(72, st.atime), (88, st.mtime), (104, st.ctime)] {
        put(at, &t.sec.to_le_bytes());
        put(at + 8, &(t.nsec as u64).to_le_bytes());
    }
    b
}

fn statx_bytes(st: &Stat) -> Vec<u8> {
    let mut b = vec![0u8; 256];
    let mut put = |at: usize, v: &[u8]| b[at..at + v.len()].copy_from_slice(v);
    put(0, &0x7ffu32.to_le_bytes()); // STATX_BASIC_STATS
    put(4, &4096u32.to_le_bytes());
    put(16, &st.nlink.to_le_bytes());
    put(20, &st.uid.to_le_bytes());
    put(24, &st.gid.to_le_bytes());
    put(28, &(st.mode as u16).to_le_bytes());
    put(32, &st.ino.to_le_bytes());
    put(40, &st.size.to_le_bytes());
    put(48, &st.blocks.to_le_bytes());
    for (at, t) in [(64, st.atime), (80, st.ctime), (96, st.ctime), (112, st.mtime)] {
        put(at, &t.sec.to_le_bytes());
        put(at + 8, &t.nsec.to_le_bytes());
    }
    let (rmaj, rmin) = (((st.rdev >> 8) & 0xfff) as u32, ((st.rdev & 0xff) | ((st.rdev >> 12) & !0xff)) as u32);
    put(128, &rmaj.to_le_bytes());
    put(132, &rmin.to_le_bytes());
    put(136, &0u32.to_le_bytes());
    put(140, &(st.dev as u32).to_le_bytes());
    b
}

/// The file a *at call with AT_EMPTY_PATH or a path names.
fn stat_at(m: &Machine, tid: u32, dirfd: u64, path_addr: u64, flags: u64) -> SysResult<Stat> {
    let path = m.read_path(tid, path_addr)?;
    if path.is_empty() && flags & AT_EMPTY_PATH != 0 {
        if dirfd as i32 == -100 {
            let cwd = m.process_of(tid).cwd.clone();
            return m.vfs.stat(&m.vfs.resolve("/", &cwd, true, m)?.loc, m);
        }
        return stat_of_description(m, m.description_of(tid, dirfd)?);
    }
    let walk = m.resolve_at(tid, dirfd as i32, &path, flags & AT_SYMLINK_NOFOLLOW == 0)?;
    m.vfs.stat(&walk.loc, m)
}

pub fn fstat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let st = stat_of_description(m, m.description_of(tid, a[0])?)?;
    m.write_guest(tid, a[1], &stat_bytes(&st))?;
    Ok(value(0))
}

pub fn newfstatat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let st = stat_at(m, tid, a[0], a[1], a[3])?;
    m.write_guest(tid, a[2], &stat_bytes(&st))?;
    Ok(value(0))
}

pub fn statx(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let st = stat_at(m, tid, a[0], a[1], a[2])?;
    m.write_guest(tid, a[4], &statx_bytes(&st))?;
    Ok(value(0))
}

pub fn statfs(m: &mut Machine, tid: u32, a: [u64; 6], by_fd: bool) -> Flow {
    if by_fd {
        m.description_of(tid, a[0])?;
    } else {
        let path = m.read_path(tid, a[0])?;
        m.resolve_at(tid, -100, &path, true)?;
    }
    // struct statfs of a tmpfs in 4 KiB blocks: used, each file rounded up to whole pages, as
    // tmpfs counts; free, the whole pages that can still be written. Its inodes, as tmpfs's
    // default, are half the pages of the machine's memory.
    let (used, inodes_used) = m.vfs.usage();
    let free = m.vfs.file_capacity.saturating_sub(m.vfs.file_bytes()) / PAGE_SIZE;
    let blocks = used + free;
    let inodes = m.limits.memory / PAGE_SIZE / 2;
    let mut b = vec![0u8; 120];
    let words: [(usize, u64); 8] = [
        (0, 0x0102_1994),
        (8, PAGE_SIZE),
        (16, blocks),
        (24, free),
        (32, free),
        (40, inodes),
        (48, inodes.saturating_sub(inodes_used)),
        (64, 255),
    ];
    for (at, v) in words {
        b[at..at + 8].copy_from_slice(&v.to_le_bytes());
    }
    b[72..80].copy_from_slice(&PAGE_SIZE.to_le_bytes());
    m.write_guest(tid, a[1], &b)?;
    Ok(value(0))
}

// ---- directories and names ----

pub fn getdents64(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let file = m.description_of(tid, a[0])?;
    let FileKind::Dir { walk, entries } = &m.files.open[file].kind else { return Err(ENOTDIR) };
    let list = match entries {
        Some(l) => l.clone(),
        None => m.vfs.list(walk, &*m)?,
    };
    let start = m.files.open[file].offset as usize;
    let mut out = vec![];
    let mut index = start;
    while index < list.len() {
        let e = &list[index];
        let name = raw_names::to_bytes(&e.name);
        let reclen = (19 + name.len() + 1).div_ceil(8) * 8;
        if out.len() + reclen > a[2] as usize {
            break;
        }
        let mut rec = vec![0u8; reclen];
        rec[0..8].copy_from_slice(&e.ino.to_le_bytes());
        rec[8..16].copy_from_slice(&(index as u64 + 1).to_le_bytes());
        rec[16..18].copy_from_slice(&(reclen as u16).to_le_bytes());
        rec[18] = e.kind;
        rec[19..19 + name.len()].copy_from_slice(&name);
        out.extend(rec);
        index += 1;
    }
    if index == start && index < list.len() {
        return Err(EINVAL);
    }
    m.write_guest(tid, a[1], &out)?;
    let f = &mut m.files.open[file];
    f.offset = index as u64;
    if let FileKind::Dir { entries, .. } = &mut f.kind {
        *entries = Some(list);
    }
    Ok(value(out.len() as u64))
}

pub fn getcwd(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let mut cwd = raw_names::to_bytes(&m.process_of(tid).cwd);
    cwd.push(0);
    if cwd.len() > a[1] as usize {
        return Err(ERANGE);
    }
    m.write_guest(tid, a[0], &cwd)?;
    Ok(value(cwd.len() as u64))
}

pub fn chdir(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let path = m.read_path(tid, a[0])?;
    let walk = m.resolve_at(tid, -100, &path, true)?;
    if !m.vfs.stat(&walk.loc, &*m)?.is_dir() {
        return Err(ENOTDIR);
    }
    m.process_of_mut(tid).cwd = walk.path;
    Ok(value(0))
}

pub fn fchdir(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let file = m.description_of(tid, a[0])?;
    let FileKind::Dir { walk, .. } = &m.files.open[file].kind else { return Err(ENOTDIR) };
    let path = walk.path.clone();
    m.process_of_mut(tid).cwd = path;
    Ok(value(0))
}

pub fn readlinkat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let path = m.read_path(tid, a[1])?;
    let walk = m.resolve_at(tid, a[0] as i32, &path, false)?;
    let target = m.vfs.readlink(&walk.loc, &*m).ok_or(EINVAL)?;
    let target = raw_names::to_bytes(&target);
    let bytes = &target[..target.len().min(a[3] as usize)];
    m.write_guest(tid, a[2], bytes)?;
    Ok(value(bytes.len() as u64))
}

/// The extended-attribute calls (setxattr 5 to fremovexattr 16): the machine keeps no attributes.
/// A file named by path or descriptor must exist; reading or removing an attribute finds none
/// (ENODATA), a list is empty, and setting one is not supported (EOPNOTSUPP). `ls -l` asks for ACLs
/// this way on every file.
pub fn xattr(m: &mut Machine, tid: u32, nr: u64, a: [u64; 6]) -> Flow {
    // Each family comes as path, lpath (no symlink following), fd.
    let (family, form) = ((nr - 5) / 3, (nr - 5) % 3);
    if form == 2 {
        m.process_of(tid).fds.get(a[0] as i32)?;
    } else {
        let path = m.read_path(tid, a[0])?;
        m.resolve_at(tid, -100, &path, form == 0)?;
    }
    match family {
        0 => Err(EOPNOTSUPP),
        2 => Ok(value(0)),
        _ => Err(ENODATA),
    }
}

pub fn faccessat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let path = m.read_path(tid, a[1])?;
    let walk = m.resolve_at(tid, a[0] as i32, &path, a[3] & AT_SYMLINK_NOFOLLOW == 0)?;
    let st = m.vfs.stat(&walk.loc, &*m)?;
    let mode = a[2];
    // The guest is root: everything is allowed but executing a file with no x bit.
    if mode & 1 != 0 && !st.is_dir() && st.mode & 0o111 == 0 {
        return Err(EACCES);
    }
    if mode & 2 != 0 {
        if let Loc::Host { mount, .. } = walk.loc {
            if !m.vfs.mounts[mount].writable {
                return Err(EROFS);
            }
        }
    }
    Ok(value(0))
}

pub fn mkdirat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let path = m.read_path(tid, a[1])?;
    let (dir, name) = m.resolve_parent_at(tid, a[0] as i32, &path)?;
    if name == "." || name == ".." {
        return Err(EEXIST);
    }
    let umask = m.process_of(tid).umask;
    let node = Node::Dir { entries: BTreeMap::new(), parent: 0 };
    m.vfs.create(&dir.loc, &name, node, a[2] as u32 & !umask & 0o7777)?;
    Ok(value(0))
}

pub fn unlinkat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let path = m.read_path(tid, a[1])?;
    let (dir, name) = m.resolve_parent_at(tid, a[0] as i32, &path)?;
    let rmdir = a[2] & AT_REMOVEDIR != 0;
    if name == "." || name == ".." {
        return Err(if rmdir { EINVAL } else { EISDIR });
    }
    m.vfs.remove(&dir.loc, &name, rmdir)?;
    Ok(value(0))
}

pub fn renameat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    const RENAME_NOREPLACE: u64 = 1;
    if a[4] & !RENAME_NOREPLACE != 0 {
        return Err(EINVAL);
    }
    let from = m.read_path(tid, a[1])?;
    let to = m.read_path(tid, a[3])?;
    let (fdir, fname) = m.resolve_parent_at(tid, a[0] as i32, &from)?;
    let (tdir, tname) = m.resolve_parent_at(tid, a[2] as i32, &to)?;
    if [&fname, &tname].iter().any(|n| *n == "." || *n == "..") {
        return Err(EBUSY);
    }
    m.vfs.rename(&fdir.loc, &fname, &tdir.loc, &tname, a[4] & RENAME_NOREPLACE != 0)?;
    Ok(value(0))
}

pub fn symlinkat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let target = m.read_path(tid, a[0])?;
    let path = m.read_path(tid, a[2])?;
    if target.is_empty() {
        return Err(ENOENT);
    }
    let (dir, name) = m.resolve_parent_at(tid, a[1] as i32, &path)?;
    m.vfs.create(&dir.loc, &name, Node::Symlink(target), 0o777)?;
    Ok(value(0))
}

pub fn linkat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let old = m.read_path(tid, a[1])?;
    let new = m.read_path(tid, a[3])?;
    let target = m.resolve_at(tid, a[0] as i32, &old, a[4] & AT_SYMLINK_FOLLOW != 0)?;
    let (dir, name) = m.resolve_parent_at(tid, a[2] as i32, &new)?;
    m.vfs.link(&target.loc, &dir.loc, &name)?;
    Ok(value(0))
}

fn loc_of_fd(m: &Machine, tid: u32, fd: u64) -> SysResult<Loc> {
    m.files.open[m.description_of(tid, fd)?].kind.loc().ok_or(EPERM)
}

pub fn fchmodat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let path = m.read_path(tid, a[1])?;
    let walk = m.resolve_at(tid, a[0] as i32, &path, true)?;
    m.vfs.set_attributes(&walk.loc, Some(a[2] as u32), (None, None), (None, None))?;
    Ok(value(0))
}

pub fn fchmod(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let loc = loc_of_fd(m, tid, a[0])?;
    m.vfs.set_attributes(&loc, Some(a[1] as u32), (None, None), (None, None))?;
    Ok(value(0))
}

fn id_arg(v: u64) -> Option<u32> {
    (v as u32 != u32::MAX).then_some(v as u32)
}

pub fn fchownat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let path = m.read_path(tid, a[1])?;
    let walk = m.resolve_at(tid, a[0] as i32, &path, a[4] & AT_SYMLINK_NOFOLLOW == 0)?;
    if matches!(walk.loc, Loc::Host { .. }) {
        return Err(EPERM);
    }
    m.vfs.set_attributes(&walk.loc, None, (id_arg(a[2]), id_arg(a[3])), (None, None))?;
    Ok(value(0))
}

pub fn fchown(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let loc = loc_of_fd(m, tid, a[0])?;
    if matches!(loc, Loc::Host { .. }) {
        return Err(EPERM);
    }
    m.vfs.set_attributes(&loc, None, (id_arg(a[1]), id_arg(a[2])), (None, None))?;
    Ok(value(0))
}

pub fn utimensat(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    const UTIME_NOW: u64 = (1 << 30) - 1;
    const UTIME_OMIT: u64 = (1 << 30) - 2;
    let loc = if a[1] == 0 {
        loc_of_fd(m, tid, a[0])?
    } else {
        let path = m.read_path(tid, a[1])?;
        m.resolve_at(tid, a[0] as i32, &path, a[3] & AT_SYMLINK_NOFOLLOW == 0)?.loc
    };
    let now = m.realtime();
    let mut times = [Some(now), Some(now)];
    if a[2] != 0 {
        for (i, t) in times.iter_mut().enumerate() {
            let sec = m.read_u64(tid, a[2] + 16 * i as u64)?;
            let nsec = m.read_u64(tid, a[2] + 16 * i as u64 + 8)?;
            *t = match nsec {
                UTIME_NOW => Some(now),
                UTIME_OMIT => None,
                n if n < 1_000_000_000 => Some(Timespec { sec: sec as i64, nsec: n as u32 }),
                _ => return Err(EINVAL),
            };
        }
    }
    m.vfs.set_attributes(&loc, None, (None, None), (times[0], times[1]))?;
    Ok(value(0))
}

fn truncate_loc(m: &mut Machine, kind: &FileKind, len: u64) -> SysResult<()> {
    match kind {
        FileKind::Mem(ino) => {
            m.vfs.truncate_file(*ino, len)
        }
        FileKind::Host { file, .. } => Ok(file.set_len(len)?),
        FileKind::Dir { .. } => Err(EISDIR),
        _ => Err(EINVAL),
    }
}

pub fn ftruncate(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let file = m.description_of(tid, a[0])?;
    if !m.files.open[file].writable() {
        return Err(EINVAL);
    }
    if a[1] > 1 << 32 {
        return Err(EINVAL);
    }
    let kind = m.files.open[file].kind.clone();
    truncate_loc(m, &kind, a[1])?;
    Ok(value(0))
}

pub fn truncate(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let path = m.read_path(tid, a[0])?;
    let fd = open_path(m, tid, -100, &path, O_WRONLY, 0)?;
    let r = ftruncate(m, tid, [fd as u64, a[1], 0, 0, 0, 0]);
    with_fds(m, tid, |files, fds| files.close(fds, fd))?;
    r
}
