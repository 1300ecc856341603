"""`cc(source)`: compile C inside the machine with TinyCC (a guest program) and run the result there.

The compiler is programs/arm64/tcc/guest/bin/tcc, a static AArch64 TinyCC; the machine sees that folder at
/opt/tcc (tcc's headers and runtime, musl's headers and libc.a) and the source in a scratch folder at /work.
tcc links the program statically against musl; the program then runs on a fresh machine of its own.
"""
from __future__ import annotations

import re
import shlex
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from ncpu_nb.arm64.busybox import BusyboxResult
from ncpu_nb.arm64.machine import MAX_OUTPUT, Arm64Machine, truncation_text
from ncpu_nb.arm64.machine_errors import MachineTimeout
from ncpu_nb.errors import NcpuError
from ncpu_nb.resources import data_dir

GUEST_TCC = "/opt/tcc"  # where the guest sees programs/arm64/tcc/guest (tcc's configured prefix)
WORK = "/work"  # the scratch folder with the source and the program tcc writes
# what tcc prints for a problem: "main.c:3: error: ..." (also "In file included from ...", which is skipped)
_DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+): (?P<severity>error|warning): (?P<message>.*)$",
                         re.MULTILINE)


def tcc_root() -> Path:
    """The folder the guest sees at /opt/tcc: bin/tcc, lib/tcc (tcc's headers, libtcc1.a), sysroot (musl)."""
    return data_dir("programs") / "arm64" / "tcc" / "guest"


@dataclass(frozen=True)
class CDiagnostic:
    """One message of tcc's: the file and 1-based line it names, error or warning, and the text."""

    file: str
    line: int
    severity: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.severity}: {self.message}"


def diagnostics(stderr: str) -> list[CDiagnostic]:
    """The `FILE:LINE: error|warning: MESSAGE` lines in tcc's output."""
    return [CDiagnostic(m["file"], int(m["line"]), m["severity"], m["message"]) for m in _DIAGNOSTIC.finditer(stderr)]


class CCompileError(NcpuError):
    """tcc, run in the machine, rejected the source: `diagnostics` (file, line, message as tcc prints them),
    `stderr` (all of tcc's output) and `exit_code`; `line` is the first error's line (None if tcc named none)."""

    def __init__(self, stderr: str, exit_code: int | None):
        self.stderr, self.exit_code = stderr, exit_code
        self.diagnostics = diagnostics(stderr)
        errors = [d for d in self.diagnostics if d.severity == "error"]
        self.line = errors[0].line if errors else None
        super().__init__("tcc could not compile the program:\n" + (stderr.strip() or f"exit status {exit_code}"))


@dataclass(frozen=True)
class CcResult(BusyboxResult):
    """What the compiled program did (stdout, stderr, exit_code, instructions, seconds, syscalls), and the
    compile before it: `compile_stderr` (tcc's warnings), `compile_instructions`, `compile_seconds`, and the
    program itself (`elf`, a static AArch64 ELF file)."""

    compile_stderr: str = ""
    compile_instructions: int = 0
    compile_seconds: float = 0.0
    elf: bytes = field(repr=False, default=b"")

    program: str = "main"

    @property
    def command(self) -> str:
        return shlex.join([f"./{self.program}", *self.args])

    @property
    def warnings(self) -> list[CDiagnostic]:
        return [d for d in diagnostics(self.compile_stderr) if d.severity == "warning"]

    def _command_html(self) -> str:
        from html import escape

        compiled = (f"<span class='dim'>tcc: {self.compile_instructions:,} instructions, "
                    f"{self.compile_seconds * 1e3:,.1f} ms</span>")
        warned = f"\n<span class='dim'>{escape(self.compile_stderr.rstrip())}</span>" if self.compile_stderr else ""
        return f"{compiled}{warned}\n<b>$ {escape(self.command)}</b>"


def _source_text(source) -> tuple[str, bytes]:
    if isinstance(source, Path):
        return source.name, source.read_bytes()
    return "main.c", source.encode() if isinstance(source, str) else bytes(source)


def compile_c(source, flags=(), *, timeout: float | None = None, max_steps: int | None = None,
              tcc=None) -> tuple[bytes, Arm64Machine, float]:
    """Compile C `source` (text, bytes, or a pathlib.Path to a .c file) with tcc inside the machine:
    the static AArch64 program's ELF bytes, the machine tcc ran on and its seconds. Raises CCompileError.
    `tcc`: another tcc program (a host path), e.g. one the machine built from tcc's source."""
    name, text = _source_text(source)
    with tempfile.TemporaryDirectory(prefix="ncpu-cc-") as scratch:
        (Path(scratch) / name).write_bytes(text)
        argv = ["tcc", "-static", *map(str, flags), "-o", "main", name]
        machine = Arm64Machine.from_elf(tcc or tcc_root() / "bin" / "tcc", argv, mounts=[(str(tcc_root()), GUEST_TCC),
                                        (scratch, WORK, True)], cwd=WORK, exe_path=f"{GUEST_TCC}/bin/tcc")
        run = machine.run(max_steps, timeout=timeout)
        if not run.exited:
            raise MachineTimeout(f"tcc did not finish: stopped ({run.stop}) after {machine.instructions:,} "
                                 f"instructions, {run.seconds:.2f} s", machine.stdout, machine.stderr)
        out = Path(scratch) / "main"
        if machine.exit_status != 0 or not out.is_file():
            raise CCompileError(machine.stderr, machine.exit_status)
        return out.read_bytes(), machine, run.seconds


def cc(source, args=(), stdin: bytes | str | None = b"", *, flags=(), mounts=(), cwd: str = "/", env=None,
       timeout: float | None = None, max_steps: int | None = None, deterministic: bool = True,
       max_output: int | None = MAX_OUTPUT, tcc=None) -> CcResult:
    """Compile C `source` with TinyCC running inside the machine, then run the program on a fresh machine, e.g.
    cc('#include <stdio.h>\\nint main(void) { puts("hi"); }').stdout == "hi\\n".

    source   the C text (or bytes, or a pathlib.Path to a .c file); one translation unit
    args     the program's arguments (argv[0] is "./main", or "./NAME" for a Path NAME.c); stdin its standard input
    flags    more tcc options, e.g. ("-DN=10", "-Wall")
    mounts, cwd, env, deterministic, max_output   for the program's machine, as in `busybox`
    timeout, max_steps   bound the compile and the run, each
    tcc      another tcc program to compile with (a host path; default the bundled one)
    Raises CCompileError (with tcc's file:line diagnostics) when tcc rejects the source."""
    elf, compiler, compile_seconds = compile_c(source, flags, timeout=timeout, max_steps=max_steps, tcc=tcc)
    args = tuple(str(a) for a in args)
    program = Path(source).stem if isinstance(source, Path) else "main"
    machine = Arm64Machine(elf, [f"./{program}", *args], env, stdin=stdin, mounts=mounts, cwd=cwd,
                           deterministic=deterministic, exe_path=f"/bin/{program}", max_output=max_output)
    run = machine.run(max_steps, timeout=timeout)
    if not run.exited:
        raise MachineTimeout(f"./{program} did not exit: stopped ({run.stop}) after {machine.instructions:,} instructions, "
                             f"{run.seconds:.2f} s", machine.stdout, machine.stderr)
    if machine.truncated:
        warnings.warn(f"./{program}: {truncation_text(machine.truncated, max_output)}", stacklevel=2)
    return CcResult(args, machine.stdout, machine.stderr, machine.exit_status, machine.instructions, run.seconds,
                    machine.syscall_count, machine.stdout_bytes, machine, machine.truncated, max_output,
                    compile_stderr=compiler.stderr, compile_instructions=compiler.instructions,
                    compile_seconds=compile_seconds, elf=elf, program=program)
