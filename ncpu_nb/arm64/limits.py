"""What one AArch64 machine may take of the host. Guest memory, in-memory files and processes are
host memory: past a limit the guest gets the error Linux gives (ENOMEM; ENOSPC or EFBIG; EAGAIN
from fork) and the host goes on."""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from ncpu_nb.arm64.limit_defaults import DEFAULT_MAX_PROCS, DEFAULT_MEMORY, DEFAULT_TMPFS_SIZE

_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(text: str | int) -> int:
    """Bytes from 4096, '512M', '1G' or '2GiB' (binary units)."""
    if isinstance(text, int):
        return text
    match = re.fullmatch(r"\s*(\d+)\s*([kmgt]?)(?:i?b)?\s*", str(text), re.IGNORECASE)
    if not match:
        raise ValueError(f"not a size: {text!r} (try 4096, 512M or 1G)")
    return int(match[1]) * _UNITS[match[2].lower()]


@dataclass(frozen=True)
class Limits:
    """memory      bytes of guest memory (brk, mmap, fork copies) over all processes, and of the kernel
                side's socket and pipe buffers, descriptors in flight and epoll entries (default 4 GiB)
    tmpfs_size  bytes the in-memory filesystem's files may hold: /tmp and the rest (default 1 GiB)
    max_procs   threads over all processes (default 256; a sleeping BusyBox costs the host ~3 MB)"""

    memory: int = DEFAULT_MEMORY
    tmpfs_size: int = DEFAULT_TMPFS_SIZE
    max_procs: int = DEFAULT_MAX_PROCS

    def __post_init__(self):
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 1 << 64:
                raise ValueError(f"Limits.{name} must be a positive integer below 2**64 (the engine's), not {value!r}")

    @classmethod
    def of(cls, value: Limits | dict | None) -> Limits:
        """Limits from None (the defaults), a Limits or a dict of some fields (sizes as text allowed)."""
        if value is None:
            return cls()
        if isinstance(value, Limits):
            return value
        fields = dict(value)
        for name in ("memory", "tmpfs_size"):
            if name in fields:
                fields[name] = parse_size(fields[name])
        return cls(**fields)

    def engine_options(self) -> dict:
        return {"memory_limit": self.memory, "file_limit": self.tmpfs_size, "task_limit": self.max_procs}
