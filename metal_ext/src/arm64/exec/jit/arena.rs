//! Executable memory for compiled regions: chunks mapped writable, filled, then made
//! read+execute (never both writable and executable). Freed all at once with the arena.

const CHUNK: usize = 256 * 1024;

pub struct Arena {
    chunks: Vec<(*mut u8, usize)>,
    /// Bytes used in the last chunk.
    used: usize,
}

// SAFETY: the chunks are private mappings only this arena hands out.
unsafe impl Send for Arena {}
unsafe impl Sync for Arena {}

impl Arena {
    pub fn new() -> Arena {
        Arena { chunks: Vec::new(), used: 0 }
    }

    /// Copies `code` into executable memory and returns where it starts; None if the host
    /// refuses the mapping.
    pub fn install(&mut self, code: &[u8]) -> Option<*const u8> {
        let size = code.len().next_multiple_of(64);
        let room = self.chunks.last().map_or(0, |&(_, len)| len - self.used);
        if room < size {
            let len = size.max(CHUNK).next_multiple_of(4096);
            // SAFETY: a fresh anonymous private mapping; checked below.
            let p = unsafe {
                libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0)
            };
            if p == libc::MAP_FAILED {
                return None;
            }
            self.chunks.push((p as *mut u8, len));
            self.used = 0;
        }
        let (base, len) = *self.chunks.last().unwrap();
        // SAFETY: [base, base+len) is our mapping; no code in it runs while it is writable (a
        // cache compiles only between runs of its own regions).
        unsafe {
            if libc::mprotect(base.cast(), len, libc::PROT_READ | libc::PROT_WRITE) != 0 {
                return None;
            }
            let at = base.add(self.used);
            std::ptr::copy_nonoverlapping(code.as_ptr(), at, code.len());
            if libc::mprotect(base.cast(), len, libc::PROT_READ | libc::PROT_EXEC) != 0 {
                return None;
            }
            self.used += size;
            Some(at)
        }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        for &(p, len) in &self.chunks {
            // SAFETY: mapped by `install`; nothing runs from it once the arena is dropped.
            unsafe { libc::munmap(p.cast(), len) };
        }
    }
}
