//! Reading and writing open descriptions: read, write, their positioned and vectored forms,
//! sendfile and lseek, over in-memory and host files, devices, pipes, sockets and the terminal.

use std::os::unix::fs::FileExt;

use super::net;
use super::terminal;
use super::outcome::{value, Flow, Outcome};
use crate::arm64::linux::errno::*;
use crate::arm64::linux::fd::*;
use crate::arm64::linux::framebuffer;
use crate::arm64::linux::inode::{Device, Node};
use crate::arm64::linux::machine::Machine;
use crate::arm64::linux::process::Wait;
use crate::arm64::linux::signals::{SigInfo, SIGPIPE, SI_USER};

/// The most bytes one read or write moves; more is a short count, which callers loop over. (Linux
/// allows 2 GiB, but guest buffers are copied through the host here.)
const MAX_IO: usize = 16 << 20;

/// Bytes read from a description, or the wait that must come first.
pub fn read_from(m: &mut Machine, tid: u32, file: usize, len: usize, at: Option<u64>) -> SysResult<Result<Vec<u8>, Wait>> {
    let f = &m.files.open[file];
    if !f.readable() {
        return Err(EBADF);
    }
    let nonblock = f.flags & O_NONBLOCK != 0;
    let offset = at.unwrap_or(f.offset);
    let len = len.min(MAX_IO);
    let data = match f.kind.clone() {
        FileKind::Mem(ino) => match &m.vfs.inode(ino).node {
            Node::File(d) => slice_at(d, offset, len),
            _ => return Err(EISDIR),
        },
        FileKind::Generated(d) => slice_at(&d, offset, len),
        FileKind::Host { file: h, .. } => {
            let mut buf = vec![0u8; len];
            let n = h.read_at(&mut buf, offset)?;
            buf.truncate(n);
            buf
        }
        FileKind::Dir { .. } => return Err(EISDIR),
        FileKind::Device(d, _) => match d {
            Device::Null => vec![],
            Device::Zero | Device::Full => vec![0; len],
            Device::Random | Device::Urandom => {
                let mut buf = vec![0u8; len];
                m.fill_random(&mut buf);
                buf
            }
            Device::Tty => return terminal::read(m, tid, len, nonblock),
            Device::Framebuffer => m.framebuffer.read(offset, len),
        },
        FileKind::PipeRead(p) => {
            let pipe = &mut m.files.pipes[p];
            if pipe.buffer.is_empty() {
                if pipe.at_eof() {
                    return Ok(Ok(vec![]));
                }
                return if nonblock { Err(EAGAIN) } else { Ok(Err(Wait::PipeRead(p))) };
            }
            let n = len.min(pipe.buffer.len());
            let bytes = pipe.buffer.drain(..n).collect();
            m.files.net.memory.release(n as u64);
            return Ok(Ok(bytes));
        }
        FileKind::Terminal(Stream::Stdin) => {
            let t = &mut m.terminal;
            if t.stdin.is_empty() {
                if t.stdin_closed {
                    return Ok(Ok(vec![]));
                }
                return if nonblock { Err(EAGAIN) } else { Ok(Err(Wait::Stdin)) };
            }
            let n = len.min(t.stdin.len());
            return Ok(Ok(t.stdin.drain(..n).collect()));
        }
        FileKind::Socket(s) => {
            return Ok(match m.files.net.recv(s, len, false)? {
                Some(r) => Ok(net::drop_rights(m, r).data),
                None if nonblock => return Err(EAGAIN),
                None => Err(Wait::SocketData(s)),
            });
        }
        FileKind::Epoll(_) => return Err(EINVAL),
        FileKind::PipeWrite(_) | FileKind::Terminal(_) => return Err(EBADF),
    };
    if at.is_none() {
        m.files.open[file].offset = offset + data.len() as u64;
    }
    Ok(Ok(data))
}

fn slice_at(d: &[u8], offset: u64, len: usize) -> Vec<u8> {
    let start = (offset as usize).min(d.len());
    d[start..(start + len).min(d.len())].to_vec()
}

/// Writes bytes to a description: how many were taken, or the wait that must come first.
pub fn write_to(m: &mut Machine, tid: u32, file: usize, data: &[u8], at: Option<u64>) -> SysResult<Result<usize, Wait>> {
    let f = &m.files.open[file];
    if !f.writable() {
        return Err(EBADF);
    }
    let append = f.flags & O_APPEND != 0;
    let nonblock = f.flags & O_NONBLOCK != 0;
    let offset = at.unwrap_or(f.offset);
    let data = &data[..data.len().min(MAX_IO)];
    let (end, written) = match f.kind.clone() {
        FileKind::Mem(ino) => {
            let (start, end) = m.vfs.write_file(ino, if append && at.is_none() { None } else { Some(offset) }, data)?;
            (end as usize, (end - start) as usize)
        }
        FileKind::Host { file: h, .. } => {
            let start = if append && at.is_none() { h.metadata()?.len() } else { offset };
            h.write_all_at(data, start)?;
            (start as usize + data.len(), data.len())
        }
        FileKind::Device(Device::Full, _) => return Err(ENOSPC),
        FileKind::Device(Device::Framebuffer, _) => {
            let n = m.framebuffer.write(offset, data)?;
            (offset as usize + n, n)
        }
        FileKind::Device(Device::Tty, _) => return Ok(Ok(terminal::write(m, data))),
        FileKind::Device(..) => return Ok(Ok(data.len())),
        FileKind::PipeWrite(p) => {
            let pipe = &mut m.files.pipes[p];
            if pipe.broken() {
                let pid = m.thread(tid).pid;
                m.signal_thread(tid, SigInfo { signo: SIGPIPE, code: SI_USER, pid, ..SigInfo::default() });
                return Err(EPIPE);
            }
            let room = pipe.room();
            if room == 0 {
                return if nonblock { Err(EAGAIN) } else { Ok(Err(Wait::PipeWrite(p))) };
            }
            let memory = &mut m.files.net.memory;
            let n = room.min(data.len()).min(memory.room().try_into().unwrap_or(usize::MAX));
            if n == 0 {
                return Err(ENOMEM); // the machine's memory is spent
            }
            memory.charge(n as u64);
            pipe.buffer.extend(&data[..n]);
            return Ok(Ok(n));
        }
        FileKind::Terminal(Stream::Stdout) => {
            m.terminal.stdout.extend_from_slice(data);
            return Ok(Ok(data.len()));
        }
        FileKind::Terminal(Stream::Stderr) => {
            m.terminal.stderr.extend_from_slice(data);
            return Ok(Ok(data.len()));
        }
        FileKind::Socket(s) => return net::send_from(m, tid, s, data, None, &mut vec![], nonblock, false),
        _ => return Err(EBADF),
    };
    if at.is_none() {
        m.files.open[file].offset = end as u64;
    }
    Ok(Ok(written))
}

pub fn read(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let file = m.description_of(tid, a[0])?;
    match read_from(m, tid, file, a[2] as usize, None)? {
        Ok(data) => {
            m.write_guest(tid, a[1], &data)?;
            Ok(value(data.len() as u64))
        }
        Err(w) => Ok(Outcome::Block(w)),
    }
}

pub fn write(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let file = m.description_of(tid, a[0])?;
    let data = m.read_guest(tid, a[1], (a[2] as usize).min(MAX_IO))?;
    match write_to(m, tid, file, &data, None)? {
        Ok(n) => Ok(value(n as u64)),
        Err(w) => Ok(Outcome::Block(w)),
    }
}

pub fn pread64(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let file = m.description_of(tid, a[0])?;
    if matches!(m.files.open[file].kind, FileKind::PipeRead(_) | FileKind::PipeWrite(_) | FileKind::Terminal(_) | FileKind::Socket(_)) {
        return Err(ESPIPE);
    }
    match read_from(m, tid, file, a[2] as usize, Some(a[3]))? {
        Ok(data) => {
            m.write_guest(tid, a[1], &data)?;
            Ok(value(data.len() as u64))
        }
        Err(w) => Ok(Outcome::Block(w)),
    }
}

pub fn pwrite64(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let file = m.description_of(tid, a[0])?;
    if matches!(m.files.open[file].kind, FileKind::PipeRead(_) | FileKind::PipeWrite(_) | FileKind::Terminal(_) | FileKind::Socket(_)) {
        return Err(ESPIPE);
    }
    let data = m.read_guest(tid, a[1], (a[2] as usize).min(MAX_IO))?;
    match write_to(m, tid, file, &data, Some(a[3]))? {
        Ok(n) => Ok(value(n as u64)),
        Err(w) => Ok(Outcome::Block(w)),
    }
}

pub(super) fn iovecs(m: &Machine, tid: u32, addr: u64, count: u64) -> SysResult<Vec<(u64, usize)>> {
    if count > 1024 {
        return Err(EINVAL);
    }
    (0..count).map(|i| Ok((m.read_u64(tid, addr + 16 * i)?, m.read_u64(tid, addr + 16 * i + 8)? as usize))).collect()
}

pub fn readv(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let file = m.description_of(tid, a[0])?;
    let iov = iovecs(m, tid, a[1], a[2])?;
    let total = iov.iter().fold(0usize, |t, v| t.saturating_add(v.1));
    let data = match read_from(m, tid, file, total, None)? {
        Ok(d) => d,
        Err(w) => return Ok(Outcome::Block(w)),
    };
    let mut done = 0;
    for (base, len) in iov {
        let n = len.min(data.len() - done);
        m.write_guest(tid, base, &data[done..done + n])?;
        done += n;
    }
    Ok(value(done as u64))
}

pub fn writev(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let file = m.description_of(tid, a[0])?;
    let mut data = vec![];
    for (base, len) in iovecs(m, tid, a[1], a[2])? {
        let len = len.min(MAX_IO - data.len());
        data.extend(m.read_guest(tid, base, len)?);
    }
    match write_to(m, tid, file, &data, None)? {
        Ok(n) => Ok(value(n as u64)),
        Err(w) => Ok(Outcome::Block(w)),
    }
}

pub fn sendfile(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let out = m.description_of(tid, a[0])?;
    let input = m.description_of(tid, a[1])?;
    let at = if a[2] != 0 { Some(m.read_u64(tid, a[2])?) } else { None };
    let data = match read_from(m, tid, input, (a[3] as usize).min(1 << 20), at)? {
        Ok(d) => d,
        Err(w) => return Ok(Outcome::Block(w)),
    };
    // Bytes the output does not take are given back to the input's offset.
    let n = match write_to(m, tid, out, &data, None)? {
        Ok(n) => n,
        Err(w) => {
            unread(m, input, at, data.len());
            return Ok(Outcome::Block(w));
        }
    };
    unread(m, input, at, data.len() - n);
    if let Some(off) = at {
        m.write_u64(tid, a[2], off + n as u64)?;
    }
    Ok(value(n as u64))
}

fn unread(m: &mut Machine, file: usize, at: Option<u64>, n: usize) {
    if at.is_none() && n > 0 {
        let f = &mut m.files.open[file];
        f.offset = f.offset.saturating_sub(n as u64);
    }
}

pub fn lseek(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let file = m.description_of(tid, a[0])?;
    let size = match &m.files.open[file].kind {
        FileKind::Mem(ino) => match &m.vfs.inode(*ino).node {
            Node::File(d) => d.len() as u64,
            _ => 0,
        },
        FileKind::Host { file: h, .. } => h.metadata()?.len(),
        FileKind::Generated(d) => d.len() as u64,
        FileKind::Device(Device::Framebuffer, _) => framebuffer::SIZE as u64,
        FileKind::Dir { .. } | FileKind::Device(..) => 0,
        _ => return Err(ESPIPE),
    };
    let f = &mut m.files.open[file];
    let offset = a[1] as i64;
    let new = match a[2] {
        0 => offset,
        1 => f.offset as i64 + offset,
        2 => size as i64 + offset,
        _ => return Err(EINVAL),
    };
    if new < 0 {
        return Err(EINVAL);
    }
    f.offset = new as u64;
    if let FileKind::Dir { entries, .. } = &mut f.kind {
        if new == 0 {
            *entries = None;
        }
    }
    Ok(value(new as u64))
}
