"""What the testsuite runs against: the `busybox` that runtest finds in its bindir, for the machine or for qemu.

runtest links every applet name to `$bindir/busybox` and calls those links, so one wrapper that passes argv[0]
through serves every applet.
"""
from __future__ import annotations

import json
import shlex
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ncpu_nb.errors import NcpuError
from ncpu_nb.arm64.busybox import busybox_path
from ncpu_nb.resources import PACKAGE

QEMU = "qemu-aarch64"


@dataclass(frozen=True)
class Target:
    """A name for reports and the text of the `busybox` wrapper for a run rooted at a folder."""

    name: str
    wrapper: Callable[[Path], str]


def _machine_wrapper(root: Path) -> str:
    # runtest calls this thousands of times, so it loads the machine alone, not ncpu_nb's __init__ (the nCPU side
    # and numpy, ~0.25 s a call), and keeps compiled modules in the run's folder even where PYTHONDONTWRITEBYTECODE
    # is set (~25 ms a call).
    code = "\n".join([
        "import sys, types",
        f"sys.pycache_prefix, sys.dont_write_bytecode = {json.dumps(str(root / '.pycache'))}, False",
        'package = types.ModuleType("ncpu_nb")',
        f"package.__path__ = [{json.dumps(str(PACKAGE))}]",
        'sys.modules["ncpu_nb"] = package',
        "from ncpu_nb.arm64.conformance.guest import run_on_machine",
        f"sys.exit(run_on_machine({json.dumps(str(root))}, sys.argv[1:]))"])
    python = shlex.quote(sys.executable)
    # A guest program that runs an applet link it found in PATH comes here inside the machine, where the host's
    # Python is absent: there this is BusyBox's own applet, as it is under qemu.
    return ("#!/bin/sh\n"
            f'[ -x {python} ] || exec /bin/busybox "${{0##*/}}" "$@"\n'
            f'exec {python} -c {shlex.quote(code)} "$0" "$@"\n')


def qemu_path() -> str:
    qemu = shutil.which(QEMU)
    if qemu is None:
        raise NcpuError(f"{QEMU} not found (Debian: apt-get install qemu-user)")
    return qemu


def _qemu_wrapper(root: Path) -> str:
    # Under qemu-user a guest's execve runs a host program, so applets a guest shell finds in PATH come back here.
    qemu = qemu_path()
    return f'#!/bin/sh\nexec {shlex.quote(qemu)} -cpu cortex-a53 -0 "$0" {shlex.quote(str(busybox_path()))} "$@"\n'


MACHINE = Target("machine", _machine_wrapper)
QEMU_ORACLE = Target("qemu", _qemu_wrapper)
