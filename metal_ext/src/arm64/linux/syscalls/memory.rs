//! Memory system calls: the program break, anonymous and file mappings, protection changes.

use super::outcome::{value, Flow};
use crate::arm64::linux::errno::*;
use crate::arm64::linux::fd::FileKind;
use crate::arm64::linux::inode::{Device, Node};
use crate::arm64::linux::machine::Machine;
use crate::arm64::linux::process::Space;
use crate::arm64::mem::{EXEC, PAGE_SIZE, READ, WRITE};

const PROT_READ: u64 = 1;
const PROT_WRITE: u64 = 2;
const PROT_EXEC: u64 = 4;
const MAP_FIXED: u64 = 0x10;
const MAP_ANONYMOUS: u64 = 0x20;
const MAP_FIXED_NOREPLACE: u64 = 0x10_0000;
const MREMAP_MAYMOVE: u64 = 1;
const MREMAP_FIXED: u64 = 2;
/// Address space a process may use: 47 bits, as the kernel's default for AArch64 user space.
const USER_TOP: u64 = 1 << 47;
/// The program break may grow this far past its start.
const BRK_LIMIT: u64 = 1 << 30;
/// Largest single mapping: guest pages are host memory as soon as they are mapped.
const MAP_LIMIT: u64 = 1 << 30;

/// Bytes the address space of `tid` may hold: the machine's memory limit less what the other
/// spaces and the kernel side's buffers hold.
fn allowance(m: &Machine, tid: u32) -> u64 {
    let own = m.space_of(tid).mapped;
    m.limits.memory.saturating_sub(m.mapped_total() - own + m.files.net.memory.used())
}

/// Accounts for `grow` more bytes in the space (ENOMEM past its allowance).
fn grant(s: &mut Space, grow: u64, allowance: u64) -> SysResult<()> {
    if s.mapped + grow > allowance {
        return Err(ENOMEM);
    }
    s.mapped += grow;
    Ok(())
}

fn perms(prot: u64) -> u8 {
    (if prot & PROT_READ != 0 { READ } else { 0 })
        | (if prot & PROT_WRITE != 0 { WRITE } else { 0 })
        | (if prot & PROT_EXEC != 0 { EXEC } else { 0 })
}

fn page_up(n: u64) -> Option<u64> {
    n.checked_add(PAGE_SIZE - 1).map(|v| v & !(PAGE_SIZE - 1))
}

pub fn brk(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let allowance = allowance(m, tid);
    let s = m.space_of_mut(tid);
    let want = a[0];
    if want < s.brk_start || want > s.brk_start + BRK_LIMIT {
        return Ok(value(s.brk));
    }
    let (old_end, new_end) = (page_up(s.brk).unwrap(), page_up(want).unwrap());
    if new_end > old_end {
        if (old_end..new_end).step_by(PAGE_SIZE as usize).any(|p| s.mem.is_mapped(p))
            || grant(s, new_end - old_end, allowance).is_err()
        {
            return Ok(value(s.brk));
        }
        s.mem.map(old_end, new_end - old_end, READ | WRITE);
    } else if new_end < old_end {
        s.mem.unmap(new_end, old_end - new_end);
        s.mapped = s.mapped.saturating_sub(old_end - new_end);
    }
    s.brk = want;
    Ok(value(want))
}

/// A free range of `len` bytes below the space's mmap cursor.
fn find_free(s: &mut Space, len: u64) -> SysResult<u64> {
    let mut top = s.mmap_next;
    loop {
        let start = top.checked_sub(len).ok_or(ENOMEM)?;
        if start < s.brk_start + BRK_LIMIT {
            return Err(ENOMEM);
        }
        match (start / PAGE_SIZE..top / PAGE_SIZE).rev().map(|p| p * PAGE_SIZE).find(|&p| s.mem.is_mapped(p)) {
            Some(used) => top = used,
            None => {
                s.mmap_next = start;
                return Ok(start);
            }
        }
    }
}

pub fn mmap(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (addr, len, prot, flags, fd, offset) = (a[0], a[1], a[2], a[3], a[4] as i32, a[5]);
    let len = page_up(len).filter(|&l| l > 0 && l < USER_TOP).ok_or(EINVAL)?;
    if len > MAP_LIMIT {
        return Err(ENOMEM);
    }
    if !offset.is_multiple_of(PAGE_SIZE) || !addr.is_multiple_of(PAGE_SIZE) && flags & (MAP_FIXED | MAP_FIXED_NOREPLACE) != 0 {
        return Err(EINVAL);
    }
    let allowance = allowance(m, tid);
    // The file's bytes the mapping shows: (data, where the mapping starts in it).
    let contents = if flags & MAP_ANONYMOUS != 0 {
        None
    } else {
        let d = m.process_of(tid).fds.get(fd)?;
        let f = &m.files.open[d.file];
        match &f.kind {
            FileKind::Mem(ino) => match &m.vfs.inode(*ino).node {
                Node::File(data) => Some((data.clone(), offset)),
                _ => return Err(EACCES),
            },
            FileKind::Host { file, .. } => {
                // Only the mapped range is read, and only once it is known to fit: a host buffer
                // sized by the guest's offset or length must never be allocated first.
                use std::os::unix::fs::FileExt;
                if m.space_of(tid).mapped + len > allowance {
                    return Err(ENOMEM);
                }
                let mut buf = vec![0u8; len as usize];
                let n = file.read_at(&mut buf, offset)?;
                buf.truncate(n);
                Some((std::sync::Arc::new(buf), 0))
            }
            FileKind::Generated(data) => Some((data.clone(), offset)),
            FileKind::Device(Device::Framebuffer, _) => return Err(ENODEV),
            FileKind::Device(..) => None,
            _ => return Err(EACCES),
        }
    };
    let s = m.space_of_mut(tid);
    let start = if flags & (MAP_FIXED | MAP_FIXED_NOREPLACE) != 0 {
        if addr.checked_add(len).is_none_or(|e| e > USER_TOP) {
            return Err(ENOMEM);
        }
        if flags & MAP_FIXED_NOREPLACE != 0 && (addr..addr + len).step_by(PAGE_SIZE as usize).any(|p| s.mem.is_mapped(p)) {
            return Err(EEXIST);
        }
        addr
    } else {
        find_free(s, len)?
    };
    grant(s, len, allowance)?;
    s.mem.map(start, len, perms(prot));
    if let Some((data, from)) = contents {
        let from = from.min(data.len() as u64) as usize;
        let to = from + (len as usize).min(data.len() - from);
        s.mem.poke(start, &data[from..to]).expect("pages were just mapped");
    }
    Ok(value(start))
}

/// A page-aligned range inside the user address space, as munmap and mprotect require.
fn user_range(addr: u64, len: u64) -> SysResult<u64> {
    let len = page_up(len).ok_or(EINVAL)?;
    if !addr.is_multiple_of(PAGE_SIZE) || addr.checked_add(len).is_none_or(|end| end > USER_TOP) {
        return Err(EINVAL);
    }
    Ok(len)
}

pub fn munmap(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    if a[1] == 0 {
        return Err(EINVAL);
    }
    let len = user_range(a[0], a[1])?;
    let s = m.space_of_mut(tid);
    s.mem.unmap(a[0], len);
    s.mapped = s.mapped.saturating_sub(len);
    Ok(value(0))
}

pub fn mprotect(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let len = user_range(a[0], a[1])?;
    m.space_of_mut(tid).mem.protect(a[0], len, perms(a[2])).map_err(|_| ENOMEM)?;
    Ok(value(0))
}

pub fn mremap(m: &mut Machine, tid: u32, a: [u64; 6]) -> Flow {
    let (old, old_len, flags) = (a[0], page_up(a[1]).ok_or(EINVAL)?, a[3]);
    let new_len = page_up(a[2]).filter(|&l| l > 0).ok_or(EINVAL)?;
    if new_len > MAP_LIMIT {
        return Err(ENOMEM);
    }
    if flags & MREMAP_FIXED != 0 {
        return Err(EINVAL);
    }
    user_range(old, old_len.max(new_len))?;
    let allowance = allowance(m, tid);
    let s = m.space_of_mut(tid);
    let prot = s.mem.perms(old).ok_or(EFAULT)?;
    if new_len <= old_len {
        s.mem.unmap(old + new_len, old_len - new_len);
        s.mapped = s.mapped.saturating_sub(old_len - new_len);
        return Ok(value(old));
    }
    let grow_in_place = (old + old_len..old + new_len).step_by(PAGE_SIZE as usize).all(|p| !s.mem.is_mapped(p));
    if !grow_in_place && flags & MREMAP_MAYMOVE == 0 {
        return Err(ENOMEM);
    }
    grant(s, new_len - old_len, allowance)?;
    if grow_in_place {
        s.mem.map(old + old_len, new_len - old_len, prot);
        return Ok(value(old));
    }
    let Ok(start) = find_free(s, new_len) else {
        s.mapped -= new_len - old_len;
        return Err(ENOMEM);
    };
    let mut data = vec![0u8; old_len as usize];
    s.mem.peek(old, &mut data).map_err(|_| EFAULT)?;
    s.mem.map(start, new_len, prot);
    s.mem.poke(start, &data).expect("pages were just mapped");
    s.mem.unmap(old, old_len);
    Ok(value(start))
}
