//! Executable memory for compiled regions. Each region gets pages of its own, mapped writable,
//! filled, then made read+execute (never both): other threads may be running code from every
//! page already handed out, so none of those is ever made writable again.

pub struct Arena {
    maps: Vec<(*mut u8, usize)>,
    /// Bytes mapped so far.
    pub mapped: usize,
    /// Regions installed so far.
    count: usize,
}

// SAFETY: the mappings are private and only read (executed) once installed.
unsafe impl Send for Arena {}
unsafe impl Sync for Arena {}

impl Arena {
    pub fn new() -> Arena {
        Arena { maps: Vec::new(), mapped: 0, count: 0 }
    }

    /// Copies `code` into executable memory and returns where it starts; None if the host
    /// refuses the mapping.
    pub fn install(&mut self, code: &[u8]) -> Option<*const u8> {
        // Regions start at different cache lines of their pages: all at offset 0, the first
        // lines of every hot region would compete for the same few sets of the instruction cache.
        let start = (self.count * 7 % 64) * 64;
        self.count += 1;
        let len = (start + code.len()).max(1).next_multiple_of(4096);
        // SAFETY: a fresh anonymous private mapping, written before anything can run from it.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return None;
            }
            self.maps.push((p.cast(), len));
            self.mapped += len;
            std::ptr::copy_nonoverlapping(code.as_ptr(), p.cast::<u8>().add(start), code.len());
            if libc::mprotect(p, len, libc::PROT_READ | libc::PROT_EXEC) != 0 {
                return None;
            }
            Some(p.cast::<u8>().add(start) as *const u8)
        }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        for &(p, len) in &self.maps {
            // SAFETY: mapped by `install`; nothing runs from it once the arena is dropped.
            unsafe { libc::munmap(p.cast(), len) };
        }
    }
}
