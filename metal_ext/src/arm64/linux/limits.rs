//! What one machine may take of the host. Guest memory, in-memory files and tasks are host memory;
//! past a limit the guest gets the error Linux gives (ENOMEM, ENOSPC, EAGAIN) and the host goes on.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of guest memory granted by brk, mmap and mremap and copied by fork, over all
    /// address spaces, and of the kernel side's buffers (`KernelMemory`).
    pub memory: u64,
    /// Bytes held by the files of the in-memory filesystem (/tmp and the rest of the root).
    pub file_bytes: u64,
    /// Threads over all processes; clone fails with EAGAIN past it. (A sleeping BusyBox process
    /// costs the host about 3 MB: its decoded code and translation cache.)
    pub tasks: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { memory: 4 << 30, file_bytes: 1 << 30, tasks: 256 }
    }
}

/// Host memory held on the kernel side for the guest: socket and pipe queues, descriptions in
/// flight, epoll entries. One counter for the machine, sharing `Limits::memory` with guest pages:
/// `limit` is what the pages leave, refreshed at every system call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelMemory {
    used: u64,
    pub limit: u64,
}

impl Default for KernelMemory {
    fn default() -> Self {
        KernelMemory { used: 0, limit: Limits::default().memory }
    }
}

impl KernelMemory {
    pub fn used(&self) -> u64 {
        self.used
    }

    /// Bytes that may still be charged.
    pub fn room(&self) -> u64 {
        self.limit.saturating_sub(self.used)
    }

    /// Takes `n` bytes if they fit; false (nothing taken) if not.
    pub fn charge(&mut self, n: u64) -> bool {
        let fits = n <= self.room();
        if fits {
            self.used += n;
        }
        fits
    }

    pub fn release(&mut self, n: u64) {
        self.used -= n;
    }
}
