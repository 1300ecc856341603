//! Guest memory: 4 KiB pages with permissions, shared copy-on-write between clones so that
//! `snapshot()` and `fork` cost one reference count per page.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
pub(crate) struct PageHasher(u64);

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

/// One entry of the translation cache: where a guest page's bytes live on the host, and for
/// each kind of access a *tag*, the page's address where the page allows it, else `NO_TAG`. An
/// access of `len` bytes at `addr` hits where `(addr + len - 1) & !(PAGE_SIZE - 1)` equals the
/// tag: one comparison checks the page, the permission and that the access stays within the
/// page (one crossing into the next page finds that page's address, which lives in another
/// slot). Compiled code reads it directly (`TLB_READ`, `TLB_WRITE`, `TLB_ADDEND`), hence the
/// fixed layout.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct TlbEntry {
    read: u64,
    /// Writable and held by this Memory alone (so written in place), and not executable
    /// (stores there take the slow path, which renews the code epoch).
    write: u64,
    exec: u64,
    /// The host address of the page's bytes minus the page's guest address.
    addend: usize,
}

pub(crate) const TLB_ENTRIES: usize = 1024;
pub(crate) const TLB_ENTRY_SIZE: usize = std::mem::size_of::<TlbEntry>();
pub(crate) const TLB_READ: usize = std::mem::offset_of!(TlbEntry, read);
pub(crate) const TLB_WRITE: usize = std::mem::offset_of!(TlbEntry, write);
pub(crate) const TLB_ADDEND: usize = std::mem::offset_of!(TlbEntry, addend);
/// Never equal to a page's address (its low bits are not zero).
const NO_TAG: u64 = 1;
const EMPTY: TlbEntry = TlbEntry { read: NO_TAG, write: NO_TAG, exec: NO_TAG, addend: 0 };
/// TLB-only permission: the page's bytes are not shared with a clone, so a store may write them
/// in place without copying.
const OWNED: u8 = 8;
pub(crate) const TLB_OWNED: u8 = OWNED;

/// A guest address range the debugger watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchRange {
    pub addr: u64,
    pub len: u64,
    pub read: bool,
    pub write: bool,
}

/// Guest memory. Instruction fetches, loads and stores go through a small direct-mapped
/// translation cache (`fetch`, `load_bytes`, `store_bytes`) so the hot path costs no hash lookup;
/// everything that changes the page table flushes it.
/// One guest memory access by an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAccess {
    pub addr: u64,
    pub size: u8,
    pub write: bool,
}

pub struct Memory {
    pages: HashMap<u64, Page, BuildHasherDefault<PageHasher>>,
    /// Inline rather than boxed: one dependent load less on every access.
    tlb: [TlbEntry; TLB_ENTRIES],
    /// Set when `clone` shared every page: the OWNED marks in the TLB no longer hold. An atomic
    /// only because `clone` takes `&self`; it is read with plain relaxed loads on the store path.
    shared: AtomicBool,
    watches: Vec<WatchRange>,
    /// While an instruction runs traced: every guest access it makes, (address, size, write).
    access_log: Option<Vec<MemAccess>>,
    /// The closed log's storage, reused by the next one.
    access_spare: Vec<MemAccess>,
    /// Names what the executable pages hold now: a fresh number, unique across all memories,
    /// whenever a page is mapped, unmapped, re-protected or written while executable, and for
    /// every new or cloned memory. Decoded instructions are valid only under the epoch they
    /// were decoded in.
    code_epoch: u64,
}

fn new_code_epoch() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

// SAFETY: the TLB's raw pointers point into pages this Memory holds through `Arc`s, which keep
// them in place while held; entries are flushed whenever a page is dropped or replaced. Bytes
// are written through them only under `&mut self` and only for OWNED pages, and OWNED is revoked
// (`shared`) as soon as a clone shares them, so no other Memory ever sees an in-place write.
unsafe impl Send for Memory {}
unsafe impl Sync for Memory {}

impl Default for Memory {
    fn default() -> Self {
        Memory {
            pages: HashMap::default(),
            tlb: [EMPTY; TLB_ENTRIES],
            shared: AtomicBool::new(false),
            watches: Vec::new(),
            access_log: None,
            access_spare: Vec::new(),
            code_epoch: new_code_epoch(),
        }
    }
}

impl Clone for Memory {
    /// Shares every page copy-on-write; the first store to a page afterwards copies it.
    fn clone(&self) -> Self {
        self.shared.store(true, Ordering::Relaxed);
        Memory { pages: self.pages.clone(), watches: self.watches.clone(), ..Memory::default() }
    }
}

fn page_span(addr: u64, len: u64) -> std::ops::Range<u64> {
    let first = addr >> PAGE_SHIFT;
    let end = addr.saturating_add(len).saturating_add(PAGE_SIZE - 1) >> PAGE_SHIFT;
    first..end
}

/// [addr, addr+len) cut at page boundaries as (address, offset into the range, length); the
/// address wraps at 2^64 like the guest's.
fn chunks(addr: u64, len: usize) -> impl Iterator<Item = (u64, usize, usize)> {
    let mut done = 0usize;
    std::iter::from_fn(move || {
        if done >= len {
            return None;
        }
        let a = addr.wrapping_add(done as u64);
        let n = (PAGE_SIZE as usize - (a & (PAGE_SIZE - 1)) as usize).min(len - done);
        done += n;
        Some((a, done - n, n))
    })
}

#[inline(always)]
fn slot(page: u64) -> usize {
    page as usize & (TLB_ENTRIES - 1)
}

impl Memory {
    pub fn new() -> Self {
        Self::default()
    }

    fn flush_tlb(&mut self) {
        self.tlb.fill(EMPTY);
    }

    /// See `code_epoch`.
    #[inline(always)]
    pub fn code_epoch(&self) -> u64 {
        self.code_epoch
    }

    /// The page table changed over `span`: forget cached translations, and decoded code where
    /// an executable page was there or will be (`to_code`). Mapping and unmapping data (malloc's
    /// large blocks) leaves the decoded and compiled code in place.
    fn remapped(&mut self, span: std::ops::Range<u64>, to_code: bool) {
        self.flush_tlb();
        if to_code || span.into_iter().any(|p| self.pages.get(&p).is_some_and(|page| page.perms & EXEC != 0)) {
            self.code_epoch = new_code_epoch();
        }
    }

    /// Maps zero-filled pages over [addr, addr+len), replacing what was there.
    pub fn map(&mut self, addr: u64, len: u64, perms: u8) {
        self.remapped(page_span(addr, len), perms & EXEC != 0);
        for p in page_span(addr, len) {
            self.pages.insert(p, Page { data: Arc::new([0; PAGE_SIZE as usize]), perms });
        }
    }

    pub fn unmap(&mut self, addr: u64, len: u64) {
        self.remapped(page_span(addr, len), false);
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
        self.remapped(span.clone(), perms & EXEC != 0);
        for p in span {
            self.pages.get_mut(&p).unwrap().perms = perms;
        }
        Ok(())
    }

    /// Bytes of all mapped pages: no read of this memory can be longer.
    pub fn mapped_bytes(&self) -> u64 {
        self.pages.len() as u64 * PAGE_SIZE
    }

    pub fn is_mapped(&self, addr: u64) -> bool {
        self.pages.contains_key(&(addr >> PAGE_SHIFT))
    }

    pub fn perms(&self, addr: u64) -> Option<u8> {
        self.pages.get(&(addr >> PAGE_SHIFT)).map(|p| p.perms)
    }

    /// Copies bytes out, page by page. `need` is the permission required (0 for the debugger).
    fn read_checked(&self, addr: u64, buf: &mut [u8], need: u8, access: Access) -> Result<(), MemFault> {
        for (a, done, n) in chunks(addr, buf.len()) {
            let page = self.pages.get(&(a >> PAGE_SHIFT)).ok_or(MemFault { addr: a, access, mapped: false })?;
            if page.perms & need != need {
                return Err(MemFault { addr: a, access, mapped: true });
            }
            let off = (a & (PAGE_SIZE - 1)) as usize;
            buf[done..done + n].copy_from_slice(&page.data[off..off + n]);
        }
        Ok(())
    }

    /// Copies bytes in, un-sharing each touched page first. Nothing is written unless every
    /// page is writable, so a faulting store changes nothing.
    fn write_checked(&mut self, addr: u64, data: &[u8], need: u8) -> Result<(), MemFault> {
        for (a, _, _) in chunks(addr, data.len()) {
            match self.pages.get(&(a >> PAGE_SHIFT)) {
                None => return Err(MemFault { addr: a, access: Access::Write, mapped: false }),
                Some(page) if page.perms & need != need => {
                    return Err(MemFault { addr: a, access: Access::Write, mapped: true })
                }
                _ => {}
            }
        }
        for (a, done, n) in chunks(addr, data.len()) {
            let p = a >> PAGE_SHIFT;
            // Un-sharing may move the page's bytes: forget where the TLB thought they were.
            self.tlb[slot(p)] = EMPTY;
            let page = self.pages.get_mut(&p).expect("checked above");
            if page.perms & EXEC != 0 {
                self.code_epoch = new_code_epoch();
            }
            let off = (a & (PAGE_SIZE - 1)) as usize;
            Arc::make_mut(&mut page.data)[off..off + n].copy_from_slice(&data[done..done + n]);
        }
        Ok(())
    }

    /// Caches where page `page` lives, if mapped.
    fn fill(&mut self, page: u64) {
        if *self.shared.get_mut() {
            *self.shared.get_mut() = false;
            self.flush_tlb();
        }
        if let Some(p) = self.pages.get_mut(&page) {
            let (data, owned) = match Arc::get_mut(&mut p.data) {
                // Stores to executable pages take the slow path, which renews the code epoch.
                Some(bytes) if p.perms & EXEC == 0 => (bytes.as_mut_ptr(), OWNED),
                Some(bytes) => (bytes.as_mut_ptr(), 0),
                None => (Arc::as_ptr(&p.data) as *mut u8, 0),
            };
            let address = page << PAGE_SHIFT;
            let tag = |need: u8| if (p.perms | owned) & need == need { address } else { NO_TAG };
            self.tlb[slot(page)] = TlbEntry {
                read: tag(READ),
                write: tag(WRITE | OWNED),
                exec: tag(EXEC),
                addend: (data as usize).wrapping_sub(address as usize),
            };
        }
    }

    /// The host address of [addr, addr+len) if the TLB knows its page grants `need` and the
    /// range stays within it.
    #[inline(always)]
    fn cached(&self, addr: u64, len: usize, need: u8) -> Option<*mut u8> {
        let e = &self.tlb[slot(addr >> PAGE_SHIFT)];
        let tag = match need {
            READ => e.read,
            EXEC => e.exec,
            _ => {
                debug_assert_eq!(need, WRITE | OWNED);
                e.write
            }
        };
        let last = addr.wrapping_add(len.max(1) as u64 - 1);
        if last & !(PAGE_SIZE - 1) == tag {
            Some(e.addend.wrapping_add(addr as usize) as *mut u8)
        } else {
            None
        }
    }

    /// Fetches an instruction word (needs EXEC).
    #[inline(always)]
    pub fn fetch(&mut self, addr: u64) -> Result<u32, MemFault> {
        if let Some(p) = self.cached(addr, 4, EXEC) {
            // SAFETY: `cached` checked the 4 bytes lie in a live page.
            return Ok(u32::from_le(unsafe { p.cast::<u32>().read_unaligned() }));
        }
        self.fetch_slow(addr)
    }

    #[cold]
    #[inline(never)]
    fn fetch_slow(&mut self, addr: u64) -> Result<u32, MemFault> {
        self.fill(addr >> PAGE_SHIFT);
        self.fetch_u32(addr)
    }

    /// A guest load (needs READ), through the TLB.
    #[inline(always)]
    pub fn load_bytes(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        if let Some(p) = self.cached(addr, buf.len(), READ) {
            // SAFETY: `cached` checked the range lies in a live page; buf is a distinct host buffer.
            unsafe { std::ptr::copy_nonoverlapping(p, buf.as_mut_ptr(), buf.len()) };
            return Ok(());
        }
        self.load_slow(addr, buf)
    }

    #[cold]
    #[inline(never)]
    fn load_slow(&mut self, addr: u64, buf: &mut [u8]) -> Result<(), MemFault> {
        self.fill(addr >> PAGE_SHIFT);
        self.read(addr, buf)
    }

    /// A guest store (needs WRITE), all or nothing, through the TLB.
    #[inline(always)]
    pub fn store_bytes(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        if !*self.shared.get_mut() {
            if let Some(p) = self.cached(addr, data.len(), WRITE | OWNED) {
                // SAFETY: the page is live, writable and held by this Memory alone (OWNED, and no
                // clone since the entry was made), so nobody else can observe the write.
                unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len()) };
                return Ok(());
            }
        }
        self.store_slow(addr, data)
    }

    #[cold]
    #[inline(never)]
    fn store_slow(&mut self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.write(addr, data)?;
        self.fill(addr >> PAGE_SHIFT);
        Ok(())
    }

    /// A guest load of `SIZE` (1, 2, 4, 8 or 16) bytes when the TLB already grants it and no
    /// watchpoint is set nor access log open; None sends the caller to the general path (`load_bytes`).
    #[inline(always)]
    pub fn load_cached<const SIZE: usize>(&self, addr: u64) -> Option<u128> {
        if self.watching() {
            return None;
        }
        let p = self.cached(addr, SIZE, READ)?;
        // SAFETY: `cached` checked the SIZE bytes lie in a live page.
        Some(unsafe {
            match SIZE {
                1 => p.read() as u128,
                2 => u16::from_le(p.cast::<u16>().read_unaligned()) as u128,
                4 => u32::from_le(p.cast::<u32>().read_unaligned()) as u128,
                8 => u64::from_le(p.cast::<u64>().read_unaligned()) as u128,
                _ => u128::from_le(p.cast::<u128>().read_unaligned()),
            }
        })
    }

    /// A guest store of the low `SIZE` (1, 2, 4, 8 or 16) bytes of `v` when the TLB lets it
    /// write in place and no watchpoint is set nor access log open; false sends the caller to the general path.
    #[inline(always)]
    pub fn store_cached<const SIZE: usize>(&mut self, addr: u64, v: u128) -> bool {
        if self.watching() || *self.shared.get_mut() {
            return false;
        }
        let Some(p) = self.cached(addr, SIZE, WRITE | OWNED) else {
            return false;
        };
        // SAFETY: as in `store_bytes`: live, writable and held by this Memory alone.
        unsafe {
            match SIZE {
                1 => p.write(v as u8),
                2 => p.cast::<u16>().write_unaligned((v as u16).to_le()),
                4 => p.cast::<u32>().write_unaligned((v as u32).to_le()),
                8 => p.cast::<u64>().write_unaligned((v as u64).to_le()),
                _ => p.cast::<u128>().write_unaligned(v.to_le()),
            }
        }
        true
    }

    /// Watches [addr, addr+len) for guest reads and/or writes (replacing the flags of an
    /// identical range). Instructions that would touch it stop before executing.
    pub fn watch(&mut self, addr: u64, len: u64, read: bool, write: bool) {
        self.unwatch(addr, len);
        if len > 0 && (read || write) {
            self.watches.push(WatchRange { addr, len, read, write });
        }
    }

    /// Removes the watch on exactly [addr, addr+len); returns whether there was one.
    pub fn unwatch(&mut self, addr: u64, len: u64) -> bool {
        let before = self.watches.len();
        self.watches.retain(|w| (w.addr, w.len) != (addr, len));
        self.watches.len() != before
    }

    /// Runs `f` with the watchpoints set aside: how a debugger executes the instruction that
    /// stopped at one.
    pub fn without_watchpoints<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = std::mem::take(&mut self.watches);
        let r = f(self);
        self.watches = saved;
        r
    }

    /// The translation cache for compiled code to read, or None while a watchpoint is set
    /// (every access must then be checked). Compiled code writes in place only where an entry
    /// says OWNED, so an entry made before a clone shared the pages must go first.
    pub(crate) fn tlb_for_compiled_code(&mut self) -> Option<*const TlbEntry> {
        if self.watching() {
            return None;
        }
        if *self.shared.get_mut() {
            *self.shared.get_mut() = false;
            self.flush_tlb();
        }
        Some(self.tlb.as_ptr())
    }

    pub fn watchpoints(&self) -> &[WatchRange] {
        &self.watches
    }

    /// Whether guest accesses must be looked at (`note_access`): watchpoints set, or a log open.
    #[inline(always)]
    pub fn watching(&self) -> bool {
        !self.watches.is_empty() || self.access_log.is_some()
    }

    /// Logs a guest access if a log is open; whether it touches a watched range.
    pub fn note_access(&mut self, addr: u64, len: u64, write: bool) -> bool {
        if let Some(log) = &mut self.access_log {
            log.push(MemAccess { addr, size: len as u8, write });
        }
        self.watch_hit(addr, len, write)
    }

    /// Opens an empty access log (the traced loop, before each instruction).
    pub fn open_access_log(&mut self) {
        let mut log = std::mem::take(&mut self.access_spare);
        log.clear();
        self.access_log = Some(log);
    }

    /// Closes the log (accesses are no longer looked at for it) and returns what it holds.
    pub fn close_access_log(&mut self) -> &[MemAccess] {
        if let Some(log) = self.access_log.take() {
            self.access_spare = log;
        }
        &self.access_spare
    }

    /// Whether a guest access of `len` bytes at `addr` touches a range watched for its kind.
    pub fn watch_hit(&self, addr: u64, len: u64, write: bool) -> bool {
        let end = addr.wrapping_add(len);
        self.watches.iter().any(|w| {
            (if write { w.write } else { w.read }) && addr < w.addr.wrapping_add(w.len) && w.addr < end
        })
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
    fn only_changes_to_executable_pages_renew_the_code_epoch() {
        let mut m = Memory::new();
        m.map(0x1000, 0x1000, READ | EXEC);
        let code = m.code_epoch();
        m.map(0x10_0000, 0x4000, READ | WRITE);
        m.protect(0x10_0000, 0x1000, READ).unwrap();
        m.unmap(0x10_0000, 0x4000);
        assert_eq!(m.code_epoch(), code, "data mappings");
        for change in 0..4 {
            let before = m.code_epoch();
            match change {
                0 => m.protect(0x1000, 0x1000, READ).unwrap(),
                1 => m.protect(0x1000, 0x1000, READ | EXEC).unwrap(),
                2 => m.map(0x1000, 0x1000, READ | WRITE),
                _ => {
                    m.map(0x1000, 0x1000, READ | EXEC);
                    let again = m.code_epoch();
                    m.unmap(0, 0x3000);
                    assert_ne!(m.code_epoch(), again, "unmapping code");
                }
            }
            assert_ne!(m.code_epoch(), before, "change {change}");
        }
    }

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
