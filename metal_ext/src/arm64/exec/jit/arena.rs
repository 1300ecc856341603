//! Executable memory for compiled regions, never writable and executable at once: other threads
//! may be running code from everything already handed out.
//!
//! On Linux regions are packed one after another into chunks of a memory file mapped twice, a
//! writable view to copy code in and an executable one to run it: a region takes the bytes it
//! needs rather than a page of its own. Elsewhere (or if the host refuses) each region gets pages
//! of its own, mapped writable, filled, then made read+execute.

/// Bytes of one chunk.
const CHUNK: usize = 4 << 20;
/// Where regions start within a chunk: a whole cache line each.
const ALIGN: usize = 64;

struct Chunk {
    write: *mut u8,
    exec: *const u8,
    used: usize,
}

pub struct Arena {
    /// Every mapping made, to unmap on drop.
    maps: Vec<(*mut u8, usize)>,
    chunk: Option<Chunk>,
    /// Whether chunks work here (cleared on the first refusal).
    packing: bool,
    /// Regions installed in pages of their own.
    alone: usize,
    /// Bytes of executable memory mapped so far.
    pub mapped: usize,
}

// SAFETY: the mappings are private to this arena, and its executable views are only read (run)
// once installed.
unsafe impl Send for Arena {}
unsafe impl Sync for Arena {}

impl Arena {
    pub fn new() -> Arena {
        Arena { maps: Vec::new(), chunk: None, packing: cfg!(target_os = "linux"), alone: 0, mapped: 0 }
    }

    /// Copies `code` into executable memory and returns where it starts; None if the host
    /// refuses the mapping.
    pub fn install(&mut self, code: &[u8]) -> Option<*const u8> {
        if self.packing && code.len() <= CHUNK {
            if self.chunk.as_ref().is_none_or(|c| c.used + code.len() > CHUNK) {
                self.chunk = self.new_chunk();
                self.packing = self.chunk.is_some();
            }
            if let Some(c) = &mut self.chunk {
                // SAFETY: [used, used + len) lies within the chunk, and nothing runs from it yet.
                let at = unsafe {
                    std::ptr::copy_nonoverlapping(code.as_ptr(), c.write.add(c.used), code.len());
                    c.exec.add(c.used)
                };
                c.used = (c.used + code.len()).next_multiple_of(ALIGN);
                return Some(at);
            }
        }
        self.install_alone(code)
    }

    #[cfg(target_os = "linux")]
    fn new_chunk(&mut self) -> Option<Chunk> {
        // SAFETY: a fresh memory file mapped twice; the views are used only through this arena.
        unsafe {
            let fd = libc::memfd_create(c"ncpu-nb-compiled-code".as_ptr(), libc::MFD_CLOEXEC);
            if fd < 0 {
                return None;
            }
            let view = |prot| libc::mmap(std::ptr::null_mut(), CHUNK, prot, libc::MAP_SHARED, fd, 0);
            let sized = libc::ftruncate(fd, CHUNK as libc::off_t) == 0;
            let write = if sized { view(libc::PROT_READ | libc::PROT_WRITE) } else { libc::MAP_FAILED };
            let exec = if write != libc::MAP_FAILED { view(libc::PROT_READ | libc::PROT_EXEC) } else { libc::MAP_FAILED };
            libc::close(fd);
            for p in [write, exec] {
                if p != libc::MAP_FAILED {
                    self.maps.push((p.cast(), CHUNK));
                }
            }
            if exec == libc::MAP_FAILED {
                return None;
            }
            self.mapped += CHUNK;
            Some(Chunk { write: write.cast(), exec: exec.cast(), used: 0 })
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn new_chunk(&mut self) -> Option<Chunk> {
        None
    }

    fn install_alone(&mut self, code: &[u8]) -> Option<*const u8> {
        // Regions start at different cache lines of their pages: all at offset 0, the first
        // lines of every hot region would compete for the same few sets of the instruction cache.
        let start = (self.alone * 7 % 64) * ALIGN;
        self.alone += 1;
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
            // SAFETY: mapped by this arena; nothing runs from it once the arena is dropped.
            unsafe { libc::munmap(p.cast(), len) };
        }
    }
}
