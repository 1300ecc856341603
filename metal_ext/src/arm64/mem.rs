//! Guest memory: 4 KiB pages with permissions, shared copy-on-write between clones so that
//! `snapshot()` and `fork` cost one reference count per page.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

pub const PAGE_SIZE: u64 = 4096;
pub const PAGE_SHIFT: u32 = 12;

pub const READ: u8 = 1;
pub const WRITE: u8 = 2;
pub const EXEC: u8 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Fetch,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemFault {
    pub addr: u64,
    pub access: Access,
    /// false: nothing mapped there; true: mapped without the needed permission.
    pub mapped: bool,
}

#[derive(Clone)]
struct Page {
    data: Arc<[u8; PAGE_SIZE as usize]>,
    perms: u8,
}

/// Page numbers are already well spread; hashing them again only costs time.
#[derive(Default)]
struct PageHasher(u64);

impl Hasher for PageHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 page numbers are hashed")
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[derive(Clone, Default)]
pub struct Memory {
    pages: HashMap<u64, Page, BuildHasherDefault<PageHasher>>,
}

fn page_span(addr: u64, len: u64) -> std::ops::Range<u64> {
    let first = addr >> PAGE_SHIFT;
    let end = addr.saturating_add(len).saturating_add(PAGE_SIZE - 1) >> PAGE_SHIFT;
    first..end
}

impl Memory {
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps zero-filled pages over [addr, addr+len), replacing what was there.
    pub fn map(&mut self, addr: u64, len: u64, perms: u8) {
        for p in page_span(addr, len) {
            self.pages.insert(p, Page { data: Arc::new([0; PAGE_SIZE as usize]), perms });
        }
    }

    pub fn unmap(&mut self, addr: u64, len: u64) {
        for p in page_span(addr, len) {
            self.pages.remove(&p);
        }
    }

    /// Changes permissions of mapped pages; unmapped pages in the range are an error (ENOMEM).
    pub fn protect(&mut self, addr: u64, len: u64, perms: u8) -> Result<(), MemFault> {
        let span = page_span(addr, len);
        if let Some(p) = span.clone().find(|p| !self.pages.contains_key(p)) {
            return Err(MemFault { addr: p << PAGE_SHIFT, access: Access::Write, mapped: false });
        }
        for p in span {
            self.pages.get_mut(&p).unwrap().perms = perms;
        }
        Ok(())
    }

    pub fn is_mapped(&self, addr: u64) -> bool {
        self.pages.contains_key(&(addr >> PAGE_SHIFT))
    }

    pub fn perms(&self, addr: u64) -> Option<u8> {
        self.pages.get(&(addr >> PAGE_SHIFT)).map(|p| p.perms)
    }

    /// Copies bytes out, page by page. `need` is the permission required (0 for the debugger).
    fn read_checked(&self, addr: u64, buf: &mut [u8], need: u8, access: Access) -> Result<(), MemFault> {
        let mut done = 0usize;
        while done < buf.len() {
            let a = addr.wrapping_add(done as u64);
            let page = self.pages.get(&(a >> PAGE_SHIFT)).ok_or(MemFault { addr: a, access, mapped: false })?;
            if page.perms & need != need {
                return Err(MemFault { addr: a, access, mapped: true });
            }
            let off = (a & (PAGE_SIZE - 1)) as usize;
            let n = (PAGE_SIZE as usize - off).min(buf.len() - done);
            buf[done..done + n].copy_from_slice(&page.data[off..off + n]);
            done += n;
        }
        Ok(())
    }

    /// Copies bytes in, un-sharing each touched page first. Nothing is written unless every
    /// page is writable, so a faulting store changes nothing.
    fn write_checked(&mut self, addr: u64, data: &[u8], need: u8) -> Result<(), MemFault> {
        for p in page_span(addr, data.len() as u64) {
            let a = (p << PAGE_SHIFT).max(addr);
            match self.pages.get(&p) {
                None => return Err(MemFault { addr: a, access: Access::Write, mapped: false }),
                Some(page) if page.perms & need != need => {
                    return Err(MemFault { addr: a, access: Access::Write, mapped: true })
                }
                _ => {}
            }
        }
        let mut done = 0usize;
        while done < data.len() {
            let a = addr.wrapping_add(done as u64);
            let page = self.pages.get_mut(&(a >> PAGE_SHIFT)).unwrap();
            let off = (a & (PAGE_SIZE - 1)) as usize;
            let n = (PAGE_SIZE as usize - off).min(data.len() - done);
            Arc::make_mut(&mut page.data)[off..off + n].copy_from_slice(&data[done..done + n]);
            done += n;
        }
        Ok(())
    }

    pub fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        self.read_checked(addr, buf, READ, Access::Read)
    }

    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.write_checked(addr, data, WRITE)
    }

    /// Reads ignoring permissions (debugger, loader, syscalls reading guest buffers they may read).
    pub fn peek(&self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        self.read_checked(addr, buf, 0, Access::Read)
    }

    /// Writes ignoring permissions (loader, debugger).
    pub fn poke(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.write_checked(addr, data, 0)
    }

    pub fn fetch_u32(&self, addr: u64) -> Result<u32, MemFault> {
        let mut b = [0u8; 4];
        self.read_checked(addr, &mut b, EXEC, Access::Fetch)?;
        Ok(u32::from_le_bytes(b))
    }

    pub fn read_u8(&self, addr: u64) -> Result<u8, MemFault> {
        let mut b = [0u8; 1];
        self.read(addr, &mut b)?;
        Ok(b[0])
    }

    pub fn read_u16(&self, addr: u64) -> Result<u16, MemFault> {
        let mut b = [0u8; 2];
        self.read(addr, &mut b)?;
        Ok(u16::from_le_bytes(b))
    }

    pub fn read_u32(&self, addr: u64) -> Result<u32, MemFault> {
        let mut b = [0u8; 4];
        self.read(addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    pub fn read_u64(&self, addr: u64) -> Result<u64, MemFault> {
        let mut b = [0u8; 8];
        self.read(addr, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    pub fn read_u128(&self, addr: u64) -> Result<u128, MemFault> {
        let mut b = [0u8; 16];
        self.read(addr, &mut b)?;
        Ok(u128::from_le_bytes(b))
    }

    pub fn write_u8(&mut self, addr: u64, v: u8) -> Result<(), MemFault> {
        self.write(addr, &[v])
    }

    pub fn write_u16(&mut self, addr: u64, v: u16) -> Result<(), MemFault> {
        self.write(addr, &v.to_le_bytes())
    }

    pub fn write_u32(&mut self, addr: u64, v: u32) -> Result<(), MemFault> {
        self.write(addr, &v.to_le_bytes())
    }

    pub fn write_u64(&mut self, addr: u64, v: u64) -> Result<(), MemFault> {
        self.write(addr, &v.to_le_bytes())
    }

    pub fn write_u128(&mut self, addr: u64, v: u128) -> Result<(), MemFault> {
        self.write(addr, &v.to_le_bytes())
    }

    /// Mapped regions as (start, end, perms), merged where neighbours agree, in address order.
    pub fn regions(&self) -> Vec<(u64, u64, u8)> {
        let mut pages: Vec<(u64, u8)> = self.pages.iter().map(|(&p, page)| (p, page.perms)).collect();
        pages.sort_unstable();
        let mut out: Vec<(u64, u64, u8)> = Vec::new();
        for (p, perms) in pages {
            let start = p << PAGE_SHIFT;
            match out.last_mut() {
                Some(last) if last.1 == start && last.2 == perms => last.1 += PAGE_SIZE,
                _ => out.push((start, start + PAGE_SIZE, perms)),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_pages_until_written() {
        let mut a = Memory::new();
        a.map(0x1000, 0x2000, READ | WRITE);
        a.write_u64(0x1ffc, 0x1122_3344_5566_7788).unwrap(); // crosses a page boundary
        let b = a.clone();
        a.write_u32(0x1ffc, 0).unwrap();
        assert_eq!(b.read_u64(0x1ffc).unwrap(), 0x1122_3344_5566_7788);
        assert_eq!(a.read_u64(0x1ffc).unwrap(), 0x1122_3344_0000_0000);
    }

    #[test]
    fn faulting_store_changes_nothing() {
        let mut m = Memory::new();
        m.map(0x1000, 0x1000, READ | WRITE);
        m.map(0x2000, 0x1000, READ);
        assert_eq!(m.write_u32(0x1ffe, 0xffff_ffff).unwrap_err(),
                   MemFault { addr: 0x2000, access: Access::Write, mapped: true });
        assert_eq!(m.read_u16(0x1ffe).unwrap(), 0);
        assert!(!m.write_u8(0x5000, 1).unwrap_err().mapped);
        assert_eq!(m.fetch_u32(0x1000).unwrap_err().access, Access::Fetch);
    }

    #[test]
    fn regions_merge_neighbours() {
        let mut m = Memory::new();
        m.map(0x1000, 0x3000, READ);
        m.protect(0x3000, 0x1000, READ | EXEC).unwrap();
        assert_eq!(m.regions(), vec![(0x1000, 0x3000, READ), (0x3000, 0x4000, READ | EXEC)]);
    }
}
