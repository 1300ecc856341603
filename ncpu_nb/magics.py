"""IPython magics: `%busybox ARGS…` runs one command line, `%%busybox` runs the cell as a shell script, `%%c` compiles
the cell with TinyCC inside the machine and runs it there (`ncpu_nb.cc`).

The BusyBox magics run in one shell kept for the kernel (a `ncpu_nb.Session`): files, the working directory,
the environment and background jobs carry over from cell to cell. `--new` starts a fresh session first
(`%busybox --new` alone just does that), and with it `--mount`, `--cwd` and the limits shape the new one.
Without `--new`, options that shape a machine (`--mount HOST:GUEST[:ro|rw]` (repeatable), `--cwd DIR`,
`--max-output BYTES` (of each stream kept; default 256 MiB), and the guest's limits `--memory SIZE`,
`--tmpfs-size SIZE`, `--max-procs N`, see `ncpu_nb.Limits`) run that command alone on a fresh machine,
as `ncpu_nb.busybox` does. `--timeout SECONDS` bounds either. The result (stdout, stderr, exit code) is
returned, so `r = %busybox ls` keeps it. In the session, output streams into the cell while the
command runs (the result then shows only its exit status and work), and Ctrl-C (interrupt the kernel)
sends SIGINT to the command.
IPython expands `{python_expression}` and `$name` in the magic's line (not in a %%busybox cell);
write `$$` for a literal `$` there.
"""
from __future__ import annotations

import dataclasses
import math
import shlex
import sys

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class

from ncpu_nb.arm64.machine_errors import MountError

OPTIONS = {"--mount": "mounts", "--cwd": "cwd", "--timeout": "timeout", "--max-output": "max_output",
           "--memory": "memory", "--tmpfs-size": "tmpfs_size", "--max-procs": "max_procs"}
LIMITS = ("memory", "tmpfs_size", "max_procs")
FLAGS = {"--new": "new"}  # options without a value


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
        if name in FLAGS and not eq:
            options[FLAGS[name]] = True
            i += 1
            continue
        if name not in OPTIONS:
            raise UsageError(f"unknown option {name}; options before the command are "
                             f"{', '.join([*OPTIONS, *FLAGS])} (use -- to pass {name} to busybox itself)")
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
    session = None  # the kernel's Session, made by the first magic that needs it

    @line_magic("busybox")
    def busybox_line(self, line: str):
        """%busybox [--new] [--mount HOST:GUEST[:rw]] [--cwd DIR] [--timeout S] [--max-output BYTES] APPLET ARGS…
        e.g. %busybox ls -l /"""
        try:
            words = shlex.split(line)
        except ValueError as exc:
            raise UsageError(f"%busybox: {exc}") from None
        options, args = parse_options(words)
        if not args and not options.get("new"):
            raise UsageError("%busybox needs a command, e.g. %busybox ls -l /")
        return self._run(args, shlex.join(args), options)

    @cell_magic("busybox")
    def busybox_cell(self, line: str, cell: str):
        """%%busybox [--new] [--mount HOST:GUEST[:rw]] [--cwd DIR] [--timeout S] [--max-output BYTES]: the cell
        is a shell script."""
        options, rest = parse_options(shlex.split(line))
        if rest:
            raise UsageError(f"%%busybox takes only options on its line, not {shlex.join(rest)!r}; "
                             "the script goes in the cell")
        return self._run(["sh", "-c", cell], cell, options)

    def _run(self, args: list[str], command: str, options: dict):
        """In the kernel's session, or (options that shape a machine, without --new) on a fresh machine."""
        from ncpu_nb.arm64.busybox import busybox
        from ncpu_nb.arm64.session import Session

        new, timeout = options.pop("new", False), options.pop("timeout", None)
        shaped = {k for k, v in options.items() if v or k not in ("mounts", "limits")}
        try:
            if shaped and not new:
                return busybox(*args, timeout=timeout, **options)
            if "max_output" in shaped:
                raise UsageError("--max-output goes with a command on a fresh machine, not with --new")
            if new or self.session is None or not self.session.alive:
                self.session = None  # the old one goes even if the new one cannot be made
                self.session = Session(mounts=options["mounts"], cwd=options.get("cwd", "/"),
                                       limits=options["limits"] or None)
            if not args:
                return None
            return dataclasses.replace(self.session.run(command, timeout=timeout, on_output=_into_the_cell),
                                       streamed=True)
        except (MountError, ValueError) as exc:  # a mistake on the magic's line: the message is enough
            raise UsageError(str(exc)) from None


def _into_the_cell(stream: str, text: str) -> None:
    """Session output as it comes, into the cell's stdout or stderr (so a long command shows progress)."""
    out = sys.stdout if stream == "stdout" else sys.stderr
    out.write(text)
    out.flush()


C_OPTIONS = {"--stdin": "stdin", "--flags": "flags", "--timeout": "timeout"}


@magics_class
class CMagics(Magics):
    @cell_magic("c")
    def c_cell(self, line: str, cell: str):
        """%%c [--flags "TCC OPTIONS"] [--stdin TEXT] [--timeout S] [ARGS…]: compile the cell with TinyCC inside
        the machine and run it there with ARGS (`ncpu_nb.cc`). tcc's errors are printed as it reports them."""
        from ncpu_nb.arm64.cc import CCompileError, cc

        try:
            words = shlex.split(line)
        except ValueError as exc:
            raise UsageError(f"%%c: {exc}") from None
        options: dict = {}
        while words and words[0] in C_OPTIONS:
            if len(words) < 2:
                raise UsageError(f"{words[0]} needs a value")
            options[C_OPTIONS[words[0]]], words = words[1], words[2:]
        if words[:1] == ["--"]:
            words = words[1:]
        flags = shlex.split(options.get("flags", ""))
        try:
            timeout = float(options["timeout"]) if "timeout" in options else None
        except ValueError:
            raise UsageError(f"--timeout takes a number of seconds, not {options['timeout']!r}") from None
        try:
            return cc(cell, words, options.get("stdin", b""), flags=flags, timeout=timeout)
        except CCompileError as exc:
            print(exc.stderr.rstrip() or str(exc), file=sys.stderr)
            return None


def load_ipython_extension(ipython) -> None:
    from ncpu_nb.compiler.python_magic import NcpuPythonMagics

    ipython.register_magics(BusyboxMagics)
    ipython.register_magics(CMagics)
    ipython.register_magics(NcpuPythonMagics)
