//! What system calls read from and write to the calling process: its threads, memory, strings
//! and argument vectors, its open file descriptions, and paths resolved from its working directory
//! or a directory descriptor.

use super::errno::*;
use super::fd::FileKind;
use super::machine::Machine;
use super::process::*;
use super::vfs::Walk;
use crate::arm64::mem::Memory;

impl Machine {
    pub fn thread(&self, tid: u32) -> &Thread {
        &self.threads[&tid]
    }

    pub fn thread_mut(&mut self, tid: u32) -> &mut Thread {
        self.threads.get_mut(&tid).expect("live thread")
    }

    pub fn process_of(&self, tid: u32) -> &Process {
        &self.processes[&self.threads[&tid].pid]
    }

    pub fn process_of_mut(&mut self, tid: u32) -> &mut Process {
        let pid = self.threads[&tid].pid;
        self.processes.get_mut(&pid).expect("live process")
    }

    pub fn space_of(&self, tid: u32) -> &Space {
        &self.spaces[self.process_of(tid).space]
    }

    /// Guest memory granted to all address spaces (fork copies count: their pages may all be written).
    pub fn mapped_total(&self) -> u64 {
        self.spaces.iter().map(|(_, s)| s.mapped).sum()
    }

    pub fn space_of_mut(&mut self, tid: u32) -> &mut Space {
        let s = self.process_of(tid).space;
        &mut self.spaces[s]
    }

    pub fn mem(&self, tid: u32) -> &Memory {
        &self.space_of(tid).mem
    }

    pub fn mem_mut(&mut self, tid: u32) -> &mut Memory {
        &mut self.space_of_mut(tid).mem
    }

    /// Guest bytes the caller passed in (as the kernel's copy_from_user: EFAULT on bad pointers).
    pub fn read_guest(&self, tid: u32, addr: u64, len: usize) -> SysResult<Vec<u8>> {
        let mut buf = vec![0u8; len];
        self.mem(tid).read(addr, &mut buf).map_err(|_| EFAULT)?;
        Ok(buf)
    }

    pub fn write_guest(&mut self, tid: u32, addr: u64, data: &[u8]) -> SysResult<()> {
        self.mem_mut(tid).write(addr, data).map_err(|_| EFAULT)
    }

    pub fn read_u64(&self, tid: u32, addr: u64) -> SysResult<u64> {
        self.mem(tid).read_u64(addr).map_err(|_| EFAULT)
    }

    pub fn write_u32(&mut self, tid: u32, addr: u64, v: u32) -> SysResult<()> {
        self.write_guest(tid, addr, &v.to_le_bytes())
    }

    pub fn write_u64(&mut self, tid: u32, addr: u64, v: u64) -> SysResult<()> {
        self.write_guest(tid, addr, &v.to_le_bytes())
    }

    /// A NUL-terminated string from guest memory (at most 4096 bytes, as PATH_MAX).
    pub fn read_cstring(&self, tid: u32, addr: u64) -> SysResult<Vec<u8>> {
        let mem = self.mem(tid);
        let mut out = vec![];
        let mut a = addr;
        loop {
            let b = mem.read_u8(a).map_err(|_| EFAULT)?;
            if b == 0 {
                return Ok(out);
            }
            out.push(b);
            if out.len() > 131072 {
                return Err(ENAMETOOLONG);
            }
            a += 1;
        }
    }

    pub fn read_path(&self, tid: u32, addr: u64) -> SysResult<String> {
        let bytes = self.read_cstring(tid, addr)?;
        if bytes.len() >= 4096 {
            return Err(ENAMETOOLONG);
        }
        Ok(super::raw_names::from_bytes(&bytes))
    }

    /// A NULL-terminated array of string pointers (argv, envp).
    pub fn read_string_array(&self, tid: u32, mut addr: u64) -> SysResult<Vec<Vec<u8>>> {
        let mut out = vec![];
        if addr == 0 {
            return Ok(out);
        }
        loop {
            let p = self.read_u64(tid, addr)?;
            if p == 0 {
                return Ok(out);
            }
            // Linux's limit on one argument (MAX_ARG_STRLEN) is the string reader's.
            out.push(self.read_cstring(tid, p).map_err(|e| if e == ENAMETOOLONG { E2BIG } else { e })?);
            if out.len() > 65536 {
                return Err(E2BIG);
            }
            addr += 8;
        }
    }

    /// The open file description (index into `files.open`) that descriptor `fd` of the calling
    /// process names; EBADF for a closed one. `fd` is the raw argument register.
    pub fn description_of(&self, tid: u32, fd: u64) -> SysResult<usize> {
        Ok(self.process_of(tid).fds.get(fd as i32)?.file)
    }

    /// The directory a *at call starts from: the process's cwd or the directory `dirfd` names.
    pub fn base_dir(&self, tid: u32, dirfd: i32, path: &str) -> SysResult<String> {
        const AT_FDCWD: i32 = -100;
        if path.starts_with('/') || dirfd == AT_FDCWD {
            return Ok(self.process_of(tid).cwd.clone());
        }
        let d = self.process_of(tid).fds.get(dirfd)?;
        match &self.files.open[d.file].kind {
            FileKind::Dir { walk, .. } => Ok(walk.path.clone()),
            _ => Err(ENOTDIR),
        }
    }

    pub fn resolve_at(&self, tid: u32, dirfd: i32, path: &str, follow: bool) -> SysResult<Walk> {
        let base = self.base_dir(tid, dirfd, path)?;
        self.vfs.resolve(&base, path, follow, self)
    }

    pub fn resolve_parent_at(&self, tid: u32, dirfd: i32, path: &str) -> SysResult<(Walk, String)> {
        let base = self.base_dir(tid, dirfd, path)?;
        self.vfs.resolve_parent(&base, path, self)
    }
}
