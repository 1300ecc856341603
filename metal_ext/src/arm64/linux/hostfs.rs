//! Host folders mounted into the guest. Every operation starts from the mount's folder, held open
//! as a descriptor, and reaches a file by `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
//! RESOLVE_NO_MAGICLINKS)` (or, on kernels without it, a walk of `O_NOFOLLOW` opens, one name at a
//! time) followed by a `*at` call on the last name that never follows it. So no host path is ever
//! checked and then used: a guest that swaps a folder for a symlink between two calls makes the
//! second one fail, never leave the mount. (The VFS reads host symlinks itself and resolves their
//! targets as guest paths.)

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path};
use std::sync::Arc;

use super::errno::*;
use super::raw_names;
use super::inode::{dtype_of, DirEntry, Node, Stat, Timespec};

/// Permission bits the guest may set on host files: never setuid, setgid or sticky.
const HOST_MODE_MASK: u32 = 0o777;

/// A mount's host folder, open for the machine's whole life (shared by snapshots and clones).
#[derive(Clone, Debug)]
pub struct HostDir(Arc<OwnedFd>);

fn last_error() -> Errno {
    Errno::from(std::io::Error::last_os_error())
}

fn check(ret: libc::c_int) -> SysResult<libc::c_int> {
    if ret < 0 {
        Err(last_error())
    } else {
        Ok(ret)
    }
}

fn owned(fd: libc::c_long) -> SysResult<OwnedFd> {
    if fd < 0 {
        Err(last_error())
    } else {
        // SAFETY: the kernel just returned this descriptor to us and nothing else owns it.
        Ok(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
    }
}

/// A name or relative path the VFS built (from strings) as the host's bytes.
fn c_name(name: &OsStr) -> SysResult<CString> {
    let bytes = match name.to_str() {
        Some(s) => raw_names::to_bytes(s),
        None => name.as_bytes().to_vec(),
    };
    CString::new(bytes).map_err(|_| EINVAL)
}

/// `rel` as plain names: the VFS never builds one with `..`, a root or a `.`, and this makes sure.
fn plain(rel: &Path) -> SysResult<CString> {
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err(EINVAL);
    }
    c_name(if rel.as_os_str().is_empty() { OsStr::new(".") } else { rel.as_os_str() })
}

impl HostDir {
    /// Opens a host folder to mount.
    pub fn new(path: &Path) -> std::io::Result<HostDir> {
        let c = CString::new(path.as_os_str().as_bytes())?;
        // SAFETY: a valid NUL-terminated path; the result is checked.
        let fd = unsafe { libc::open(c.as_ptr(), libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC) };
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: a fresh descriptor owned by no one else.
        Ok(HostDir(Arc::new(unsafe { OwnedFd::from_raw_fd(fd) })))
    }

    /// Opens `rel` below the folder with `flags`, following no symlink and no `..` on the way.
    fn open_beneath(&self, rel: &Path, flags: libc::c_int, mode: u32) -> SysResult<OwnedFd> {
        let path = plain(rel)?;
        let mut how: libc::open_how = unsafe { std::mem::zeroed() };
        how.flags = (flags | libc::O_CLOEXEC | libc::O_NOFOLLOW) as u64;
        how.mode = if flags & libc::O_CREAT != 0 { mode as u64 } else { 0 };
        how.resolve = libc::RESOLVE_BENEATH | libc::RESOLVE_NO_SYMLINKS | libc::RESOLVE_NO_MAGICLINKS;
        // SAFETY: valid pointers to a NUL-terminated path and an open_how of the size passed.
        let call = || unsafe {
            libc::syscall(libc::SYS_openat2, self.0.as_raw_fd(), path.as_ptr(), &how as *const libc::open_how, std::mem::size_of::<libc::open_how>())
        };
        match owned(call()) {
            Err(ENOSYS) => self.open_by_walking(rel, flags, mode),
            // openat2 says EAGAIN when a rename elsewhere raced the lookup: try once more.
            Err(EAGAIN) => owned(call()),
            other => other,
        }
    }

    /// The same as `open_beneath` for kernels before 5.6: one `O_NOFOLLOW` open per name.
    fn open_by_walking(&self, rel: &Path, flags: libc::c_int, mode: u32) -> SysResult<OwnedFd> {
        let names: Vec<&OsStr> = rel.iter().collect();
        let mut dir: Option<OwnedFd> = None;
        for (i, name) in names.iter().enumerate() {
            let last = i + 1 == names.len();
            let at = dir.as_ref().map_or(self.0.as_raw_fd(), |d| d.as_raw_fd());
            let step = if last { flags } else { libc::O_PATH | libc::O_DIRECTORY };
            let c = c_name(name)?;
            // SAFETY: a valid directory descriptor and NUL-terminated name.
            let fd = unsafe { libc::openat(at, c.as_ptr(), step | libc::O_NOFOLLOW | libc::O_CLOEXEC, mode) };
            dir = Some(owned(fd as libc::c_long)?);
        }
        match dir {
            Some(fd) => Ok(fd),
            None => owned(unsafe { libc::openat(self.0.as_raw_fd(), c".".as_ptr(), flags | libc::O_CLOEXEC, mode) } as libc::c_long),
        }
    }

    /// The folder holding `rel` and `rel`'s last name, for the `*at` calls.
    fn parent(&self, rel: &Path) -> SysResult<(OwnedFd, CString)> {
        let name = rel.file_name().ok_or(EINVAL)?;
        let dir = self.open_beneath(rel.parent().unwrap_or(Path::new("")), libc::O_PATH | libc::O_DIRECTORY, 0)?;
        Ok((dir, c_name(name)?))
    }

    pub fn lstat(&self, rel: &Path) -> SysResult<Stat> {
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        if rel.as_os_str().is_empty() {
            // SAFETY: a valid descriptor and a stat buffer.
            check(unsafe { libc::fstat(self.0.as_raw_fd(), &mut st) })?;
        } else {
            let (dir, name) = self.parent(rel)?;
            // SAFETY: a valid descriptor, NUL-terminated name and a stat buffer.
            check(unsafe { libc::fstatat(dir.as_raw_fd(), name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) })?;
        }
        Ok(guest_stat(&st))
    }

    pub fn readlink(&self, rel: &Path) -> Option<String> {
        let (dir, name) = self.parent(rel).ok()?;
        let mut buf = vec![0u8; 4096];
        // SAFETY: a valid descriptor, NUL-terminated name and a buffer of the length passed.
        let n = unsafe { libc::readlinkat(dir.as_raw_fd(), name.as_ptr(), buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 {
            return None;
        }
        buf.truncate(n as usize);
        Some(raw_names::from_bytes(&buf))
    }

    pub fn list(&self, rel: &Path) -> SysResult<Vec<DirEntry>> {
        let fd = self.open_beneath(rel, libc::O_RDONLY | libc::O_DIRECTORY, 0)?;
        // SAFETY: fdopendir takes over the descriptor; closedir below releases both.
        let dir = unsafe { libc::fdopendir(fd.as_raw_fd()) };
        if dir.is_null() {
            return Err(last_error());
        }
        std::mem::forget(fd);
        let mut out = vec![];
        loop {
            // SAFETY: `dir` is a valid stream until closedir; each entry is read before the next call.
            let entry = unsafe { libc::readdir64(dir) };
            if entry.is_null() {
                break;
            }
            let entry = unsafe { &*entry };
            let name = unsafe { std::ffi::CStr::from_ptr(entry.d_name.as_ptr()) }.to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let name = raw_names::from_bytes(name);
            let kind = match entry.d_type {
                libc::DT_UNKNOWN => self.lstat(&rel.join(&name)).map(|s| dtype_of(s.mode)).unwrap_or(libc::DT_REG),
                t => t,
            };
            out.push(DirEntry { name, ino: entry.d_ino, kind });
        }
        // SAFETY: closes the stream opened above, once.
        unsafe { libc::closedir(dir) };
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// Opens a regular file (never a symlink, FIFO, socket or device: those would reach host
    /// processes and hardware; the guest opens a FIFO of a mount as its own pipe instead).
    pub fn open_file(&self, rel: &Path, write: bool, truncate: bool) -> SysResult<File> {
        let access = if write { libc::O_RDWR } else { libc::O_RDONLY };
        // O_NONBLOCK: a FIFO swapped in must not make the open wait for a host writer.
        let fd = self.open_beneath(rel, access | libc::O_NONBLOCK | libc::O_NOCTTY, 0)?;
        let file = File::from(fd);
        let kind = file.metadata()?.file_type();
        if kind.is_dir() {
            return Err(EISDIR);
        }
        if !kind.is_file() {
            return Err(ENXIO);
        }
        // SAFETY: a valid descriptor; clears O_NONBLOCK again (no effect on regular files, but F_GETFL shows it).
        check(unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETFL, access) })?;
        if truncate {
            file.set_len(0)?;
        }
        Ok(file)
    }

    /// The content of a file, or ENOMEM when it holds more than `limit` bytes: checked before
    /// reading (a sparse file may claim far more than the host has) and while reading (it may grow).
    pub fn read_all(&self, rel: &Path, limit: u64) -> SysResult<Vec<u8>> {
        use std::io::Read;
        let file = self.open_file(rel, false, false)?;
        if file.metadata()?.len() > limit {
            return Err(ENOMEM);
        }
        let mut out = vec![];
        file.take(limit.saturating_add(1)).read_to_end(&mut out)?;
        if out.len() as u64 > limit {
            return Err(ENOMEM);
        }
        Ok(out)
    }

    pub fn create(&self, rel: &Path, node: &Node, mode: u32) -> SysResult<()> {
        let (dir, name) = self.parent(rel)?;
        let mode = mode & HOST_MODE_MASK;
        match node {
            Node::File(data) => {
                // SAFETY: a valid descriptor and NUL-terminated name; O_EXCL never follows a symlink.
                let fd = unsafe {
                    libc::openat(dir.as_raw_fd(), name.as_ptr(), libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_CLOEXEC, 0o600)
                };
                let file = File::from(owned(fd as libc::c_long)?);
                use std::io::Write;
                (&file).write_all(data)?;
                // The guest's mode, not filtered by the host's umask.
                check(unsafe { libc::fchmod(file.as_raw_fd(), mode) })?;
            }
            Node::Dir { .. } => {
                // SAFETY: as above; mkdirat never follows the last name.
                check(unsafe { libc::mkdirat(dir.as_raw_fd(), name.as_ptr(), 0o700) })?;
                let fd = unsafe { libc::openat(dir.as_raw_fd(), name.as_ptr(), libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC) };
                let made = owned(fd as libc::c_long)?;
                check(unsafe { libc::fchmod(made.as_raw_fd(), mode) })?;
            }
            // Opened by the guest, a FIFO here is a pipe between guest processes (see fd::FifoKey).
            Node::Fifo => {
                // SAFETY: a valid descriptor and NUL-terminated name; mknodat never follows the last name.
                check(unsafe { libc::mknodat(dir.as_raw_fd(), name.as_ptr(), libc::S_IFIFO | mode, 0) })?;
            }
            Node::Symlink(target) => {
                let target = CString::new(target.as_bytes()).map_err(|_| EINVAL)?;
                // SAFETY: valid NUL-terminated strings and descriptor.
                check(unsafe { libc::symlinkat(target.as_ptr(), dir.as_raw_fd(), name.as_ptr()) })?;
            }
            _ => return Err(EPERM),
        }
        Ok(())
    }

    pub fn remove(&self, rel: &Path, dir_wanted: bool) -> SysResult<()> {
        let is_dir = self.lstat(rel)?.is_dir();
        match (is_dir, dir_wanted) {
            (true, false) => return Err(EISDIR),
            (false, true) => return Err(ENOTDIR),
            _ => {}
        }
        let (dir, name) = self.parent(rel)?;
        let flags = if dir_wanted { libc::AT_REMOVEDIR } else { 0 };
        // SAFETY: a valid descriptor and NUL-terminated name; unlinkat never follows the last name.
        check(unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), flags) })?;
        Ok(())
    }

    /// A second name for a file (the link itself, if `from` is a symlink).
    pub fn link(&self, from: &Path, to: &Path) -> SysResult<()> {
        let (from_dir, from_name) = self.parent(from)?;
        let (to_dir, to_name) = self.parent(to)?;
        // SAFETY: valid descriptors and names; flags 0: the source is not followed.
        check(unsafe { libc::linkat(from_dir.as_raw_fd(), from_name.as_ptr(), to_dir.as_raw_fd(), to_name.as_ptr(), 0) })?;
        Ok(())
    }

    pub fn rename(&self, from: &Path, to: &Path, no_replace: bool) -> SysResult<()> {
        let (from_dir, from_name) = self.parent(from)?;
        let (to_dir, to_name) = self.parent(to)?;
        let flags = if no_replace { libc::RENAME_NOREPLACE } else { 0 };
        // SAFETY: valid descriptors and names; renameat2 never follows either name.
        check(unsafe { libc::renameat2(from_dir.as_raw_fd(), from_name.as_ptr(), to_dir.as_raw_fd(), to_name.as_ptr(), flags) })?;
        Ok(())
    }

    pub fn set_attributes(&self, rel: &Path, mode: Option<u32>, times: (Option<Timespec>, Option<Timespec>)) -> SysResult<()> {
        // Held by descriptor from here on: whatever the guest renames meanwhile, this is the file changed.
        let target = self.open_beneath(rel, libc::O_PATH, 0)?;
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        check(unsafe { libc::fstat(target.as_raw_fd(), &mut st) })?;
        if st.st_mode & libc::S_IFMT == libc::S_IFLNK {
            return Err(EPERM);
        }
        // An O_PATH descriptor cannot be fchmod-ed; its /proc/self/fd link names exactly its inode.
        let by_fd = CString::new(format!("/proc/self/fd/{}", target.as_raw_fd())).expect("no NUL");
        if let Some(m) = mode {
            check(unsafe { libc::chmod(by_fd.as_ptr(), m & HOST_MODE_MASK) })?;
        }
        if times.0.is_some() || times.1.is_some() {
            let spec = |t: Option<Timespec>| match t {
                Some(t) => libc::timespec { tv_sec: t.sec, tv_nsec: t.nsec as i64 },
                None => libc::timespec { tv_sec: 0, tv_nsec: libc::UTIME_OMIT },
            };
            let ts = [spec(times.0), spec(times.1)];
            // SAFETY: a valid path and an array of two timespecs.
            check(unsafe { libc::utimensat(libc::AT_FDCWD, by_fd.as_ptr(), ts.as_ptr(), 0) })?;
        }
        Ok(())
    }
}

fn guest_stat(m: &libc::stat) -> Stat {
    let time = |sec: i64, nsec: i64| Timespec { sec, nsec: nsec as u32 };
    Stat {
        dev: 0,
        ino: m.st_ino,
        mode: m.st_mode,
        nlink: m.st_nlink as u32,
        // Mounted files belong to the guest's root user, whoever owns them on the host.
        uid: 0,
        gid: 0,
        rdev: m.st_rdev,
        size: m.st_size as u64,
        blocks: m.st_blocks as u64,
        atime: time(m.st_atime, m.st_atime_nsec),
        mtime: time(m.st_mtime, m.st_mtime_nsec),
        ctime: time(m.st_ctime, m.st_ctime_nsec),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// A mount folder with `d/` (a real folder) and `sym -> <outside>`, and a canary outside.
    fn setup(tag: &str) -> (std::path::PathBuf, HostDir) {
        let base = std::env::temp_dir().join(format!("hostfs-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let (mount, outside) = (base.join("mount"), base.join("outside"));
        std::fs::create_dir_all(mount.join("d")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("canary"), b"host secret").unwrap();
        std::fs::write(outside.join("target"), b"").unwrap();
        std::os::unix::fs::symlink(&outside, mount.join("sym")).unwrap();
        let dir = HostDir::new(&mount).unwrap();
        (base, dir)
    }

    /// Runs `body` while another thread (as a guest on another machine sharing the mount would)
    /// keeps swapping each of `dirs` below `mount` for a symlink to `outside`, as fast as it can.
    /// The swapper works through descriptors and follows no symlink itself: the body may rename one
    /// of its symlinks into the place of a folder, and a swapper that walked through it by path would
    /// move the folder around the mount in (its own escape, not the body's).
    pub(crate) fn while_swapping(mount: &Path, outside: &Path, dirs: &[&str], body: impl FnOnce()) {
        let stop = AtomicBool::new(false);
        /// Stops the swapping thread however the body ends (a failed assertion included).
        struct StopOnDrop<'a>(&'a AtomicBool);
        impl Drop for StopOnDrop<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let root = HostDir::new(mount).unwrap();
        let target = CString::new(outside.as_os_str().as_bytes()).unwrap();
        std::thread::scope(|s| {
            s.spawn(|| {
                for dir in dirs.iter().cycle() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    swap_once(&root, Path::new(dir), &target);
                }
            });
            let _stop = StopOnDrop(&stop);
            body();
        });
    }

    /// One swap: `rel` moves aside to `held` at the top of the mount, a symlink to `target` takes its
    /// place and goes again, and the folder comes back; every step by descriptor, none following a symlink.
    fn swap_once(root: &HostDir, rel: &Path, target: &CString) {
        let Ok((dir, name)) = root.parent(rel) else { return };
        let (at, top) = (dir.as_raw_fd(), root.0.as_raw_fd());
        // SAFETY: valid descriptors and NUL-terminated names; none of these calls follows a symlink.
        unsafe {
            libc::renameat(at, name.as_ptr(), top, c"held".as_ptr());
            libc::symlinkat(target.as_ptr(), at, name.as_ptr());
            libc::unlinkat(at, name.as_ptr(), 0);
            libc::renameat(top, c"held".as_ptr(), at, name.as_ptr());
        }
    }

    /// Tries `attack` many times while `d` is swapped for a symlink to the folder around the mount.
    fn race(tag: &str, attack: impl Fn(&HostDir)) {
        let (base, dir) = setup(tag);
        while_swapping(&base.join("mount"), &base.join("outside"), &["d"], || {
            for _ in 0..20_000 {
                attack(&dir);
            }
        });
        let outside = base.join("outside");
        assert_eq!(std::fs::read(outside.join("target")).unwrap(), b"", "a write left the mount");
        use std::os::unix::fs::PermissionsExt;
        assert_ne!(std::fs::metadata(outside.join("target")).unwrap().permissions().mode() & 0o777, 0o777, "a chmod left the mount");
        assert!(!outside.join("planted").exists(), "a file was created outside the mount");
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn swapping_a_folder_for_a_symlink_never_leads_out() {
        race("openat2", |dir| {
            let rel = Path::new("d/canary");
            assert!(dir.read_all(rel, u64::MAX).is_err(), "read a host file outside the mount");
            assert!(dir.lstat(rel).is_err());
            assert!(dir.list(Path::new("d")).unwrap_or_default().iter().all(|e| e.name != "canary"));
            if let Ok(f) = dir.open_file(Path::new("d/target"), true, false) {
                panic!("opened a host file outside the mount for writing: {f:?}");
            }
            let _ = dir.create(Path::new("d/planted"), &Node::File(Arc::new(b"x".to_vec())), 0o4755);
            let _ = dir.set_attributes(Path::new("d/target"), Some(0o777), (None, None));
        });
    }

    #[test]
    fn the_walk_for_old_kernels_holds_too() {
        race("walk", |dir| {
            for rel in ["d/canary", "d/target"] {
                assert!(dir.open_by_walking(Path::new(rel), libc::O_RDONLY, 0).is_err(), "walked out to {rel}");
            }
        });
    }

    #[test]
    fn guest_modes_never_carry_setuid_and_names_stay_plain() {
        let (base, dir) = setup("modes");
        dir.create(Path::new("d/f"), &Node::File(Arc::new(b"x".to_vec())), 0o6755).unwrap();
        assert_eq!(dir.lstat(Path::new("d/f")).unwrap().mode & 0o7777, 0o755);
        dir.set_attributes(Path::new("d/f"), Some(0o4777), (None, None)).unwrap();
        assert_eq!(dir.lstat(Path::new("d/f")).unwrap().mode & 0o7777, 0o777);
        assert_eq!(dir.set_attributes(Path::new("sym"), Some(0o777), (None, None)).unwrap_err(), EPERM);
        assert_eq!(dir.read_all(Path::new("../outside/canary"), u64::MAX).unwrap_err(), EINVAL);
        assert_eq!(dir.read_all(Path::new("sym/canary"), u64::MAX).unwrap_err(), ELOOP);
        assert_eq!(dir.open_file(Path::new("sym"), false, false).unwrap_err(), ELOOP);
        std::fs::remove_dir_all(&base).unwrap();
    }
}
