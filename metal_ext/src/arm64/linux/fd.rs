//! Open file descriptions (shared by dup and fork, holding the offset), pipes, the terminal's
//! standard streams, sockets and per-process descriptor tables.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use super::errno::*;
use super::inode::{DirEntry, Device, Ino};
use super::slab::Slab;
use super::socket::Net;
use super::vfs::{Loc, Walk};

pub const O_ACCMODE: u32 = 3;
pub const O_WRONLY: u32 = 1;
pub const O_RDWR: u32 = 2;
pub const O_CREAT: u32 = 0o100;
pub const O_EXCL: u32 = 0o200;
pub const O_TRUNC: u32 = 0o1000;
pub const O_APPEND: u32 = 0o2000;
pub const O_NONBLOCK: u32 = 0o4000;
pub const O_DIRECTORY: u32 = 0o40000;
pub const O_NOFOLLOW: u32 = 0o100000;
pub const O_CLOEXEC: u32 = 0o2000000;
pub const O_PATH: u32 = 0o10000000;
/// Flags F_SETFL may change.
pub const SETFL_MASK: u32 = O_APPEND | O_NONBLOCK;

/// Bytes a pipe holds before writers wait (Linux's default).
pub const PIPE_CAPACITY: usize = 65536;
/// Host memory charged for one descriptor an epoll instance watches (Linux's epitem).
pub const EPOLL_ENTRY_COST: u64 = 128;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdin,
    Stdout,
    Stderr,
}

#[derive(Clone, Debug)]
pub enum FileKind {
    /// A regular file of the in-memory tree.
    Mem(Ino),
    /// A regular file in a mounted host folder.
    Host { file: Arc<std::fs::File>, mount: usize, rel: std::path::PathBuf },
    /// A directory; its entries are listed at the first getdents and read from there.
    Dir { walk: Walk, entries: Option<Vec<DirEntry>> },
    Device(Device, Ino),
    /// A /proc file, its bytes computed at open.
    Generated(Arc<Vec<u8>>),
    PipeRead(usize),
    PipeWrite(usize),
    Terminal(Stream),
    /// A socket (socket.rs), by its index in `Files::net`.
    Socket(usize),
    /// An epoll instance: descriptor → what it watches.
    Epoll(BTreeMap<i32, Interest>),
}

/// One descriptor an epoll instance watches: the description it named when added, the events
/// asked for, and the data reported with them.
#[derive(Clone, Copy, Debug)]
pub struct Interest {
    pub file: usize,
    pub events: u32,
    pub data: u64,
}

#[derive(Clone, Debug)]
pub struct OpenFile {
    pub kind: FileKind,
    pub flags: u32,
    pub offset: u64,
    /// The guest path it was opened as (for /proc/PID/fd).
    pub path: String,
    /// Descriptors (in every process) referring to this description.
    pub refs: u32,
}

impl FileKind {
    /// Where in the filesystem the description's file is (for fstat, fchmod, futimens).
    pub fn loc(&self) -> Option<Loc> {
        match self {
            FileKind::Mem(ino) | FileKind::Device(_, ino) => Some(Loc::Mem(*ino)),
            FileKind::Host { mount, rel, .. } => Some(Loc::Host { mount: *mount, rel: rel.clone() }),
            FileKind::Dir { walk, .. } => Some(walk.loc.clone()),
            _ => None,
        }
    }
}

impl OpenFile {
    pub fn new(kind: FileKind, flags: u32, path: String) -> Self {
        OpenFile { kind, flags, offset: 0, path, refs: 0 }
    }

    pub fn readable(&self) -> bool {
        self.flags & O_ACCMODE != O_WRONLY && self.flags & O_PATH == 0
    }

    pub fn writable(&self) -> bool {
        matches!(self.flags & O_ACCMODE, O_WRONLY | O_RDWR) && self.flags & O_PATH == 0
    }
}

/// The named pipe a pipe buffer belongs to: an in-memory FIFO, or a FIFO in a mounted host folder
/// (by its host inode). Guest ends meet in the buffer; host processes never reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FifoKey {
    Mem(Ino),
    Host { mount: usize, ino: u64 },
}

#[derive(Clone, Debug, Default)]
pub struct Pipe {
    pub buffer: VecDeque<u8>,
    pub readers: u32,
    pub writers: u32,
    /// The named pipe this is the buffer of, while any end is open.
    pub fifo: Option<FifoKey>,
    /// For a FIFO: whether each end has been opened. Opening a FIFO does not wait for the other
    /// end here; instead a reader waits for a first writer rather than seeing end-of-file, and a
    /// writer waits for a first reader rather than getting EPIPE, which looks the same.
    pub had_reader: bool,
    pub had_writer: bool,
}

impl Pipe {
    /// A read finds end-of-file: no writer is left (and, for a FIFO, one has come and gone).
    pub fn at_eof(&self) -> bool {
        self.writers == 0 && (self.fifo.is_none() || self.had_writer)
    }

    /// A write would break the pipe: no reader is left (for a FIFO: one has come and gone).
    pub fn broken(&self) -> bool {
        self.readers == 0 && (self.fifo.is_none() || self.had_reader)
    }

    /// Bytes a write may add now (none to a FIFO no reader has opened yet).
    pub fn room(&self) -> usize {
        if self.fifo.is_some() && !self.had_reader {
            0
        } else {
            PIPE_CAPACITY.saturating_sub(self.buffer.len())
        }
    }
}

/// The guest's terminal: stdin fed by the user, stdout and stderr collected for the user.
#[derive(Clone, Debug, Default)]
pub struct Terminal {
    pub stdin: VecDeque<u8>,
    pub stdin_closed: bool,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

#[derive(Clone, Copy, Debug)]
pub struct Descriptor {
    pub file: usize,
    pub cloexec: bool,
}

/// One process's descriptors: number → open file description.
#[derive(Clone, Debug, Default)]
pub struct FdTable {
    pub fds: BTreeMap<i32, Descriptor>,
}

/// Descriptor numbers stop here (RLIMIT_NOFILE).
pub const MAX_FDS: i32 = 1024;

impl FdTable {
    pub fn get(&self, fd: i32) -> SysResult<Descriptor> {
        self.fds.get(&fd).copied().ok_or(EBADF)
    }

    /// Lowest free number at or above `min`.
    pub fn lowest_free(&self, min: i32) -> SysResult<i32> {
        let mut n = min;
        for &k in self.fds.range(min..).map(|(k, _)| k) {
            if k != n {
                break;
            }
            n += 1;
        }
        if n >= MAX_FDS {
            Err(EMFILE)
        } else {
            Ok(n)
        }
    }
}

/// All open file descriptions and pipes of the machine, with reference counting.
#[derive(Clone, Debug, Default)]
pub struct Files {
    pub open: Slab<OpenFile>,
    pub pipes: Slab<Pipe>,
    /// Named pipe → its pipe buffer, while any end is open.
    pub fifos: std::collections::HashMap<FifoKey, usize>,
    pub net: Net,
    /// The open descriptions that are epoll instances (a closing description leaves their sets).
    pub epolls: std::collections::BTreeSet<usize>,
    /// References to open descriptions, by descriptors and in flight.
    pub references: usize,
}

impl Files {
    pub fn add(&mut self, file: OpenFile) -> usize {
        let epoll = matches!(file.kind, FileKind::Epoll(_));
        let f = self.open.insert(file);
        if epoll {
            self.epolls.insert(f);
        }
        f
    }

    /// A new descriptor (in any table) now refers to `file`.
    pub fn retain(&mut self, file: usize) {
        let f = &mut self.open[file];
        f.refs += 1;
        self.references += 1;
        if f.refs == 1 {
            match f.kind {
                FileKind::PipeRead(p) => {
                    self.pipes[p].readers += 1;
                    self.pipes[p].had_reader = true;
                }
                FileKind::PipeWrite(p) => {
                    self.pipes[p].writers += 1;
                    self.pipes[p].had_writer = true;
                }
                _ => {}
            }
        }
    }

    /// A descriptor referring to `file` was closed. Descriptions in flight in a closing socket
    /// are released in turn, by a loop rather than recursion: a chain of sockets each sent inside
    /// the next may be as long as the guest likes.
    pub fn release(&mut self, file: usize) {
        self.drop_refs(vec![file]);
        let net = &self.net;
        let only_in_flight = self.references == net.in_flight; // no descriptor is left at all
        if net.gc_pending && (net.in_flight >= 2 * net.gc_floor || only_in_flight) {
            self.collect_cycles();
        }
    }

    /// Drops one reference to each of `work`, and to what closing them lets go.
    pub(super) fn drop_refs(&mut self, mut work: Vec<usize>) {
        while let Some(file) = work.pop() {
            let f = &mut self.open[file];
            f.refs -= 1;
            self.references -= 1;
            if f.refs > 0 {
                self.net.gc_pending |= matches!(f.kind, FileKind::Socket(_));
                continue;
            }
            let removed = self.open.remove(file);
            self.epolls.remove(&file);
            // Linux drops a description from every epoll set when its last reference goes.
            for &ep in &self.epolls {
                if let FileKind::Epoll(set) = &mut self.open[ep].kind {
                    let before = set.len();
                    set.retain(|_, i| i.file != file);
                    self.net.memory.release((before - set.len()) as u64 * EPOLL_ENTRY_COST);
                }
            }
            let pipe = match removed.kind {
                FileKind::PipeRead(p) => {
                    self.pipes[p].readers -= 1;
                    Some(p)
                }
                FileKind::PipeWrite(p) => {
                    self.pipes[p].writers -= 1;
                    Some(p)
                }
                FileKind::Socket(s) => {
                    work.extend(self.net.close(s)); // descriptions still on their way through it
                    None
                }
                FileKind::Epoll(set) => {
                    self.net.memory.release(set.len() as u64 * EPOLL_ENTRY_COST);
                    None
                }
                _ => None,
            };
            if let Some(p) = pipe {
                if self.pipes[p].readers == 0 && self.pipes[p].writers == 0 {
                    let pipe = self.pipes.remove(p);
                    self.net.memory.release(pipe.buffer.len() as u64);
                    if let Some(key) = pipe.fifo {
                        self.fifos.remove(&key);
                    }
                }
            }
        }
    }

    /// Installs `file` as the lowest free descriptor ≥ `min` in `table`.
    pub fn install(&mut self, table: &mut FdTable, file: usize, min: i32, cloexec: bool) -> SysResult<i32> {
        let fd = table.lowest_free(min)?;
        self.retain(file);
        table.fds.insert(fd, Descriptor { file, cloexec });
        Ok(fd)
    }

    /// Puts `file` at exactly `fd`, closing what was there.
    pub fn install_at(&mut self, table: &mut FdTable, fd: i32, file: usize, cloexec: bool) -> SysResult<()> {
        if !(0..MAX_FDS).contains(&fd) {
            return Err(EBADF);
        }
        self.retain(file);
        if let Some(old) = table.fds.insert(fd, Descriptor { file, cloexec }) {
            self.release(old.file);
        }
        Ok(())
    }

    pub fn close(&mut self, table: &mut FdTable, fd: i32) -> SysResult<()> {
        let d = table.fds.remove(&fd).ok_or(EBADF)?;
        self.release(d.file);
        Ok(())
    }

    pub fn close_all(&mut self, table: &mut FdTable) {
        for (_, d) in std::mem::take(&mut table.fds) {
            self.release(d.file);
        }
    }

    /// A copy of `table` for a forked child: same descriptions, one more reference each.
    pub fn fork_table(&mut self, table: &FdTable) -> FdTable {
        for d in table.fds.values() {
            self.retain(d.file);
        }
        table.clone()
    }

    /// Whether an open description (or a FIFO's pipe) still uses the in-memory inode `ino`.
    pub fn uses_inode(&self, ino: Ino) -> bool {
        self.fifos.contains_key(&FifoKey::Mem(ino))
            || self.net.uses_inode(ino)
            || self.open.iter().any(|(_, f)| match &f.kind {
                FileKind::Mem(i) | FileKind::Device(_, i) => *i == ino,
                FileKind::Dir { walk, .. } => walk.loc == Loc::Mem(ino),
                _ => false,
            })
    }

    /// The pipe of a named pipe, made when the first end opens; `flags` pick the end.
    pub fn open_fifo(&mut self, key: FifoKey, flags: u32) -> SysResult<FileKind> {
        let p = match self.fifos.get(&key) {
            Some(&p) => p,
            None => {
                let p = self.pipes.insert(Pipe { fifo: Some(key), ..Pipe::default() });
                self.fifos.insert(key, p);
                p
            }
        };
        match flags & O_ACCMODE {
            O_WRONLY => Ok(FileKind::PipeWrite(p)),
            O_RDWR => Err(EINVAL),
            _ => Ok(FileKind::PipeRead(p)),
        }
    }

    /// A new pipe: (read description, write description), not yet referenced by descriptors.
    pub fn new_pipe(&mut self, flags: u32) -> (usize, usize) {
        let p = self.pipes.insert(Pipe::default());
        let status = flags & O_NONBLOCK;
        let r = self.add(OpenFile::new(FileKind::PipeRead(p), status, format!("pipe:[{p}]")));
        let w = self.add(OpenFile::new(FileKind::PipeWrite(p), O_WRONLY | status, format!("pipe:[{p}]")));
        (r, w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipe_ends_are_counted_across_dup_and_fork() {
        let mut files = Files::default();
        let mut table = FdTable::default();
        let (r, w) = files.new_pipe(0);
        let rfd = files.install(&mut table, r, 0, false).unwrap();
        let wfd = files.install(&mut table, w, 0, false).unwrap();
        assert_eq!((rfd, wfd), (0, 1));
        let p = match files.open[r].kind {
            FileKind::PipeRead(p) => p,
            _ => unreachable!(),
        };
        let mut child = files.fork_table(&table);
        files.install_at(&mut child, 5, w, true).unwrap();
        assert_eq!((files.pipes[p].readers, files.pipes[p].writers), (1, 1));
        assert_eq!(files.open[w].refs, 3);
        files.close(&mut table, wfd).unwrap();
        files.close_all(&mut child);
        assert_eq!(files.pipes[p].writers, 0, "every write end closed: readers see EOF");
        assert_eq!(files.pipes[p].readers, 1);
        files.close(&mut table, rfd).unwrap();
        assert!(files.pipes.get(p).is_none());
        assert_eq!(files.close(&mut table, rfd).unwrap_err(), EBADF);
    }

    #[test]
    fn a_fifo_waits_for_its_first_reader_and_writer() {
        let mut files = Files::default();
        let mut table = FdTable::default();
        let FileKind::PipeWrite(p) = files.open_fifo(FifoKey::Mem(7), O_WRONLY).unwrap() else { panic!() };
        assert!(matches!(files.open_fifo(FifoKey::Mem(7), 0), Ok(FileKind::PipeRead(q)) if q == p));
        let w = files.add(OpenFile::new(FileKind::PipeWrite(p), O_WRONLY, "fifo".into()));
        let wfd = files.install(&mut table, w, 0, false).unwrap();
        let pipe = &files.pipes[p];
        assert!(pipe.room() == 0 && !pipe.broken(), "no reader yet: the writer waits");
        let r = files.add(OpenFile::new(FileKind::PipeRead(p), 0, "fifo".into()));
        let rfd = files.install(&mut table, r, 0, false).unwrap();
        assert_eq!(files.pipes[p].room(), PIPE_CAPACITY);
        files.close(&mut table, wfd).unwrap();
        assert!(files.pipes[p].at_eof(), "the writer came and went: end of file");
        files.close(&mut table, rfd).unwrap();
        assert!(files.pipes.get(p).is_none() && files.fifos.is_empty());
    }

    #[test]
    fn lowest_free_descriptor() {
        let mut files = Files::default();
        let mut table = FdTable::default();
        let (r, _) = files.new_pipe(0);
        for _ in 0..3 {
            files.install(&mut table, r, 0, false).unwrap();
        }
        files.close(&mut table, 1).unwrap();
        assert_eq!(files.install(&mut table, r, 0, false).unwrap(), 1);
        assert_eq!(files.install(&mut table, r, 10, false).unwrap(), 10);
        assert_eq!(table.lowest_free(0).unwrap(), 3);
    }
}
