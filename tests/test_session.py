"""Sessions: one BusyBox `sh` kept between commands. Files, cwd, environment and background jobs persist;
each command's output and exit status are its own (the same as a one-shot `ncpu_nb.busybox` run where
that makes sense); output streams; Ctrl-C gives 130 and the shell goes on; snapshot/restore rewinds the
whole machine; files go in and out from Python; the magics keep one session per kernel."""
from __future__ import annotations

import threading
import time

import pytest

import ncpu_nb
from ncpu_nb import _metal
from ncpu_nb.arm64.session import Session

pytestmark = pytest.mark.skipif(not hasattr(_metal, "LinuxMachine"),
                                reason="the extension was built without the Linux machine")


def one_shot(command: str):
    return ncpu_nb.busybox("sh", "-c", command)


@pytest.fixture(scope="module")
def session():
    return Session()


def test_a_file_written_in_one_run_is_read_in_the_next(session):
    assert session.run("echo kept > /tmp/note; ls /tmp").stdout == "note\n"
    r = session.run("cat /tmp/note")
    assert (r.stdout, r.stderr, r.exit_code) == ("kept\n", "", 0)


def test_cd_and_export_persist():
    s = Session()
    assert s.run("cd /etc && export GREETING='hi there'").exit_code == 0
    assert s.run('pwd; echo "$GREETING"').stdout == "/etc\nhi there\n"


@pytest.mark.parametrize("command", ["seq 3 | paste -sd+ | bc", "ls /nope", "nosuchcommand", "false", "exit_code() {"
                                     " return 7; }; exit_code", "echo 'unclosed", "printf 'no newline'", "uname -a",
                                     "echo out; echo err >&2; exit_status=3; (exit 3)", "sha256sum /bin/busybox"])
def test_output_and_status_match_a_one_shot_run(session, command):
    r, expected = session.run(command), one_shot(command)
    assert (r.stdout, r.exit_code) == (expected.stdout, expected.exit_code)
    # the shell's own messages say 'sh:' as in `sh -c` (ash adds a line number there)
    assert r.stderr == expected.stderr.replace(" line 1:", "")
    assert r.args == ("sh", "-c", command) and r.command == command and r.status == r.exit_code


def test_the_marker_never_shows_even_when_the_shell_echoes_its_input(session):
    r = session.run("set -v; echo visible; set +v")
    assert r.stdout == "visible\n" and "ncpu-" not in r.stderr and "\x1f" not in r.stdout + r.stderr
    assert session.run("echo next").stdout == "next\n"


def test_a_background_process_lives_on_into_the_next_run():
    s = Session(deterministic=False)  # a real clock: a sleeping job stays asleep while the shell waits
    assert s.run("sleep 300 & echo started").stdout == "started\n"
    assert "sleep 300" in s.run("ps").stdout
    assert "sleep 300" in s.run("ps").stdout
    assert s.run("kill %1 2>/dev/null || kill $!; wait; echo gone").stdout == "gone\n"


def test_output_streams_in_pieces_that_join_to_the_result():
    pieces, session = [], Session(deterministic=False)
    r = session.run("for i in 1 2 3 4 5; do echo line $i; echo oops $i >&2; sleep 0.1; done; printf '\\xe2\\x82'; "
                    "printf '\\xac\\n'", on_output=lambda stream, text: pieces.append((stream, text)))
    assert r.stdout == "".join(f"line {i}\n" for i in range(1, 6)) + "€\n"
    assert "".join(t for s, t in pieces if s == "stdout") == r.stdout
    assert "".join(t for s, t in pieces if s == "stderr") == r.stderr == "".join(f"oops {i}\n" for i in range(1, 6))
    assert len(pieces) >= 10  # a piece for each line at least: they came while it ran


@pytest.mark.parametrize("command", ["echo before; sleep 1000; echo after", "while :; do :; done"])
def test_an_interrupt_gives_130_and_the_session_goes_on(command):
    s = Session(deterministic=False)
    s.run("sleep 300 &")
    timer = threading.Timer(0.5, s.interrupt)
    timer.start()
    r = s.run(command)
    timer.join()
    assert r.exit_code == 130 and r.interrupted and "after" not in r.stdout
    assert s.run("echo still here; echo $((6 * 7))").stdout == "still here\n42\n"
    assert "sleep 300" in s.run("ps").stdout  # the background job ignored SIGINT, as without job control


def test_ctrl_c_during_a_run_interrupts_the_command_not_the_session():
    import _thread

    s = Session(deterministic=False)
    timer = threading.Timer(0.5, _thread.interrupt_main)  # what Jupyter's interrupt button does
    timer.start()
    r = s.run("echo before; sleep 1000; echo after")
    timer.join()
    assert (r.stdout, r.exit_code) == ("before\n", 130)
    assert s.run("echo on").stdout == "on\n"


def test_a_timeout_interrupts_and_the_session_goes_on():
    s = Session(deterministic=False)
    with pytest.raises(ncpu_nb.MachineTimeout) as raised:
        s.run("echo partial; sleep 1000", timeout=0.5)
    assert raised.value.stdout == "partial\n"
    assert s.run("echo ok").stdout == "ok\n"


def test_snapshot_and_restore_rewind_a_file_and_a_process():
    s = Session(deterministic=False)
    s.run("echo first > /tmp/f; sleep 300 & sleep 301 &")
    saved = s.snapshot()
    s.run("echo second > /tmp/f; kill $(jobs -p) 2>/dev/null || kill %1 %2; wait")
    after = s.run("ps").stdout
    assert s.run("cat /tmp/f").stdout == "second\n" and "sleep 300" not in after and "sleep 301" not in after
    s.restore(saved)
    before = s.run("ps").stdout
    assert s.run("cat /tmp/f").stdout == "first\n" and "sleep 300" in before and "sleep 301" in before
    assert s.read_file("/tmp/f") == b"first\n"


def test_exit_ends_the_session():
    s = Session()
    r = s.run("echo bye; exit 4")
    assert (r.stdout, r.exit_code, s.alive) == ("bye\n", 4, False)
    with pytest.raises(ncpu_nb.MachineError, match="exited"):
        s.run("true")
    assert "exited (4)" in repr(s)


def test_files_go_in_and_out(session, tmp_path):
    host = tmp_path / "in.bin"
    host.write_bytes(bytes(range(256)) * 3)
    session.upload(host, "/tmp/in.bin")
    assert session.run("wc -c < /tmp/in.bin").stdout.strip() == "768"
    session.run("cp /tmp/in.bin /tmp/out.bin")
    assert session.download("/tmp/out.bin", tmp_path / "out.bin").read_bytes() == host.read_bytes()
    session.write_file("/tmp/text", "written from Python\n")
    assert session.run("cat /tmp/text").stdout == "written from Python\n"
    session.run("mkdir -p /tmp/sub && ln -sf /tmp/text /tmp/link")
    listing = {f.name: (f.size, f.kind) for f in session.files("/tmp")}
    assert listing["in.bin"] == (768, "file") and listing["sub"][1] == "directory"
    assert listing["link"][1] == "symbolic link" and listing["text"] == (20, "file")
    assert "in.bin" in session.files("/tmp")._repr_html_()
    with pytest.raises(FileNotFoundError):
        session.files("/no/such/folder")


def test_results_and_sessions_show_themselves(session):
    r = session.run("echo '<b>'; ls /nope")
    page = r._repr_html_()
    assert "$ echo &#x27;&lt;b&gt;&#x27;; ls /nope" in page and "&lt;b&gt;" in page and "exit 1" in page
    page = session._repr_html_()
    assert "BusyBox session" in page and "/bin/busybox" in page and "live" in page


def test_the_magics_keep_one_session_and_new_drops_it():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "ncpu_nb")
    shell.run_line_magic("busybox", "--new")
    shell.run_cell_magic("busybox", "", "cd /tmp\necho from a cell > kept.txt\nexport N=5\n")
    r = shell.run_line_magic("busybox", "cat kept.txt")
    assert (r.stdout, r.exit_code) == ("from a cell\n", 0)
    assert shell.run_cell_magic("busybox", "", "echo $N; pwd").stdout == "5\n/tmp\n"
    kept = r.machine
    one_off = shell.run_line_magic("busybox", "--cwd /tmp ls")  # an option that shapes a machine: a fresh one
    assert one_off.stdout == "" and one_off.machine is not kept
    assert shell.run_line_magic("busybox", "ls /tmp").machine is kept
    r = shell.run_line_magic("busybox", "--new cat /tmp/kept.txt")
    assert r.exit_code == 1 and r.machine is not kept and "can't open" in r.stderr
    assert shell.run_line_magic("busybox", "pwd").stdout == "/\n"
    shell.run_line_magic("busybox", "exit 0")  # the shell ends: the next magic starts another
    assert shell.run_line_magic("busybox", "echo again").stdout == "again\n"


def test_the_magics_stream_output_into_the_cell_while_the_command_runs(capsys, monkeypatch):
    """A line printed before a long loop is in the cell before the command ends; the result's view
    does not print the output a second time, and the result still holds all of it."""
    from IPython.core.interactiveshell import InteractiveShell

    from ncpu_nb import magics

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "ncpu_nb")
    seen_while_running = []
    into_the_cell = magics._into_the_cell

    def watch(stream, text):
        into_the_cell(stream, text)
        seen_while_running.append((stream, text))

    monkeypatch.setattr(magics, "_into_the_cell", watch)
    capsys.readouterr()
    busy = "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done"  # many run slices of the machine
    r = shell.run_cell_magic("busybox", "--new", f"echo first\n{busy}\necho oops >&2\necho last")
    out, err = capsys.readouterr()
    assert out == "first\nlast\n" and err == "oops\n"
    assert r.stdout == "first\nlast\n" and r.stderr == "oops\n" and r.streamed
    assert seen_while_running[0] == ("stdout", "first\n")  # its own chunk, before the loop ended
    assert "first" not in r._output_html() and "output is above" in r._repr_html_()
    assert "first" in Session().run("echo first")._output_html()  # from Python, nothing was shown before


def test_a_result_keeps_the_newest_max_output_bytes():
    s = Session(max_output=100)
    full = one_shot("seq 1000").stdout
    r = s.run("seq 1000")
    assert r.stdout == full[-100:] and r.truncated == {"stdout": len(full) - 100}
    assert "output truncated" in r._repr_html_()
    assert s.run("echo small").truncated == {}


# --- hardening --------------------------------------------------------------------------------------
@pytest.mark.parametrize("make, error, message", [
    (lambda: Session(forward=[8080]), TypeError, r"forward=\[8080\]: a dict"),
    (lambda: Session(max_output=float("nan")), ValueError, "max_output=nan"),
    (lambda: Session(max_output=-1), ValueError, "max_output=-1"),
    (lambda: Session().run(b"echo"), TypeError, "command must be a str .* not bytes: decode it"),
    (lambda: Session().run("echo", timeout=float("nan")), ValueError, "timeout=nan"),
    (lambda: Session().run("echo", timeout=-1), ValueError, "timeout=-1"),
    (lambda: Session().run("echo", timeout="5"), ValueError, "timeout='5'"),
    (lambda: Session().run("echo", on_output="print"), TypeError, "on_output='print'"),
])
def test_bad_arguments_get_a_typed_error_that_names_them(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_a_command_that_sends_the_shells_output_away_still_ends(session):
    """The command has its own stdout and stderr: `exec >/dev/null` in it ends with it."""
    r = session.run("exec >/dev/null; echo hidden")
    assert (r.stdout, r.status) == ("", 0)
    assert session.run("exec 2>/dev/null; echo gone >&2").stderr == ""  # and later the shell's messages come:
    assert session.run("nosuchcommand").stderr == "sh: nosuchcommand: not found\n"
    assert session.run("echo visible").stdout == "visible\n"


@pytest.mark.slow
def test_a_loop_in_the_shell_that_ignores_sigint_ends_the_session_within_its_timeout():
    from ncpu_nb.arm64.session import INTERRUPT_GRACE, KILL_GRACE

    s, started = Session(deterministic=False), time.monotonic()
    with pytest.raises(ncpu_nb.MachineTimeout, match="within 1 s.*the session is over"):
        s.run("trap '' INT; while :; do :; done", timeout=1)
    assert time.monotonic() - started < 1 + INTERRUPT_GRACE + KILL_GRACE + 2
    assert not s.alive
    with pytest.raises(ncpu_nb.MachineError, match="exited"):
        s.run("true")


def test_a_run_without_a_timeout_gets_the_default_one(monkeypatch):
    from ncpu_nb.arm64 import session as session_module

    monkeypatch.setattr(session_module, "RUN_TIMEOUT", 0.5)
    s = Session(deterministic=False)
    with pytest.raises(ncpu_nb.MachineTimeout, match="within 0.5 s"):
        s.run("sleep 1000")
    assert s.run("echo ok").stdout == "ok\n"


def test_a_guest_file_name_with_a_newline_is_listed_whole(session):
    session.run("mkdir -p /tmp/nl && cd /tmp/nl && touch 'two\nlines' plain && mkdir 'a|b'")
    files = session.files("/tmp/nl")
    assert files.names() == ["a|b", "plain", "two\nlines"]
    assert [f.kind for f in files] == ["directory", "file", "file"]


# Readers on every descriptor of the shell: the one on its input takes what the host writes while the
# shell waits on a command (the marker line sent after SIGINT), learns the marker from it and prints it
# every 0.2 s, as that command's and as the next one's.
THIEF = r'''for n in 10 11 12 13 14 15; do ( IFS= read -r line </proc/$$/fd/$n || exit; echo "$line" >/tmp/stolen
m=$(echo "$line" | sed -n 's/.*\\037\(ncpu-[0-9a-f]*:\)\([0-9a-f]*\):.*/\1 \2/p'); set -- $m
case $2 in *[!0-9]*) next=$2;; *) next=$(($2 + 1));; esac
while :; do printf 'forged\n\037%s%s:0\n\037%s%s:0\n' "$1" "$next" "$1" "$2"; sleep 0.2; done ) 2>/dev/null & done
sleep 0.1'''


@pytest.mark.slow
def test_a_guest_job_that_reads_the_shells_input_cannot_forge_a_result():
    s = Session(deterministic=False)
    s.run(THIEF)
    with pytest.raises(ncpu_nb.MachineTimeout):
        s.run("sh -c \"trap '' INT; sleep 2\"", timeout=0.5)  # ignores SIGINT: the shell does not read
    assert "ncpu-" in s.read_file("/tmp/stolen").decode()  # the job did read a marker line
    r = s.run("sleep 2; echo real; false")
    assert r.stdout.endswith("real\n") and r.status == 1
