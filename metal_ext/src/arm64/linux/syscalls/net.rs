//! Socket system calls over the machine's own sockets (socket.rs): socket, socketpair, bind,
//! listen, accept4, connect, the send and receive family, socket options, shutdown and the
//! address calls. Addresses are read and written in Linux's sockaddr layouts.

use super::files::install;
use super::outcome::{value, Flow, Outcome};
use super::read_write::iovecs;
use crate::arm64::linux::errno::*;
use crate::arm64::linux::fd::*;
use crate::arm64::linux::inode::Node;
use crate::arm64::linux::machine::Machine;
use crate::arm64::linux::process::Wait;
use crate::arm64::linux::signals::{SigInfo, SIGPIPE, SI_USER};
use crate::arm64::linux::socket::*;
use crate::arm64::linux::vfs::Loc;

const AF_UNSPEC: u16 = 0;
const AF_UNIX: u16 = 1;
const AF_INET: u16 = 2;
const AF_INET6: u16 = 10;
const EAFNOSUPPORT: Errno = Errno(97);
const EPROTONOSUPPORT: Errno = Errno(93);
const ESOCKTNOSUPPORT: Errno = Errno(94);
const ENOPROTOOPT: Errno = Errno(92);
const ENOTSOCK: Errno = Errno(88);
const MSG_PEEK: u64 = 2;
const MSG_TRUNC: u64 = 0x20;
const MSG_DONTWAIT: u64 = 0x40;
const MSG_NOSIGNAL: u64 = 0x4000;
const AT_FDCWD: i32 = -100;

/// A sockaddr as the program gave it; an AF_UNIX path is looked up by the call that uses it.
enum Target {
    Unspec,
    UnixPath(String),
    Abstract(Vec<u8>),
    Ip(u16, [u8; 16], u16),
}

fn read_target(m: &Machine, tid: u32, ptr: u64, len: u64) -> SysResult<Target> {
    if !(2..=128).contains(&len) {
        return Err(EINVAL);
    }
    let b = m.read_guest(tid, ptr, len as usize)?;
    let family = u16::from_le_bytes([b[0], b[1]]);
    let port = |b: &[u8]| u16::from_be_bytes([b[2], b[3]]);
    match family {
        AF_UNSPEC => Ok(Target::Unspec),
        AF_UNIX => {
            let path = &b[2..];
            if path.first() == Some(&0) {
                return Ok(Target::Abstract(path[1..].to_vec()));
            }
            let end = path.iter().position(|&c| c == 0).unwrap_or(path.len());
            if end == 0 {
                return Err(EINVAL);
            }
            Ok(Target::UnixPath(String::from_utf8_lossy(&path[..end]).into_owned()))
        }
        AF_INET if len >= 16 => Ok(Target::Ip(AF_INET, mapped_v4(b[4..8].try_into().unwrap()), port(&b))),
        AF_INET6 if len >= 24 => Ok(Target::Ip(AF_INET6, b[8..24].try_into().unwrap(), port(&b))),
        AF_INET | AF_INET6 => Err(EINVAL),
        _ => Err(EAFNOSUPPORT),
    }
}

fn family_number(f: Family) -> u16 {
    match f {
        Family::Unix => AF_UNIX,
        Family::Inet => AF_INET,
        Family::Inet6 => AF_INET6,
    }
}

/// An address in the sockaddr layout of a socket of `family`.
fn addr_bytes(family: Family, a: &Addr) -> Vec<u8> {
    let mut b = family_number(family).to_le_bytes().to_vec();
    match a {
        Addr::Unnamed => {}
        Addr::Path(_, p) => {
            b.extend(p.as_bytes());
            b.push(0);
        }
        Addr::Abstract(n) => {
            b.push(0);
            b.extend(n);
        }
        Addr::Ip(ip, port) => {
            b.extend(port.to_be_bytes());
            if family == Family::Inet {
                b.extend(&ip[12..]);
                b.extend([0; 8]);
            } else {
                b.extend([0; 4]);
                b.extend(ip);
                b.extend([0; 4]);
            }
        }
    }
    b
}

/// Writes an address to (ptr, *len_ptr) as accept, recvfrom and getsockname do: truncated to the
/// room given, with the full length written back.
fn put_addr(m: &mut Machine, tid: u32, ptr: u64, len_ptr: u64, bytes: &[u8]) -> SysResult<()> {
    if ptr == 0 || len_ptr == 0 {
        return Ok(());
    }
    let room = u32::from_le_bytes(m.read_guest(tid, len_ptr, 4)?.try_into().unwrap()) as usize;
    m.write_guest(tid, ptr, &bytes[..bytes.len().min(room)])?;
    m.write_u32(tid, len_ptr, bytes.len() as u32)
}

/// The socket behind descriptor `fd`: (description, socket).
fn socket_of(m: &Machine, tid: u32, fd: u64) -> SysResult<(usize, usize)> {
    let file = m.description_of(tid, fd)?;
    match m.files.open[file].kind {
        FileKind::Socket(s) => Ok((file, s)),
        _ => Err(ENOTSOCK),
    }
}

fn install_socket(m: &mut Machine, tid: u32, s: usize, flags: u64) -> SysResult<i32> {
    let flags = O_RDWR | (flags as u32 & (O_NONBLOCK | O_CLOEXEC));
    install(m, tid, FileKind::Socket(s), flags, format!("socket:[{}]", socket_ino(s)))
}

/// The inode number fstat and /proc/PID/fd give a socket.
pub fn socket_ino(s: usize) -> u64 {
    0x3_0000 + s as u64
}

fn type_of(t: u64) -> SysResult<Kind> {
    if t & !0xf & !((O_NONBLOCK | O_CLOEXEC) as u64) != 0 {
        return Err(EINVAL);
    }
    match t & 0xf {
        1 => Ok(Kind::Stream),
        2 => Ok(Kind::Dgram),
        _ => Err(ESOCKTNOSUPPORT), // raw and sequenced-packet sockets are not offered
    }
}

pub fn socket(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let family = match a[0] as u16 {
        AF_UNIX => Family::Unix,
        AF_INET => Family::Inet,
        AF_INET6 => Family::Inet6,
        _ => return Err(EAFNOSUPPORT), // netlink, packet, …: the machine has no such kernel parts
    };
    let kind = type_of(a[1])?;
    let protocol_ok = matches!(
        (family, kind, a[2]),
        (_, _, 0) | (Family::Inet | Family::Inet6, Kind::Stream, 6) | (Family::Inet | Family::Inet6, Kind::Dgram, 17)
    );
    if !protocol_ok {
        return Err(EPROTONOSUPPORT);
    }
    let pid = m.thread(tid).pid;
    let s = m.files.net.create(family, kind, pid);
    Ok(value(install_socket(m, tid, s, a[1])? as u64))
}

pub fn socketpair(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    if a[0] as u16 != AF_UNIX {
        return Err(if matches!(a[0] as u16, AF_INET | AF_INET6) { EOPNOTSUPP } else { EAFNOSUPPORT });
    }
    let kind = type_of(a[1])?;
    m.read_guest(tid, a[3], 8)?;
    let pid = m.thread(tid).pid;
    let (x, y) = m.files.net.pair(kind, pid);
    let fx = install_socket(m, tid, x, a[1])?;
    let fy = match install_socket(m, tid, y, a[1]) {
        Ok(fd) => fd,
        Err(e) => {
            super::files::close(m, tid, [fx as u64, 0, 0, 0, 0, 0])?;
            return Err(e);
        }
    };
    m.write_guest(tid, a[3], &[fx.to_le_bytes(), fy.to_le_bytes()].concat())?;
    Ok(value(0))
}

/// The socket address `t` names for a socket of `family`: for `bind`, an AF_UNIX path gets its
/// socket file made; otherwise it must name one.
fn addr_for(m: &mut Machine, tid: u32, family: Family, t: Target, bind: bool) -> SysResult<Addr> {
    match (family, t) {
        (Family::Unix, Target::Abstract(n)) => Ok(Addr::Abstract(n)),
        (Family::Unix, Target::UnixPath(path)) if bind => {
            let (dir, name) = m.resolve_parent_at(tid, AT_FDCWD, &path)?;
            let umask = m.process_of(tid).umask;
            match m.vfs.create(&dir.loc, &name, Node::Socket, 0o777 & !umask) {
                Ok(Loc::Mem(ino)) => Ok(Addr::Path(ino, path)),
                Ok(_) => Err(EPERM),
                Err(EEXIST) => Err(EADDRINUSE),
                Err(e) => Err(e),
            }
        }
        (Family::Unix, Target::UnixPath(path)) => {
            let walk = m.resolve_at(tid, AT_FDCWD, &path, true)?;
            match walk.loc {
                Loc::Mem(ino) if matches!(m.vfs.inode(ino).node, Node::Socket) => Ok(Addr::Path(ino, path)),
                _ => Err(ECONNREFUSED),
            }
        }
        (Family::Inet, Target::Ip(AF_INET, ip, port)) | (Family::Inet6, Target::Ip(AF_INET6, ip, port)) => {
            Ok(Addr::Ip(ip, port))
        }
        _ => Err(EAFNOSUPPORT),
    }
}

pub fn bind(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (_, s) = socket_of(m, tid, a[0])?;
    if m.files.net.sockets[s].local.is_some() {
        return Err(EINVAL);
    }
    let family = m.files.net.sockets[s].family;
    let t = read_target(m, tid, a[1], a[2])?;
    let addr = addr_for(m, tid, family, t, true)?;
    m.files.net.bind(s, addr)?;
    Ok(value(0))
}

pub fn listen(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (_, s) = socket_of(m, tid, a[0])?;
    m.files.net.listen(s, a[1] as i32)?;
    Ok(value(0))
}

pub fn accept4(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (file, s) = socket_of(m, tid, a[0])?;
    if a[3] & !((O_NONBLOCK | O_CLOEXEC) as u64) != 0 {
        return Err(EINVAL);
    }
    let Some(conn) = m.files.net.accept(s)? else {
        return if m.files.open[file].flags & O_NONBLOCK != 0 { Err(EAGAIN) } else { Ok(Outcome::Block(Wait::SocketData(s))) };
    };
    let fd = install_socket(m, tid, conn, a[3])?;
    let sock = &m.files.net.sockets[conn];
    let peer = addr_bytes(sock.family, sock.peer_addr.as_ref().unwrap_or(&Addr::Unnamed));
    put_addr(m, tid, a[1], a[2], &peer)?;
    Ok(value(fd as u64))
}

pub fn connect(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (file, s) = socket_of(m, tid, a[0])?;
    let sock = &m.files.net.sockets[s];
    let (family, kind) = (sock.family, sock.kind);
    let t = read_target(m, tid, a[1], a[2])?;
    if matches!(t, Target::Unspec) && kind == Kind::Dgram {
        m.files.net.sockets[s].peer_addr = None; // AF_UNSPEC: a datagram socket disconnects
        return Ok(value(0));
    }
    let addr = addr_for(m, tid, family, t, false)?;
    match m.files.net.connect(s, addr)? {
        None => Ok(value(0)),
        Some(_) if m.files.open[file].flags & O_NONBLOCK != 0 => Err(EAGAIN),
        Some(listener) => Ok(Outcome::Block(Wait::SocketRoom(listener))),
    }
}

fn name_of(m: &mut Machine, tid: u32, a: [u64; 6], peer: bool) -> Flow {
    let (_, s) = socket_of(m, tid, a[0])?;
    let sock = &m.files.net.sockets[s];
    let addr = if peer {
        sock.peer_addr.clone().ok_or(ENOTCONN)?
    } else {
        sock.local.clone().unwrap_or(match sock.family {
            Family::Unix => Addr::Unnamed,
            Family::Inet => Addr::Ip(mapped_v4([0; 4]), 0),
            Family::Inet6 => Addr::Ip([0; 16], 0),
        })
    };
    let bytes = addr_bytes(sock.family, &addr);
    put_addr(m, tid, a[1], a[2], &bytes)?;
    Ok(value(0))
}

pub fn getsockname(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    name_of(m, tid, a, false)
}

pub fn getpeername(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    name_of(m, tid, a, true)
}

/// Sends on socket `s` (write, send, sendto, sendmsg): bytes taken, or the wait that must come
/// first. A broken connection raises SIGPIPE unless MSG_NOSIGNAL. `rights` are retained open
/// descriptions to pass (SCM_RIGHTS); those the send does not take are released here.
#[allow(clippy::too_many_arguments)]
pub fn send_from(
    m: &mut Machine,
    tid: u32,
    s: usize,
    data: &[u8],
    dest: Option<Addr>,
    rights: &mut Vec<usize>,
    nonblock: bool,
    nosignal: bool,
) -> SysResult<Result<usize, Wait>> {
    let mut sent = m.files.net.send(s, data, dest.clone(), rights);
    if matches!(sent, Err(e) if e == ENOBUFS) {
        m.files.collect_cycles(); // dead cycles in flight may hold the memory
        sent = m.files.net.send(s, data, dest, rights);
    }
    for file in rights.drain(..) {
        m.files.release(file);
    }
    match sent {
        Ok(Sent::Bytes(n)) => Ok(Ok(n)),
        Ok(Sent::WaitFor(_)) if nonblock => Err(EAGAIN),
        Ok(Sent::WaitFor(r)) => Ok(Err(Wait::SocketRoom(r))),
        Err(EPIPE) => {
            if !nosignal {
                let pid = m.thread(tid).pid;
                m.signal_thread(tid, SigInfo { signo: SIGPIPE, code: SI_USER, pid, ..SigInfo::default() });
            }
            Err(EPIPE)
        }
        Err(e) => Err(e),
    }
}

fn send_common(
    m: &mut Machine,
    tid: u32,
    fd: u64,
    data: &[u8],
    flags: u64,
    to: Option<(u64, u64)>,
    rights: &mut Vec<usize>,
) -> Flow {
    let (file, s) = socket_of(m, tid, fd)?;
    let sock = &m.files.net.sockets[s];
    let family = sock.family;
    // A connected stream ignores a destination, as Linux's TCP and AF_UNIX streams do.
    let dest = match to {
        Some((ptr, len)) if ptr != 0 && sock.kind == Kind::Dgram => {
            let t = read_target(m, tid, ptr, len)?;
            Some(addr_for(m, tid, family, t, false)?)
        }
        _ => None,
    };
    let nonblock = m.files.open[file].flags & O_NONBLOCK != 0 || flags & MSG_DONTWAIT != 0;
    match send_from(m, tid, s, data, dest, rights, nonblock, flags & MSG_NOSIGNAL != 0)? {
        Ok(n) => Ok(value(n as u64)),
        Err(w) => Ok(Outcome::Block(w)),
    }
}

pub fn sendto(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let data = m.read_guest(tid, a[1], (a[2] as usize).min(CAPACITY))?;
    send_common(m, tid, a[0], &data, a[3], Some((a[4], a[5])), &mut vec![])
}

/// A receive: (bytes, sender, whole datagram length), or the wait that must come first.
fn recv_common(m: &mut Machine, tid: u32, fd: u64, len: usize, flags: u64) -> SysResult<Result<Received, Wait>> {
    let (file, s) = socket_of(m, tid, fd)?;
    let nonblock = m.files.open[file].flags & O_NONBLOCK != 0 || flags & MSG_DONTWAIT != 0;
    match m.files.net.recv(s, len.min(CAPACITY), flags & MSG_PEEK != 0)? {
        Some(r) => Ok(Ok(r)),
        None if nonblock => Err(EAGAIN),
        None => Ok(Err(Wait::SocketData(s))),
    }
}

/// A datagram's sender as recvfrom and recvmsg report it: an unnamed AF_UNIX sender has no
/// address at all (length 0), unlike getpeername's bare family.
fn sender_bytes(m: &Machine, tid: u32, fd: u64, from: &Option<Addr>) -> Vec<u8> {
    match from {
        None | Some(Addr::Unnamed) => vec![],
        Some(a) => {
            let family = socket_of(m, tid, fd).map(|(_, s)| m.files.net.sockets[s].family).unwrap_or(Family::Unix);
            addr_bytes(family, a)
        }
    }
}

pub fn recvfrom(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let r = match recv_common(m, tid, a[0], a[2] as usize, a[3])? {
        Ok(r) => drop_rights(m, r),
        Err(w) => return Ok(Outcome::Block(w)),
    };
    m.write_guest(tid, a[1], &r.data)?;
    let bytes = sender_bytes(m, tid, a[0], &r.from);
    if bytes.is_empty() {
        if a[4] != 0 && a[5] != 0 {
            m.write_u32(tid, a[5], 0)?; // a stream, or an unnamed sender: no address
        }
    } else {
        put_addr(m, tid, a[4], a[5], &bytes)?;
    }
    Ok(value(if a[3] & MSG_TRUNC != 0 { r.full_len } else { r.data.len() } as u64))
}

/// struct msghdr: (name, namelen, iov, iovlen, control, controllen).
fn msghdr(m: &Machine, tid: u32, at: u64) -> SysResult<[u64; 6]> {
    let b = m.read_guest(tid, at, 56)?;
    let q = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
    Ok([q(0), q(8) & 0xffff_ffff, q(16), q(24), q(32), q(40)])
}

/// The descriptions named by SCM_RIGHTS messages in a sendmsg's control buffer, each retained;
/// other control messages are refused.
fn rights_to_send(m: &mut Machine, tid: u32, s: usize, control: u64, len: u64) -> SysResult<Vec<usize>> {
    const SCM_MAX_FD: usize = 253;
    let buf = m.read_guest(tid, control, (len as usize).min(1 << 16))?;
    let mut files = vec![];
    let mut at = 0;
    while at + 16 <= buf.len() {
        let cmsg_len = u64::from_le_bytes(buf[at..at + 8].try_into().unwrap()) as usize;
        let level = i32::from_le_bytes(buf[at + 8..at + 12].try_into().unwrap());
        let kind = i32::from_le_bytes(buf[at + 12..at + 16].try_into().unwrap());
        if cmsg_len < 16 || at + cmsg_len > buf.len() {
            return Err(EINVAL);
        }
        // SCM_RIGHTS, on AF_UNIX sockets only; credentials and the rest are not offered.
        if (level, kind) != (SOL_SOCKET as i32, 1) || m.files.net.sockets[s].family != Family::Unix {
            return Err(if level == SOL_SOCKET as i32 { EOPNOTSUPP } else { EINVAL });
        }
        for fd in buf[at + 16..at + cmsg_len].chunks_exact(4) {
            let fd = i32::from_le_bytes(fd.try_into().unwrap());
            files.push(m.process_of(tid).fds.get(fd)?.file);
        }
        at += cmsg_len.div_ceil(8) * 8;
    }
    if files.len() > SCM_MAX_FD {
        return Err(EINVAL);
    }
    for &file in &files {
        m.files.retain(file);
    }
    Ok(files)
}

pub fn sendmsg(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let h = msghdr(m, tid, a[1])?;
    let (_, s) = socket_of(m, tid, a[0])?;
    let mut data = vec![];
    for (base, len) in iovecs(m, tid, h[2], h[3])? {
        let len = len.min(CAPACITY - data.len());
        data.extend(m.read_guest(tid, base, len)?);
    }
    let mut rights = if h[5] != 0 { rights_to_send(m, tid, s, h[4], h[5])? } else { vec![] };
    send_common(m, tid, a[0], &data, a[2], Some((h[0], h[1])), &mut rights)
}

/// Descriptions a receive came with but cannot pass on (read, recv, recvfrom): closed.
pub fn drop_rights(m: &mut Machine, mut r: Received) -> Received {
    for file in r.rights.drain(..) {
        m.files.release(file);
    }
    r
}

/// Installs received descriptions in the caller's table and writes their SCM_RIGHTS message into
/// the control buffer (control, room): (control bytes written, whether some did not fit).
fn deliver_rights(m: &mut Machine, tid: u32, rights: Vec<usize>, control: u64, room: usize, cloexec: bool) -> SysResult<(usize, bool)> {
    if rights.is_empty() {
        return Ok((0, false));
    }
    let fit = room.saturating_sub(16) / 4;
    let total = rights.len();
    let mut fds = vec![];
    for (i, file) in rights.into_iter().enumerate() {
        if i < fit {
            let pid = m.thread(tid).pid;
            let mut table = std::mem::take(&mut m.processes.get_mut(&pid).unwrap().fds);
            let fd = m.files.install(&mut table, file, 0, cloexec);
            m.processes.get_mut(&pid).unwrap().fds = table;
            if let Ok(fd) = fd {
                fds.push(fd);
            }
        }
        m.files.release(file); // the reference it travelled with
    }
    if fds.is_empty() {
        return Ok((0, true));
    }
    let len = 16 + 4 * fds.len();
    let mut cmsg = (len as u64).to_le_bytes().to_vec();
    cmsg.extend((SOL_SOCKET as i32).to_le_bytes());
    cmsg.extend(1i32.to_le_bytes());
    for fd in &fds {
        cmsg.extend(fd.to_le_bytes());
    }
    m.write_guest(tid, control, &cmsg)?;
    Ok(((len.div_ceil(8) * 8).min(room), fds.len() < total))
}

pub fn recvmsg(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    const MSG_CTRUNC: u32 = 8;
    const MSG_TRUNC_FLAG: u32 = 0x20;
    const MSG_CMSG_CLOEXEC: u64 = 0x4000_0000;
    let h = msghdr(m, tid, a[1])?;
    let iov = iovecs(m, tid, h[2], h[3])?;
    let total = iov.iter().fold(0usize, |t, v| t.saturating_add(v.1));
    let mut r = match recv_common(m, tid, a[0], total, a[2])? {
        Ok(r) => r,
        Err(w) => return Ok(Outcome::Block(w)),
    };
    let mut done = 0;
    for (base, len) in iov {
        let n = len.min(r.data.len() - done);
        m.write_guest(tid, base, &r.data[done..done + n])?;
        done += n;
    }
    if h[0] != 0 {
        let bytes = sender_bytes(m, tid, a[0], &r.from);
        let n = bytes.len().min(h[1] as usize);
        m.write_guest(tid, h[0], &bytes[..n])?;
        m.write_u32(tid, a[1] + 8, bytes.len() as u32)?;
    }
    let rights = std::mem::take(&mut r.rights);
    let room = if h[4] == 0 { 0 } else { h[5] as usize };
    let (control_len, cut) = deliver_rights(m, tid, rights, h[4], room, a[2] & MSG_CMSG_CLOEXEC != 0)?;
    m.write_u64(tid, a[1] + 40, control_len as u64)?;
    let flags = if r.full_len > r.data.len() { MSG_TRUNC_FLAG } else { 0 } | if cut { MSG_CTRUNC } else { 0 };
    m.write_u32(tid, a[1] + 48, flags)?;
    Ok(value(if a[2] & MSG_TRUNC != 0 { r.full_len } else { r.data.len() } as u64))
}

pub fn shutdown(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (_, s) = socket_of(m, tid, a[0])?;
    m.files.net.shutdown(s, a[1])?;
    Ok(value(0))
}

const SOL_SOCKET: u64 = 1;
const IPPROTO_IP: u64 = 0;
const IPPROTO_TCP: u64 = 6;
const IPPROTO_UDP: u64 = 17;
const IPPROTO_IPV6: u64 = 41;
const SO_TYPE: u64 = 3;
const SO_ERROR: u64 = 4;
const SO_SNDBUF: u64 = 7;
const SO_RCVBUF: u64 = 8;
const SO_PEERCRED: u64 = 17;
const SO_ACCEPTCONN: u64 = 30;
const SO_PROTOCOL: u64 = 38;
const SO_DOMAIN: u64 = 39;
const IPV6_V6ONLY: u64 = 26;
/// SOL_SOCKET options a program may set and read back: SO_REUSEADDR, SO_DONTROUTE,
/// SO_BROADCAST, the buffer sizes, SO_KEEPALIVE, SO_OOBINLINE, SO_LINGER, SO_REUSEPORT,
/// SO_PASSCRED, the low-water marks and the timeouts (kept, not enforced).
const SOCKET_OPTIONS: &[u64] = &[2, 5, 6, 7, 8, 9, 10, 13, 15, 16, 18, 19, 20, 21, 66, 67];

pub fn setsockopt(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (_, s) = socket_of(m, tid, a[0])?;
    let (level, name) = (a[1], a[2]);
    match level {
        SOL_SOCKET if SOCKET_OPTIONS.contains(&name) => {}
        IPPROTO_IP | IPPROTO_TCP | IPPROTO_UDP | IPPROTO_IPV6 => {}
        _ => return Err(ENOPROTOOPT),
    }
    let mut v = m.read_guest(tid, a[3], (a[4] as usize).min(64))?;
    if level == SOL_SOCKET && matches!(name, SO_SNDBUF | SO_RCVBUF) && v.len() >= 4 {
        // Linux keeps twice the size asked for (room for its bookkeeping) and reports that.
        let n = u32::from_le_bytes(v[..4].try_into().unwrap()).saturating_mul(2);
        v = n.to_le_bytes().to_vec();
    }
    let sock = &mut m.files.net.sockets[s];
    if (level, name) == (IPPROTO_IPV6, IPV6_V6ONLY) && v.len() >= 4 {
        sock.v6only = v[..4] != [0; 4];
    }
    sock.options.insert((level as u32, name as u32), v);
    Ok(value(0))
}

pub fn getsockopt(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (_, s) = socket_of(m, tid, a[0])?;
    let (level, name) = (a[1], a[2]);
    let int = |v: u32| v.to_le_bytes().to_vec();
    let sock = &mut m.files.net.sockets[s];
    let v = match (level, name) {
        (SOL_SOCKET, SO_TYPE) => int(if sock.kind == Kind::Stream { 1 } else { 2 }),
        (SOL_SOCKET, SO_ERROR) => int(sock.error.take().map_or(0, |e| e.0 as u32)),
        (SOL_SOCKET, SO_ACCEPTCONN) => int(sock.queue.is_some() as u32),
        (SOL_SOCKET, SO_DOMAIN) => int(family_number(sock.family) as u32),
        (SOL_SOCKET, SO_PROTOCOL) => int(match (sock.family, sock.kind) {
            (Family::Unix, _) => 0,
            (_, Kind::Stream) => 6,
            (_, Kind::Dgram) => 17,
        }),
        (SOL_SOCKET, SO_PEERCRED) => {
            // ucred {pid, uid, gid} of the peer's maker; the guest runs as root.
            let pid = sock.peer.and_then(|p| m.files.net.sockets.get(p)).map_or(0, |p| p.pid);
            [pid.to_le_bytes(), [0; 4], [0; 4]].concat()
        }
        (SOL_SOCKET, SO_SNDBUF | SO_RCVBUF) => {
            sock.options.get(&(level as u32, name as u32)).cloned().unwrap_or(int(CAPACITY as u32))
        }
        (SOL_SOCKET, n) if !SOCKET_OPTIONS.contains(&n) => return Err(ENOPROTOOPT),
        (SOL_SOCKET | IPPROTO_IP | IPPROTO_TCP | IPPROTO_UDP | IPPROTO_IPV6, _) => {
            sock.options.get(&(level as u32, name as u32)).cloned().unwrap_or(int(0))
        }
        _ => return Err(ENOPROTOOPT),
    };
    let room = u32::from_le_bytes(m.read_guest(tid, a[4], 4)?.try_into().unwrap()) as usize;
    m.write_guest(tid, a[3], &v[..v.len().min(room)])?;
    m.write_u32(tid, a[4], v.len().min(room) as u32)?;
    Ok(value(0))
}
