"""MUXLEQ as an AArch64 guest: programs/arm64/c/muxleq.c (the eForth image compiled in), on `Arm64Machine`."""
from __future__ import annotations

from ncpu_nb.resources import data_dir


def guest_path():
    """programs/arm64/c/bin/muxleq: a static AArch64 ELF (built by programs/arm64/c/build.sh)."""
    return data_dir("programs") / "arm64" / "c" / "bin" / "muxleq"


def arm64_machine(stdin: bytes | str | None = None, *, interactive: bool = False, **options):
    """An `Arm64Machine` ready to run the guest: with `stdin`, the session then end of file; `interactive=True`
    keeps stdin open (a run stops with 'stdin' when eForth waits for a line; `write_stdin` gives it one), as
    `ncpu_nb.views.BusyboxTerminal(machine)` needs."""
    from ncpu_nb.arm64 import Arm64Machine

    return Arm64Machine.from_elf(guest_path(), ["muxleq"], stdin=stdin, interactive=interactive, **options)


def run_on_arm64(session: bytes | str, max_steps: int = 10**10):
    """The whole session on a fresh machine, then end of input: (stdout bytes, the machine)."""
    machine = arm64_machine(session)
    machine.run(max_steps)
    return machine.stdout_bytes, machine
