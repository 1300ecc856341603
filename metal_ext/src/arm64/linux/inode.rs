//! The inode vocabulary shared by the in-memory tree (vfs.rs), host mounts (hostfs.rs) and
//! /proc (procfs.rs): file types, what an inode holds, and what stat and getdents report. It
//! lives apart from `Vfs` so that those three can all use it without importing one another.

use std::collections::BTreeMap;
use std::sync::Arc;

/// An inode's number in the in-memory tree (its index in `Vfs`'s table).
pub type Ino = usize;

pub const S_IFMT: u32 = 0o170000;
pub const S_IFIFO: u32 = 0o010000;
pub const S_IFCHR: u32 = 0o020000;
pub const S_IFDIR: u32 = 0o040000;
pub const S_IFREG: u32 = 0o100000;
pub const S_IFLNK: u32 = 0o120000;
pub const S_IFSOCK: u32 = 0o140000;

pub const DT_CHR: u8 = 2;
pub const DT_DIR: u8 = 4;
pub const DT_REG: u8 = 8;
pub const DT_LNK: u8 = 10;

/// Seconds and nanoseconds since the epoch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timespec {
    pub sec: i64,
    pub nsec: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    Null,
    Zero,
    /// /dev/full: reads zeros, every write fails with ENOSPC.
    Full,
    Random,
    Urandom,
    Tty,
    /// /dev/fb0 (framebuffer.rs).
    Framebuffer,
}

impl Device {
    /// (major, minor) as on Linux.
    pub fn number(self) -> (u32, u32) {
        match self {
            Device::Null => (1, 3),
            Device::Zero => (1, 5),
            Device::Full => (1, 7),
            Device::Random => (1, 8),
            Device::Urandom => (1, 9),
            Device::Tty => (5, 0),
            Device::Framebuffer => (29, 0),
        }
    }
}

pub fn makedev(major: u32, minor: u32) -> u64 {
    ((major as u64 & 0xfff) << 8) | (minor as u64 & 0xff) | ((minor as u64 & !0xff) << 12)
}

#[derive(Clone, Debug)]
pub enum Node {
    Dir { entries: BTreeMap<String, Ino>, parent: Ino },
    /// File bytes shared with snapshots until written.
    File(Arc<Vec<u8>>),
    Symlink(String),
    Device(Device),
    /// A named pipe (its buffer lives with the open files while an end is open).
    Fifo,
    /// An AF_UNIX socket's name (the socket itself lives with the open files while bound).
    Socket,
    /// A host folder mounted here (index into `Vfs::mounts`).
    Mount(usize),
    /// The root of procfs.
    Proc,
}

#[derive(Clone, Debug)]
pub struct Inode {
    pub node: Node,
    /// Permission bits (the type comes from `node`).
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
    pub nlink: u32,
    pub atime: Timespec,
    pub mtime: Timespec,
    pub ctime: Timespec,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stat {
    pub dev: u64,
    pub ino: u64,
    pub mode: u32,
    pub nlink: u32,
    pub uid: u32,
    pub gid: u32,
    pub rdev: u64,
    pub size: u64,
    pub blocks: u64,
    pub atime: Timespec,
    pub mtime: Timespec,
    pub ctime: Timespec,
}

impl Stat {
    pub fn is_dir(&self) -> bool {
        self.mode & S_IFMT == S_IFDIR
    }
}

/// Directory entry as getdents64 reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    pub name: String,
    pub ino: u64,
    pub kind: u8,
}

pub fn dtype_of(mode: u32) -> u8 {
    match mode & S_IFMT {
        S_IFDIR => DT_DIR,
        S_IFLNK => DT_LNK,
        S_IFCHR => DT_CHR,
        S_IFIFO => 1,
        S_IFSOCK => 12,
        _ => DT_REG,
    }
}
