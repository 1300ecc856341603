"""`Arm64Machine`: an AArch64 Linux user-mode machine running ELF programs, with the machine protocol.

The engine (`ncpu_nb._metal.LinuxMachine`, Rust) runs, traces, checks breakpoints and watchpoints and
takes snapshots with the GIL released; this class adds the Python face: chunked runs that Ctrl-C stops,
names for registers and flags, symbols for breakpoints, tables for notebooks.
"""
from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import NamedTuple

from ncpu_nb import _metal, html, machine_arguments as arguments
from ncpu_nb.arm64 import bare_machine as bare
from ncpu_nb.arm64.frame_walk import call_stack
from ncpu_nb.arm64.elf import ElfFile, read_elf
from ncpu_nb.arm64.machine_errors import ElfError, MachineError  # noqa: F401  (importable from here too)
from ncpu_nb.arm64.limits import Limits
from ncpu_nb.arm64.memory_map import MemoryMap, Region  # noqa: F401  (importable from here too)
from ncpu_nb.arm64.mounts import parse_mounts
from ncpu_nb.arm64.source_lines import SourceLines
from ncpu_nb.arm64.syscall_log import SyscallLog
from ncpu_nb.protocol import (Breakpoints, DebugExtras, DebugLayout, Frame, RegisterGroup, RunResult, Snapshot, Trace,
                              TraceStep, Watchpoints, budget)

REGISTERS = tuple(f"x{i}" for i in range(31)) + ("sp", "pc", "nzcv")
VECTOR_REGISTERS = tuple(f"v{i}" for i in range(32))
FLAGS = ("N", "Z", "C", "V")  # NZCV bits 31..28
DEFAULT_ENV, CHUNK_SECONDS, FIRST_CHUNK = bare.DEFAULT_ENV, bare.CHUNK_SECONDS, bare.FIRST_CHUNK
MAX_OUTPUT = 256 << 20  # default bytes of each output stream a machine keeps (the newest)
PIECE = 64 << 10  # output pieces smaller than this absorb the next write, so there are few pieces
RESUMABLE = ("ready", "budget", "timeout", "interrupted")  # stops after which `run` simply goes on
STOP_TEXT = {"ready": "ready", "budget": "paused (instruction budget)", "timeout": "paused (timeout)",
             "interrupted": "paused (interrupted)", "stdin": "waiting for input on stdin",
             "network": "waiting for a connection through a port forward"}


def flags_text(nzcv: int) -> str:
    """'NZCV'-style text: the letter of each set flag."""
    return "".join(name for i, name in enumerate(FLAGS) if nzcv >> (31 - i) & 1)


class Output(NamedTuple):
    """What a machine kept of one output stream: its newest bytes, in immutable pieces (a snapshot
    shares them), and how many older bytes a cap dropped (`yes` would otherwise fill the host's memory)."""

    pieces: tuple[bytes, ...] = ()
    size: int = 0
    dropped: int = 0

    def add(self, new: bytes, cap: int | None) -> "Output":
        """This output and then `new`, of which at most the newest `cap` bytes in all (None: no cap)."""
        if not new:
            return self
        pieces = self.pieces
        if pieces and len(pieces[-1]) < PIECE:
            pieces = pieces[:-1] + (pieces[-1] + new,)
        else:
            pieces += (new,)
        size = self.size + len(new)
        if cap is None or size <= cap:
            return Output(pieces, size, self.dropped)
        return Output(_newest(pieces, cap), cap, self.dropped + size - cap)

    def __bytes__(self) -> bytes:
        return b"".join(self.pieces)


def _newest(pieces: tuple[bytes, ...], keep: int) -> tuple[bytes, ...]:
    """The last `keep` bytes of `pieces`, as pieces."""
    kept, size = [], 0
    for piece in reversed(pieces):
        if size + len(piece) >= keep:
            kept.append(piece[len(piece) - (keep - size):])
            break
        kept.append(piece)
        size += len(piece)
    return tuple(reversed(kept))


def truncation_text(truncated: dict[str, int], cap: int) -> str:
    """What a cap on kept output dropped, e.g. 'output truncated: kept the last 1,000 bytes of stdout
    (5,000 earlier bytes dropped); pass a larger max_output to keep more'."""
    streams = " and ".join(f"{name} ({dropped:,} earlier bytes dropped)" for name, dropped in truncated.items())
    return f"output truncated: kept the last {cap:,} bytes of {streams}; pass a larger max_output to keep more"


class MachineTrace(Trace):
    """A trace of AArch64 instructions: addresses and values in short hex (64-bit values padded to 16
    digits are hard to read)."""

    def __getitem__(self, i):
        return MachineTrace(self._steps[i]) if isinstance(i, slice) else self._steps[i]

    def _fmt(self, value: int) -> str:
        return f"0x{value:x}"

    def _repr_html_(self) -> str:
        rows = [[f"{s.cycle:,}", f"0x{s.pc:x}", escape(s.instruction), escape(self.describe(s))] for s in self]
        return html.view(f"Trace: the last {len(self)} instructions",
                         html.table(["instruction #", "pc", "instruction", "changes"], rows, numeric=(0,)))


class Process(NamedTuple):
    pid: int
    ppid: int
    state: str
    executable: str


class Fault(NamedTuple):
    pid: int
    signal: int
    pc: int
    what: str


@dataclass(frozen=True)
class Arm64Run(RunResult):
    """What one `run` did (see `RunResult`); `stop` is 'exited' when every process has exited, or 'budget',
    'breakpoint', 'watchpoint', 'stdin' (a process waits for input), 'timeout', 'interrupted' or 'fault'."""

    exit_status: int | None = None
    syscalls: int = 0

    @property
    def exited(self) -> bool:
        return self.stop == "exited"

    @property
    def halted(self) -> bool:
        return self.exited

    @property
    def instructions(self) -> int:
        warnings.warn("Arm64Run.instructions is now .steps", DeprecationWarning, stacklevel=2)
        return self.steps

    def _repr_html_(self) -> str:
        if self.exited:
            rows = [["stopped", "exited"], ["exit status", str(self.exit_status)]]
        else:
            rows = [["stopped", escape(self.stop + (f" ({self.detail})" if self.detail else ""))],
                    ["pc", f"0x{self.pc:x}"]]
        rate = f"{self.steps / self.seconds:,.0f}" if self.seconds > 0 else "-"
        rows += [["instructions", f"{self.steps:,}"], ["system calls", f"{self.syscalls:,}"],
                 ["time", f"{self.seconds * 1e3:,.1f} ms"], ["instructions / s", rate]]
        return html.view("Run", html.table(["", ""], rows))


def _terminal_size(tty) -> tuple[int, int] | None:
    if tty is None:
        return None
    rows, columns = (int(v) for v in tty)
    if not (0 < rows < 1 << 16 and 0 < columns < 1 << 16):
        raise ValueError(f"tty=(rows, columns) of a terminal, not {tty!r}")
    return rows, columns


class Arm64Machine:
    """An AArch64 Linux machine running one ELF program (and the processes it starts). A dynamically linked
    program needs its dynamic loader and libraries in the guest (mount a root: see `ncpu_nb.rootfs`).

    Arm64Machine(elf_bytes, argv, env)   or   Arm64Machine.from_elf(path, argv, env)
    argv          the whole argument vector, argv[0] included (default: the guest path of the program)
    env           "NAME=value" strings (default: PATH and HOME)
    stdin         bytes or text the guest reads from standard input (then end of file)
    interactive   keep standard input open after `stdin`: a run stops with 'stdin' when the guest waits
                  for more, given with `write_stdin` (as at a terminal)
    mounts        host folders the guest may see: "HOST:GUEST[:ro|rw]" specs, read-only by default
    cwd           the guest's working directory
    deterministic a fixed clock and random seed, so runs replay bit for bit (False: the host's)
    trace_depth   recent instructions kept in `trace` (0: off, the fastest)
    exe_path      where the program lives in the guest's filesystem (default /bin/ and its file name)
    max_output    bytes of each output stream kept in `stdout` / `stderr`: past it the oldest are dropped
                  and `truncated` says how many (default MAX_OUTPUT, 256 MiB; None: keep everything)
    limits        what the guest may take of the host: `Limits(memory=…, tmpfs_size=…, max_procs=…)`
                  or a dict of some of them (default 4 GiB, 1 GiB, 256)
    tty           (rows, columns): the standard streams are a terminal, as at a login: `write_stdin`
                  takes keys (Enter is "\r", Ctrl-C "\x03", Ctrl-Z "\x1a"), the guest's line discipline
                  echoes and edits them, and output comes back on stdout with "\r\n" line ends;
                  `resize(rows, columns)` changes the window (implies interactive)

    `elf` is the program's ELF file as read in Python (segments, sections, symbols).
    """

    def __init__(self, elf: bytes, argv=None, env=None, *, stdin: bytes | str | None = None, mounts=(),
                 cwd: str = "/", deterministic: bool = True, trace_depth: int = 0,
                 exe_path: str | None = None, path: str | None = None, interactive: bool = False,
                 max_output: int | None = MAX_OUTPUT, limits: Limits | dict | None = None,
                 tty: tuple[int, int] | None = None):
        if max_output is not None and max_output < 0:
            raise ValueError(f"max_output is a number of bytes (or None), not {max_output}")
        self.path, self.max_output = path, max_output
        self._elf_bytes = bytes(elf)
        self.elf = ElfFile(self._elf_bytes, path)  # its checks name what is wrong before the loader sees it
        self.exe_path = exe_path or f"/bin/{Path(path).name if path else 'program'}"
        self.argv = [str(a) for a in (argv if argv is not None else [self.exe_path])]
        self.env = [str(e) for e in (env if env is not None else DEFAULT_ENV)]
        self.stdin = stdin.encode() if isinstance(stdin, str) else bytes(stdin or b"")
        self.mounts = parse_mounts(mounts)
        self._tty = _terminal_size(tty)  # the size a reset starts with
        self.cwd, self.deterministic, self.interactive = cwd, deterministic, interactive or self._tty is not None
        self.limits = Limits.of(limits)
        self._trace_depth, self._trace_accesses = trace_depth, False
        self._source_lines = False  # read from the ELF's DWARF when first asked (see `source_at`)
        self._engine = self._new_engine()
        self.breakpoints = Breakpoints(self.address, self._set_breakpoint, show=lambda a: f"0x{a:x}")
        self.watchpoints = Watchpoints(self.address, self._set_watchpoint, word=8)
        self._clear_outputs()

    @classmethod
    def from_elf(cls, path, argv=None, env=None, *, stdin=None, mounts=(), cwd: str = "/",
                 deterministic: bool = True, trace_depth: int = 0, exe_path: str | None = None,
                 interactive: bool = False, max_output: int | None = MAX_OUTPUT,
                 limits: Limits | dict | None = None, tty: tuple[int, int] | None = None) -> "Arm64Machine":
        """A machine about to run the ELF executable at `path` (a host file)."""
        return cls(read_elf(path), argv, env, stdin=stdin, mounts=mounts, cwd=cwd, deterministic=deterministic,
                   trace_depth=trace_depth, exe_path=exe_path, path=str(path), interactive=interactive,
                   max_output=max_output, limits=limits, tty=tty)

    @classmethod
    def busybox(cls, *args: str, **options) -> "Arm64Machine":
        """A machine about to run `busybox ARGS…` (Debian's static BusyBox, bundled), e.g.
        Arm64Machine.busybox("sh", "-c", "echo hi | wc -c")."""
        return cls.from_elf(bare.busybox_file(), ["busybox", *args], **options)

    def _new_engine(self):
        engine = bare.new_engine(self._elf_bytes, self.argv, self.env, exe_path=self.exe_path, mounts=self.mounts,
                                 cwd=self.cwd, stdin=self.stdin, interactive=self.interactive,
                                 deterministic=self.deterministic, limits=self.limits, trace_depth=self._trace_depth,
                                 path=self.path, tty=self._tty)
        engine.set_trace_accesses(self._trace_accesses)
        return engine

    def _clear_outputs(self) -> None:
        # Output as immutable values: a snapshot keeps the ones it saw, and restoring any snapshot,
        # earlier or later, brings back exactly the output printed by then.
        self._stdout, self._stderr = Output(), Output()
        self._stop: tuple = ("ready", 0, "")

    def address(self, where) -> int:
        """An address from an int, '0x…' text or a symbol name of the ELF file."""
        if isinstance(where, str):
            try:
                return int(where, 0)
            except ValueError:
                return self.elf.address_of(where)
        return int(where)

    def _set_breakpoint(self, address: int, on: bool) -> None:
        (self._engine.add_breakpoint if on else self._engine.remove_breakpoint)(address)

    def _set_watchpoint(self, w, on: bool) -> None:
        if on:
            self._engine.add_watchpoint(w.address, w.size, w.read, w.write)
        else:
            self._engine.remove_watchpoint(w.address, w.size)

    def reset(self) -> None:
        """Back to the start: the program loaded afresh, output cleared; breakpoints, watchpoints and the
        trace depth are kept."""
        self._engine = self._new_engine()
        for address in self.breakpoints:
            self._set_breakpoint(address, True)
        for w in self.watchpoints:
            self._set_watchpoint(w, True)
        self._clear_outputs()

    # --- running -----------------------------------------------------------------------------------
    def run(self, max_steps: int | None = None, *, timeout: float | None = None, check: bool = True,
            on_output: Callable[[bytes, bytes], None] | None = None, max_instructions: int | None = None) -> Arm64Run:
        """Run until every process has exited, a breakpoint or watchpoint, `max_steps` more
        instructions (None: no limit) or `timeout` seconds. Ctrl-C (Jupyter's interrupt) stops it within ~20 ms with
        KeyboardInterrupt; the machine keeps its state, so you can look and `run()` on.
        `on_output(stdout, stderr)` receives the guest's output as it comes. When the machine cannot go
        on (every process waits for something none will do) it raises MachineError, or with
        `check=False` returns a run with stop 'fault'."""
        max_steps = budget(max_steps, "max_instructions", max_instructions)
        engine, start, t0 = self._engine, self._engine.instructions, time.perf_counter()
        try:
            stop = bare.run_chunks(engine, max_steps, timeout, lambda: self._collect(on_output))
        except KeyboardInterrupt:
            self._collect(on_output)
            self._stop = ("interrupted", self.pc, "")
            raise
        self._stop = stop
        if check:
            self._raise_fault(stop)
        return Arm64Run(stop[0], engine.instructions - start, time.perf_counter() - t0, stop[1], stop[2],
                        engine.exit_status, engine.syscalls)

    def step(self, n: int = 1) -> int:
        """Execute up to `n` instructions; breakpoints do not stop a step (a watchpoint does, before the
        access). Returns how many ran: fewer than `n` only if every process exited or a watchpoint hit."""
        n = arguments.count(n, "n")
        before = self._engine.instructions
        while True:
            self._stop = self._engine_call(self._engine.step, n - (self._engine.instructions - before))
            if self._stop[0] != "breakpoint" or self._engine.instructions - before >= n:
                break
        self._collect(None)
        self._raise_fault(self._stop)
        return self._engine.instructions - before

    @staticmethod
    def _engine_call(method, n: int) -> tuple:
        return bare.call(method, n)  # the engine failed (it says where): one error type for users

    def _collect(self, on_output) -> None:
        out, err = self._engine.take_stdout(), self._engine.take_stderr()
        self._stdout, self._stderr = self._stdout.add(out, self.max_output), self._stderr.add(err, self.max_output)
        if on_output is not None and (out or err):
            on_output(out, err)

    def _raise_fault(self, stop: tuple) -> None:
        bare.raise_fault(self._engine, stop)

    def instruction_at(self, pc: int) -> str:
        """The text of the instruction at `pc`, or a note that there is none readable."""
        return bare.instruction_at(self._engine, arguments.location(pc, 64))

    def write_stdin(self, data: bytes | str) -> None:
        """More input for a guest waiting on stdin (a run stopped with stop == 'stdin')."""
        self._engine.write_stdin(data.encode() if isinstance(data, str) else bytes(data))

    def close_stdin(self) -> None:
        self._engine.close_stdin()

    def resize(self, rows: int, columns: int) -> None:
        """The terminal's new window size (a machine made with `tty=`): programs read it and the
        foreground process group gets SIGWINCH, as when a terminal window is resized."""
        self._engine.resize(rows, columns)

    @property
    def tty(self) -> tuple[int, int] | None:
        """The terminal's (rows, columns), or None for a machine without one."""
        return self._engine.tty

    def send_signal(self, pid: int, signal: int) -> None:
        """Signal a guest process as its kernel would (2 = SIGINT, what Ctrl-C at a terminal sends). A
        process that is running takes it at its next system call or loop branch, not at whatever
        instruction the last run stopped on: there a handler that jumps out (BusyBox ash's) could leave
        a C library lock half taken."""
        self._engine.send_signal(pid, signal)

    # --- the host's side of port forwards (Session(forward=...)) -------------------------------------
    def forward_port(self, port: int) -> None:
        """Let the host connect to guest port `port`: a guest server there then waits for the outside
        world (a run stops with 'stdin') instead of ending as a deadlock."""
        self._engine.forward_port(port)

    def host_connect(self, port: int) -> int:
        """A connection from the host to guest port `port`; ConnectionRefusedError if nothing listens."""
        return self._engine.host_connect(port)

    def host_send(self, conn: int, data: bytes) -> int:
        return self._engine.host_send(conn, data)

    def host_recv(self, conn: int, max_bytes: int = 1 << 16) -> tuple[bytes, bool]:
        """(what the guest sent on `conn`, whether it has closed its side)."""
        return self._engine.host_recv(conn, max_bytes)

    def host_close(self, conn: int, write_only: bool = False) -> None:
        self._engine.host_close(conn, write_only)

    # --- results -----------------------------------------------------------------------------------
    @property
    def stop(self) -> str:
        """Why the last run or step ended: ready (nothing run yet), budget, timeout, interrupted,
        breakpoint, watchpoint, stdin (a process waits for input), network (every process waits for a
        connection through a port forward) or exited."""
        return self._stop[0]

    @property
    def stop_detail(self) -> str:
        """What the stop says beyond its kind, e.g. 'read of 0x4a0060' for a watchpoint."""
        return self._stop[2]

    @property
    def status(self) -> str:
        """'running' while the machine can go on (also when a budget, timeout or Ctrl-C paused it);
        otherwise breakpoint, watchpoint, stdin or exited: what a debugger must look at first."""
        return "running" if self.stop in RESUMABLE else self.stop

    @property
    def cycles(self) -> int:
        """Instructions retired since the start (the debugger's clock; `restore` brings it back)."""
        return self._engine.instructions

    @property
    def exit_status(self) -> int | None:
        """The first process's exit status once it has exited (128 + signal number if a signal killed it)."""
        return self._engine.exit_status

    @property
    def exit_signal(self) -> int | None:
        """The signal that killed the first process (SIGSEGV = 11, SIGABRT = 6, …), or None if it exited."""
        return self._engine.exit_signal

    @property
    def stdout_bytes(self) -> bytes:
        return bytes(self._stdout)

    @property
    def stderr_bytes(self) -> bytes:
        return bytes(self._stderr)

    @property
    def truncated(self) -> dict[str, int]:
        """{stream: bytes dropped from its start} for each output stream longer than `max_output`
        (empty when everything was kept)."""
        return {name: kept.dropped for name, kept in (("stdout", self._stdout), ("stderr", self._stderr))
                if kept.dropped}

    @property
    def stdout(self) -> str:
        """What the guest wrote to standard output so far (UTF-8, undecodable bytes replaced)."""
        return self.stdout_bytes.decode("utf-8", "replace")

    @property
    def stderr(self) -> str:
        return self.stderr_bytes.decode("utf-8", "replace")

    @property
    def instructions(self) -> int:
        """Instructions retired so far, every process together."""
        return self._engine.instructions

    def framebuffer(self) -> tuple[int, int, bytes]:
        """The guest's screen, /dev/fb0: (width, height, pixels), 4 bytes a pixel in the order blue, green,
        red, unused (XRGB8888 little-endian); black until the guest writes to it."""
        return self._engine.framebuffer()

    @property
    def frames(self) -> int:
        """Frames the guest has presented on /dev/fb0 (its FBIOPAN_DISPLAY calls)."""
        return self._engine.frames

    @property
    def syscall_count(self) -> int:
        return self._engine.syscalls

    def syscall_log(self) -> SyscallLog:
        """The system calls so far (the most recent few thousand): process, number, name, arguments, result."""
        return SyscallLog(self._engine.syscall_log(), self._engine.syscalls)

    def unknown_syscalls(self) -> list[tuple[int, str]]:
        """(number, name) of system calls the machine does not implement (they returned ENOSYS)."""
        return list(self._engine.unknown_syscalls())

    def processes(self) -> list[Process]:
        return [Process(*p) for p in self._engine.processes()]

    @property
    def alive(self) -> bool:
        """Whether a process is left. Once every process has exited, registers and memory are those
        of the last thread that ended, as it left them (x8 holds the number of its exit call)."""
        return bool(self._engine.processes())

    @property
    def pid(self) -> int:
        """The process whose registers and memory this object shows (after the end: the last one)."""
        return self._engine.pid()

    def faults(self) -> list[Fault]:
        """Processes a fault killed (SIGSEGV, SIGILL, …): what Linux would not tell, kept for you."""
        return [Fault(*f) for f in self._engine.faults()]

    def write_file(self, path: str, data: bytes | str) -> None:
        """Create or replace a file of the machine's own filesystem (e.g. /tmp/input; not a host mount)."""
        try:
            self._engine.write_file(path, data.encode() if isinstance(data, str) else bytes(data))
        except ValueError as exc:
            raise MachineError(str(exc)) from exc

    def read_file(self, path: str) -> bytes:
        """A file from the guest's filesystem (e.g. one the program wrote in /tmp)."""
        return self._engine.read_file(path)

    # --- state -------------------------------------------------------------------------------------
    @property
    def registers(self) -> dict[str, int]:
        """x0..x30, sp, pc and nzcv of the current process, as unsigned 64-bit values."""
        values = self._engine.registers()
        return {name: values[name] for name in REGISTERS}

    @property
    def vregs(self) -> dict[str, int]:
        """The SIMD and floating-point registers v0..v31 as 128-bit integers."""
        values = self._engine.registers()
        return {name: values[name] for name in VECTOR_REGISTERS}

    def get_register(self, name: str) -> int:
        """Any register by name: x0..x30, sp, pc, nzcv, fpcr, fpsr, tpidr_el0, v0..v31."""
        return self._engine.get_register(arguments.register_name(name).lower())

    def set_register(self, name: str, value: int) -> None:
        """Any register by name (as `get_register`); a negative value is its two's complement."""
        bits = 128 if arguments.register_name(name).lower().startswith("v") else 64
        self._engine.set_register(name.lower(), arguments.register_bits(name, value, bits))

    @property
    def pc(self) -> int:
        return self._engine.get_register("pc")

    @pc.setter
    def pc(self, value: int) -> None:
        self._engine.set_register("pc", arguments.location(value, 64))

    @property
    def flags(self) -> dict[str, bool]:
        """The condition flags N, Z, C, V."""
        nzcv = self._engine.get_register("nzcv")
        return {name: bool(nzcv >> (31 - i) & 1) for i, name in enumerate(FLAGS)}

    def read_memory(self, address: int, n: int) -> bytes:
        return self._engine.read_memory(address, n)

    def write_memory(self, address: int, data: bytes) -> None:
        self._engine.write_memory(address, bytes(data))

    def read_string(self, address: int, limit: int = 4096) -> str:
        """The NUL-terminated string at `address` (a C string in guest memory)."""
        data = bytearray()
        while len(data) < limit:
            piece = self._engine.read_memory(address + len(data), 64 - (address + len(data)) % 64)
            end = piece.find(b"\0")
            data += piece if end < 0 else piece[:end]
            if end >= 0:
                break
        return data.decode("utf-8", "replace")

    def memory_map(self) -> MemoryMap:
        return MemoryMap((Region(*r) for r in self._engine.memory_map()), read=self.read_memory)

    # --- debugging ---------------------------------------------------------------------------------
    @property
    def trace_depth(self) -> int:
        return self._trace_depth

    @trace_depth.setter
    def trace_depth(self, depth: int) -> None:
        """Keep the last `depth` instructions in `trace` (0 turns tracing off, the fastest)."""
        self._engine.set_trace(depth)
        self._trace_depth = depth

    @property
    def trace_accesses(self) -> bool:
        return self._trace_accesses

    @trace_accesses.setter
    def trace_accesses(self, on: bool) -> None:
        """Also record each traced instruction's memory accesses (`TraceStep.accesses`, `memory_write`).
        Off by default: while on, every instruction takes the general debugging loop and every load and
        store the general path (a traced BusyBox shell loop runs about 2.3× slower)."""
        self._trace_accesses = bool(on)
        self._engine.set_trace_accesses(self._trace_accesses)

    def set_observation(self, on: bool) -> None:
        """Fold every instruction's PC, the PC after it and its memory accesses into a digest as the
        machine runs (what a timing observer could see; `observation`). On starts a fresh digest;
        while on, runs take the engine's debugging loop (no trace kept, so memory stays flat)."""
        self._engine.set_observation(bool(on))

    @property
    def observation(self) -> tuple[int, str] | None:
        """(instructions observed, digest as 32 hex digits) since `set_observation(True)`, or None while off.
        Two runs with equal observations ran the same PCs, branch outcomes and memory addresses."""
        return self._engine.observation()

    def trace_entries(self) -> list[tuple]:
        """The trace ring as the engine keeps it, oldest first: (pc, word, changes, nzcv before, nzcv after,
        accesses, pid) per instruction, undecoded (`trace` decodes it; a tool that visits millions reads this)."""
        return self._engine.trace()

    # --- instruments: what the fuzzer and the profiler count -----------------------------------------
    def set_coverage(self, on: bool) -> None:
        """Count the edges taken between blocks (`coverage`) and keep the operands compared (`compares`):
        what a coverage-guided fuzzer reads after each execution. On clears both."""
        self._engine.set_coverage(bool(on))

    def coverage(self) -> bytes | None:
        """65,536 saturating hit counts, one per edge hash, or None while coverage is off."""
        return self._engine.coverage()

    def compares(self) -> list[int]:
        """The distinct operands of the comparisons run since coverage was turned on."""
        return self._engine.compares()

    def set_profile(self, period: int) -> None:
        """Count the instructions run per PC and sample the call stack every `period` instructions
        (0 turns the profiler off and drops its counts)."""
        period = arguments.count(period, "period")
        if period >= 1 << 64:
            raise ValueError(f"period is at most 2**64 - 1 instructions, not {period}")
        self._engine.set_profile(period)

    def profile_counts(self) -> tuple[list[tuple[int, int]], list[tuple[list[int], int]], list[int]] | None:
        """(count per PC, sampled call stacks with their counts, the call targets seen) since
        `set_profile`, or None while the profiler is off."""
        return self._engine.profile()

    @property
    def trace(self) -> MachineTrace:
        """The most recent instructions (see `trace_depth`), oldest first, with the registers each changed."""
        entries = self._engine.trace()
        first = self._engine.instructions - len(entries)
        steps = []
        for i, (pc, word, changes, nzcv_before, nzcv_after, accesses, _pid) in enumerate(entries):
            changed = {reg: (old, new) for reg, old, new in changes if reg != "pc"}
            next_pc = next((new for reg, _, new in changes if reg == "pc"),
                           entries[i + 1][0] if i + 1 < len(entries) else self.pc)
            write = next(((address, size) for address, size, written in accesses if written), None)
            steps.append(TraceStep(first + i, pc, _metal.Arm64Core.disassemble(word, pc), next_pc, changed,
                                   flags_text(nzcv_before), flags_text(nzcv_after), write,
                                   accesses=tuple(accesses)))
        return MachineTrace(steps, width=64)

    def snapshot(self) -> Snapshot:
        """The whole machine now; `restore` goes back to it (cheap: memory pages are shared copy-on-write).
        Its state holds the output printed by then."""
        self._collect(None)
        return Snapshot(self._engine.instructions, (self._engine.snapshot(), self._stdout, self._stderr, self._stop))

    def restore(self, snapshot: Snapshot) -> None:
        """Back to a snapshot of this machine: processes, memory, files, and the output printed by then.
        The trace depth stays as set now (the snapshot may have been taken with another)."""
        state, self._stdout, self._stderr, self._stop = Snapshot.given(snapshot).state
        self._engine.restore(state)
        self._engine.set_trace(self._trace_depth)
        self._engine.set_trace_accesses(self._trace_accesses)

    def restore_keeping_trace(self, snapshot: Snapshot) -> None:
        """`restore`, but `trace` keeps the steps it holds now: a trace rebuilt by re-executing from an
        earlier snapshot then describes the steps that led to `snapshot` (the debugger's untraced runs)."""
        state, self._stdout, self._stderr, self._stop = Snapshot.given(snapshot).state
        self._engine.restore_keeping_trace(state)
        self._engine.set_trace_accesses(self._trace_accesses)

    def code_labels(self) -> dict[int, str]:
        """Address -> function name, from the ELF symbol table (empty for a stripped program)."""
        return {s.address: s.name for s in self.elf.symbols.values() if s.kind == "function"}

    def return_address(self, location: int) -> int | None:
        """The address after a `bl`/`blr` at `location` (where the call returns); None for any other instruction."""
        text = dict(self.disassemble(location, 1)).get(location, "")
        return location + 4 if text.split(" ", 1)[0] in ("bl", "blr") else None

    def call_stack(self) -> list[Frame]:
        """The current process's active calls, innermost first: a frame-pointer and link-register walk
        (see `ncpu_nb.arm64.frame_walk`), each frame named by the ELF's function symbols."""
        return call_stack(self)

    def source_at(self, location: int) -> tuple[str, str] | None:
        """('heap_bugs.c:52', the line's text) for code built with `-g` (DWARF line table, source file
        beside the program or its bin/ folder); None for code the table does not cover."""
        if self._source_lines is False:
            self._source_lines = SourceLines.of(self.elf)
        where = self._source_lines.at(location) if self._source_lines else None
        return (str(where), self._source_lines.text(where) or "") if where else None

    def debug_layout(self) -> DebugLayout:
        """How the debugger widget shows this machine: 64-bit registers, NZCV, hex code addresses 4 apart."""
        return DebugLayout((RegisterGroup("general", REGISTERS[:-1], 64), RegisterGroup("flags", ("nzcv",), 32),
                            RegisterGroup("simd", VECTOR_REGISTERS, 128, on_demand=True)),
                           code_unit=4, hex_locations=True, address_bits=48, stack_pointer="sp")

    @property
    def title(self) -> str:
        """The command line it runs, e.g. 'busybox sh -c …' (shortened past 60 characters)."""
        line = " ".join(self.argv)
        return "AArch64 · " + (line if len(line) <= 60 else line[:59] + "…")

    def debug_extras(self) -> DebugExtras:
        """Nothing beyond registers, code, memory and trace."""
        return DebugExtras()

    def debugger(self, **options):
        """A live debugger in the notebook (see `ncpu_nb.views.Debugger` for the options). It turns
        the trace on (64 instructions) if it was off, and its memory panel starts at the stack."""
        from ncpu_nb.views.debugger import Debugger  # imports anywidget: only when asked

        if self.trace_depth == 0:
            self.trace_depth = 64
        debugger = Debugger(self, **options)
        debugger.memory_address = format(self._engine.get_register("sp"), "x")
        return debugger

    def disassemble(self, start: int | None = None, n: int = 8) -> list[tuple[int, str]]:
        """(address, text) of `n` instructions from `start` (default: the PC)."""
        return [(address, text) for address, _word, text in
                self._engine.disassemble(self.pc if start is None else self.address(start), n)]

    # --- display -----------------------------------------------------------------------------------
    def _title(self) -> str:
        return "AArch64 Linux machine: " + " ".join(self.argv)

    def _state_rows(self) -> list[list[str]]:
        rows = [["status", escape(self._status_text())]]
        if self.exit_status is not None:
            rows.append(["exit status", str(self.exit_status)])
        rows += [["instructions", f"{self.instructions:,}"], ["system calls", f"{self.syscall_count:,}"],
                 ["processes", str(len(self.processes()))]]
        rows += [["fault", escape(f"pid {f.pid}, signal {f.signal} at 0x{f.pc:x}: {f.what}")] for f in self.faults()]
        if self.truncated:
            rows.append(["output", escape(truncation_text(self.truncated, self.max_output))])
        return rows

    def __repr__(self) -> str:
        return (f"<Arm64Machine {' '.join(self.argv)!r}: {self._status_text()}, pc=0x{self.pc:x}, "
                f"{self.instructions:,} instructions>")

    def _status_text(self) -> str:
        kind, _pc, detail = self._stop
        if kind == "watchpoint":
            return f"watchpoint ({detail})"
        return STOP_TEXT.get(kind, kind)

    def _repr_html_(self) -> str:
        regs = self.registers
        names = [n for n in REGISTERS if n != "nzcv"]
        third = (len(names) + 2) // 3
        parts = [html.box(html.table(["reg", "value"], [[n, f"0x{regs[n]:016x}"] for n in names[i:i + third]]))
                 for i in range(0, len(names), third)]
        flags = html.table(["N", "Z", "C", "V"], [["1" if on else "0" for on in self.flags.values()]])
        parts += [html.box(flags, html.table(["", ""], self._state_rows())), self._listing_html()]
        if self._stdout.size or self._stderr.size:
            tail = "\n".join((self.stdout + self.stderr).splitlines()[-12:])
            parts.append(f"<div class='title'>output (last lines)</div><pre>{escape(tail)}</pre>")
        return html.view(self._title(), *parts)

    def _listing_html(self) -> str:
        pc = self.pc
        try:
            lines = self._engine.disassemble(max(0, pc - 8), 5)
        except ValueError:
            return ""
        breakpoints = set(self.breakpoints)
        rows = [[("● " if a in breakpoints else "  ") + f"0x{a:x}", f"{w:08x}", escape(t)] for a, w, t in lines]
        current = {i: "cur" for i, (a, _w, _t) in enumerate(lines) if a == pc}
        return html.box(html.table(["address", "word", "instruction"], rows, current))
