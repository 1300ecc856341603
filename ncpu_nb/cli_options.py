"""What the command line's commands share (`cli.py`, `cli_checks.py`): the bounds on files a command
reads whole, the `--ray` option and the local Ray's lifetime around a command, and a guest's own arguments."""
from __future__ import annotations

import os
import stat

from ncpu_nb.errors import NcpuError

MAX_TEXT_FILE = 16 << 20  # bytes of a text file a command reads whole: a source, a spec, a report
MAX_STDIN_FILE = 256 << 20  # bytes of a file given as a guest's whole standard input


def user_file(path: str, limit: int = MAX_TEXT_FILE) -> str:
    """`path`, once it is known to be a regular file of at most `limit` bytes: a device (/dev/zero) or a
    huge file would otherwise be read until the host runs out of memory."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise NcpuError(f"cannot read {path}: {exc.strerror}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise NcpuError(f"{path}: not a regular file")
    if info.st_size > limit:
        raise NcpuError(f"{path}: {info.st_size:,} bytes, more than the {limit >> 20} MiB it may have")
    return path


class ray_for:
    """Around a command's work: a local Ray it started (`--ray`) is stopped when it ends; one that ran
    before it (e.g. in a notebook) keeps running. (A class: contextlib would cost every start.)"""

    def __init__(self, args):
        self.ray = args.ray

    def __enter__(self):
        from ncpu_nb.sweeps import running

        self.was_running = bool(self.ray) and running()

    def __exit__(self, *exc):
        if self.ray and not self.was_running:
            from ncpu_nb.sweeps import shutdown

            shutdown()


def add_ray_option(p, what: str) -> None:
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help=f"run {what} as Ray tasks: alone, on a local Ray started on this machine; with an "
                        "address (auto, ray://host:10001), on that cluster (needs the ray extra)")


def passed_through(words: list[str]) -> list[str]:
    """The guest's own arguments: a leading `--` only ends our options (`ncpu-nb busybox -- --list`)."""
    return words[1:] if words[:1] == ["--"] else words
