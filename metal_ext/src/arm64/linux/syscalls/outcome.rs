//! What a system call handler gives back to the dispatcher. It lives apart from the dispatcher
//! (mod.rs) so that the handlers, which all return it, need not import their parent.

use crate::arm64::linux::errno::Errno;
use crate::arm64::linux::process::Wait;

/// What a system call did.
pub enum Outcome {
    /// Finished: the value (or negative errno) goes into x0.
    Return(i64),
    /// Must wait; the `svc` runs again when the wait is over.
    Block(Wait),
    /// Returns the value, but the thread waits before it goes on (a vfork parent).
    Suspend(Wait, i64),
    /// Registers were set by the call itself (execve, rt_sigreturn, exit).
    Done,
}

pub type Flow = Result<Outcome, Errno>;

/// A successful return of `v`.
pub fn value(v: u64) -> Outcome {
    Outcome::Return(v as i64)
}
