//! Host folders mounted into the guest. Every function takes a host path built by the VFS from a
//! mount's folder and plain names it has checked one by one; symlinks on the host are never
//! followed here (the VFS reads them and resolves their targets as guest paths).

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use super::errno::*;
use super::vfs::{dtype_of, DirEntry, Node, Stat, Timespec};

pub fn lstat(path: &Path) -> SysResult<Stat> {
    let m = fs::symlink_metadata(path)?;
    let time = |sec: i64, nsec: i64| Timespec { sec, nsec: nsec as u32 };
    Ok(Stat {
        dev: 0,
        ino: m.ino(),
        mode: m.mode(),
        nlink: m.nlink() as u32,
        // Mounted files belong to the guest's root user, whoever owns them on the host.
        uid: 0,
        gid: 0,
        rdev: m.rdev(),
        size: m.size(),
        blocks: m.blocks(),
        atime: time(m.atime(), m.atime_nsec()),
        mtime: time(m.mtime(), m.mtime_nsec()),
        ctime: time(m.ctime(), m.ctime_nsec()),
    })
}

pub fn readlink(path: &Path) -> Option<String> {
    let m = fs::symlink_metadata(path).ok()?;
    if !m.file_type().is_symlink() {
        return None;
    }
    fs::read_link(path).ok().map(|t| t.to_string_lossy().into_owned())
}

pub fn list(path: &Path) -> SysResult<Vec<DirEntry>> {
    let mut out = vec![];
    for entry in fs::read_dir(path)? {
        let entry = entry?;
        let m = entry.metadata()?;
        out.push(DirEntry { name: entry.file_name().to_string_lossy().into_owned(), ino: m.ino(), kind: dtype_of(m.mode()) });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Opens a regular file that is not a symlink.
pub fn open(path: &Path, write: bool, create: bool, truncate: bool) -> SysResult<fs::File> {
    if let Ok(m) = fs::symlink_metadata(path) {
        if m.file_type().is_symlink() {
            return Err(ELOOP);
        }
        if m.is_dir() {
            return Err(EISDIR);
        }
        // Host FIFOs, sockets and devices would reach host processes and hardware.
        if !m.is_file() {
            return Err(ENXIO);
        }
    }
    Ok(fs::OpenOptions::new().read(true).write(write).create(create).truncate(truncate).open(path)?)
}

pub fn read_all(path: &Path) -> SysResult<Vec<u8>> {
    use std::io::Read;
    let mut out = vec![];
    open(path, false, false, false)?.read_to_end(&mut out)?;
    Ok(out)
}

pub fn create(path: &Path, node: &Node, mode: u32) -> SysResult<()> {
    match node {
        Node::File(data) => {
            let file = fs::OpenOptions::new().write(true).create_new(true).open(path)?;
            use std::io::Write;
            (&file).write_all(data)?;
            file.set_permissions(fs::Permissions::from_mode(mode & 0o7777))?;
        }
        Node::Dir { .. } => {
            fs::create_dir(path)?;
            fs::set_permissions(path, fs::Permissions::from_mode(mode & 0o7777))?;
        }
        Node::Symlink(target) => std::os::unix::fs::symlink(target, path)?,
        _ => return Err(EPERM),
    }
    Ok(())
}

pub fn remove(path: &Path, dir_wanted: bool) -> SysResult<()> {
    let m = fs::symlink_metadata(path)?;
    match (m.is_dir(), dir_wanted) {
        (true, true) => Ok(fs::remove_dir(path)?),
        (false, false) => Ok(fs::remove_file(path)?),
        (true, false) => Err(EISDIR),
        (false, true) => Err(ENOTDIR),
    }
}

pub fn set_attributes(path: &Path, mode: Option<u32>, times: (Option<Timespec>, Option<Timespec>)) -> SysResult<()> {
    if fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(EPERM);
    }
    if let Some(m) = mode {
        fs::set_permissions(path, fs::Permissions::from_mode(m & 0o7777))?;
    }
    if times.0.is_some() || times.1.is_some() {
        let at = |t: Timespec| std::time::UNIX_EPOCH + std::time::Duration::new(t.sec.max(0) as u64, t.nsec);
        let mut ft = fs::FileTimes::new();
        if let Some(a) = times.0 {
            ft = ft.set_accessed(at(a));
        }
        if let Some(m) = times.1 {
            ft = ft.set_modified(at(m));
        }
        fs::File::options().write(true).open(path)?.set_times(ft)?;
    }
    Ok(())
}
