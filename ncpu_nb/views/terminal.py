"""`BusyboxTerminal`: an interactive `sh` on the AArch64 machine in a notebook cell.

The shell is BusyBox's ash reading a pipe (no tty, so no job control and no echo: the view echoes what
is typed). Each line typed goes to the guest's stdin and the machine runs on a worker thread (the
engine releases the GIL) until every process waits for more input or all have exited; what the guest
prints reaches the browser as custom messages with the bytes as binary buffers, at most 30 a second.

Ctrl-C (or the interrupt button) sends SIGINT to every live guest process, as a terminal does to its
foreground process group when the shell has no job control: the running command dies, the interactive
shell catches it and prompts again.
"""
from __future__ import annotations

import threading
import time
from html import escape

import traitlets

from ncpu_nb import html
from ncpu_nb.arm64 import Arm64Machine
from ncpu_nb.arm64.session import run_until_input
from ncpu_nb.views.base import MachineView, browser_code

FRAME = 1 / 30  # seconds: the most often output is sent to the browser
KEPT = 1 << 20  # bytes of transcript kept (the oldest go first)
SIGINT = 2
PROMPT_ENV = ("PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=/", "PS1=$ ", "TERM=dumb")
STATUS = {"starting": "starting", "running": "running", "input": "waiting for input", "exited": "exited",
          "failed": "machine stopped"}


class BusyboxTerminal(MachineView):
    """`BusyboxTerminal()` or `ncpu_nb.busybox_terminal(mounts=[...])`: BusyBox `sh` in a cell.

    machine   an interactive `Arm64Machine` to attach to (default: a fresh `sh -i` on BusyBox); the other
              options (mounts, cwd, env, deterministic) make that default machine
    In code: `send(line)` types a line and waits for the guest, `transcript` is everything shown,
    `interrupt()` is Ctrl-C, `close_stdin()` is Ctrl-D, `exit_status` once the shell has exited.
    """

    _esm = browser_code("terminal.js")
    anytime = frozenset({"interrupt", "history"})  # neither touches a running machine's engine
    status = traitlets.Unicode("starting").tag(sync=True)  # see STATUS
    message = traitlets.Unicode("").tag(sync=True)
    exit_status = traitlets.Int(None, allow_none=True).tag(sync=True)

    def __init__(self, machine: Arm64Machine | None = None, *, mounts=(), cwd: str = "/", env=None,
                 deterministic: bool = False):
        if machine is None:
            machine = Arm64Machine.busybox("sh", "-i", interactive=True, mounts=mounts, cwd=cwd,
                                      env=list(PROMPT_ENV) if env is None else env, deterministic=deterministic)
        elif not machine.interactive:
            raise ValueError("the machine's stdin is not interactive: make it with interactive=True")
        self.machine = machine
        self._lock = threading.Lock()  # guards the fields below, shared with the worker
        self._segments: list[list] = []  # [stream, bytearray]: the transcript, adjacent pieces merged
        self._kept = 0
        self._unsent: list[tuple[str, bytes]] = []
        self._input: list[bytes] = []  # typed while the machine runs: written between chunks
        self._close = False
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None
        super().__init__()
        self._start()
        self.wait(10)  # the banner and the first prompt (milliseconds), so the cell shows them

    # --- the transcript ----------------------------------------------------------------------------
    @property
    def transcript(self) -> str:
        """Everything the terminal shows: the guest's output and the lines typed."""
        with self._lock:
            return b"".join(bytes(data) for _, data in self._segments).decode("utf-8", "replace")

    def _append(self, stream: str, data: bytes) -> None:
        if not data:
            return
        with self._lock:
            if self._segments and self._segments[-1][0] == stream:
                self._segments[-1][1] += data
            else:
                self._segments.append([stream, bytearray(data)])
            self._unsent.append((stream, data))
            self._kept += len(data)
            while self._kept > KEPT and len(self._segments) > 1:
                self._kept -= len(self._segments.pop(0)[1])

    def _flush(self) -> None:
        """Send the output not yet sent as one message: its streams in order, one buffer each."""
        with self._lock:
            unsent, self._unsent = self._unsent, []
        if unsent:
            self.send({"kind": "output", "streams": [s for s, _ in unsent]}, [d for _, d in unsent])

    # --- running on the worker ---------------------------------------------------------------------
    def _start(self) -> None:
        with self._lock:
            if self._worker is not None or self.status in ("exited", "failed"):
                return
            self._stop.clear()
            self.message, self.status = "", "running"
            self._worker = threading.Thread(target=self._work, name="ncpu-terminal", daemon=True)
            self._worker.start()

    def _work(self) -> None:
        while True:
            failure = self._run_until_idle()
            self._flush()
            with self._lock:  # input typed just now either is seen here or starts a new worker
                m = self.machine
                if failure or self._stop.is_set() or m.stop != "stdin" or not (self._input or self._close):
                    self._worker = None
                    self._finish(failure)
                    return

    def _run_until_idle(self) -> str:
        """Run until every process waits for input that has not been typed, or a stop; returns what
        went wrong, if anything."""
        sent = time.perf_counter()

        def flush_now_and_then() -> None:
            nonlocal sent
            if time.perf_counter() - sent >= FRAME:
                self._flush()
                sent = time.perf_counter()

        return run_until_input(self.machine, self._collect, feed=self._feed, more=self._pending,
                               stop=self._stop.is_set, after_slice=flush_now_and_then, slice_seconds=FRAME)

    def _collect(self, out: bytes, err: bytes) -> None:
        self._append("stderr", err)  # within one chunk an error usually comes before the next prompt
        self._append("stdout", out)

    def _finish(self, failure: str) -> None:
        """Show why the run ended: the shell exited, the machine failed, or it waits for input."""
        m = self.machine
        if m.stop == "exited":
            self.exit_status, self.message, self.status = m.exit_status, "", "exited"
        elif failure:
            self.message, self.status = failure, "failed"
        else:  # breakpoints and watchpoints are set on the machine by code; a new line runs on
            notes = {"breakpoint": "stopped at a breakpoint", "watchpoint": f"stopped at a watchpoint ({m.stop_detail})"}
            self.message = notes.get(m.stop, "stopped: the run was interrupted" if self._stop.is_set() else "")
            self.status = "input"

    def _pending(self) -> bool:
        with self._lock:
            return bool(self._input) or self._close

    def _feed(self) -> None:
        with self._lock:
            lines, self._input = self._input, []
            close, self._close = self._close, False
        for line in lines:
            self.machine.write_stdin(line)
        if close:
            self.machine.close_stdin()

    def wait(self, timeout: float | None = None) -> None:
        """Block until the guest waits for input or has exited. Ctrl-C interrupts the guest."""
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            while (worker := self._worker) is not None:  # an interrupt hands over to a new worker
                worker.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
                if deadline is not None and time.monotonic() >= deadline:
                    return
        except KeyboardInterrupt:
            self.interrupt()
            raise

    # --- actions: the view sends them; code calls these ------------------------------------------
    def send(self, line: str | None = None, buffers=None, *, wait: bool = True, timeout: float | None = 60):
        """`send("ls /")` types a line (Enter included) and waits until the guest wants more input or
        exits (at most `timeout` seconds). Called with a dict, it is anywidget's message send."""
        if isinstance(line, dict):  # the widget's own message channel
            return super().send(line, buffers)
        self.on_stdin({"text": line or ""})
        if wait:
            self.wait(timeout)
        return None

    def interrupt(self) -> None:
        self.on_interrupt({})

    def close_stdin(self) -> None:
        """End of input (Ctrl-D): a shell reading it exits."""
        self.on_eof({})

    def on_stdin(self, content: dict) -> None:
        if self.status in ("exited", "failed"):
            raise RuntimeError(f"the shell has {self.status}: make a new terminal")
        data = (str(content.get("text", "")) + "\n").encode()
        self._append("stdin", data)  # no tty to echo it: the terminal shows what was typed
        with self._lock:
            self._input.append(data)
        self._flush()
        self._start()

    def on_eof(self, content: dict) -> None:
        if self.status in ("exited", "failed"):
            return
        with self._lock:
            self._close = True
        self._start()

    def on_interrupt(self, content: dict) -> None:
        """SIGINT to every live process (the foreground group of a shell without job control): the
        worker's run is stopped first (the engine is busy while it runs), then the guest runs on."""
        if self.status in ("exited", "failed"):
            return
        with self._lock:
            busy = self._worker is not None
        if busy:  # the engine is running on the worker: stop it, signal, and go on
            self._stop.set()
            self.wait()
        for process in self.machine.processes():
            try:
                self.machine.send_signal(process.pid, SIGINT)
            except ValueError:  # it ended meanwhile
                pass
        self._append("stdin", b"^C")  # the shell ends the line
        self._flush()
        self._start()

    def on_history(self, content: dict) -> None:
        """The whole transcript, for a view drawn after output was sent (a re-rendered cell)."""
        with self._lock:
            segments = [(s, bytes(d)) for s, d in self._segments]
        self.reply(content, {"kind": "history", "streams": [s for s, _ in segments]}, [d for _, d in segments])

    # --- static fallback -------------------------------------------------------------------------
    def static_html(self) -> str:
        with self._lock:
            segments = [(s, bytes(d).decode("utf-8", "replace")) for s, d in self._segments]
        body = "".join(f"<span class='{'hl' if s == 'stdin' else 'dim' if s == 'stderr' else ''}'>{escape(t)}</span>"
                       for s, t in segments)
        state = STATUS[self.status] + (f" (status {self.exit_status})" if self.status == "exited" else "")
        return html.view(f"BusyBox terminal: {state}", f"<pre>{body}</pre>")

    def __repr__(self) -> str:
        return f"<BusyboxTerminal {STATUS[self.status]}, {len(self.transcript):,} characters shown>"
