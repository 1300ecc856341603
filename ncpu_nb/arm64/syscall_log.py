"""The guest's system calls as a table: who asked, what, with which arguments, and what came back."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from ncpu_nb import html

# Linux's generic errno numbers (asm-generic, shared by AArch64); the host's `errno` module may differ.
ERRNO = {1: "EPERM", 2: "ENOENT", 3: "ESRCH", 4: "EINTR", 5: "EIO", 6: "ENXIO", 7: "E2BIG", 8: "ENOEXEC",
         9: "EBADF", 10: "ECHILD", 11: "EAGAIN", 12: "ENOMEM", 13: "EACCES", 14: "EFAULT", 16: "EBUSY",
         17: "EEXIST", 18: "EXDEV", 19: "ENODEV", 20: "ENOTDIR", 21: "EISDIR", 22: "EINVAL", 23: "ENFILE",
         24: "EMFILE", 25: "ENOTTY", 26: "ETXTBSY", 27: "EFBIG", 28: "ENOSPC", 29: "ESPIPE", 30: "EROFS",
         31: "EMLINK", 32: "EPIPE", 33: "EDOM", 34: "ERANGE", 35: "EDEADLK", 36: "ENAMETOOLONG", 37: "ENOLCK",
         38: "ENOSYS", 39: "ENOTEMPTY", 40: "ELOOP", 61: "ENODATA", 75: "EOVERFLOW", 88: "ENOTSOCK",
         89: "EDESTADDRREQ", 90: "EMSGSIZE", 92: "ENOPROTOOPT", 93: "EPROTONOSUPPORT", 94: "ESOCKTNOSUPPORT",
         95: "EOPNOTSUPP", 97: "EAFNOSUPPORT", 98: "EADDRINUSE", 99: "EADDRNOTAVAIL", 101: "ENETUNREACH",
         104: "ECONNRESET", 106: "EISCONN", 107: "ENOTCONN", 110: "ETIMEDOUT", 111: "ECONNREFUSED",
         115: "EINPROGRESS"}
# How many arguments each call takes (the engine logs x0-x5 whatever the call; the rest is noise).
ARITY = {name: n for n, names in {
    0: "sched_yield getpid getppid gettid getuid geteuid getgid getegid setsid rt_sigreturn sync vhangup",
    1: "exit exit_group close chdir fchdir brk set_tid_address umask uname dup sysinfo times getpgid getsid "
       "setuid setgid fsync fdatasync personality epoll_create1",
    2: "pipe2 munmap set_robust_list nanosleep gettimeofday settimeofday clock_gettime clock_getres getrlimit "
       "setrlimit getrusage kill tkill sigaltstack rt_sigpending rt_sigsuspend getgroups setgroups setpgid statfs "
       "fstatfs fstat truncate ftruncate fchmod getitimer flock setreuid setregid umount2 sethostname getcwd "
       "memfd_create capget capset listen shutdown",
    3: "read write readv writev lseek dup3 fcntl ioctl mkdirat unlinkat symlinkat fchmodat faccessat getdents64 "
       "mprotect tgkill getrandom setitimer getresuid getresgid setresuid setresgid madvise msync mincore execve "
       "fchown sched_getaffinity sched_setaffinity socket connect get_robust_list close_range membarrier getcpu "
       "bind accept getsockname getpeername sendmsg recvmsg",
    4: "openat readlinkat newfstatat wait4 prlimit64 pread64 pwrite64 sendfile renameat utimensat clock_nanosleep "
       "rt_sigaction rt_sigprocmask fadvise64 fallocate faccessat2 rseq mknodat socketpair accept4 epoll_ctl",
    5: "statx clone mremap ppoll fchownat linkat renameat2 prctl waitid setsockopt getsockopt",
    6: "mmap futex pselect6 copy_file_range sendto recvfrom epoll_pwait",
}.items() for name in names.split()}
SHOWN_ROWS = 500  # a notebook table of every call of a long run would be megabytes


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def _argument(value: int) -> str:
    signed = _signed(value)
    return str(signed) if -4096 < signed < 4096 else f"0x{value:x}"


@dataclass(frozen=True)
class Syscall:
    pid: int
    number: int
    name: str
    args: tuple[int, ...]
    result: int
    at: int | None = field(default=None, compare=False)  # instructions retired by then (the svc included)

    @property
    def arguments(self) -> tuple[int, ...]:
        """The arguments the call takes (all six registers for a call not in ARITY)."""
        return self.args[:ARITY.get(self.name, 6)]

    def __repr__(self) -> str:
        return f"<Syscall {self}>"

    @property
    def error(self) -> str | None:
        """The errno name when the call failed (results -4095..-1 are errors on Linux)."""
        result = _signed(self.result)
        return ERRNO.get(-result, f"errno {-result}") if -4096 < result < 0 else None

    def __str__(self) -> str:
        shown = f"-1 {self.error}" if self.error else _argument(self.result)
        return f"[{self.pid}] {self.name}({', '.join(_argument(a) for a in self.arguments)}) = {shown}"


class SyscallLog(Sequence):
    """The system calls of a run, oldest first (the engine keeps the most recent ones: `total` counts all).
    `counts()` tallies them by name."""

    def __init__(self, calls, total: int | None = None):
        self._calls = [c if isinstance(c, Syscall) else Syscall(c[0], c[1], c[2], tuple(c[3]), c[4], *c[5:6])
                       for c in calls]
        self.total = len(self._calls) if total is None else total

    def __getitem__(self, i):
        return SyscallLog(self._calls[i]) if isinstance(i, slice) else self._calls[i]

    def __len__(self) -> int:
        return len(self._calls)

    def counts(self) -> Counter:
        return Counter(c.name for c in self._calls)

    def failed(self) -> "SyscallLog":
        return SyscallLog(c for c in self._calls if c.error)

    def filter(self, name: str | Sequence[str] | None = None, pid: int | None = None,
               failed: bool | None = None) -> "SyscallLog":
        """The calls of one name (or any of several), of one process, or that failed (or did not)."""
        names = {name} if isinstance(name, str) else set(name) if name is not None else None
        return SyscallLog(c for c in self._calls if (names is None or c.name in names)
                          and (pid is None or c.pid == pid) and (failed is None or bool(c.error) == failed))

    def timeline(self):
        """The calls over the run (plotly): instruction count across, call name down, one colour per
        process; hover shows each call as strace would."""
        import plotly.graph_objects as go

        fig = go.Figure()
        for pid in sorted({c.pid for c in self._calls}):
            calls = [c for c in self._calls if c.pid == pid and c.at is not None]
            fig.add_trace(go.Scatter(x=[c.at for c in calls], y=[c.name for c in calls], mode="markers",
                                     name=f"pid {pid}", text=[str(c) for c in calls],
                                     marker={"symbol": ["x" if c.error else "circle" for c in calls]},
                                     hovertemplate="%{text}<br>instruction %{x:,}<extra></extra>"))
        fig.update_layout(title=f"System calls over the run ({len(self):,} calls)", xaxis_title="instructions",
                          height=max(300, 22 * len(self.counts()) + 120), yaxis={"categoryorder": "category descending"})
        return fig

    def to_dataframe(self):
        """The log as a pandas DataFrame (pandas must be installed)."""
        import pandas as pd

        return pd.DataFrame([{"pid": c.pid, "nr": c.number, "name": c.name, "args": c.arguments,
                              "result": _signed(c.result), "error": c.error} for c in self._calls])

    def __repr__(self) -> str:
        return f"<SyscallLog of {len(self)} calls>" if self.total == len(self) else \
            f"<SyscallLog: the last {len(self)} of {self.total} calls>"

    def __str__(self) -> str:
        return "\n".join(str(c) for c in self._calls)

    def _repr_html_(self) -> str:
        shown = self._calls[-SHOWN_ROWS:]
        rows = [["" if c.at is None else f"{c.at:,}", str(c.pid), str(c.number), escape(c.name),
                 escape(", ".join(_argument(a) for a in c.arguments)),
                 escape(f"-1 {c.error}" if c.error else _argument(c.result))] for c in shown]
        failed = {i: "hl" for i, c in enumerate(shown) if c.error}
        note = (f"<div class='dim'>the last {len(shown):,} of {self.total:,} calls</div>"
                if self.total > len(shown) else "")
        title = f"System calls: {self.total:,} ({len(self.counts())} distinct, {len(self.failed())} failed)"
        return html.view(title, note, html.table(["instruction #", "pid", "nr", "call", "arguments", "result"], rows,
                                                 failed, numeric=(0, 1, 2)))
