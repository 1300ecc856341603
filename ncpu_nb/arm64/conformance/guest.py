"""One BusyBox command on the machine as if it ran on the host: what the conformance run's `busybox` wrapper calls.

The host's argv[0], environment, working directory and standard streams pass through, and the run's folder (and the
working directory, where it lies elsewhere) is mounted read-write at the same path, so a path means the same to the
testsuite's host shell and to the guest.
"""
from __future__ import annotations

import os
import signal
import sys

from ncpu_nb.arm64.busybox import busybox_path
from ncpu_nb.arm64.machine_errors import MachineError
from ncpu_nb.arm64.machine import Arm64Machine

MACHINE_FAILED = 125  # the machine itself could not go on (not a status BusyBox gives)
GUEST_UMASK = 0o022  # a fresh machine's first process has it


def guest_mounts(root: str, cwd: str) -> list[str]:
    """The run's folder, and the working directory when it is outside it, each read-write at its own path."""
    mounts = [f"{root}:{root}:rw"]
    if cwd != "/" and os.path.commonpath([root, cwd]) != root:
        mounts.append(f"{cwd}:{cwd}:rw")
    return mounts


def _same_file(fd_a: int, fd_b: int) -> bool:
    try:
        a, b = os.fstat(fd_a), os.fstat(fd_b)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _host_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def guest_argv(argv: list[str]) -> list[str]:
    """argv for the guest: as given, or through the guest's sh where the host's process differs from a fresh
    machine's first process: its stdout and stderr one file (`2>&1`; the machine hands its two streams over apart,
    which would lose their order), or another umask."""
    merged, mask = _same_file(1, 2), _host_umask()
    if not merged and mask == GUEST_UMASK:
        return argv
    applet = os.path.basename(argv[0])
    args = argv[1:] if applet == "busybox" else [applet, *argv[1:]]
    script = f'umask {mask:03o}; exec /bin/busybox "$@"' + (" 2>&1" if merged else "")
    return ["sh", "-c", script, "sh", *args]


def _forward(out: bytes, err: bytes) -> None:
    for stream, data in ((sys.stdout.buffer, out), (sys.stderr.buffer, err)):
        if data:
            stream.write(data)
            stream.flush()


def _feed_stdin(machine: Arm64Machine) -> None:
    # The guest waits for input: give it what the host's stdin has now (a pipe's writer may be slow or endless).
    data = os.read(0, 1 << 16)
    if data:
        machine.write_stdin(data)
    else:
        machine.close_stdin()


def run_on_machine(root: str, argv: list[str]) -> int:
    """Runs `argv` (argv[0] names the applet, as for a link to busybox) and returns the guest's exit status."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a closed pipe ends us as it would end BusyBox
    cwd = os.getcwd()
    env = [f"{name}={value}" for name, value in os.environ.items()]
    machine = Arm64Machine.from_elf(busybox_path(), guest_argv(argv), env, mounts=guest_mounts(root, cwd), cwd=cwd,
                               deterministic=False, exe_path="/bin/busybox", interactive=True)
    if sys.stdin is None or sys.stdin.isatty():
        machine.close_stdin()  # a terminal is not typed into here: end of file at once
    try:
        while machine.run(on_output=_forward).stop == "stdin":
            _feed_stdin(machine)
    except MachineError as exc:
        print(f"ncpu-nb machine: {exc}", file=sys.stderr)
        return MACHINE_FAILED
    return machine.exit_status
