"""`BusyboxTerminal`: an interactive `sh` on the AArch64 machine in a notebook cell, shown by xterm.js.

The machine is made in tty mode: the shell's standard streams are one terminal with Linux's line
discipline in the machine, so BusyBox's ash edits lines, completes with Tab, keeps a history, does job
control (`sleep 100 &`, `jobs`, `fg`, Ctrl-Z) and runs full-screen programs (`vi`, `less`, `top`).
The view is a terminal emulator (xterm.js, vendored in `vendor/xterm`): every key it gets goes to the
guest unchanged (Enter is "\\r", Ctrl-C "\\x03", arrows are escape sequences) and the guest's line
discipline echoes and turns ^C ^Z ^\\ into signals; the view's size in rows and columns becomes the
terminal's window size (SIGWINCH to the foreground job on a change).

The machine runs on a worker thread (the engine releases the GIL) until every process waits for input
or all have exited; keys and sizes reach it between time slices. What the guest writes reaches the
browser as custom messages with the bytes as binary buffers, at most 30 a second.

A machine made without a tty (e.g. chapter 28's Forth) also works: the view then edits the line itself
(echo, Backspace, Ctrl-U), sends it on Enter, shows "\\n" as a new line, and Ctrl-C sends SIGINT to
every live process, as a terminal without job control would.
"""
from __future__ import annotations

import re
import threading
import time
from html import escape

import traitlets

from ncpu_nb import html
from ncpu_nb.arm64 import Arm64Machine
from ncpu_nb.arm64.session import run_until_input
from ncpu_nb.views import xterm
from ncpu_nb.views.base import STYLE, MachineView, browser_code
from ncpu_nb.views.terminal_text import plain_text

FRAME = 1 / 30  # seconds: the most often output is sent to the browser
TICK = 0.25  # seconds between looks at a waiting shell's background jobs (their timers, their output)
KEPT = 1 << 20  # bytes of output kept for a view drawn later (the oldest lines go first)
SIZE = (24, 80)  # rows, columns until a view measures its box
SIGINT = 2
KEY_SEQUENCE = re.compile(r"\x1b(\[[0-9;]*[@-~]|O.|.)?")  # arrows, function keys, Alt-x: what xterm sends
PROMPT_ENV = ("PATH=/bin:/sbin:/usr/bin:/usr/sbin", "HOME=/", "PS1=$ ", "TERM=xterm")
STATUS = {"starting": "starting", "running": "running", "input": "waiting for input", "exited": "exited",
          "failed": "machine stopped"}


class BusyboxTerminal(MachineView):
    """`BusyboxTerminal()` or `ncpu_nb.busybox_terminal(mounts=[...])`: BusyBox `sh` in a cell.

    machine   an interactive `Arm64Machine` to attach to (default: a fresh `sh -i` on BusyBox with a
              tty); the other options (mounts, cwd, env, deterministic) make that default machine
    In code: `send(line)` types a line and Enter and waits for the guest, `type(keys)` types keys as
    they are, `transcript` is the output as text, `interrupt()` is Ctrl-C, `close_stdin()` is Ctrl-D,
    `exit_status` once the shell has exited.
    """

    _esm = xterm.prelude() + "\n" + browser_code("terminal.js")
    _css = STYLE + "\n" + xterm.stylesheet()
    anytime = frozenset({"history", "interrupt"})  # Ctrl-C is queued for the worker (or stops it first)
    status = traitlets.Unicode("starting").tag(sync=True)  # see STATUS
    message = traitlets.Unicode("").tag(sync=True)
    exit_status = traitlets.Int(None, allow_none=True).tag(sync=True)

    def __init__(self, machine: Arm64Machine | None = None, *, mounts=(), cwd: str = "/", env=None,
                 deterministic: bool = False):
        if machine is None:
            machine = Arm64Machine.busybox("sh", "-i", interactive=True, tty=SIZE, mounts=mounts, cwd=cwd,
                                           env=list(PROMPT_ENV) if env is None else env,
                                           deterministic=deterministic)
        elif not machine.interactive:
            raise ValueError("the machine's stdin is not interactive: make it with interactive=True")
        self.machine = machine
        self.tty = machine.tty is not None  # the guest has a terminal: its line discipline echoes and edits
        self._lock = threading.Lock()  # guards the fields below, shared with the worker
        self._output = bytearray()  # what the terminal was sent: a view drawn later replays it
        self._unsent: list[bytes] = []
        self._input: list[bytes] = []  # typed while the machine runs: written between slices
        self._size: tuple[int, int] | None = None  # a new window size, set between slices
        self._close = False
        self._line = ""  # without a tty: the line being typed, edited here
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None
        super().__init__()
        self._start()
        self.wait(10)  # the banner and the first prompt (milliseconds), so the cell shows them

    # --- the output --------------------------------------------------------------------------------
    @property
    def transcript(self) -> str:
        """The output as text: control sequences applied to each line and left out, lines ending "\\n"."""
        with self._lock:
            data = bytes(self._output)
        return plain_text(data.decode("utf-8", "replace"))

    def _show(self, data: bytes) -> None:
        if not data:
            return
        with self._lock:
            self._output += data
            self._unsent.append(data)
            if len(self._output) > KEPT:  # drop whole lines, so no escape sequence is cut in two
                cut = self._output.find(b"\n", len(self._output) - KEPT)
                del self._output[:cut + 1 if cut >= 0 else len(self._output) - KEPT]

    def _flush(self) -> None:
        """Send the output not yet sent as one message with one buffer."""
        with self._lock:
            unsent, self._unsent = self._unsent, []
        if unsent:
            self.send({"kind": "output"}, [b"".join(unsent)])

    # --- running on the worker ---------------------------------------------------------------------
    def _start(self) -> None:
        with self._lock:
            if self._worker is not None or self.status in ("exited", "failed"):
                return
            self._stop.clear()
            self.message, self.status = "", "running"
            worker = threading.Thread(target=self._work, name="ncpu-terminal", daemon=True)
            worker.start()  # before it is published: `wait` on another thread joins it unlocked
            self._worker = worker  # the worker clears it under this lock, so not before this

    def _work(self) -> None:
        while True:
            failure = self._run_until_idle()
            self._flush()
            with self._lock:  # input typed just now either is seen here or starts a new worker
                m = self.machine
                pending = self._input or self._close or self._size
                if failure or self._stop.is_set() or m.stop != "stdin" or not pending:
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
        if self.tty:  # one stream, written by the guest's terminal
            self._show(out + err)
        else:  # a pipe: show each "\n" as a terminal's output processing would
            self._show((err + out).replace(b"\n", b"\r\n"))

    def _finish(self, failure: str) -> None:
        """Show why the run ended: the shell exited, the machine failed, or it waits for input."""
        m = self.machine
        if m.stop == "exited":
            self.exit_status, self.message, self.status = m.exit_status, "", "exited"
        elif failure:
            self.message, self.status = failure, "failed"
        else:  # breakpoints and watchpoints are set on the machine by code; a key runs on
            notes = {"breakpoint": "stopped at a breakpoint", "watchpoint": f"stopped at a watchpoint ({m.stop_detail})"}
            self.message = notes.get(m.stop, "stopped: the run was interrupted" if self._stop.is_set() else "")
            self.status = "input"
            if m.stop == "stdin" and len(m.processes()) > 1:
                ticker = threading.Timer(TICK, self._tick)
                ticker.daemon = True
                ticker.start()

    def _tick(self) -> None:
        """On the host's clock the machine stops for keys while background jobs sleep (`sleep 60 &`),
        so their timers, and what they print then, wait for the machine's next run: run it now and
        then while the shell waits."""
        with self._lock:
            idle = self._worker is None and self.status == "input" and self.machine.stop == "stdin"
        if idle:
            self._start()

    def _pending(self) -> bool:
        with self._lock:
            return bool(self._input) or self._close or self._size is not None

    def _feed(self) -> None:
        with self._lock:
            keys, self._input = self._input, []
            close, self._close = self._close, False
            size, self._size = self._size, None
        if size is not None:
            self.machine.resize(*size)
        for data in keys:
            self.machine.write_stdin(data)
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
    def _dispatch(self, widget, content: dict, buffers) -> None:
        """Keys typed while a cell waits for the shell (`send`) go ahead: the worker, not the cell, runs
        the machine, and takes them between slices (Ctrl-C reaches a command the cell waits for)."""
        if content.get("action") == "keys" and self._worker is not None:
            return self.handle(content)
        return super()._dispatch(widget, content, buffers)

    def send(self, line: str | None = None, buffers=None, *, wait: bool = True, timeout: float | None = 60):
        """`send("ls /")` types a line and Enter and waits until the guest wants more input or exits
        (at most `timeout` seconds). Called with a dict, it is anywidget's message send."""
        if isinstance(line, dict):  # the widget's own message channel
            return super().send(line, buffers)
        return self.type((line or "") + "\r", wait=wait, timeout=timeout)

    def type(self, keys: str, *, wait: bool = True, timeout: float | None = 60) -> None:
        """Types `keys` as the view would send them ("\\t" Tab, "\\x1b[A" up, "\\x03" Ctrl-C) and, with
        `wait`, waits until the guest wants more input or exits."""
        self.on_keys({"data": keys})
        if wait:
            self.wait(timeout)

    def interrupt(self) -> None:
        """Ctrl-C."""
        self.on_interrupt({})

    def close_stdin(self) -> None:
        """Ctrl-D: at the start of a line, a shell reading it exits."""
        self.on_eof({})

    def on_keys(self, content: dict) -> None:
        if self.status in ("exited", "failed"):
            raise RuntimeError(f"the shell has {self.status}: make a new terminal")
        data = str(content.get("data", ""))
        if not self.tty:
            return self._edit(data)
        with self._lock:
            self._input.append(data.encode())
        self._start()

    def on_resize(self, content: dict) -> None:
        """The view's size in character cells: the guest's window size, when it has a terminal."""
        rows, cols = int(content["rows"]), int(content["cols"])
        if not self.tty or self.status in ("exited", "failed") or not (0 < rows < 1000 and 0 < cols < 1000):
            return
        with self._lock:
            self._size = (rows, cols)
        self._start()

    def on_eof(self, content: dict) -> None:
        if self.status in ("exited", "failed"):
            return
        if self.tty:
            return self.on_keys({"data": "\x04"})
        with self._lock:
            self._close = True
        self._start()

    def on_interrupt(self, content: dict) -> None:
        if self.status in ("exited", "failed"):
            return
        if self.tty:  # the guest's line discipline signals its foreground job
            return self.on_keys({"data": "\x03"})
        self._line = ""
        with self._lock:
            busy = self._worker is not None
        if busy:  # the engine is running on the worker: stop it, signal, and go on
            self._stop.set()
            self.wait()
        for process in self.machine.processes():  # no job control: every process is in the foreground
            try:
                self.machine.send_signal(process.pid, SIGINT)
            except ValueError:  # it ended meanwhile
                pass
        self._show(b"^C")  # the shell ends the line
        self._flush()
        self._start()

    def _edit(self, data: str) -> None:
        """Without a tty, a line discipline of the view's own: echo, Backspace, Ctrl-U, Enter sends
        the line, Ctrl-C and Ctrl-D as the buttons; escape sequences (arrows) are ignored."""
        for key in KEY_SEQUENCE.sub("", data):
            if key in "\r\n":
                line, self._line = self._line + "\n", ""
                self._show(b"\r\n")
                with self._lock:
                    self._input.append(line.encode())
            elif key in "\x7f\b":
                if self._line:
                    self._line = self._line[:-1]
                    self._show(b"\b \b")
            elif key == "\x15":
                self._show(b"\b \b" * len(self._line))
                self._line = ""
            elif key == "\x03":
                self._flush()
                return self.on_interrupt({})
            elif key == "\x04" and not self._line:
                self._flush()
                return self.on_eof({})
            elif key >= " ":
                self._line += key
                self._show(key.encode())
        self._flush()
        self._start()

    def on_history(self, content: dict) -> None:
        """All the output kept, for a view drawn after it was sent (a re-rendered cell)."""
        with self._lock:
            data = bytes(self._output)
        self.reply(content, {"kind": "history"}, [data])

    # --- static fallback -------------------------------------------------------------------------
    def static_html(self) -> str:
        state = STATUS[self.status] + (f" (status {self.exit_status})" if self.status == "exited" else "")
        return html.view(f"BusyBox terminal: {state}", f"<pre>{escape(self.transcript)}</pre>")

    def __repr__(self) -> str:
        return f"<BusyboxTerminal {STATUS[self.status]}, {len(self.transcript):,} characters shown>"
