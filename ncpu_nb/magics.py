"""IPython magics: `%busybox ARGS…` runs one command line, `%%busybox` runs the cell as a shell script.

Options come before the command: `--mount HOST:GUEST[:ro|rw]` (repeatable), `--cwd DIR`,
`--timeout SECONDS`, `--max-output BYTES` (of each stream kept; default 256 MiB), and the guest's
limits `--memory SIZE`, `--tmpfs-size SIZE`, `--max-procs N` (see `ncpu_nb.Limits`). The result (stdout,
stderr, exit code) is returned, so `r = %busybox ls` keeps it.
IPython expands `{python_expression}` and `$name` in the magic's line (not in a %%busybox cell);
write `$$` for a literal `$` there.
"""
from __future__ import annotations

import math
import shlex

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class

from ncpu_nb.arm64.machine_errors import MountError

OPTIONS = {"--mount": "mounts", "--cwd": "cwd", "--timeout": "timeout", "--max-output": "max_output",
           "--memory": "memory", "--tmpfs-size": "tmpfs_size", "--max-procs": "max_procs"}
LIMITS = ("memory", "tmpfs_size", "max_procs")


def parse_options(words: list[str]) -> tuple[dict, list[str]]:
    """Leading options (also as --opt=value; see OPTIONS), then the command's own words."""
    options: dict = {"mounts": [], "limits": {}}
    i = 0
    while i < len(words) and words[i].startswith("--"):
        word = words[i]
        if word == "--":
            i += 1
            break
        name, eq, value = word.partition("=")
        if name not in OPTIONS:
            raise UsageError(f"unknown option {name}; options before the command are "
                             f"{', '.join(OPTIONS)} (use -- to pass {name} to busybox itself)")
        if not eq:
            if i + 1 >= len(words):
                raise UsageError(f"{name} needs a value")
            i, value = i + 1, words[i + 1]
        i += 1
        if name == "--mount":
            options["mounts"].append(value)
        elif name == "--timeout":
            try:
                options["timeout"] = float(value)
            except ValueError:
                options["timeout"] = math.nan
            if not (math.isfinite(options["timeout"]) and options["timeout"] > 0):
                raise UsageError(f"--timeout takes a positive number of seconds, not {value!r}")
        elif name == "--max-output":
            if not value.isdigit():
                raise UsageError(f"--max-output takes a number of bytes, not {value!r}")
            options["max_output"] = int(value)
        elif OPTIONS[name] in LIMITS:
            options["limits"][OPTIONS[name]] = int(value) if value.isdigit() else value
        else:
            options[OPTIONS[name]] = value
    return options, words[i:]


@magics_class
class BusyboxMagics(Magics):
    @line_magic("busybox")
    def busybox_line(self, line: str):
        """%busybox [--mount HOST:GUEST[:rw]] [--cwd DIR] [--timeout S] [--max-output BYTES] APPLET ARGS…
        e.g. %busybox ls -l /"""
        from ncpu_nb.arm64.busybox import busybox

        try:
            words = shlex.split(line)
        except ValueError as exc:
            raise UsageError(f"%busybox: {exc}") from None
        options, args = parse_options(words)
        if not args:
            raise UsageError("%busybox needs a command, e.g. %busybox ls -l /")
        return _run(busybox, args, options)

    @cell_magic("busybox")
    def busybox_cell(self, line: str, cell: str):
        """%%busybox [--mount HOST:GUEST[:rw]] [--cwd DIR] [--timeout S] [--max-output BYTES]: the cell is a
        shell script (sh -c)."""
        from ncpu_nb.arm64.busybox import busybox

        options, rest = parse_options(shlex.split(line))
        if rest:
            raise UsageError(f"%%busybox takes only options on its line, not {shlex.join(rest)!r}; "
                             "the script goes in the cell")
        return _run(busybox, ["sh", "-c", cell], options)


def _run(busybox, args: list[str], options: dict):
    try:
        return busybox(*args, **options)
    except (MountError, ValueError) as exc:  # a mistake on the magic's line: the message is enough
        raise UsageError(str(exc)) from None


def load_ipython_extension(ipython) -> None:
    from ncpu_nb.compiler.python_magic import NcpuPythonMagics

    ipython.register_magics(BusyboxMagics)
    ipython.register_magics(NcpuPythonMagics)
