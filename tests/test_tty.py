"""The machine's terminal against Linux's: programs/arm64/c/tty_jobs.c (termios, the window size,
canonical and raw reads, process groups, a child stopped and continued, SIGTTIN, ^C) runs under
qemu-aarch64 on a host pseudo-terminal and on the machine's own (tty=), with the same keys typed at the
same prompts: the two screens must be the same bytes. Then BusyBox's shell on the terminal: line
editing, Tab completion, job control and vi."""
import os
import select
import shutil
import struct

import pytest

from ncpu_nb.arm64.machine import Arm64Machine
from ncpu_nb.resources import data_dir

TTY_JOBS = data_dir("programs") / "arm64" / "c" / "bin" / "tty_jobs"
# (prompt the program prints, keys typed once it has)
KEYS = [(b"line? ", b"helo\x7flo world\r"), (b"raw? ", b"xyz"), (b"key for the child? ", b"k\r"),
        (b"interrupt me: ", b"\x03")]
QEMU = shutil.which("qemu-aarch64")


def on_host_pty(binary) -> bytes:
    """The program under qemu on a host pseudo-terminal of 24 x 80, typed to at each prompt. The test
    keeps its own descriptor of the terminal open, so the last output is read before the end of file
    (a master read after the program's side has closed can lose what was still in flight)."""
    import fcntl
    import pty
    import subprocess
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    program = subprocess.Popen([QEMU, "-cpu", "cortex-a53", str(binary)], stdin=slave, stdout=slave, stderr=slave,
                               start_new_session=True, preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    screen, keys = b"", list(KEYS)
    try:
        while True:
            if not select.select([master], [], [], 0.5)[0]:
                if program.poll() is not None:
                    break  # ended, and nothing more to read
                continue
            screen += os.read(master, 4096)
            if keys and screen.endswith(keys[0][0]):
                os.write(master, keys.pop(0)[1])
    finally:
        program.wait(timeout=60)
        os.close(master)
        os.close(slave)
    return screen


def on_the_machine(binary) -> tuple[bytes, Arm64Machine]:
    m = Arm64Machine.from_elf(binary, ["tty_jobs"], tty=(24, 80))
    keys = list(KEYS)
    while True:
        run = m.run(timeout=60, check=False)
        if run.stop != "stdin":
            break
        assert keys and m.stdout.encode().endswith(keys[0][0]), m.stdout
        m.write_stdin(keys.pop(0)[1])
    assert run.stop == "exited" and not keys, (run, m.stdout)
    return m.stdout.encode(), m


@pytest.mark.skipif(QEMU is None, reason="qemu-aarch64 is not installed (apt-get install qemu-user)")
def test_terminal_and_job_control_match_linux_under_qemu():
    ours, m = on_the_machine(TTY_JOBS)
    assert ours == on_host_pty(TTY_JOBS)
    assert m.exit_status == 0 and m.unknown_syscalls() == []


def test_the_program_sees_what_linux_gives_a_new_terminal():
    ours, _ = on_the_machine(TTY_JOBS)
    assert ours == (TTY_JOBS.parent.parent / "expected" / "tty_jobs.out").read_bytes(), "as recorded under qemu"
    text = ours.decode()
    for line in ("isatty 1 1 1\r\n", "iflag 2400 oflag 5 lflag 105073 csize 60\r\n", "size 24 x 80\r\n",
                 "line? helo\x08 \x08lo world\r\nread 12 bytes: hello world\r\n",
                 "raw bytes, not echoed: 78 79 7a\r\n", "child stopped 1 by Stopped (signal)\r\n",
                 "background reader stopped by Stopped (tty input)\r\n", "the child read 'k'",
                 "interrupt me: ^C[SIGINT] ppoll -1, Interrupted system call\r\n"):
        assert line in text


def shell(**options) -> Arm64Machine:
    m = Arm64Machine.busybox("sh", "-i", tty=(24, 80), env=["PATH=/bin:/usr/bin", "HOME=/", "PS1=$ ", "TERM=xterm"],
                             **options)
    assert m.run(timeout=30, check=False).stop == "stdin"
    return m


def typed(m: Arm64Machine, keys: bytes) -> str:
    """What the terminal shows after `keys` (ash's cursor-position queries left out)."""
    before = len(m.stdout)
    m.write_stdin(keys)
    assert m.run(timeout=30, check=False).stop == "stdin"
    return m.stdout[before:].replace("\x1b[6n", "")


def test_ash_line_editing_and_tab_completion():
    m = shell()
    assert "job control turned off" not in m.stdout
    assert typed(m, b"ec\t hi\r") == "ec\r$ echo \x1b[J hi\r\nhi\r\n$ "
    assert typed(m, b"echo one two\x17three\r").endswith("one three\r\n$ ")
    assert typed(m, b"echo \x15printf 'x\\n'\r").endswith("x\r\n$ ")


def test_job_control_stop_background_foreground():
    m = shell()
    assert typed(m, b"cat\r") == "cat\r\n"
    assert typed(m, b"\x1a") == "^Z[1]+  Stopped                    cat\r\n$ "
    assert " T " in next(line for line in typed(m, b"ps -o pid,stat,args\r").splitlines() if line.endswith(" cat"))
    assert typed(m, b"bg\r").startswith("bg\r\n[1] cat\r\n")
    typed(m, b"true\r")  # the shell hears of the job's next change when a command has run
    assert "Stopped (tty input)" in typed(m, b"jobs\r"), "reading its terminal in the background stopped it"
    assert typed(m, b"fg\r") == "fg\r\ncat\r\n"
    assert typed(m, b"back in the foreground\r").endswith("back in the foreground\r\n")
    assert typed(m, b"\x03") == "^C\r\n$ "
    assert typed(m, b"jobs\r") == "jobs\r\n$ "


def test_vi_writes_a_file_and_the_window_size_follows_a_resize():
    m = shell()
    screen = typed(m, b"vi /tmp/notes\r")
    assert "\x1b[?1049h" in screen and "/tmp/notes" in screen  # the alternate screen, and vi's status line
    typed(m, b"ihello from vi\x1b")
    assert "\x1b[?1049l" in typed(m, b":wq\r")
    assert typed(m, b"cat /tmp/notes\r") == "cat /tmp/notes\r\nhello from vi\r\n$ "
    m.resize(40, 132)
    assert m.tty == (40, 132)
    assert "40 132\r\n" in typed(m, b"stty size\r")


def test_the_cli_gives_a_guest_shell_the_hosts_terminal():
    """`ncpu-nb busybox sh` typed in a terminal window: keys pass through raw (^C reaches the guest), the
    guest's terminal has the window's size and follows a resize, and the window's settings come back."""
    import fcntl
    import pty
    import signal
    import sys
    import termios
    import time

    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-m", "ncpu_nb", "busybox", "sh"])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 90, 0, 0))
    seen = bytearray()

    def until(text: bytes) -> bool:
        start, end = len(seen), time.monotonic() + 60
        while time.monotonic() < end and select.select([fd], [], [], 1)[0]:
            seen.extend(os.read(fd, 4096))
            if text in seen[start:]:
                return True
        return False

    try:
        assert until(b"# ")
        os.write(fd, b"stty size; echo $((6 * 7))\r")
        assert until(b"30 90\r\n42\r\n")
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
        os.kill(pid, signal.SIGWINCH)
        os.write(fd, b"stty size\r")
        assert until(b"40 100\r\n")
        os.write(fd, b"cat\r")
        assert until(b"cat\r\n")
        os.write(fd, b"\x03")
        assert until(b"^C\r\n")
        os.write(fd, b"exit 3\r")
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 3
        lflag = termios.tcgetattr(fd)[3]
        assert lflag & termios.ICANON and lflag & termios.ECHO, "the window's own settings are back"
    finally:
        os.close(fd)
