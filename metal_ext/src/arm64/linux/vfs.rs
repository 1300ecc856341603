//! The guest's filesystem: an in-memory tree (directories, files, symlinks, device nodes), `/proc`
//! (see procfs.rs) and host folders mounted by the user (see hostfs.rs). Path resolution keeps
//! its own stack of visited directories, so `..` and symlinks (host ones included, read as guest
//! paths) can never lead out of a mount into the host's filesystem.
//! The inode types this tree shares with hostfs and procfs are in inode.rs.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::errno::*;
use super::hostfs::HostDir;
use super::inode::*;
use super::procfs::{self, ProcContext, ProcNode};
use crate::arm64::mem::PAGE_SIZE;

pub const ROOT: Ino = 0;

const MAX_SYMLINKS: u32 = 40;

#[derive(Clone, Debug)]
pub struct HostMount {
    pub host: PathBuf,
    /// The host folder, held open: every host operation starts from here.
    pub root: HostDir,
    pub writable: bool,
    pub guest: String,
}

/// Where a path leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loc {
    Mem(Ino),
    /// `rel` is a plain relative path below the mount's host folder (no `..`, no symlinks).
    Host { mount: usize, rel: PathBuf },
    Proc(ProcNode),
}

/// A resolved path: its location and its canonical absolute guest path.
#[derive(Clone, Debug)]
pub struct Walk {
    pub loc: Loc,
    pub path: String,
}

#[derive(Clone, Debug)]
pub struct Vfs {
    inodes: Vec<Option<Inode>>,
    free: Vec<Ino>,
    /// Inodes with no name left that an open file may still use: a file lives while it is open,
    /// and its number is not given to another meanwhile (freed by `collect_orphans`).
    orphans: Vec<Ino>,
    /// Bytes held by in-memory files, and how many they may hold (ENOSPC past it).
    file_bytes: u64,
    pub file_capacity: u64,
    pub mounts: Vec<HostMount>,
    /// Timestamp given to inodes created or changed now (set by the machine's clock).
    pub now: Timespec,
}

fn file_len(node: &Node) -> u64 {
    match node {
        Node::File(data) => data.len() as u64,
        _ => 0,
    }
}

fn split_parent(path: &str) -> (&str, &str) {
    let trimmed = path.trim_end_matches('/');
    match trimmed.rfind('/') {
        Some(i) => (if i == 0 { "/" } else { &trimmed[..i] }, &trimmed[i + 1..]),
        None => (".", trimmed),
    }
}

impl Default for Vfs {
    fn default() -> Self {
        Self::new()
    }
}

impl Vfs {
    /// An empty root directory.
    pub fn new() -> Self {
        let root = Inode {
            node: Node::Dir { entries: BTreeMap::new(), parent: ROOT },
            mode: 0o755,
            uid: 0,
            gid: 0,
            nlink: 2,
            atime: Timespec::default(),
            mtime: Timespec::default(),
            ctime: Timespec::default(),
        };
        Vfs { inodes: vec![Some(root)], free: vec![], orphans: vec![], file_bytes: 0, file_capacity: u64::MAX, mounts: vec![], now: Timespec::default() }
    }

    pub fn inode(&self, ino: Ino) -> &Inode {
        self.inodes[ino].as_ref().expect("live inode")
    }

    pub fn inode_mut(&mut self, ino: Ino) -> &mut Inode {
        self.inodes[ino].as_mut().expect("live inode")
    }

    fn alloc(&mut self, node: Node, mode: u32) -> Ino {
        self.file_bytes += file_len(&node);
        let now = self.now;
        let nlink = if matches!(node, Node::Dir { .. }) { 2 } else { 1 };
        let inode = Inode { node, mode, uid: 0, gid: 0, nlink, atime: now, mtime: now, ctime: now };
        match self.free.pop() {
            Some(i) => {
                self.inodes[i] = Some(inode);
                i
            }
            None => {
                self.inodes.push(Some(inode));
                self.inodes.len() - 1
            }
        }
    }

    fn entries_mut(&mut self, dir: Ino) -> SysResult<&mut BTreeMap<String, Ino>> {
        match &mut self.inode_mut(dir).node {
            Node::Dir { entries, .. } => Ok(entries),
            _ => Err(ENOTDIR),
        }
    }

    /// Adds `node` as `name` in the in-memory directory `dir`.
    pub fn add(&mut self, dir: Ino, name: &str, node: Node, mode: u32) -> SysResult<Ino> {
        if name.is_empty() || name == "." || name == ".." || name.contains('/') {
            return Err(EINVAL);
        }
        if self.entries_mut(dir)?.contains_key(name) {
            return Err(EEXIST);
        }
        let node = match node {
            Node::Dir { entries, .. } => Node::Dir { entries, parent: dir },
            other => other,
        };
        let is_dir = matches!(node, Node::Dir { .. } | Node::Mount(_) | Node::Proc);
        let ino = self.alloc(node, mode);
        self.entries_mut(dir)?.insert(name.to_string(), ino);
        let now = self.now;
        let parent = self.inode_mut(dir);
        parent.mtime = now;
        parent.ctime = now;
        if is_dir {
            parent.nlink += 1;
        }
        Ok(ino)
    }

    /// Builder helper: creates every missing directory of an absolute path; returns the last.
    pub fn mkdir_all(&mut self, path: &str) -> SysResult<Ino> {
        if !path.starts_with('/') {
            return Err(EINVAL);
        }
        let mut dir = ROOT;
        for name in path.split('/').filter(|c| !c.is_empty()) {
            let existing = match &self.inode(dir).node {
                Node::Dir { entries, .. } => entries.get(name).copied(),
                _ => return Err(ENOTDIR),
            };
            dir = match existing {
                Some(i) => i,
                None => self.add(dir, name, Node::Dir { entries: BTreeMap::new(), parent: dir }, 0o755)?,
            };
        }
        Ok(dir)
    }

    /// Builder helper: places a node at an absolute path, creating parent directories. It
    /// replaces a file of that name; a directory only by a mount.
    pub fn install(&mut self, path: &str, node: Node, mode: u32) -> SysResult<Ino> {
        let (parent, name) = split_parent(path);
        let dir = self.mkdir_all(parent)?;
        if let Some(&old) = match &self.inode(dir).node {
            Node::Dir { entries, .. } => entries.get(name),
            _ => None,
        } {
            let is_dir = matches!(self.inode(old).node, Node::Dir { .. } | Node::Mount(_) | Node::Proc);
            if is_dir && !matches!(node, Node::Mount(_)) {
                return Err(EISDIR);
            }
            self.file_bytes = self.file_bytes - file_len(&self.inode(old).node) + file_len(&node);
            self.inode_mut(old).node = node;
            self.inode_mut(old).mode = mode;
            return Ok(old);
        }
        self.add(dir, name, node, mode)
    }

    /// Mounts a host folder at an absolute guest path.
    pub fn mount(&mut self, host: PathBuf, guest: &str, writable: bool) -> std::io::Result<()> {
        let host = host.canonicalize()?;
        if !host.is_dir() {
            return Err(std::io::Error::new(std::io::ErrorKind::NotADirectory, format!("{} is not a folder", host.display())));
        }
        let root = HostDir::new(&host)?;
        let index = self.mounts.len();
        self.install(guest, Node::Mount(index), 0o755).map_err(|e| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("guest path {guest:?} (errno {})", e.0))
        })?;
        self.mounts.push(HostMount { host, root, writable, guest: guest.to_string() });
        Ok(())
    }

    // ---- path resolution ----

    fn lookup(&self, dir: &Loc, name: &str, ctx: &dyn ProcContext) -> SysResult<Loc> {
        match dir {
            Loc::Mem(ino) => match &self.inode(*ino).node {
                Node::Dir { entries, .. } => {
                    let child = *entries.get(name).ok_or(ENOENT)?;
                    Ok(match self.inode(child).node {
                        Node::Mount(mount) => Loc::Host { mount, rel: PathBuf::new() },
                        Node::Proc => Loc::Proc(ProcNode::Root),
                        _ => Loc::Mem(child),
                    })
                }
                _ => Err(ENOTDIR),
            },
            Loc::Host { mount, rel } => {
                let rel = rel.join(name);
                self.host(*mount).lstat(&rel)?;
                Ok(Loc::Host { mount: *mount, rel })
            }
            Loc::Proc(node) => procfs::lookup(node, name, ctx).map(Loc::Proc).ok_or(ENOENT),
        }
    }

    fn walk(
        &self,
        stack: &mut Vec<(String, Loc)>,
        path: &str,
        follow_last: bool,
        ctx: &dyn ProcContext,
        links: &mut u32,
    ) -> SysResult<()> {
        if path.starts_with('/') {
            stack.truncate(1);
        }
        let names: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
        let wants_dir = path.ends_with('/');
        for (i, &name) in names.iter().enumerate() {
            let last = i + 1 == names.len();
            let dir = &stack.last().unwrap().1;
            if !self.stat(dir, ctx)?.is_dir() {
                return Err(ENOTDIR);
            }
            if name == "." {
                continue;
            }
            if name == ".." {
                if stack.len() > 1 {
                    stack.pop();
                }
                continue;
            }
            if name.len() > 255 {
                return Err(ENAMETOOLONG);
            }
            let child = self.lookup(dir, name, ctx)?;
            // /proc/PID/fd/N names an open file, not the path it was opened as: opening it
            // reopens that file (handled by open), so it is never followed as the last name.
            if last && matches!(child, Loc::Proc(ProcNode::Fd(..))) {
                stack.push((name.to_string(), child));
                continue;
            }
            match self.readlink(&child, ctx) {
                Some(target) if !last || follow_last || wants_dir => {
                    *links += 1;
                    if *links > MAX_SYMLINKS {
                        return Err(ELOOP);
                    }
                    self.walk(stack, &target, true, ctx, links)?;
                }
                _ => stack.push((name.to_string(), child)),
            }
        }
        if wants_dir && !self.stat(&stack.last().unwrap().1, ctx)?.is_dir() {
            return Err(ENOTDIR);
        }
        Ok(())
    }

    fn start(&self, cwd: &str, path: &str, ctx: &dyn ProcContext) -> SysResult<Vec<(String, Loc)>> {
        let mut stack = vec![(String::new(), Loc::Mem(ROOT))];
        if !path.starts_with('/') {
            let mut links = 0;
            self.walk(&mut stack, cwd, true, ctx, &mut links)?;
        }
        Ok(stack)
    }

    fn finish(stack: Vec<(String, Loc)>) -> Walk {
        let path = if stack.len() == 1 {
            "/".to_string()
        } else {
            stack.iter().skip(1).map(|(n, _)| format!("/{n}")).collect()
        };
        Walk { loc: stack.into_iter().last().unwrap().1, path }
    }

    /// Resolves `path` relative to the directory `cwd` (an absolute guest path).
    pub fn resolve(&self, cwd: &str, path: &str, follow: bool, ctx: &dyn ProcContext) -> SysResult<Walk> {
        if path.is_empty() {
            return Err(ENOENT);
        }
        let mut stack = self.start(cwd, path, ctx)?;
        let mut links = 0;
        self.walk(&mut stack, path, follow, ctx, &mut links)?;
        Ok(Self::finish(stack))
    }

    /// Resolves everything but the last name (for creating, removing, renaming).
    pub fn resolve_parent(&self, cwd: &str, path: &str, ctx: &dyn ProcContext) -> SysResult<(Walk, String)> {
        if path.is_empty() {
            return Err(ENOENT);
        }
        let (parent, name) = split_parent(path);
        if name.is_empty() {
            return Err(EEXIST); // the root itself
        }
        let parent_walk = self.resolve(cwd, &format!("{parent}/"), true, ctx)?;
        Ok((parent_walk, name.to_string()))
    }

    // ---- inspecting locations ----

    pub fn readlink(&self, loc: &Loc, ctx: &dyn ProcContext) -> Option<String> {
        match loc {
            Loc::Mem(ino) => match &self.inode(*ino).node {
                Node::Symlink(t) => Some(t.clone()),
                _ => None,
            },
            Loc::Host { mount, rel } => self.host(*mount).readlink(rel),
            Loc::Proc(node) => procfs::readlink(node, ctx),
        }
    }

    pub fn stat(&self, loc: &Loc, ctx: &dyn ProcContext) -> SysResult<Stat> {
        match loc {
            Loc::Mem(ino) => {
                let i = self.inode(*ino);
                let (kind, size, rdev) = match &i.node {
                    Node::Dir { .. } => (S_IFDIR, 4096, 0),
                    Node::File(data) => (S_IFREG, data.len() as u64, 0),
                    Node::Symlink(t) => (S_IFLNK, t.len() as u64, 0),
                    Node::Device(d) => (S_IFCHR, 0, makedev(d.number().0, d.number().1)),
                    Node::Fifo => (S_IFIFO, 0, 0),
                    Node::Socket => (S_IFSOCK, 0, 0),
                    Node::Mount(_) | Node::Proc => (S_IFDIR, 4096, 0),
                };
                Ok(Stat {
                    dev: 1,
                    ino: *ino as u64 + 1,
                    mode: kind | i.mode,
                    nlink: i.nlink,
                    uid: i.uid,
                    gid: i.gid,
                    rdev,
                    size,
                    blocks: size.div_ceil(512),
                    atime: i.atime,
                    mtime: i.mtime,
                    ctime: i.ctime,
                })
            }
            Loc::Host { mount, rel } => {
                let mut st = self.host(*mount).lstat(rel)?;
                st.dev = 16 + *mount as u64;
                Ok(st)
            }
            Loc::Proc(node) => Ok(procfs::stat(node, ctx)),
        }
    }

    /// Entries of a directory, "." and ".." first.
    pub fn list(&self, walk: &Walk, ctx: &dyn ProcContext) -> SysResult<Vec<DirEntry>> {
        let me = self.stat(&walk.loc, ctx)?;
        if !me.is_dir() {
            return Err(ENOTDIR);
        }
        let parent_ino = match &walk.loc {
            Loc::Mem(ino) => match &self.inode(*ino).node {
                Node::Dir { parent, .. } => *parent as u64 + 1,
                _ => me.ino,
            },
            _ => me.ino,
        };
        let mut out = vec![
            DirEntry { name: ".".into(), ino: me.ino, kind: DT_DIR },
            DirEntry { name: "..".into(), ino: parent_ino, kind: DT_DIR },
        ];
        match &walk.loc {
            Loc::Mem(ino) => {
                if let Node::Dir { entries, .. } = &self.inode(*ino).node {
                    for (name, &child) in entries {
                        let st = self.stat(&Loc::Mem(child), ctx)?;
                        out.push(DirEntry { name: name.clone(), ino: st.ino, kind: dtype_of(st.mode) });
                    }
                }
            }
            Loc::Host { mount, rel } => out.extend(self.host(*mount).list(rel)?),
            Loc::Proc(node) => out.extend(procfs::list(node, ctx)),
        }
        Ok(out)
    }

    /// The whole content of a regular file (execve, the dynamic loader), or ENOMEM when it holds
    /// more than `limit` bytes.
    pub fn read_file(&self, loc: &Loc, limit: u64) -> SysResult<Arc<Vec<u8>>> {
        match loc {
            Loc::Mem(ino) => match &self.inode(*ino).node {
                Node::File(data) if data.len() as u64 > limit => Err(ENOMEM),
                Node::File(data) => Ok(data.clone()),
                Node::Dir { .. } | Node::Mount(_) | Node::Proc => Err(EISDIR),
                _ => Err(EACCES),
            },
            Loc::Host { mount, rel } => Ok(Arc::new(self.host(*mount).read_all(rel, limit)?)),
            Loc::Proc(_) => Err(EACCES),
        }
    }

    /// The host folder of a mount.
    pub fn host(&self, mount: usize) -> &HostDir {
        &self.mounts[mount].root
    }

    fn writable_host(&self, mount: usize) -> SysResult<()> {
        if self.mounts[mount].writable {
            Ok(())
        } else {
            Err(EROFS)
        }
    }

    // ---- changing the tree ----

    /// Creates `name` in the directory `dir`: a file, directory, symlink or device.
    pub fn create(&mut self, dir: &Loc, name: &str, node: Node, mode: u32) -> SysResult<Loc> {
        match dir {
            Loc::Mem(ino) => self.add(*ino, name, node, mode).map(Loc::Mem),
            Loc::Host { mount, rel } => {
                self.writable_host(*mount)?;
                self.host(*mount).create(&rel.join(name), &node, mode)?;
                Ok(Loc::Host { mount: *mount, rel: rel.join(name) })
            }
            Loc::Proc(_) => Err(EACCES),
        }
    }

    /// Removes `name` from `dir`; `dir_wanted` selects rmdir semantics.
    pub fn remove(&mut self, dir: &Loc, name: &str, dir_wanted: bool) -> SysResult<()> {
        match dir {
            Loc::Mem(d) => {
                let child = *self.entries_mut(*d)?.get(name).ok_or(ENOENT)?;
                let is_dir = matches!(self.inode(child).node, Node::Dir { .. } | Node::Mount(_) | Node::Proc);
                match (&self.inode(child).node, dir_wanted) {
                    (Node::Mount(_) | Node::Proc, _) => return Err(EBUSY),
                    (Node::Dir { entries, .. }, true) if !entries.is_empty() => return Err(ENOTEMPTY),
                    (_, true) if !is_dir => return Err(ENOTDIR),
                    (_, false) if is_dir => return Err(EISDIR),
                    _ => {}
                }
                self.entries_mut(*d)?.remove(name);
                let now = self.now;
                let parent = self.inode_mut(*d);
                parent.mtime = now;
                if is_dir {
                    parent.nlink -= 1;
                }
                self.unlink_inode(child, is_dir);
                Ok(())
            }
            Loc::Host { mount, rel } => {
                self.writable_host(*mount)?;
                self.host(*mount).remove(&rel.join(name), dir_wanted)
            }
            Loc::Proc(_) => Err(EACCES),
        }
    }

    fn unlink_inode(&mut self, ino: Ino, is_dir: bool) {
        let inode = self.inode_mut(ino);
        inode.nlink = if is_dir { 0 } else { inode.nlink.saturating_sub(1) };
        if inode.nlink == 0 {
            self.orphans.push(ino);
        }
    }

    pub fn has_orphans(&self) -> bool {
        !self.orphans.is_empty()
    }

    /// Frees the nameless inodes that nothing uses any more.
    pub fn collect_orphans(&mut self, in_use: impl Fn(Ino) -> bool) {
        let (keep, gone): (Vec<Ino>, Vec<Ino>) = self.orphans.iter().partition(|&&ino| in_use(ino));
        for ino in gone {
            self.file_bytes -= file_len(&self.inode(ino).node);
            self.inodes[ino] = None;
            self.free.push(ino);
        }
        self.orphans = keep;
    }

    /// Adds a second name for a regular in-memory file.
    pub fn link(&mut self, target: &Loc, dir: &Loc, name: &str) -> SysResult<()> {
        match (target, dir) {
            (Loc::Mem(t), Loc::Mem(d)) => {
                if matches!(self.inode(*t).node, Node::Dir { .. } | Node::Mount(_) | Node::Proc) {
                    return Err(EPERM);
                }
                let entries = self.entries_mut(*d)?;
                if entries.contains_key(name) {
                    return Err(EEXIST);
                }
                entries.insert(name.to_string(), *t);
                self.inode_mut(*t).nlink += 1;
                Ok(())
            }
            (Loc::Host { mount: a, rel: r }, Loc::Host { mount: b, rel: d }) if a == b => {
                self.writable_host(*a)?;
                self.host(*a).link(r, &d.join(name))
            }
            _ => Err(EXDEV),
        }
    }

    /// rename(2) within one filesystem; replaces a target of the same kind.
    pub fn rename(&mut self, from_dir: &Loc, from: &str, to_dir: &Loc, to: &str, no_replace: bool) -> SysResult<()> {
        match (from_dir, to_dir) {
            (Loc::Mem(fd), Loc::Mem(td)) => {
                let moving = *self.entries_mut(*fd)?.get(from).ok_or(ENOENT)?;
                let moving_dir = matches!(self.inode(moving).node, Node::Dir { .. });
                if moving_dir && self.is_ancestor(moving, *td) {
                    return Err(EINVAL);
                }
                if let Some(&old) = self.entries_mut(*td)?.get(to) {
                    if old == moving {
                        return Ok(());
                    }
                    if no_replace {
                        return Err(EEXIST);
                    }
                    let old_dir = matches!(self.inode(old).node, Node::Dir { .. });
                    if old_dir != moving_dir {
                        return Err(if old_dir { EISDIR } else { ENOTDIR });
                    }
                    self.remove(to_dir, to, old_dir)?;
                }
                self.entries_mut(*fd)?.remove(from);
                self.entries_mut(*td)?.insert(to.to_string(), moving);
                if moving_dir {
                    if let Node::Dir { parent, .. } = &mut self.inode_mut(moving).node {
                        *parent = *td;
                    }
                    self.inode_mut(*fd).nlink -= 1;
                    self.inode_mut(*td).nlink += 1;
                }
                let now = self.now;
                self.inode_mut(*fd).mtime = now;
                self.inode_mut(*td).mtime = now;
                self.inode_mut(moving).ctime = now;
                Ok(())
            }
            (Loc::Host { mount: a, rel: f }, Loc::Host { mount: b, rel: t }) if a == b => {
                self.writable_host(*a)?;
                self.host(*a).rename(&f.join(from), &t.join(to), no_replace)
            }
            _ => Err(EXDEV),
        }
    }

    fn is_ancestor(&self, ancestor: Ino, mut ino: Ino) -> bool {
        loop {
            if ino == ancestor {
                return true;
            }
            match &self.inode(ino).node {
                Node::Dir { parent, .. } if *parent != ino => ino = *parent,
                _ => return false,
            }
        }
    }

    /// chmod, chown and utimens on a location; None leaves a field as it is.
    pub fn set_attributes(
        &mut self,
        loc: &Loc,
        mode: Option<u32>,
        owner: (Option<u32>, Option<u32>),
        times: (Option<Timespec>, Option<Timespec>),
    ) -> SysResult<()> {
        match loc {
            Loc::Mem(ino) => {
                let now = self.now;
                let i = self.inode_mut(*ino);
                if let Some(m) = mode {
                    i.mode = m & 0o7777;
                }
                if let Some(u) = owner.0 {
                    i.uid = u;
                }
                if let Some(g) = owner.1 {
                    i.gid = g;
                }
                if let Some(a) = times.0 {
                    i.atime = a;
                }
                if let Some(m) = times.1 {
                    i.mtime = m;
                }
                i.ctime = now;
                Ok(())
            }
            Loc::Host { mount, rel } => {
                self.writable_host(*mount)?;
                self.host(*mount).set_attributes(rel, mode, times)
            }
            Loc::Proc(_) => Err(EPERM),
        }
    }

    pub fn file_bytes(&self) -> u64 {
        self.file_bytes
    }

    /// What the in-memory filesystem holds, as tmpfs counts it for statfs: (pages, each file
    /// rounded up to whole pages; inodes in use).
    pub fn usage(&self) -> (u64, u64) {
        self.inodes.iter().flatten().fold((0, 0), |(pages, inodes), i| {
            (pages + file_len(&i.node).div_ceil(PAGE_SIZE), inodes + 1)
        })
    }

    /// The bytes of an in-memory file, to change, once it is known they may grow to `len`.
    fn file_data_mut(&mut self, ino: Ino, len: u64) -> SysResult<&mut Vec<u8>> {
        let old = file_len(&self.inode(ino).node);
        if !matches!(self.inode(ino).node, Node::File(_)) {
            return Err(EINVAL);
        }
        if len > old && len - old > self.file_capacity.saturating_sub(self.file_bytes) {
            return Err(ENOSPC);
        }
        self.file_bytes = self.file_bytes - old + len;
        let now = self.now;
        let i = self.inode_mut(ino);
        i.mtime = now;
        i.ctime = now;
        match &mut i.node {
            Node::File(data) => Ok(Arc::make_mut(data)),
            _ => unreachable!(),
        }
    }

    /// Writes `data` at `at` (at the end when None) of an in-memory file; as much as the
    /// filesystem has room for (ENOSPC when that is nothing). Returns where the bytes went.
    pub fn write_file(&mut self, ino: Ino, at: Option<u64>, data: &[u8]) -> SysResult<(u64, u64)> {
        let len = file_len(&self.inode(ino).node);
        let start = at.unwrap_or(len);
        let room = self.file_capacity.saturating_sub(self.file_bytes);
        let end = start.saturating_add(data.len() as u64).min(len.max(start).saturating_add(room));
        if end <= start && !data.is_empty() {
            return Err(ENOSPC);
        }
        let bytes = self.file_data_mut(ino, len.max(end))?;
        let (s, e) = (start as usize, end as usize);
        if e > bytes.len() {
            bytes.resize(e, 0);
        }
        bytes[s..e].copy_from_slice(&data[..e - s]);
        Ok((start, end))
    }

    /// Cuts or extends (with zeros) an in-memory file to `len` bytes.
    pub fn truncate_file(&mut self, ino: Ino, len: u64) -> SysResult<()> {
        self.file_data_mut(ino, len).map_err(|e| if e == ENOSPC { EFBIG } else { e })?.resize(len as usize, 0);
        Ok(())
    }

    pub fn is_live(&self, ino: Ino) -> bool {
        self.inodes.get(ino).is_some_and(|i| i.is_some())
    }
}

#[cfg(test)]
mod tests;
