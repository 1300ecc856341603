"""A guest on the host's own terminal (`ncpu-nb busybox sh` typed in a terminal window).

The host terminal goes into raw mode for the run, so every key, ^C and ^Z included, reaches the
guest's terminal as it is typed, and the guest's line discipline does the echoing and editing.
The guest's screen output goes straight to the host's, and a resized window resizes the guest's
terminal (SIGWINCH). The host terminal's settings come back when the run ends, however it ends.
"""
from __future__ import annotations

import os
import sys

SLICE = 0.03  # seconds the machine runs between looks at the keyboard


def attached(stdin=None, stdout=None) -> tuple[int, int] | None:
    """The host terminal's (rows, columns) when both standard streams are that terminal, else None."""
    try:
        fd_in, fd_out = (stdin or sys.stdin).fileno(), (stdout or sys.stdout).fileno()
    except (AttributeError, OSError, ValueError):
        return None
    if not (os.isatty(fd_in) and os.isatty(fd_out)):
        return None
    size = os.get_terminal_size(fd_out)
    return size.lines, size.columns


def run(engine, timeout: float | None = None) -> tuple:
    """Run `engine` (a LinuxMachine made with tty=) on the host's terminal until every process has
    exited, the machine stops for another reason, or `timeout` seconds pass; returns the last stop."""
    import select  # here, not at the top: `attached` is on every CLI run's path, kept cheap to start
    import signal
    import termios
    import time
    import tty

    from ncpu_nb.arm64 import bare_machine as bare

    fd_in, fd_out = sys.stdin.fileno(), sys.stdout.fileno()
    saved = termios.tcgetattr(fd_in)
    resized = []
    old_handler = signal.signal(signal.SIGWINCH, lambda *_: resized.append(True))
    deadline = None if timeout is None else time.monotonic() + timeout

    def show() -> None:
        data = engine.take_stdout() + engine.take_stderr()
        while data:
            data = data[os.write(fd_out, data):]

    try:
        tty.setraw(fd_in)
        while True:
            if resized:
                resized.clear()
                size = os.get_terminal_size(fd_out)
                engine.resize(size.lines, size.columns)
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return "timeout", 0, f"{timeout:g} s"
            stop = bare.run_chunks(engine, None, SLICE if left is None else min(SLICE, left), show)
            show()
            if stop[0] not in ("timeout", "budget", "stdin"):
                return stop
            waiting = stop[0] == "stdin"  # every process waits for a key: sleep until one comes
            if select.select([fd_in], [], [], 0.1 if waiting else 0)[0]:
                keys = os.read(fd_in, 4096)
                if keys:
                    engine.write_stdin(keys)
                else:
                    engine.close_stdin()
    finally:
        termios.tcsetattr(fd_in, termios.TCSADRAIN, saved)
        signal.signal(signal.SIGWINCH, old_handler)
