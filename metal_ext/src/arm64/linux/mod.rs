//! The Linux layer of the Metal machine: ELF loading, the start-up stack, an in-memory
//! filesystem with /proc and host mounts, processes, signals, system calls and the machine that
//! runs them all.

pub mod access;
pub mod coverage;
pub mod elf;
pub mod errno;
pub mod fd;
pub mod framebuffer;
pub mod hostfs;
pub mod inflight;
pub mod inode;
pub mod jobs;
pub mod limits;
pub mod lifecycle;
pub mod machine;
pub mod observation;
pub mod process;
pub mod profile;
pub mod proc_view;
pub mod procfs;
pub mod raw_names;
#[cfg(test)]
mod random_ops;
pub mod rootfs;
pub mod signals;
pub mod slab;
pub mod socket;
pub mod stack;
pub mod syscalls;
pub mod trace;
pub mod tty;
pub mod vfs;
