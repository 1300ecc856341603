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

    /// The whole content of a regular file (execve, mmap of a file).
    pub fn read_file(&self, loc: &Loc) -> SysResult<Arc<Vec<u8>>> {
        match loc {
            Loc::Mem(ino) => match &self.inode(*ino).node {
                Node::File(data) => Ok(data.clone()),
                Node::Dir { .. } | Node::Mount(_) | Node::Proc => Err(EISDIR),
                _ => Err(EACCES),
            },
            Loc::Host { mount, rel } => Ok(Arc::new(self.host(*mount).read_all(rel)?)),
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
mod tests {
    use super::*;
    use crate::arm64::linux::procfs::tests::NoProcesses;

    fn tree() -> Vfs {
        let mut v = Vfs::new();
        v.install("/bin/busybox", Node::File(Arc::new(b"ELF".to_vec())), 0o755).unwrap();
        v.install("/bin/ls", Node::Symlink("busybox".into()), 0o777).unwrap();
        v.install("/etc/motd", Node::File(Arc::new(b"hi\n".to_vec())), 0o644).unwrap();
        v.install("/loop", Node::Symlink("/loop".into()), 0o777).unwrap();
        v.install("/up", Node::Symlink("../../..".into()), 0o777).unwrap();
        v.mkdir_all("/tmp").unwrap();
        assert_eq!(v.install("/etc/motd/x", Node::Symlink("/".into()), 0o777), Err(ENOTDIR));
        assert_eq!(v.install("/etc", Node::Symlink("/".into()), 0o777), Err(EISDIR));
        assert_eq!(v.install("relative", Node::Symlink("/".into()), 0o777), Err(EINVAL));
        v
    }

    #[test]
    fn resolves_names_dots_and_symlinks() {
        let v = tree();
        let ctx = NoProcesses;
        let w = v.resolve("/", "/bin/./../bin/ls", true, &ctx).unwrap();
        assert_eq!(w.path, "/bin/busybox");
        let w = v.resolve("/bin", "ls", false, &ctx).unwrap();
        assert_eq!(w.path, "/bin/ls");
        assert_eq!(v.stat(&w.loc, &ctx).unwrap().mode & S_IFMT, S_IFLNK);
        assert_eq!(v.resolve("/", "/up", true, &ctx).unwrap().path, "/");
        assert_eq!(v.resolve("/", "/../../etc/motd", true, &ctx).unwrap().path, "/etc/motd");
        assert_eq!(v.resolve("/", "/loop", true, &ctx).unwrap_err(), ELOOP);
        assert_eq!(v.resolve("/", "/etc/motd/x", true, &ctx).unwrap_err(), ENOTDIR);
        assert_eq!(v.resolve("/", "/etc/motd/", true, &ctx).unwrap_err(), ENOTDIR);
        assert_eq!(v.resolve("/", "/nope", true, &ctx).unwrap_err(), ENOENT);
        assert_eq!(v.resolve("/", "", true, &ctx).unwrap_err(), ENOENT);
    }

    #[test]
    fn create_rename_remove() {
        let mut v = tree();
        let ctx = NoProcesses;
        let (tmp, name) = v.resolve_parent("/", "/tmp/a", &ctx).unwrap();
        assert_eq!(name, "a");
        v.create(&tmp.loc, "a", Node::File(Arc::new(vec![1, 2])), 0o644).unwrap();
        assert_eq!(v.create(&tmp.loc, "a", Node::File(Arc::default()), 0o644).unwrap_err(), EEXIST);
        v.create(&tmp.loc, "d", Node::Dir { entries: BTreeMap::new(), parent: 0 }, 0o755).unwrap();
        v.rename(&tmp.loc, "a", &tmp.loc, "b", false).unwrap();
        assert_eq!(v.resolve("/", "/tmp/a", true, &ctx).unwrap_err(), ENOENT);
        assert_eq!(v.stat(&v.resolve("/tmp", "b", true, &ctx).unwrap().loc, &ctx).unwrap().size, 2);
        let d = v.resolve("/", "/tmp/d", true, &ctx).unwrap();
        assert_eq!(v.rename(&Loc::Mem(ROOT), "tmp", &d.loc, "x", false).unwrap_err(), EINVAL);
        assert_eq!(v.remove(&tmp.loc, "d", false).unwrap_err(), EISDIR);
        assert_eq!(v.remove(&tmp.loc, "b", true).unwrap_err(), ENOTDIR);
        v.remove(&tmp.loc, "d", true).unwrap();
        v.remove(&tmp.loc, "b", false).unwrap();
        let names: Vec<String> = v.list(&tmp, &ctx).unwrap().into_iter().map(|e| e.name).collect();
        assert_eq!(names, [".", ".."]);
    }

    #[test]
    fn an_unlinked_file_lives_while_in_use_and_its_number_is_not_reused() {
        let mut v = tree();
        let ctx = NoProcesses;
        let tmp = v.resolve("/", "/tmp", true, &ctx).unwrap();
        let Loc::Mem(x) = v.create(&tmp.loc, "x", Node::File(Arc::new(b"data".to_vec())), 0o644).unwrap() else { panic!() };
        v.remove(&tmp.loc, "x", false).unwrap();
        v.collect_orphans(|ino| ino == x); // still open
        let Loc::Mem(y) = v.create(&tmp.loc, "y", Node::File(Arc::default()), 0o644).unwrap() else { panic!() };
        assert_ne!(x, y, "a live inode's number went to another file");
        v.write_file(x, None, b" more").unwrap();
        assert_eq!(v.stat(&Loc::Mem(x), &ctx).unwrap().nlink, 0);
        assert_eq!(v.stat(&Loc::Mem(y), &ctx).unwrap().size, 0, "writing the unlinked file reached another");
        v.collect_orphans(|_| false); // closed
        assert!(!v.is_live(x) && !v.has_orphans());
    }

    #[test]
    fn in_memory_files_stop_at_the_capacity() {
        let mut v = tree();
        v.file_capacity = v.file_bytes() + 10;
        let ctx = NoProcesses;
        let tmp = v.resolve("/", "/tmp", true, &ctx).unwrap();
        let Loc::Mem(f) = v.create(&tmp.loc, "f", Node::File(Arc::default()), 0o644).unwrap() else { panic!() };
        assert_eq!(v.write_file(f, None, b"0123456").unwrap(), (0, 7));
        assert_eq!(v.write_file(f, None, b"789abc").unwrap(), (7, 10), "a short write: what fits");
        assert_eq!(v.write_file(f, None, b"d").unwrap_err(), ENOSPC);
        assert_eq!(v.write_file(f, Some(1 << 40), b"d").unwrap_err(), ENOSPC, "no host allocation for a far offset");
        assert_eq!(v.write_file(f, Some(0), b"overwrite!").unwrap(), (0, 10), "rewriting takes no room");
        assert_eq!(v.truncate_file(f, 11).unwrap_err(), EFBIG);
        v.truncate_file(f, 4).unwrap();
        v.remove(&tmp.loc, "f", false).unwrap();
        v.collect_orphans(|_| false);
        let Loc::Mem(g) = v.create(&tmp.loc, "g", Node::File(Arc::default()), 0o644).unwrap() else { panic!() };
        assert_eq!(v.write_file(g, None, &[0; 10]).unwrap(), (0, 10), "a removed file's room comes back");
    }

    #[test]
    fn mounts_cannot_be_escaped() {
        let host = std::env::temp_dir().join(format!("vfs-mount-test-{}", std::process::id()));
        let inside = host.join("inside");
        std::fs::create_dir_all(&inside).unwrap();
        std::fs::write(inside.join("file.txt"), b"guest may read").unwrap();
        std::os::unix::fs::symlink("/etc/motd", inside.join("abs")).unwrap();
        std::os::unix::fs::symlink("../../../../../../..", inside.join("rel")).unwrap();
        std::os::unix::fs::symlink(host.join("inside/file.txt"), inside.join("hostabs")).unwrap();
        let mut v = tree();
        v.mount(inside.clone(), "/mnt/data", false).unwrap();
        let ctx = NoProcesses;
        let w = v.resolve("/", "/mnt/data/file.txt", true, &ctx).unwrap();
        assert_eq!(*v.read_file(&w.loc).unwrap(), b"guest may read");
        // Dot-dot from the mount's root is the guest's /mnt, never the host's parent folder.
        assert_eq!(v.resolve("/mnt/data", "../..", true, &ctx).unwrap().path, "/");
        assert!(matches!(v.resolve("/mnt/data", "..", true, &ctx).unwrap().loc, Loc::Mem(_)));
        // Host symlinks are read as guest paths.
        assert_eq!(v.resolve("/", "/mnt/data/abs", true, &ctx).unwrap().path, "/etc/motd");
        assert_eq!(v.resolve("/", "/mnt/data/rel", true, &ctx).unwrap().path, "/");
        assert_eq!(v.resolve("/", "/mnt/data/hostabs", true, &ctx).unwrap_err(), ENOENT);
        // Read-only by default.
        let dir = v.resolve("/", "/mnt/data", true, &ctx).unwrap();
        assert_eq!(v.create(&dir.loc, "new", Node::File(Arc::default()), 0o644).unwrap_err(), EROFS);
        assert_eq!(v.remove(&dir.loc, "file.txt", false).unwrap_err(), EROFS);
        assert!(inside.join("file.txt").exists());
        std::fs::remove_dir_all(&host).unwrap();
    }

    /// Random path operations by the guest on a rw mount while the host (another machine sharing
    /// the folder) keeps swapping folders for symlinks to the folder around the mount: whatever
    /// the interleaving, nothing outside the mount is read, written, created or changed.
    #[test]
    fn path_operations_under_concurrent_renames_stay_in_the_mount() {
        use crate::arm64::linux::hostfs::tests::while_swapping;
        let base = std::env::temp_dir().join(format!("vfs-fuzz-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let (mount, outside) = (base.join("mount"), base.join("outside"));
        for d in ["a", "b", "a/c"] {
            std::fs::create_dir_all(mount.join(d)).unwrap();
        }
        // The folder around the mount has the mount's shape, so a walk that left it would find things.
        std::fs::create_dir_all(outside.join("c")).unwrap();
        std::fs::write(outside.join("canary"), b"host secret").unwrap();
        std::fs::write(outside.join("c/canary"), b"host secret").unwrap();
        let before = || {
            use std::os::unix::fs::PermissionsExt;
            let mut names: Vec<_> = [outside.clone(), outside.join("c")]
                .iter()
                .flat_map(|d| std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()))
                .collect();
            names.sort();
            let mode = std::fs::metadata(outside.join("canary")).unwrap().permissions().mode();
            (names, std::fs::read(outside.join("canary")).unwrap(), mode)
        };
        let snapshot = before();
        use std::os::unix::fs::MetadataExt;
        let secrets = ["canary", "c/canary"].map(|f| std::fs::metadata(outside.join(f)).unwrap().ino());
        let mut v = tree();
        v.mount(mount.clone(), "/m", true).unwrap();
        let ctx = NoProcesses;
        let names = ["a", "b", "c", "x", "canary"];
        let mut rng = 0x5eed_u64;
        let mut next = |n: usize| {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (rng >> 33) as usize % n
        };
        while_swapping(&mount, &outside, &["a", "b", "a/c"], || {
            for _ in 0..40_000 {
                // Mostly below the swapped folders, where a walk that followed a swap would land outside.
                let path = match next(3) {
                    0 => format!("/m/{}", names[next(5)]),
                    1 => format!("/m/{}/{}", ["a", "b"][next(2)], names[next(5)]),
                    _ => format!("/m/a/c/{}", names[next(5)]),
                };
                let Ok((dir, name)) = v.resolve_parent("/", &path, &ctx) else { continue };
                let _ = match next(8) {
                    0 => v.create(&dir.loc, &name, Node::File(Arc::new(b"guest".to_vec())), 0o4777).map(|_| ()),
                    1 => v.create(&dir.loc, &name, Node::Dir { entries: BTreeMap::new(), parent: 0 }, 0o755).map(|_| ()),
                    2 => v.remove(&dir.loc, &name, next(2) == 0),
                    3 => v.rename(&dir.loc, &name, &dir.loc, names[next(5)], false),
                    4 => v.set_attributes(&Loc::Host { mount: 0, rel: PathBuf::from(&path[3..]) }, Some(0o777), (None, None), (None, None)),
                    5 => v.resolve("/", &path, false, &ctx).and_then(|w| v.read_file(&w.loc)).map(|d| assert_ne!(*d, b"host secret")),
                    6 => v.link(&Loc::Host { mount: 0, rel: PathBuf::from("a/c") }, &dir.loc, &name),
                    _ => v.resolve("/", &path, false, &ctx).and_then(|w| v.list(&w, &ctx)).map(|l| assert!(l.iter().all(|e| !secrets.contains(&e.ino)))),
                };
            }
        });
        assert_eq!(before(), snapshot, "the folder around the mount changed");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
