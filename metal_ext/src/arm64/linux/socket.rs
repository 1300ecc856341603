//! Sockets inside the machine: AF_UNIX (stream and datagram; by path, abstract name or
//! socketpair) and AF_INET/AF_INET6 on the machine's own loopback. Nothing here reaches the host's
//! network: a connection is two sockets of this table joined, a datagram moves from one queue to
//! another. The system calls that use it are in syscalls/net.rs.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use super::errno::*;
use super::inode::Ino;
use super::limits::KernelMemory;
use super::slab::Slab;

pub const EMSGSIZE: Errno = Errno(90);
pub const EADDRINUSE: Errno = Errno(98);
pub const EADDRNOTAVAIL: Errno = Errno(99);
pub const ENETUNREACH: Errno = Errno(101);
pub const EISCONN: Errno = Errno(106);
pub const ENOTCONN: Errno = Errno(107);
pub const ECONNREFUSED: Errno = Errno(111);
pub const EDESTADDRREQ: Errno = Errno(89);
pub const ENOBUFS: Errno = Errno(105);

/// Bytes (stream) or datagram bytes a socket holds unread before senders wait: Linux's default
/// receive buffer.
pub const CAPACITY: usize = 212_992;
/// What a queued datagram costs beyond its bytes (Linux's buffer head): a receive queue holds
/// 278 empty datagrams, as on Linux.
pub const DATAGRAM_OVERHEAD: usize = 768;
/// Host memory charged for one description in flight (SCM_RIGHTS) while it waits in a queue.
pub const IN_FLIGHT_COST: usize = 1024;
/// The largest UDP payload.
pub const MAX_UDP: usize = 65_507;
/// Ports given to sockets that are not bound by the program (Linux's default range).
const EPHEMERAL: std::ops::RangeInclusive<u16> = 32768..=60999;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Unix,
    Inet,
    Inet6,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Stream,
    Dgram,
}

/// A socket address. IPv4 addresses are kept in IPv6's mapped form (::ffff:a.b.c.d), so one
/// IPv6 socket bound to the wildcard takes IPv4 connections too, as on Linux.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Addr {
    /// An AF_UNIX socket with no name (not bound, or made by socketpair).
    Unnamed,
    /// Bound to a path: the socket file's inode, and the path as the program gave it.
    Path(Ino, String),
    /// Linux's abstract namespace (a name starting with a NUL byte), without the NUL.
    Abstract(Vec<u8>),
    Ip([u8; 16], u16),
}

/// What a bound name is looked up by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Name {
    Path(Ino),
    Abstract(Vec<u8>),
    Port(Kind, u16),
}

impl Addr {
    fn name(&self, kind: Kind) -> Option<Name> {
        match self {
            Addr::Unnamed => None,
            Addr::Path(ino, _) => Some(Name::Path(*ino)),
            Addr::Abstract(n) => Some(Name::Abstract(n.clone())),
            Addr::Ip(_, port) => Some(Name::Port(kind, *port)),
        }
    }
}

pub fn mapped_v4(ip: [u8; 4]) -> [u8; 16] {
    let mut a = [0u8; 16];
    a[10] = 0xff;
    a[11] = 0xff;
    a[12..].copy_from_slice(&ip);
    a
}

pub fn is_v4(ip: &[u8; 16]) -> bool {
    ip[..10] == [0; 10] && ip[10..12] == [0xff, 0xff]
}

fn is_any(ip: &[u8; 16]) -> bool {
    *ip == [0; 16] || *ip == mapped_v4([0; 4])
}

fn is_loopback(ip: &[u8; 16]) -> bool {
    let mut one = [0u8; 16];
    one[15] = 1;
    *ip == one || (is_v4(ip) && ip[12] == 127)
}

/// The address a connection to `ip` reaches: the wildcard means this machine, as on Linux.
fn local_target(ip: [u8; 16]) -> SysResult<[u8; 16]> {
    if is_loopback(&ip) {
        Ok(ip)
    } else if is_any(&ip) {
        Ok(if is_v4(&ip) { mapped_v4([127, 0, 0, 1]) } else { loopback_v6() })
    } else {
        Err(ENETUNREACH) // the machine has no network but its loopback
    }
}

fn loopback_v6() -> [u8; 16] {
    let mut one = [0u8; 16];
    one[15] = 1;
    one
}

#[derive(Clone, Debug)]
pub struct Socket {
    pub family: Family,
    pub kind: Kind,
    pub local: Option<Addr>,
    /// A stream's other end; for socketpair's datagram sockets, where sends go.
    pub peer: Option<usize>,
    /// The address connected to (getpeername; a datagram socket's default destination).
    pub peer_addr: Option<Addr>,
    /// A listening socket's connections not yet accepted, and how many it keeps.
    pub queue: Option<VecDeque<usize>>,
    pub backlog: usize,
    pub stream_in: VecDeque<u8>,
    /// Open descriptions passed with SCM_RIGHTS (AF_UNIX), each at the stream offset of the first
    /// byte sent with them; `given` and `taken` count the bytes put into and read from `stream_in`.
    pub rights: VecDeque<(u64, Vec<usize>)>,
    pub given: u64,
    pub taken: u64,
    /// Datagrams: bytes, sender, descriptions passed with them.
    pub dgrams_in: VecDeque<(Vec<u8>, Addr, Vec<usize>)>,
    /// What the receive queue holds against CAPACITY: stream bytes, or datagram bytes with their
    /// overhead; and how many descriptions are in flight in it. Both are charged to the machine.
    queued: usize,
    carried: usize,
    /// No more bytes will come: the peer shut down writing or closed.
    pub eof: bool,
    pub shut_read: bool,
    pub shut_write: bool,
    /// It was connected and the other end has closed: writes fail with EPIPE.
    pub peer_closed: bool,
    /// An error for the next call (SO_ERROR): a connected UDP socket's port unreachable.
    pub error: Option<Errno>,
    /// The process that made it (SO_PEERCRED).
    pub pid: u32,
    pub v6only: bool,
    /// Options set by the program and read back by getsockopt: (level, name) → value.
    pub options: BTreeMap<(u32, u32), Vec<u8>>,
}

impl Socket {
    fn new(family: Family, kind: Kind, pid: u32) -> Self {
        Socket {
            family,
            kind,
            local: None,
            peer: None,
            peer_addr: None,
            queue: None,
            backlog: 0,
            stream_in: VecDeque::new(),
            rights: VecDeque::new(),
            given: 0,
            taken: 0,
            dgrams_in: VecDeque::new(),
            queued: 0,
            carried: 0,
            eof: false,
            shut_read: false,
            shut_write: false,
            peer_closed: false,
            error: None,
            pid,
            v6only: false,
            options: BTreeMap::new(),
        }
    }

    /// Whether a send to this socket (or a connect to this listener) may go ahead now.
    pub fn has_room(&self) -> bool {
        match &self.queue {
            Some(q) => q.len() <= self.backlog,
            None => self.queued < CAPACITY,
        }
    }

    pub fn connected(&self) -> bool {
        self.peer.is_some() || self.peer_closed
    }
}

/// What a receive found.
pub struct Received {
    pub data: Vec<u8>,
    /// The sender (datagram sockets).
    pub from: Option<Addr>,
    /// The datagram's whole length, when it was longer than asked for.
    pub full_len: usize,
    /// Open descriptions passed with these bytes (SCM_RIGHTS): the receiver's to install or release.
    pub rights: Vec<usize>,
}

impl Received {
    fn end() -> Self {
        Received { data: vec![], from: None, full_len: 0, rights: vec![] }
    }
}

/// What a send did.
pub enum Sent {
    Bytes(usize),
    /// Must wait for room in this socket's receive queue.
    WaitFor(usize),
}

/// Every socket of the machine, and the names they are bound to.
#[derive(Clone, Debug, Default)]
pub struct Net {
    pub sockets: Slab<Socket>,
    names: HashMap<Name, usize>,
    next_port: u16,
    /// Guest ports the host forwards connections to (an explicit opt-in of the Python session).
    pub forwarded: BTreeSet<u16>,
    /// Client sockets of forwarded connections: held by the host, not by a guest descriptor.
    pub host_held: BTreeSet<usize>,
    /// The machine's kernel-side memory, charged for every queue here (and for pipes and epoll
    /// entries, fd.rs).
    pub memory: KernelMemory,
    /// Sockets whose queues hold descriptions in flight, and how many are in flight in all.
    pub carriers: BTreeSet<usize>,
    pub in_flight: usize,
    /// The garbage collection of cycles in flight (inflight.rs) runs again once as many
    /// descriptions have been sent or taken as survived the last one, so that its cost is linear.
    pub gc_floor: usize,
    /// A socket's description lost a reference but lives on: it may now be held only in flight.
    pub gc_pending: bool,
}

impl Net {
    pub fn create(&mut self, family: Family, kind: Kind, pid: u32) -> usize {
        self.sockets.insert(Socket::new(family, kind, pid))
    }

    /// `bytes` (against the queue's capacity) and `carried` descriptions were queued on `s`; the
    /// caller has checked that the memory fits.
    fn enqueued(&mut self, s: usize, bytes: usize, carried: usize) {
        assert!(self.memory.charge((bytes + carried * IN_FLIGHT_COST) as u64));
        let sock = &mut self.sockets[s];
        sock.queued += bytes;
        sock.carried += carried;
        if carried > 0 {
            self.carriers.insert(s);
            self.in_flight += carried;
        }
    }

    /// `bytes` and `carried` descriptions left the queue of `s` (read, or dropped).
    fn dequeued(&mut self, s: usize, bytes: usize, carried: usize) {
        self.memory.release((bytes + carried * IN_FLIGHT_COST) as u64);
        let sock = &mut self.sockets[s];
        sock.queued -= bytes;
        sock.carried -= carried;
        if sock.carried == 0 {
            self.carriers.remove(&s);
        }
        self.in_flight -= carried;
        self.gc_floor = self.gc_floor.saturating_sub(carried);
    }

    /// The descriptions in flight in the queue of `s`.
    pub fn own_rights(&self, s: usize) -> impl Iterator<Item = usize> + '_ {
        let sock = &self.sockets[s];
        sock.rights.iter().flat_map(|(_, r)| r).chain(sock.dgrams_in.iter().flat_map(|(.., r)| r)).copied()
    }

    /// The descriptions in flight in the queues of `s` and of the connections it has not accepted.
    pub fn rights_in(&self, s: usize) -> Vec<usize> {
        let pending = self.sockets[s].queue.iter().flatten().flat_map(|&p| self.own_rights(p));
        self.own_rights(s).chain(pending).collect()
    }

    /// Takes the descriptions in flight out of the queues of `s` and of its pending connections
    /// (the bytes stay): what the collector frees with a dead cycle.
    pub fn take_rights(&mut self, s: usize) -> Vec<usize> {
        let sock = &mut self.sockets[s];
        let mut taken: Vec<usize> = sock.rights.drain(..).flat_map(|(_, r)| r).collect();
        taken.extend(sock.dgrams_in.iter_mut().flat_map(|(.., r)| std::mem::take(r)));
        let carried = sock.carried;
        self.dequeued(s, 0, carried);
        for p in self.sockets[s].queue.clone().into_iter().flatten() {
            taken.extend(self.take_rights(p));
        }
        taken
    }

    /// socketpair: two connected AF_UNIX sockets.
    pub fn pair(&mut self, kind: Kind, pid: u32) -> (usize, usize) {
        let a = self.create(Family::Unix, kind, pid);
        let b = self.create(Family::Unix, kind, pid);
        for (s, p) in [(a, b), (b, a)] {
            let sock = &mut self.sockets[s];
            sock.peer = Some(p);
            sock.local = Some(Addr::Unnamed);
            sock.peer_addr = Some(Addr::Unnamed);
        }
        (a, b)
    }

    /// Whether a bound AF_UNIX socket still names the socket file `ino`.
    pub fn uses_inode(&self, ino: Ino) -> bool {
        self.names.contains_key(&Name::Path(ino))
    }

    fn free_port(&mut self, kind: Kind) -> SysResult<u16> {
        let span = (EPHEMERAL.end() - EPHEMERAL.start()) as u32 + 1;
        for _ in 0..span {
            let port = EPHEMERAL.start() + self.next_port % span as u16;
            self.next_port = self.next_port.wrapping_add(1) % span as u16;
            if !self.names.contains_key(&Name::Port(kind, port)) {
                return Ok(port);
            }
        }
        Err(EADDRINUSE)
    }

    pub fn bind(&mut self, s: usize, addr: Addr) -> SysResult<()> {
        let sock = &self.sockets[s];
        if sock.local.is_some() {
            return Err(EINVAL);
        }
        let kind = sock.kind;
        let addr = match addr {
            Addr::Ip(ip, port) => {
                if !is_any(&ip) && !is_loopback(&ip) {
                    return Err(EADDRNOTAVAIL);
                }
                Addr::Ip(ip, if port == 0 { self.free_port(kind)? } else { port })
            }
            a => a,
        };
        let name = addr.name(kind).ok_or(EINVAL)?;
        if self.names.contains_key(&name) {
            return Err(EADDRINUSE);
        }
        self.names.insert(name, s);
        self.sockets[s].local = Some(addr);
        Ok(())
    }

    /// Binds an unbound IP socket to an ephemeral port on `ip` (what connect and sendto do).
    fn autobind(&mut self, s: usize, ip: [u8; 16]) -> SysResult<()> {
        let sock = &self.sockets[s];
        if sock.local.is_some() {
            return Ok(());
        }
        if sock.family == Family::Unix {
            self.sockets[s].local = Some(Addr::Unnamed);
            return Ok(());
        }
        let port = self.free_port(sock.kind)?;
        self.bind(s, Addr::Ip(ip, port))
    }

    pub fn listen(&mut self, s: usize, backlog: i32) -> SysResult<()> {
        let sock = &self.sockets[s];
        if sock.kind != Kind::Stream {
            return Err(EOPNOTSUPP);
        }
        if sock.connected() {
            return Err(EINVAL);
        }
        match sock.local {
            None if sock.family == Family::Unix => return Err(EINVAL),
            None => {
                let any = if sock.family == Family::Inet { mapped_v4([0; 4]) } else { [0; 16] };
                self.autobind(s, any)?;
            }
            _ => {}
        }
        let sock = &mut self.sockets[s];
        sock.backlog = backlog.clamp(0, 4096) as usize;
        sock.queue.get_or_insert_with(VecDeque::new);
        Ok(())
    }

    /// The socket bound to `addr` (for a connect or a datagram), if any.
    fn find(&self, kind: Kind, addr: &Addr) -> Option<usize> {
        let &s = self.names.get(&addr.name(kind)?)?;
        let sock = &self.sockets[s];
        if sock.kind != kind {
            return None;
        }
        if let (Addr::Ip(want, _), Some(Addr::Ip(bound, _))) = (addr, &sock.local) {
            let v4_to_v6only = is_v4(want) && sock.v6only;
            let matches = if is_any(bound) { is_v4(bound) == is_v4(want) || !is_v4(bound) } else { bound == want };
            if !matches || v4_to_v6only {
                return None;
            }
        }
        Some(s)
    }

    /// Connects `s` to `addr`; a stream connection is queued at once on the listener.
    /// Ok(Some(listener)) means the listener's queue is full: wait for room.
    pub fn connect(&mut self, s: usize, addr: Addr) -> SysResult<Option<usize>> {
        let (kind, family) = (self.sockets[s].kind, self.sockets[s].family);
        let addr = match addr {
            Addr::Ip(ip, port) => Addr::Ip(local_target(ip)?, port),
            a => a,
        };
        if kind == Kind::Dgram {
            if family == Family::Unix && self.find(kind, &addr).is_none() {
                return Err(ECONNREFUSED);
            }
            if let Addr::Ip(ip, _) = addr {
                self.autobind(s, ip)?;
            }
            self.sockets[s].peer_addr = Some(addr);
            return Ok(None);
        }
        let sock = &self.sockets[s];
        if sock.connected() {
            return Err(EISCONN);
        }
        if sock.queue.is_some() {
            return Err(EINVAL);
        }
        let listener = self.find(kind, &addr).ok_or(ECONNREFUSED)?;
        let l = &self.sockets[listener];
        if l.queue.is_none() {
            return Err(ECONNREFUSED);
        }
        if !l.has_room() {
            return Ok(Some(listener));
        }
        let (lfamily, lpid) = (l.family, l.pid);
        if let Addr::Ip(ip, _) = addr {
            self.autobind(s, ip)?;
        } else {
            self.autobind(s, [0; 16])?;
        }
        // The listener's end of the connection: named as the address reached, in its own family.
        let server = self.create(lfamily, kind, lpid);
        let client_addr = self.sockets[s].local.clone();
        let server_addr = match (&addr, &self.sockets[listener].local) {
            (Addr::Ip(ip, port), _) => Some(Addr::Ip(*ip, *port)),
            (_, local) => local.clone(),
        };
        let srv = &mut self.sockets[server];
        srv.local = server_addr;
        srv.peer = Some(s);
        srv.peer_addr = client_addr;
        let c = &mut self.sockets[s];
        c.peer = Some(server);
        c.peer_addr = Some(addr);
        self.sockets[listener].queue.as_mut().unwrap().push_back(server);
        Ok(None)
    }

    /// The next connection of a listening socket; None: none has come yet.
    pub fn accept(&mut self, s: usize) -> SysResult<Option<usize>> {
        let q = self.sockets[s].queue.as_mut().ok_or(EINVAL)?;
        Ok(q.pop_front())
    }

    /// Sends `data` from `s` (to `dest`, or where it is connected). `rights` (AF_UNIX only) are
    /// taken when the bytes go; what is left in it afterwards is the caller's to release.
    pub fn send(&mut self, s: usize, data: &[u8], dest: Option<Addr>, rights: &mut Vec<usize>) -> SysResult<Sent> {
        if let Some(e) = self.sockets[s].error.take() {
            return Err(e);
        }
        let sock = &self.sockets[s];
        if sock.shut_write {
            return Err(EPIPE);
        }
        if sock.kind == Kind::Stream {
            if sock.peer_closed {
                return Err(EPIPE);
            }
            let peer = sock.peer.ok_or(ENOTCONN)?;
            let p = &mut self.sockets[peer];
            if p.shut_read {
                return Ok(Sent::Bytes(data.len())); // read side shut: the bytes are dropped
            }
            let room = CAPACITY.saturating_sub(p.queued);
            if room == 0 {
                return Ok(Sent::WaitFor(peer));
            }
            let carried = if data.is_empty() { 0 } else { rights.len() };
            let afford = self.memory.room().saturating_sub((carried * IN_FLIGHT_COST) as u64);
            let n = room.min(data.len()).min(afford.try_into().unwrap_or(usize::MAX));
            if n == 0 && !data.is_empty() {
                return Err(ENOBUFS); // the machine's memory is spent
            }
            let p = &mut self.sockets[peer];
            if carried > 0 {
                p.rights.push_back((p.given, std::mem::take(rights)));
            }
            p.stream_in.extend(&data[..n]);
            p.given += n as u64;
            self.enqueued(peer, n, carried);
            return Ok(Sent::Bytes(n));
        }
        self.send_datagram(s, data, dest, rights)
    }

    fn send_datagram(&mut self, s: usize, data: &[u8], dest: Option<Addr>, rights: &mut Vec<usize>) -> SysResult<Sent> {
        let sock = &self.sockets[s];
        let connected = dest.is_none();
        let (to, dest) = match (dest, sock.peer, &sock.peer_addr) {
            (Some(Addr::Ip(ip, port)), ..) => {
                let ip = local_target(ip)?;
                (self.find(Kind::Dgram, &Addr::Ip(ip, port)), Addr::Ip(ip, port))
            }
            (Some(a), ..) => (Some(self.find(Kind::Dgram, &a).ok_or(ECONNREFUSED)?), a),
            (None, Some(p), _) => (Some(p), Addr::Unnamed),
            (None, None, Some(a)) => (self.find(Kind::Dgram, a), a.clone()),
            (None, None, None) => return Err(if sock.family == Family::Unix { ENOTCONN } else { EDESTADDRREQ }),
        };
        let limit = if sock.family == Family::Unix { CAPACITY } else { MAX_UDP };
        if data.len() > limit {
            return Err(EMSGSIZE);
        }
        if let Addr::Ip(ip, _) = dest {
            self.autobind(s, ip)?;
        }
        let Some(to) = to else {
            if self.sockets[s].family == Family::Unix {
                return Err(ECONNREFUSED);
            }
            // No one listens on that port: the datagram is lost, and a connected socket hears
            // of it (Linux's ICMP port unreachable), as resolvers expect.
            if connected {
                self.sockets[s].error = Some(ECONNREFUSED);
            }
            return Ok(Sent::Bytes(data.len()));
        };
        let from = self.sockets[s].local.clone().unwrap_or(Addr::Unnamed);
        let r = &mut self.sockets[to];
        if r.shut_read {
            return Ok(Sent::Bytes(data.len()));
        }
        if !r.has_room() {
            if r.family == Family::Unix {
                return Ok(Sent::WaitFor(to));
            }
            return Ok(Sent::Bytes(data.len())); // a full UDP queue drops, as Linux does
        }
        let bytes = data.len() + DATAGRAM_OVERHEAD;
        if bytes as u64 + (rights.len() * IN_FLIGHT_COST) as u64 > self.memory.room() {
            return Err(ENOBUFS);
        }
        let carried = rights.len();
        r.dgrams_in.push_back((data.to_vec(), from, std::mem::take(rights)));
        self.enqueued(to, bytes, carried);
        Ok(Sent::Bytes(data.len()))
    }

    /// Receives up to `len` bytes (one datagram); None: nothing yet, wait. A stream read stops where
    /// bytes sent with descriptions begin, and takes those descriptions when it starts there (not
    /// when it only peeks), as Linux keeps each send's rights with its bytes.
    pub fn recv(&mut self, s: usize, len: usize, peek: bool) -> SysResult<Option<Received>> {
        let sock = &mut self.sockets[s];
        if let Some(e) = sock.error.take() {
            return Err(e);
        }
        if sock.queue.is_some() {
            return Err(ENOTCONN);
        }
        if sock.kind == Kind::Stream {
            if sock.stream_in.is_empty() {
                if sock.eof || sock.shut_read {
                    return Ok(Some(Received::end()));
                }
                if !sock.connected() {
                    return Err(ENOTCONN);
                }
                return Ok(None);
            }
            let mut n = len.min(sock.stream_in.len());
            let mut rights = vec![];
            if let Some(&(at, _)) = sock.rights.front() {
                if at == sock.taken && !peek {
                    rights = sock.rights.pop_front().unwrap().1;
                }
                let boundary = sock.rights.front().map(|&(at, _)| at).filter(|&at| at > sock.taken);
                if let Some(at) = boundary {
                    n = n.min((at - sock.taken) as usize);
                }
            }
            let data: Vec<u8> =
                if peek { sock.stream_in.iter().take(n).copied().collect() } else { sock.stream_in.drain(..n).collect() };
            if !peek {
                sock.taken += n as u64;
                self.dequeued(s, n, rights.len());
            }
            return Ok(Some(Received { data, from: None, full_len: n, rights }));
        }
        let next = if peek {
            sock.dgrams_in.front().map(|(d, from, _)| (d.clone(), from.clone(), vec![]))
        } else {
            sock.dgrams_in.pop_front()
        };
        let Some((d, from, rights)) = next else {
            return Ok(if sock.shut_read { Some(Received::end()) } else { None });
        };
        let full_len = d.len();
        if !peek {
            self.dequeued(s, full_len + DATAGRAM_OVERHEAD, rights.len());
        }
        Ok(Some(Received { data: d[..len.min(full_len)].to_vec(), from: Some(from), full_len, rights }))
    }

    /// shutdown: 0 reading, 1 writing, 2 both.
    pub fn shutdown(&mut self, s: usize, how: u64) -> SysResult<()> {
        if how > 2 {
            return Err(EINVAL);
        }
        let sock = &mut self.sockets[s];
        if sock.kind == Kind::Stream && !sock.connected() {
            return Err(ENOTCONN);
        }
        if how != 1 {
            sock.shut_read = true;
        }
        if how != 0 {
            sock.shut_write = true;
            if let Some(p) = sock.peer {
                if sock.kind == Kind::Stream {
                    self.sockets[p].eof = true;
                }
            }
        }
        Ok(())
    }

    /// (readable, writable, hung up, error) as poll sees them.
    pub fn poll(&self, s: usize) -> (bool, bool, bool, bool) {
        let sock = &self.sockets[s];
        let err = sock.error.is_some();
        if let Some(q) = &sock.queue {
            return (!q.is_empty(), false, false, err);
        }
        let readable = !sock.stream_in.is_empty() || !sock.dgrams_in.is_empty() || sock.eof || sock.shut_read || err;
        let writable = match (sock.kind, sock.peer) {
            _ if sock.shut_write || sock.peer_closed || err => true,
            (Kind::Stream, Some(p)) => self.sockets[p].has_room(),
            (Kind::Stream, None) => false,
            (Kind::Dgram, Some(p)) => self.sockets[p].has_room(),
            (Kind::Dgram, None) => true,
        };
        let hung_up = (sock.eof && sock.shut_write) || (sock.peer_closed && sock.family == Family::Unix);
        (readable, writable, hung_up, err)
    }

    /// Whether a sender waiting for room in `s` (or for a connection to listener `s`) may try again.
    pub fn room_or_gone(&self, s: usize) -> bool {
        self.sockets.get(s).is_none_or(|k| k.has_room())
    }

    /// Whether a reader (or accept) waiting on `s` may try again.
    pub fn readable_or_gone(&self, s: usize) -> bool {
        self.sockets.get(s).is_none() || self.poll(s).0
    }

    /// A connection from the host to guest port `port` (a forward): the client end, held by the host.
    pub fn host_connect(&mut self, port: u16) -> SysResult<usize> {
        let s = self.create(Family::Inet, Kind::Stream, 0);
        match self.connect(s, Addr::Ip(mapped_v4([127, 0, 0, 1]), port)) {
            Ok(None) => {
                self.host_held.insert(s);
                Ok(s)
            }
            Ok(Some(_)) => {
                self.close(s);
                Err(ECONNREFUSED) // the listener's queue is full
            }
            Err(e) => {
                self.close(s);
                Err(e)
            }
        }
    }

    fn held(&self, s: usize) -> SysResult<usize> {
        if self.host_held.contains(&s) {
            Ok(s)
        } else {
            Err(EBADF)
        }
    }

    /// Bytes from the host into a forwarded connection: how many fit now.
    pub fn host_send(&mut self, s: usize, data: &[u8]) -> SysResult<usize> {
        match self.send(self.held(s)?, data, None, &mut vec![]) {
            Ok(Sent::Bytes(n)) => Ok(n),
            Ok(Sent::WaitFor(_)) => Ok(0),
            Err(e) if e == ENOBUFS => Ok(0), // the machine's memory is spent: try again later
            Err(e) => Err(e),
        }
    }

    /// What the guest sent on a forwarded connection, and whether it has ended.
    pub fn host_recv(&mut self, s: usize, max: usize) -> SysResult<(Vec<u8>, bool)> {
        match self.recv(self.held(s)?, max, false)? {
            Some(r) => {
                let ended = r.data.is_empty();
                Ok((r.data, ended))
            }
            None => Ok((vec![], false)),
        }
    }

    /// The host is done with a forwarded connection: `write_only` shuts down its sending side.
    pub fn host_close(&mut self, s: usize, write_only: bool) -> SysResult<()> {
        self.held(s)?;
        if write_only {
            return self.shutdown(s, 1);
        }
        self.host_held.remove(&s);
        self.close(s);
        Ok(())
    }

    /// Whether something outside the machine may still wake it: a forwarded connection is open,
    /// or a guest server listens on a forwarded port.
    pub fn waits_on_outside(&self) -> bool {
        !self.host_held.is_empty()
            || self.sockets.iter().any(|(_, k)| {
                k.queue.is_some() && matches!(k.local, Some(Addr::Ip(_, p)) if self.forwarded.contains(&p))
            })
    }

    /// The last descriptor of `s` closed: its names are freed, its peer sees end of file, and the
    /// connections it had not accepted are closed. Returns the descriptions that were on their way
    /// through it (SCM_RIGHTS), for the caller to release.
    pub fn close(&mut self, s: usize) -> Vec<usize> {
        let (queued, carried) = (self.sockets[s].queued, self.sockets[s].carried);
        self.dequeued(s, queued, carried);
        let sock = self.sockets.remove(s);
        let mut in_flight: Vec<usize> = sock.rights.into_iter().flat_map(|(_, r)| r).collect();
        in_flight.extend(sock.dgrams_in.into_iter().flat_map(|(.., r)| r));
        if let Some(name) = sock.local.as_ref().and_then(|a| a.name(sock.kind)) {
            if self.names.get(&name) == Some(&s) {
                self.names.remove(&name);
            }
        }
        if let Some(p) = sock.peer {
            if let Some(peer) = self.sockets.get_mut(p) {
                if peer.peer == Some(s) {
                    peer.peer = None;
                    if peer.kind == Kind::Stream {
                        peer.peer_closed = true;
                        peer.eof = true;
                    }
                }
            }
        }
        for pending in sock.queue.into_iter().flatten() {
            in_flight.extend(self.close(pending));
        }
        in_flight
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(port: u16) -> Addr {
        Addr::Ip(mapped_v4([127, 0, 0, 1]), port)
    }

    #[test]
    fn a_stream_connection_carries_bytes_both_ways_and_ends_in_eof() {
        let mut net = Net::default();
        let server = net.create(Family::Inet, Kind::Stream, 1);
        net.bind(server, Addr::Ip(mapped_v4([0; 4]), 8080)).unwrap();
        net.listen(server, 5).unwrap();
        let client = net.create(Family::Inet, Kind::Stream, 1);
        assert!(net.connect(client, v4(8080)).unwrap().is_none());
        let conn = net.accept(server).unwrap().unwrap();
        assert!(matches!(net.send(client, b"hi", None, &mut vec![]).unwrap(), Sent::Bytes(2)));
        assert_eq!(net.recv(conn, 10, false).unwrap().unwrap().data, b"hi");
        assert!(net.recv(conn, 10, false).unwrap().is_none(), "nothing more yet: a reader waits");
        net.close(client);
        assert_eq!(net.recv(conn, 10, false).unwrap().unwrap().data, b"", "end of file");
        assert_eq!(net.send(conn, b"x", None, &mut vec![]).err(), Some(EPIPE));
        let Some(Addr::Ip(_, port)) = net.sockets[conn].peer_addr else { panic!() };
        assert!(EPHEMERAL.contains(&port), "the client was given an ephemeral port");
    }

    #[test]
    fn nothing_listening_is_refused_and_only_loopback_is_reachable() {
        let mut net = Net::default();
        let s = net.create(Family::Inet, Kind::Stream, 1);
        assert_eq!(net.connect(s, v4(9)).err(), Some(ECONNREFUSED));
        assert_eq!(net.connect(s, Addr::Ip(mapped_v4([8, 8, 8, 8]), 53)).err(), Some(ENETUNREACH));
        assert_eq!(net.bind(s, Addr::Ip(mapped_v4([10, 0, 0, 1]), 80)).err(), Some(EADDRNOTAVAIL));
    }

    #[test]
    fn an_ipv6_wildcard_listener_takes_ipv4_connections_unless_v6only() {
        let mut net = Net::default();
        let l = net.create(Family::Inet6, Kind::Stream, 1);
        net.bind(l, Addr::Ip([0; 16], 80)).unwrap();
        net.listen(l, 1).unwrap();
        let c = net.create(Family::Inet, Kind::Stream, 1);
        net.connect(c, v4(80)).unwrap();
        let conn = net.accept(l).unwrap().unwrap();
        assert!(matches!(&net.sockets[conn].peer_addr, Some(Addr::Ip(ip, _)) if is_v4(ip)));
        net.sockets[l].v6only = true;
        let c2 = net.create(Family::Inet, Kind::Stream, 1);
        assert_eq!(net.connect(c2, v4(80)).err(), Some(ECONNREFUSED));
    }

    #[test]
    fn a_port_is_taken_until_its_socket_closes() {
        let mut net = Net::default();
        let a = net.create(Family::Inet, Kind::Dgram, 1);
        net.bind(a, v4(5353)).unwrap();
        let b = net.create(Family::Inet, Kind::Dgram, 1);
        assert_eq!(net.bind(b, v4(5353)).err(), Some(EADDRINUSE));
        net.close(a);
        net.bind(b, v4(5353)).unwrap();
    }

    #[test]
    fn datagrams_keep_their_boundaries_and_sender() {
        let mut net = Net::default();
        let r = net.create(Family::Inet, Kind::Dgram, 1);
        net.bind(r, v4(7000)).unwrap();
        let s = net.create(Family::Inet, Kind::Dgram, 1);
        net.send(s, b"one", Some(v4(7000)), &mut vec![]).unwrap();
        net.send(s, b"two!", Some(v4(7000)), &mut vec![]).unwrap();
        let got = net.recv(r, 2, false).unwrap().unwrap();
        assert_eq!((got.data.as_slice(), got.full_len), (&b"on"[..], 3), "a short read truncates one datagram");
        assert_eq!(got.from, net.sockets[s].local);
        assert_eq!(net.recv(r, 10, false).unwrap().unwrap().data, b"two!");
    }

    #[test]
    fn a_connected_udp_socket_hears_that_no_one_listens() {
        let mut net = Net::default();
        let s = net.create(Family::Inet, Kind::Dgram, 1);
        net.connect(s, v4(53)).unwrap();
        assert!(matches!(net.send(s, b"query", None, &mut vec![]).unwrap(), Sent::Bytes(5)));
        assert!(net.poll(s).3, "the error shows in poll");
        assert_eq!(net.recv(s, 512, false).err(), Some(ECONNREFUSED));
    }

    #[test]
    fn a_full_stream_makes_the_writer_wait_for_its_peer() {
        let mut net = Net::default();
        let (a, b) = net.pair(Kind::Stream, 1);
        let big = vec![7u8; CAPACITY + 10];
        assert!(matches!(net.send(a, &big, None, &mut vec![]).unwrap(), Sent::Bytes(n) if n == CAPACITY));
        assert!(matches!(net.send(a, b"x", None, &mut vec![]).unwrap(), Sent::WaitFor(p) if p == b));
        assert!(!net.poll(a).1 && !net.room_or_gone(b));
        net.recv(b, 100, false).unwrap();
        assert!(net.poll(a).1 && net.room_or_gone(b));
    }

    #[test]
    fn the_host_reaches_a_forwarded_port_only_through_a_held_connection() {
        let mut net = Net::default();
        assert_eq!(net.host_connect(8080).err(), Some(ECONNREFUSED));
        let l = net.create(Family::Inet6, Kind::Stream, 1);
        net.bind(l, Addr::Ip([0; 16], 8080)).unwrap();
        net.listen(l, 4).unwrap();
        net.forwarded.insert(8080);
        assert!(net.waits_on_outside(), "a server on a forwarded port waits for the host");
        let h = net.host_connect(8080).unwrap();
        let conn = net.accept(l).unwrap().unwrap();
        assert_eq!(net.host_send(h, b"GET /").unwrap(), 5);
        assert_eq!(net.recv(conn, 64, false).unwrap().unwrap().data, b"GET /");
        net.send(conn, b"200", None, &mut vec![]).unwrap();
        assert_eq!(net.host_recv(h, 64).unwrap(), (b"200".to_vec(), false));
        net.close(conn);
        assert_eq!(net.host_recv(h, 64).unwrap(), (vec![], true));
        assert_eq!(net.host_send(conn, b"x").err(), Some(EBADF), "only held sockets are the host's");
        net.host_close(h, false).unwrap();
        net.close(l);
        assert!(!net.waits_on_outside());
    }

    #[test]
    fn descriptions_passed_with_bytes_come_out_with_those_bytes() {
        let mut net = Net::default();
        let (a, b) = net.pair(Kind::Stream, 1);
        net.send(a, b"plain", None, &mut vec![]).unwrap();
        let mut rights = vec![40, 41];
        net.send(a, b"with", None, &mut rights).unwrap();
        assert!(rights.is_empty(), "taken with the bytes");
        let first = net.recv(b, 100, false).unwrap().unwrap();
        assert_eq!((first.data.as_slice(), first.rights.len()), (&b"plain"[..], 0), "a read stops where they begin");
        assert!(net.recv(b, 100, true).unwrap().unwrap().rights.is_empty(), "a peek does not take them");
        let second = net.recv(b, 100, false).unwrap().unwrap();
        assert_eq!((second.data.as_slice(), second.rights), (&b"with"[..], vec![40, 41]));
        let (c, d) = net.pair(Kind::Dgram, 1);
        net.send(c, b"x", None, &mut vec![7]).unwrap();
        assert_eq!(net.close(d), vec![7], "a closed socket gives back what was on its way");
    }

    #[test]
    fn closing_a_listener_closes_what_it_had_not_accepted() {
        let mut net = Net::default();
        let l = net.create(Family::Unix, Kind::Stream, 1);
        net.bind(l, Addr::Abstract(b"srv".to_vec())).unwrap();
        net.listen(l, 0).unwrap();
        let c = net.create(Family::Unix, Kind::Stream, 1);
        net.connect(c, Addr::Abstract(b"srv".to_vec())).unwrap();
        let c2 = net.create(Family::Unix, Kind::Stream, 1);
        assert_eq!(net.connect(c2, Addr::Abstract(b"srv".to_vec())).unwrap(), Some(l), "backlog 0 holds one: wait");
        net.close(l);
        assert_eq!(net.recv(c, 1, false).unwrap().unwrap().data, b"");
        assert_eq!(net.connect(c2, Addr::Abstract(b"srv".to_vec())).err(), Some(ECONNREFUSED));
    }

    /// Random sequences of every operation, from any state: no panic, and the table stays whole
    /// (names lead to live sockets bound to them, connected peers point at each other).
    #[test]
    fn random_operations_keep_the_table_whole() {
        let mut next = crate::arm64::linux::random_ops::below(0x5eed_u64);
        for _ in 0..200 {
            let mut net = Net::default();
            let mut live: Vec<usize> = vec![];
            for _ in 0..60 {
                let pick = |k: u64, live: &Vec<usize>| live.get(k as usize % live.len().max(1)).copied();
                let target = match next(4) {
                    0 => v4(7000 + next(3) as u16),
                    1 => Addr::Abstract(vec![b'a' + next(3) as u8]),
                    2 => Addr::Ip([0; 16], 7000 + next(3) as u16),
                    _ => Addr::Ip(mapped_v4([10, 0, 0, 1]), 80),
                };
                let s = pick(next(64), &live);
                match (next(12), s) {
                    (0 | 1, _) => {
                        let family = [Family::Unix, Family::Inet, Family::Inet6][next(3) as usize];
                        live.push(net.create(family, [Kind::Stream, Kind::Dgram][next(2) as usize], 1));
                    }
                    (2, _) => {
                        let (a, b) = net.pair([Kind::Stream, Kind::Dgram][next(2) as usize], 1);
                        live.extend([a, b]);
                    }
                    (3, Some(s)) => drop(net.bind(s, target)),
                    (4, Some(s)) => drop(net.listen(s, next(3) as i32)),
                    (5, Some(s)) => drop(net.connect(s, target)),
                    (6, Some(s)) => {
                        if let Ok(Some(c)) = net.accept(s) {
                            live.push(c);
                        }
                    }
                    (7, Some(s)) => drop(net.send(s, &vec![7u8; next(300_000) as usize], Some(target), &mut vec![])),
                    (8, Some(s)) => drop(net.recv(s, next(100) as usize, next(2) == 0)),
                    (9, Some(s)) => drop(net.shutdown(s, next(4))),
                    (10, Some(s)) => {
                        net.close(s);
                        live.retain(|&x| x != s);
                        live.retain(|&x| net.sockets.get(x).is_some()); // queued connections went too
                    }
                    (11, Some(s)) => drop(net.poll(s)),
                    _ => {}
                }
                for (name, &s) in &net.names {
                    let sock = net.sockets.get(s).expect("a name leads to a live socket");
                    assert_eq!(sock.local.as_ref().and_then(|a| a.name(sock.kind)).as_ref(), Some(name));
                }
                for (s, sock) in net.sockets.iter() {
                    if let Some(p) = sock.peer {
                        assert_eq!(net.sockets.get(p).and_then(|q| q.peer), Some(s), "peers point at each other");
                    }
                }
            }
        }
    }
}
