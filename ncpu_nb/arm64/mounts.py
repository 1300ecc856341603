"""Host folders the guest may see: `HOST:GUEST[:ro|rw]` specs, read-only unless `rw` is asked for."""
from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path

from ncpu_nb.arm64.machine_errors import MountError

MODES = {"ro": False, "rw": True}


@dataclass(frozen=True)
class Mount:
    """The host folder `host` appears in the guest at `guest` (an absolute guest path)."""

    host: str
    guest: str
    writable: bool = False

    def __str__(self) -> str:
        return f"{self.host}:{self.guest}:{'rw' if self.writable else 'ro'}"


def parse_mount(spec) -> Mount:
    """A `Mount` from 'HOST:GUEST', 'HOST:GUEST:ro', 'HOST:GUEST:rw', a (host, guest[, writable]) tuple
    (writable: True, False, 'rw' or 'ro') or a Mount. The host folder must exist; the guest path must
    be absolute and not `/` itself."""
    if isinstance(spec, Mount):
        host, guest, writable = spec.host, spec.guest, spec.writable
    elif isinstance(spec, tuple) and len(spec) in (2, 3):
        host, guest, writable = str(spec[0]), str(spec[1]), _writable(spec, *spec[2:])
    elif isinstance(spec, (str, Path)):
        host, guest, writable = _split(str(spec))
    else:
        raise MountError(f"a mount is 'HOST:GUEST[:ro|rw]' or a (host, guest[, writable]) tuple, not {spec!r}")
    if not host:
        raise MountError(f"mount {spec!r}: the host folder is empty")
    if not guest.startswith("/"):
        raise MountError(f"mount {spec!r}: the guest path {guest!r} must be absolute (start with /)")
    guest = posixpath.normpath(guest)
    if guest in ("/", "//"):
        raise MountError(f"mount {spec!r}: cannot mount over the guest's root /; pick a folder such as /mnt/data")
    path = Path(host).expanduser()
    if not path.is_dir():
        what = "is not a folder" if path.exists() else "does not exist"
        raise MountError(f"mount {spec!r}: the host folder {host!r} {what}")
    return Mount(str(path.resolve()), guest, writable)


def _writable(spec: tuple, mode=False) -> bool:
    # Only these: bool("ro") is True, so a truthiness test would make 'ro' read-write.
    if isinstance(mode, bool):
        return mode
    if isinstance(mode, str) and mode in MODES:
        return MODES[mode]
    raise MountError(f"mount {spec!r}: the third item (writable) is {mode!r}; use True or 'rw' (read-write), "
                     "False or 'ro' (read-only, the default)")


def _split(spec: str) -> tuple[str, str, bool]:
    # From the right: the host part may itself hold a colon (C:\data on Windows); the guest part never does.
    rest, writable = spec, False
    head, sep, last = spec.rpartition(":")
    if sep and last in MODES and ":" in head:
        rest, writable = head, MODES[last]
    elif sep and last and not last.startswith("/") and ":" in head:
        raise MountError(f"mount {spec!r}: unknown mode {last!r}; use ro (read-only, the default) or rw")
    host, sep, guest = rest.rpartition(":")
    if not sep:
        raise MountError(f"mount {spec!r}: expected HOST:GUEST[:ro|rw], e.g. ./data:/mnt/data:rw")
    return host, guest, writable


def parse_mounts(specs) -> list[Mount]:
    """Every spec parsed; one guest path may be mounted once."""
    mounts = [parse_mount(s) for s in ([specs] if isinstance(specs, (str, Path, Mount)) else specs or ())]
    seen = set()
    for m in mounts:
        if m.guest in seen:
            raise MountError(f"{m.guest} is mounted twice")
        seen.add(m.guest)
    return mounts
