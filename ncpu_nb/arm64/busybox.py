"""`busybox(...)`: run one BusyBox command line on a fresh machine and get its output, like subprocess.run."""
from __future__ import annotations

import shlex
import warnings
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from ncpu_nb import html
from ncpu_nb.arm64.machine_errors import MachineTimeout
from ncpu_nb.arm64.machine import MAX_OUTPUT, Arm64Machine, truncation_text
from ncpu_nb.protocol import budget
from ncpu_nb.resources import data_dir

SHOWN_CHARACTERS = 100_000  # of each stream in the HTML view; a saved notebook should stay small
TERMINAL_STYLE = ("background:var(--jp-layout-color2,#f4f4f4);padding:6px 8px;margin:2px 0;border-radius:3px;"
                  "white-space:pre-wrap;max-height:32em;overflow:auto")


def busybox_path() -> Path:
    """The bundled BusyBox: Debian's busybox-static 1.35.0 for arm64 (see programs/arm64/busybox)."""
    return data_dir("programs") / "arm64" / "busybox" / "busybox"


@dataclass(frozen=True)
class BusyboxResult:
    """What `busybox ARGS…` did: its output, exit code, and the work the machine did for it."""

    args: tuple[str, ...]
    stdout: str
    stderr: str
    exit_code: int
    instructions: int
    seconds: float
    syscalls: int
    stdout_bytes: bytes = field(repr=False, default=b"")
    machine: Arm64Machine | None = field(repr=False, default=None, compare=False)  # to look inside afterwards
    truncated: dict[str, int] = field(default_factory=dict)  # {stream: oldest bytes dropped} past max_output
    max_output: int | None = MAX_OUTPUT

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    @property
    def command(self) -> str:
        return "busybox " + shlex.join(self.args)

    def __str__(self) -> str:
        return self.stdout + self.stderr

    def _output_html(self) -> str:
        out = _shown(self.stdout)
        if self.stderr:
            out += f"<span style='color:var(--jp-error-color1,#c00)'>{_shown(self.stderr)}</span>"
        return out

    def _repr_html_(self) -> str:
        out = self._output_html()
        status = "" if self.ok else f"<span style='color:var(--jp-error-color1,#c00)'>exit {self.exit_code}</span> · "
        footer = (f"<div class='dim'>{status}{self.instructions:,} instructions · {self.syscalls:,} system calls · "
                  f"{self.seconds * 1e3:,.1f} ms</div>")
        if self.truncated:
            footer += (f"<div style='color:var(--jp-warn-color0,#b45309)'>⚠ "
                       f"{escape(truncation_text(self.truncated, self.max_output))}</div>")
        return html.view("", f"<pre style='{TERMINAL_STYLE}'>{self._command_html()}\n{out}</pre>", footer)

    def _command_html(self) -> str:
        # A script (the last argument spans lines, as from %%busybox) is shown as written, not shell-quoted.
        if not self.args or "\n" not in self.args[-1].strip():
            return f"<b>$ {escape(self.command)}</b>"
        head = "busybox " + shlex.join(self.args[:-1])
        script = "\n".join("  " + line for line in self.args[-1].strip("\n").splitlines())
        return f"<b>$ {escape(head)} '…'</b>\n<span class='dim'>{escape(script)}</span>"


def _shown(text: str) -> str:
    if len(text) <= SHOWN_CHARACTERS:
        return escape(text)
    return (f"<span class='dim'>[{len(text) - SHOWN_CHARACTERS:,} characters before these not shown]</span>\n"
            + escape(text[-SHOWN_CHARACTERS:]))


def busybox(*args: str, stdin: bytes | str | None = None, mounts=(), cwd: str = "/", env=None,
            timeout: float | None = None, max_steps: int | None = None,
            deterministic: bool = True, max_output: int | None = MAX_OUTPUT, limits=None,
            max_instructions: int | None = None) -> BusyboxResult:
    """Run `busybox ARGS…` on a fresh AArch64 machine until it exits, e.g.
    busybox("sh", "-c", "seq 5 | paste -sd+ | bc").

    stdin    text or bytes for the command's standard input
    mounts   host folders it may see, "HOST:GUEST[:ro|rw]" (read-only unless rw)
    timeout, max_steps   give up (MachineTimeout, with the output so far) after this much
    max_output   bytes of each stream kept (the newest; default 256 MiB, None: all): a longer output is
                 cut, `result.truncated` says how much, with a warning and a line in the HTML view
    limits   what the guest may take of the host (`ncpu_nb.Limits`, or a dict such as {"tmpfs_size": "64M"})
    """
    max_steps = budget(max_steps, "max_instructions", max_instructions)
    machine = Arm64Machine.busybox(*args, stdin=stdin, mounts=mounts, cwd=cwd, env=env, deterministic=deterministic,
                                   max_output=max_output, limits=limits)
    run = machine.run(max_steps, timeout=timeout)
    if not run.exited:
        raise MachineTimeout(f"busybox {shlex.join(args)} did not exit: stopped ({run.stop}) after "
                             f"{machine.instructions:,} instructions, {run.seconds:.2f} s",
                             machine.stdout, machine.stderr)
    if machine.truncated:
        warnings.warn(f"busybox {shlex.join(args)}: {truncation_text(machine.truncated, max_output)}", stacklevel=2)
    return BusyboxResult(tuple(args), machine.stdout, machine.stderr, machine.exit_status, machine.instructions,
                         run.seconds, machine.syscall_count, machine.stdout_bytes, machine, machine.truncated,
                         max_output)
