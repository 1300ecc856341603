"""`Session()`: one interactive BusyBox `sh` on the AArch64 machine, kept between commands.

Files, the working directory, the environment and background processes persist from one `run` to the
next, as in a terminal. The shell reads its commands from the machine's standard input, one line per
command: `eval 'COMMAND' </dev/null`, then a line that prints a marker with `$?`. The marker tells
where the command's output ends and what its exit status was; it is never part of a result.
The command runs with its own copies of stdout and stderr (an `exec >/dev/null` in it ends with it),
and the marker goes out on a descriptor the command cannot see. Each command's marker carries a fresh
secret, and it counts only if the shell itself wrote it (the machine's system call log says who did):
a guest job that reads the shell's input cannot forge a result.

The shell reads its input as a script file (`sh -i /dev/stdin`), not through the line reader a
terminal's stdin gets: without a tty that reader treats a read interrupted by a signal as end of file,
so the shell would exit when a background job ends (BusyBox does so on Linux too).
"""
from __future__ import annotations

import codecs
import math
import secrets
import shlex
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from pathlib import Path

from ncpu_nb import html
from ncpu_nb.arm64.busybox import TERMINAL_STYLE, BusyboxResult
from ncpu_nb.arm64.machine import MAX_OUTPUT, Arm64Machine
from ncpu_nb.arm64.machine_errors import MachineError, MachineTimeout
from ncpu_nb.arm64.port_forward import PortForward
from ncpu_nb.protocol import Snapshot

SLICE = 1 / 30  # seconds the machine runs between looks at its output (and at an interrupt)
SIGINT, SIGKILL = 2, 9
INTERRUPT_GRACE = 5.0  # seconds a command has to end after SIGINT before it gets SIGKILL
KILL_GRACE = 1.0  # seconds the shell has to print its marker after SIGKILL ended the command's processes
SHELL_ENV = ("PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=/", "TERM=dumb")
SCRIPT = "/dev/stdin"  # the shell's own messages start with this name: shown as 'sh' in results
TRANSCRIPT = 1 << 20  # bytes of each stream the machine itself keeps (results hold their own output)
RUN_TIMEOUT = 600.0  # seconds a command may run when `run` is given no timeout
# The shell's descriptors for the session's own stdout and stderr, closed for the command (ash's
# redirections are undone when the eval ends, whatever the command did to them).
MARKER_FD, STDERR_FD = 9, 8
NO_CONNECTION = "every process waits for a network connection, and no port forward is open to make one"


def run_until_input(machine: Arm64Machine, on_output: Callable[[bytes, bytes], None], *,
                    feed: Callable[[], None] = lambda: None, more: Callable[[], bool] = lambda: False,
                    stop: Callable[[], bool] = lambda: False, after_slice: Callable[[], None] = lambda: None,
                    forwarding: Callable[[], bool] = lambda: True, slice_seconds: float = SLICE) -> str:
    """Run an interactive machine in slices of `slice_seconds` until every process waits for input and
    `more()` says none is coming (a wait for a port forward's connection goes on while `forwarding()`),
    `stop()` is true, or the machine stops for another reason (every process exited, a breakpoint, a
    fault). `feed()` writes pending input before each slice; `after_slice()` runs after each. Returns
    what went wrong ('' if nothing; NO_CONNECTION for a wait on a forward that is closed). Ctrl-C raises
    KeyboardInterrupt with the machine's state kept."""
    try:
        while not stop():
            feed()
            run = machine.run(timeout=slice_seconds, check=False, on_output=on_output)
            after_slice()
            if run.stop == "stdin" and not more():
                return ""
            if run.stop == "network":  # only a port forward's connection can wake the guest: let one come
                if not forwarding():
                    return NO_CONNECTION
                time.sleep(slice_seconds / 4)
                continue
            if run.stop not in ("timeout", "budget", "stdin"):
                return run.detail if run.stop == "fault" else ""
    except KeyboardInterrupt:
        raise
    except Exception as error:  # the machine failed: it keeps its state, the caller says what happened
        return str(error)
    return ""


@dataclass(frozen=True)
class SessionResult(BusyboxResult):
    """What one `Session.run` did: stdout, stderr, `exit_code` (also `status`), and the work it took.
    `args` is ('sh', '-c', command), as the one-shot `busybox` would run it."""

    interrupted: bool = False
    streamed: bool = False  # its output was shown as it came (the magics): the view does not repeat it

    @property
    def status(self) -> int:
        return self.exit_code

    @property
    def command(self) -> str:
        return self.args[-1]

    def _output_html(self) -> str:
        return "<span class='dim'>(its output is above, as it came)</span>" if self.streamed else super()._output_html()

    def _command_html(self) -> str:
        lines = self.command.strip("\n").splitlines() or [""]
        if len(lines) == 1:
            return f"<b>$ {escape(lines[0])}</b>"
        return "<b>$ %%busybox</b>\n<span class='dim'>" + escape("\n".join("  " + s for s in lines)) + "</span>"


@dataclass(frozen=True)
class GuestFile:
    name: str
    size: int
    kind: str  # 'file', 'directory', 'symbolic link', 'fifo', …


class GuestFiles(list):
    """The entries of one guest folder (`Session.files(path)`): name, size, kind."""

    def __init__(self, path: str, entries):
        super().__init__(entries)
        self.path = path

    def names(self) -> list[str]:
        return [f.name for f in self]

    def _repr_html_(self) -> str:
        rows = [[escape(f.name + ("/" if f.kind == "directory" else "")), f"{f.size:,}", escape(f.kind)] for f in self]
        return html.view(f"Guest folder {self.path}: {len(self)} entries",
                         html.table(["name", "size", "kind"], rows, numeric=(1,)))


class Session:
    """One BusyBox `sh` on the AArch64 machine kept between commands, e.g.

        with ncpu_nb.Session() as session:
            session.run("cd /tmp && echo hi > f")
            session.run("cat f").stdout       # 'hi\\n'

    mounts, cwd, env, deterministic, limits   make the machine (as `ncpu_nb.busybox` does); with
        deterministic=True the guest's clock stands still while it computes and jumps over idle time,
        so a sleeping background job ends as soon as the shell waits: pass False for a real clock
    max_output   bytes of each stream a result keeps (the newest; None: all), and of what background
        jobs print between commands for the next result (None: TRANSCRIPT)
    `run(command, on_output=None, timeout=RUN_TIMEOUT)`  runs a command line or script; Ctrl-C (or
        `interrupt()`) sends SIGINT to it, the shell goes on and the status is 130
    `snapshot()` / `restore(s)` rewind the whole machine: every process and the file system
    `read_file`, `write_file`, `upload`, `download`, `files(path)`: the guest's files from Python
    forward={guest_port: host_port}   the one way in from the host's network: the host's
        127.0.0.1:host_port (0: any free port, see `forwards`) leads to guest_port on the machine's own
        loopback, served between commands too, to this user alone; `close()` (or the end of a `with`
        block, or dropping the session) ends it. The guest's sockets reach nothing else.
    """

    def __init__(self, *, mounts=(), cwd: str = "/", env=None, deterministic: bool = True, limits=None,
                 max_output: int | None = MAX_OUTPUT, forward: dict[int, int] | None = None):
        if max_output is not None and (not isinstance(max_output, int) or isinstance(max_output, bool)
                                       or max_output < 0):
            raise ValueError(f"max_output={max_output!r}: the bytes of each stream a result keeps, a whole "
                             "number ≥ 0 (or None: all)")
        if forward is not None and not isinstance(forward, Mapping):
            raise TypeError(f"forward={forward!r}: a dict {{guest_port: host_port}} (host port 0: any free "
                            "one), e.g. forward={8080: 0}")
        env = list(SHELL_ENV) if env is None else [str(e) for e in env]
        self.machine = Arm64Machine.busybox("sh", "-i", SCRIPT, interactive=True, mounts=mounts, cwd=cwd,
                                            env=env, deterministic=deterministic, limits=limits,
                                            max_output=TRANSCRIPT)
        self.max_output = max_output
        self._label = "ncpu-" + secrets.token_hex(6) + ":"  # after \x1f, it starts the session's marker lines
        self._secret = ""  # the running command's: its marker line is \x1f, label, secret, ':', its status
        self._written_at = 0  # instructions retired when the running command's line went in
        self._backlog = _Backlog(TRANSCRIPT if max_output is None else max_output)
        self._interrupt = threading.Event()
        self._busy = threading.Lock()  # one command at a time
        self._machine_lock = threading.RLock()  # one user of the machine at a time (commands, port forwards)
        self._unfinished = False  # a second Ctrl-C left a command running: its marker is still to come
        self.commands = 0
        self._forward = None
        self._start()
        if forward:
            self._forward = PortForward(self.machine, dict(forward), self._machine_lock, self._backlog.add)
        # A session dropped without close() stops forwarding: the forward's thread holds no reference to it.
        self._closer = weakref.finalize(self, self._forward.close) if self._forward else None

    @property
    def forwards(self) -> dict[int, int]:
        """Guest port → the host port (on 127.0.0.1) that leads to it."""
        return dict(self._forward.host_ports) if self._forward else {}

    def close(self) -> None:
        """Stop the port forwards (the machine and its processes stay)."""
        if self._closer is not None:
            self._closer()
            self._forward = None

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _pump(self) -> None:
        if self._forward is not None:
            self._forward.pump()

    def _start(self) -> None:
        """Run to the first prompt; the banner and 'job control turned off' are not a command's output.
        Descriptors 9 and 8 keep the session's own stdout and stderr."""
        self._shell = min(p.pid for p in self.machine.processes())
        self._secret = secrets.token_hex(16)
        self.machine.write_stdin(f"PS1= PS2=\nexec {MARKER_FD}>&1 {STDERR_FD}>&2\n" + self._marker_line())
        self._collect_until_marker(None, None)

    def _marker_line(self) -> str:
        """The line that ends the running command: it prints the marker (whose bytes never appear in the
        line itself, so an echo of it cannot pass for it) and the status."""
        return f"printf '\\037{self._label}{self._secret}:%d\\n' $? >&{MARKER_FD}\n"

    def _shell_wrote(self, length: int) -> bool:
        """Whether the shell itself made a write of `length` bytes while the command ran (a marker a guest
        job printed is not the shell's)."""
        return any(c.pid == self._shell and c.name in ("write", "writev") and c.result == length
                   and c.at is not None and c.at >= self._written_at for c in self.machine.syscall_log())

    # --- running ------------------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        """Whether the shell is still there (an `exit` ends it, and the session with it)."""
        with self._machine_lock:
            return self.machine.stop != "exited" and self.machine.alive

    def run(self, command: str, on_output: Callable[[str, str], None] | None = None,
            timeout: float | None = None) -> SessionResult:
        """Run a command line (or a multi-line script) in the session's shell and return its output and
        exit status. Its standard input is /dev/null. `on_output(stream, text)` ('stdout' or 'stderr')
        gets the output as it comes. Past `timeout` seconds (None: RUN_TIMEOUT) the command gets SIGINT,
        then (INTERRUPT_GRACE later) SIGKILL, and MachineTimeout is raised with its output; the session
        goes on, unless the shell itself would not stop: KILL_GRACE later it is killed, and the error
        says the session is over."""
        if not isinstance(command, str):
            hint = ": decode it first, e.g. command.decode()" if isinstance(command, (bytes, bytearray)) else ""
            raise TypeError(f"command must be a str (a shell command line), not {type(command).__name__}{hint}")
        if on_output is not None and not callable(on_output):
            raise TypeError(f"on_output={on_output!r}: a function (stream, text), or None")
        if timeout is None:
            timeout = RUN_TIMEOUT
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not (
                math.isfinite(timeout) and timeout > 0):
            raise ValueError(f"timeout={timeout!r}: the seconds a command may run, a positive finite number "
                             f"(None: {RUN_TIMEOUT:g})")
        if not self._busy.acquire(blocking=False):
            raise RuntimeError("the session is already running a command")
        self._machine_lock.acquire()
        try:
            if not self.alive:
                raise MachineError("the session's shell has exited: make a new Session()")
            self._interrupt.clear()
            m = self.machine
            if self._unfinished:  # end what a second Ctrl-C left running, and drop its output
                self._signal(SIGKILL)
                self._collect_until_marker(None, None)
            start, syscalls, t0 = m.instructions, m.syscall_count, time.perf_counter()
            self.commands += 1
            self._secret, self._written_at = secrets.token_hex(16), m.instructions
            m.write_stdin(f"eval {shlex.quote(command)} </dev/null >&{MARKER_FD} 2>&{STDERR_FD} {STDERR_FD}>&- "
                          f"{MARKER_FD}>&-; " + self._marker_line())
            out, err, status, interrupted, truncated = self._collect_until_marker(on_output, timeout)
            result = SessionResult(("sh", "-c", command), out.decode("utf-8", "replace"),
                                   err.decode("utf-8", "replace"), status, m.instructions - start,
                                   time.perf_counter() - t0, m.syscall_count - syscalls, out, m, truncated, self.max_output,
                                   bool(interrupted))
            over = "" if self.alive else "; the shell itself would not stop and was killed: the session is over"
        finally:
            self._machine_lock.release()
            self._busy.release()
        if interrupted == "timeout":
            raise MachineTimeout(f"{command!r} did not end within {timeout:g} s: it was interrupted{over}",
                                 result.stdout, result.stderr)
        if interrupted == "stuck":
            raise MachineTimeout(f"{command!r} waited for a network connection, but no port forward is open to "
                                 f"make one (the session's forwards are closed): it was interrupted{over}",
                                 result.stdout, result.stderr)
        return result

    def interrupt(self) -> None:
        """Ctrl-C: SIGINT to the running command (from any thread); the shell prompts again."""
        self._interrupt.set()

    def _collect_until_marker(self, on_output, timeout):
        """Run until the marker line, sorting output into the command's; returns (stdout, stderr, status,
        why it was interrupted: '', 'interrupt', 'timeout' or 'stuck', truncated). An interrupted command
        gets SIGINT, then (INTERRUPT_GRACE later) SIGKILL, then (KILL_GRACE later) the shell is killed."""
        m = self.machine
        stream = _Streams(b"\x1f" + self._label.encode(), self._secret.encode(), on_output, self.max_output,
                          self._shell_wrote)
        out, err = self._backlog.take()
        stream.out(out)
        stream.err(err)
        deadline = None if timeout is None else time.monotonic() + timeout
        interrupted, signalled_at, signals = "", 0.0, 0

        def resend() -> bool:  # the shell waits for input but printed no marker: a syntax error, Ctrl-C
            if stream.status is None:
                m.write_stdin(self._marker_line())
            return stream.status is None

        def stop() -> bool:
            if stream.status is not None:
                return True
            if not interrupted:
                return self._interrupt.is_set() or (deadline is not None and time.monotonic() > deadline)
            return time.monotonic() - signalled_at > (INTERRUPT_GRACE if signals == 1 else KILL_GRACE)

        while stream.status is None and self.alive:
            try:
                failure = run_until_input(m, lambda o, e: (stream.out(o), stream.err(e)), more=resend, stop=stop,
                                          after_slice=self._pump, forwarding=lambda: self._forward is not None)
            except KeyboardInterrupt:
                if interrupted:  # a second Ctrl-C: give up waiting
                    self._unfinished = True
                    raise
                failure, self._interrupt = "", _set_event()
            if failure and failure != NO_CONNECTION:
                raise MachineError(f"the session's machine stopped: {failure}")
            if stream.status is not None or not self.alive:
                break
            if not interrupted:
                interrupted = "stuck" if failure else "interrupt" if self._interrupt.is_set() else "timeout"
            signals += 1
            if signals == 1:
                self._signal(SIGINT)
                m.write_stdin(self._marker_line())  # for a shell whose line SIGINT cut short (a stale one is dropped)
            else:  # it ignored SIGINT; then the shell itself did (a loop of its own under `trap '' INT`)
                self._signal(SIGKILL, shell_too=signals > 2)
            signalled_at = time.monotonic()
        self._interrupt, self._unfinished = threading.Event(), False
        self._backlog.add(stream.rest, b"")
        out, err = stream.finish()
        status = stream.status if stream.status is not None else self.machine.exit_status
        return out, err, status, interrupted, stream.truncated

    def _signal(self, signal: int, shell_too: bool = False) -> None:
        """SIGINT as a terminal without job control sends it: to every process. The interactive shell
        catches it; background jobs ignore it (the shell started them so). SIGKILL spares the shell
        unless `shell_too`."""
        spared = self._shell if signal == SIGKILL and not shell_too else None
        for process in self.machine.processes():
            if process.pid != spared:
                try:
                    self.machine.send_signal(process.pid, signal)
                except ValueError:  # it ended meanwhile
                    pass

    # --- state --------------------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        """The whole session now (every process, the file system, the shell's variables and cwd);
        `restore` goes back to it."""
        with self._machine_lock:
            return Snapshot(self.machine.cycles, (self.machine.snapshot(), self._backlog.peek()))

    def restore(self, snapshot: Snapshot) -> None:
        with self._machine_lock:
            state, (out, err) = snapshot.state
            self.machine.restore(state)
            self._backlog.take()
            self._backlog.add(out, err)

    # --- files --------------------------------------------------------------------------------------
    def read_file(self, path: str) -> bytes:
        """A file of the guest's filesystem (a relative path starts at /)."""
        with self._machine_lock:
            return self.machine.read_file(path)

    def write_file(self, path: str, data: bytes | str) -> None:
        """Create or replace a file of the guest's own filesystem (its folder must exist)."""
        with self._machine_lock:
            self.machine.write_file(path, data)

    def upload(self, host_path, guest_path: str) -> None:
        """Copy a host file into the guest."""
        self.write_file(guest_path, Path(host_path).read_bytes())

    def download(self, guest_path: str, host_path) -> Path:
        """Copy a guest file to the host; returns the host path."""
        host = Path(host_path)
        host.write_bytes(self.read_file(guest_path))
        return host

    def files(self, path: str = ".") -> GuestFiles:
        """The entries of a guest folder (default: the shell's working directory), with size and kind."""
        d = shlex.quote(path.rstrip("/") or "/")
        # Each entry as 'size|kind', a newline, then its name ended by NUL (a name may hold newlines, never NUL).
        listing = self.run(f"(cd {d} && for f in * .[!.]* ..?*; do if [ -e \"$f\" ] || [ -L \"$f\" ]; then "
                           "stat -c '%s|%F' -- \"$f\" && printf '%s\\0' \"$f\"; fi; done)")
        if not listing.ok and not listing.stdout:
            raise FileNotFoundError(listing.stderr.strip() or f"no guest folder {path}")
        entries = []
        for entry in listing.stdout.split("\0")[:-1]:
            head, _, name = entry.partition("\n")
            size, _, kind = head.partition("|")
            entries.append(GuestFile(name, int(size), kind.replace("regular empty file", "file")
                                     .replace("regular file", "file")))
        return GuestFiles(path, sorted(entries, key=lambda f: f.name))

    # --- display ------------------------------------------------------------------------------------
    def __repr__(self) -> str:
        with self._machine_lock:
            return self._describe()

    def _describe(self) -> str:
        state = "live" if self.alive else f"exited ({self.machine.exit_status})"
        return (f"<Session {state}: {self.commands} commands, {len(self.machine.processes())} processes, "
                f"{self.machine.instructions:,} instructions>")

    def _repr_html_(self) -> str:
        with self._machine_lock:
            return self._html()

    def _html(self) -> str:
        rows = [[str(p.pid), str(p.ppid), escape(p.state), escape(p.executable)] for p in self.machine.processes()]
        state = "live" if self.alive else f"the shell exited with status {self.machine.exit_status}"
        footer = (f"<div class='dim'>{state} · {self.commands} commands · {self.machine.instructions:,} "
                  f"instructions · {self.machine.syscall_count:,} system calls</div>")
        return html.view("BusyBox session", f"<div style='{TERMINAL_STYLE}'>",
                         html.table(["pid", "ppid", "state", "program"], rows), "</div>", footer)


def _set_event() -> threading.Event:
    event = threading.Event()
    event.set()
    return event


class _Backlog:
    """What background jobs print between commands (while port forwards run the machine): the next
    result's. It keeps the newest `cap` bytes of each stream."""

    def __init__(self, cap: int):
        self.cap, self.out, self.err = cap, bytearray(), bytearray()

    def add(self, out: bytes, err: bytes) -> None:
        for kept, new in ((self.out, out), (self.err, err)):
            kept += new
            del kept[:len(kept) - self.cap]

    def peek(self) -> tuple[bytes, bytes]:
        return bytes(self.out), bytes(self.err)

    def take(self) -> tuple[bytes, bytes]:
        taken = self.peek()
        self.out.clear()
        self.err.clear()
        return taken


class _Streams:
    """Sorts a run's output: stdout up to the marker is the command's (what follows it is a background
    job's, kept for the next result); stderr goes by whole lines, with the shell's name for itself
    made 'sh' and any line echoing the marker's command (set -v, set -x) dropped. A marker line is
    `prefix`, a command's secret, ':', its status; only the running command's, written by the shell
    (`genuine(length)`), ends it: the rest (stale ones sent twice, forged ones) are dropped."""

    def __init__(self, prefix: bytes, secret: bytes, on_output, cap: int | None, genuine: Callable[[int], bool]):
        self.prefix, self.secret, self.on_output, self.cap, self.genuine = prefix, secret, on_output, cap, genuine
        self.label = prefix.lstrip(b"\x1f")
        self.truncated: dict[str, int] = {}
        self.stdout, self.stderr = bytearray(), bytearray()
        self._held, self._line = bytearray(), bytearray()  # stdout that may begin a marker; stderr's last line
        self.status: int | None = None
        self.rest = b""
        self._decoders = {s: codecs.getincrementaldecoder("utf-8")("replace") for s in ("stdout", "stderr")}

    def _emit(self, stream: str, data: bytes, final: bool = False) -> None:
        kept = self.stdout if stream == "stdout" else self.stderr
        kept.extend(data)
        if self.cap is not None and len(kept) > self.cap:  # the newest `cap` bytes stay
            self.truncated[stream] = self.truncated.get(stream, 0) + len(kept) - self.cap
            del kept[:len(kept) - self.cap]
        if self.on_output is not None:
            text = self._decoders[stream].decode(bytes(data), final)
            if text:
                self.on_output(stream, text)

    def out(self, data: bytes) -> None:
        if self.status is not None:
            self.rest += data
            return
        self._held += data
        while (at := self._held.find(self.prefix)) >= 0:
            end = self._held.find(b"\n", at)
            if end < 0:  # the rest of its line is still to come
                break
            secret, _, status = bytes(self._held[at + len(self.prefix):end]).partition(b":")
            self._emit("stdout", self._held[:at])
            rest = bytes(self._held[end + 1:])
            self._held.clear()
            if secret == self.secret and status.isdigit() and self.genuine(end + 1 - at):
                self.status, self.rest = int(status), rest
                return
            self._held += rest  # a stale marker, or one a guest job forged: dropped
        at = self._held.find(self.prefix)
        keep = len(self._held) - at if at >= 0 else next(
            (k for k in range(min(len(self.prefix) - 1, len(self._held)), 0, -1)
             if self._held.endswith(self.prefix[:k])), 0)
        self._emit("stdout", self._held[:len(self._held) - keep])
        del self._held[:len(self._held) - keep]

    def err(self, data: bytes) -> None:
        self._line += data
        *lines, last = self._line.split(b"\n")
        self._line = bytearray(last)
        text = b"".join(self._fix(line + b"\n") for line in lines)
        if text:
            self._emit("stderr", text)

    def _fix(self, line: bytes) -> bytes:
        if self.label in line:
            return b""
        prefix = SCRIPT.encode() + b": "
        if line.startswith(prefix):
            line = b"sh: " + line[len(prefix):].removeprefix(b"eval: ")
        return line

    def finish(self) -> tuple[bytes, bytes]:
        """The command's stdout and stderr, whatever was held back included."""
        if self._line:
            self._emit("stderr", self._fix(bytes(self._line)), final=True)
        if self._held:
            self._emit("stdout", bytes(self._held), final=True)
        for stream in ("stdout", "stderr"):  # a multibyte character cut at the end
            if self.on_output is not None and (text := self._decoders[stream].decode(b"", True)):
                self.on_output(stream, text)
        return bytes(self.stdout), bytes(self.stderr)
