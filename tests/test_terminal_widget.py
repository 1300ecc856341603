"""The BusyBox terminal's kernel side through the comm messages its view sends (no browser): keys go
to the guest's terminal as they are and its output comes back as binary buffers; the guest's line
discipline echoes, edits, completes (ash) and turns Ctrl-C into SIGINT for the foreground job; the
view's size becomes the window size; the shell's exit ends the terminal with its status; the static
fallback is the transcript. A machine without a tty gets the view's own line editing."""
from __future__ import annotations

import time

import pytest

import ncpu_nb
from ncpu_nb.views import BusyboxTerminal
from ncpu_nb.views.terminal_text import plain_text
from test_widgets import WIDGET_VIEW, Browser


class TerminalBrowser(Browser):
    def act(self, action, **fields):
        """A message, then wait until the guest wants input or has exited."""
        self.message(action, **fields)
        self.view.wait(10)


@pytest.fixture
def term():
    term = BusyboxTerminal(deterministic=True)
    browser = TerminalBrowser(term)
    term.wait(10)
    browser.replies.clear()  # the banner and the first prompt
    return term, browser


def output(browser) -> str:
    """Everything the kernel streamed to the view, decoded as the view decodes it."""
    return b"".join(bytes(b) for content, buffers in browser.replies if content.get("kind") == "output"
                    for b in buffers).decode()


def test_the_shell_has_a_terminal_with_job_control(term):
    term, browser = term
    assert term.tty and term.machine.tty == (24, 80)
    assert term.status == "input" and term.transcript.endswith("$ ")
    assert "job control turned off" not in term.transcript
    browser.act("keys", data="tty; stty size\r")
    assert term.transcript.endswith("$ tty; stty size\n/dev/tty\n24 80\n$ ")


def test_a_typed_line_is_echoed_by_the_guest_and_streams_back(term):
    term, browser = term
    browser.act("keys", data="echo hi | tr a-z A-Z\r")
    assert term.status == "input"
    # The guest's echo, lines ending "\r\n" (the terminal's output processing), the prompt, and ash's
    # question where the cursor is (ESC [ 6 n: xterm.js answers it as keys)
    assert output(browser) == "echo hi | tr a-z A-Z\r\nHI\r\n$ \x1b[6n"
    assert plain_text(output(browser)) == "echo hi | tr a-z A-Z\nHI\n$ "
    assert term.transcript.endswith("$ echo hi | tr a-z A-Z\nHI\n$ ")


def test_tab_completes_and_the_up_arrow_recalls_the_last_line(term):
    term, browser = term
    browser.act("keys", data="ec\t")
    assert term.transcript.endswith("$ echo ")
    browser.act("keys", data="tab\r")
    browser.act("keys", data="\x1b[A\r")  # up: the line before, run again
    assert term.transcript.endswith("$ echo tab\ntab\n$ echo tab\ntab\n$ ")


def test_the_history_replays_all_the_output(term):
    term, browser = term
    browser.act("keys", data="ls /no-such-dir\r")
    browser.act("history")
    content, buffers = [(c, b) for c, b in browser.replies if c.get("kind") == "history"][-1]
    replayed = b"".join(bytes(b) for b in buffers).decode()
    assert "/no-such-dir: No such file or directory\r\n" in replayed  # stderr is the same terminal
    assert plain_text(replayed) == term.transcript


def test_output_is_throttled_while_a_long_command_runs(term):
    term, browser = term
    t0 = time.perf_counter()
    browser.act("keys", data="seq 1 20000 | tail -c 6\r")  # ~tens of ms of guest work
    seconds = time.perf_counter() - t0
    sent = [c for c, _ in browser.replies if c.get("kind") == "output"]
    assert output(browser).endswith("20000\r\n$ \x1b[6n")
    assert len(sent) <= 2 + seconds * 30


def test_ctrl_c_interrupts_the_foreground_job_and_the_shell_prompts_again(term):
    term, browser = term
    browser.message("keys", data="while true; do :; done\r")
    time.sleep(0.3)
    assert term.status == "running"
    browser.act("keys", data="\x03")  # typed: the line discipline signals the foreground group
    assert term.status == "input" and term.transcript.endswith("^C\n$ ")
    browser.message("keys", data="yes > /dev/null\r")  # an external command: SIGINT kills it, not the shell
    time.sleep(0.3)
    browser.act("interrupt")  # the button types Ctrl-C too
    browser.act("keys", data="echo $?\r")
    assert term.transcript.endswith("$ echo $?\n130\n$ ")  # 128 + SIGINT, as Linux reports it


def test_ctrl_z_stops_a_job_and_fg_brings_it_back(term):
    term, browser = term
    browser.message("keys", data="yes > /dev/null\r")
    time.sleep(0.3)
    browser.act("keys", data="\x1a")
    assert "Stopped" in term.transcript.rsplit("yes > /dev/null", 1)[1] and term.transcript.endswith("$ ")
    browser.act("keys", data="jobs\r")
    assert "[1]+  Stopped" in term.transcript.rsplit("$ jobs", 1)[1]
    browser.message("keys", data="fg\r")
    time.sleep(0.3)
    assert term.status == "running"
    browser.act("keys", data="\x03")
    browser.act("keys", data="echo $?\r")
    assert term.transcript.endswith("$ echo $?\n130\n$ ")


def test_ctrl_c_at_any_instruction_of_a_builtin_loop_brings_the_prompt_back():
    """Ctrl-C stops the machine wherever a time slice ended. A loop of builtins runs in the shell
    itself, whose SIGINT handler jumps out of whatever it interrupted: landing in the few instructions
    where glibc's stdout lock is taken but its owner not yet set, it left the lock half taken and the
    shell hung at its next prompt (the terminal said 'machine stopped', about 1 Ctrl-C in 100).
    SIGINT after each instruction of one pass of the loop: the shell prompts again every time."""
    machine = ncpu_nb.Arm64Machine.busybox("sh", "-i", interactive=True, deterministic=True)
    assert machine.run().stop == "stdin"
    machine.write_stdin("while true; do :; done\n")
    machine.run(max_steps=200_000)  # well into the loop
    looping = machine.snapshot()
    for k in range(3000):  # a pass of the loop takes about 2,500 instructions
        machine.restore(looping)
        if k:
            machine.run(max_steps=k)
        machine.send_signal(machine.pid, 2)
        assert machine.run(timeout=10, check=False).stop == "stdin", f"SIGINT after {k} instructions"


def test_the_views_size_is_the_window_size(term):
    term, browser = term
    browser.act("resize", rows=30, cols=100)
    assert term.machine.tty == (30, 100)
    browser.act("keys", data="stty size\r")
    assert term.transcript.endswith("$ stty size\n30 100\n$ ")
    browser.act("resize", rows=0, cols=100)  # a box not laid out yet: ignored
    assert term.machine.tty == (30, 100)


def test_exit_ends_the_terminal_with_its_status(term):
    term, browser = term
    browser.act("keys", data="exit 3\r")
    assert (term.status, term.exit_status, term.machine.exit_status) == ("exited", 3, 3)
    browser.act("keys", data="echo too late\r")
    errors = [c for c, _ in browser.replies if c.get("kind") == "error"]
    assert errors and "exited" in errors[-1]["message"]


def test_end_of_input_makes_the_shell_exit(term):
    term, browser = term
    browser.act("eof")
    assert (term.status, term.exit_status) == ("exited", 0)


def test_static_fallback_is_the_transcript():
    term = ncpu_nb.busybox_terminal(deterministic=True)
    term.send("echo '<b>' && printf '\\033[1mbold\\033[0m\\n' && uname -m")
    data, _ = term._repr_mimebundle_()
    assert WIDGET_VIEW in data
    page = data["text/html"]
    assert "&lt;b&gt;" in page and "\nbold\naarch64\n" in page and "\x1b" not in page and "\r" not in page
    assert "waiting for input" in page


def test_a_machine_without_interactive_stdin_is_refused():
    with pytest.raises(ValueError, match="interactive=True"):
        BusyboxTerminal(ncpu_nb.Arm64Machine.busybox("sh"))


def test_send_signal_names_what_is_wrong():
    machine = ncpu_nb.Arm64Machine.busybox("sh", "-i", interactive=True)
    machine.run()
    with pytest.raises(ValueError, match="no live process 999"):
        machine.send_signal(999, 2)
    with pytest.raises(ValueError, match="no signal 65"):
        machine.send_signal(machine.pid, 65)
    machine.send_signal(machine.pid, 15)  # SIGTERM: an interactive ash ignores it, as on Linux
    assert machine.run().stop == "stdin"


def test_keys_typed_while_a_command_runs_are_read_after_it(term):
    term, browser = term
    browser.message("keys", data="i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; echo looped $i\r")
    browser.message("keys", data="echo after\r")  # typed ahead: kept in the terminal's input queue
    term.wait(10)
    assert term.status == "input"
    assert term.transcript.endswith("looped 2000\n$ echo after\nafter\n$ ")


def test_a_breakpoint_set_by_code_pauses_the_terminal_and_a_key_runs_on(term):
    term, browser = term
    machine = term.machine
    machine.breakpoints.add(machine.pc)  # where the shell waits for its next key
    browser.act("keys", data="uname -m\r")  # runs, prompts, and stops on the way to read the next key
    assert term.status == "input" and term.message == "stopped at a breakpoint"
    machine.breakpoints.clear()
    browser.act("keys", data="")
    assert "aarch64\n$ " in term.transcript and term.message == ""


# --- a machine without a tty: the view edits the line ------------------------------------------------

@pytest.fixture
def piped():
    machine = ncpu_nb.Arm64Machine.busybox("sh", "-i", interactive=True, env=["PS1=$ "], deterministic=True)
    term = BusyboxTerminal(machine)
    browser = TerminalBrowser(term)
    term.wait(10)
    browser.replies.clear()
    return term, browser


def test_without_a_tty_the_view_echoes_edits_and_sends_the_line_on_enter(piped):
    term, browser = piped
    assert not term.tty
    browser.act("keys", data="echo abx\x7fc | tr a-z A-Z")  # Backspace erases on the screen too
    assert output(browser) == "echo abx\b \bc | tr a-z A-Z" and term.status == "input"
    browser.act("keys", data="\x1b[A\r")  # an arrow is ignored; Enter sends the line
    assert output(browser).endswith("c | tr a-z A-Z\r\nABC\r\n$ ")  # "\n" shown as a new line
    assert term.transcript.endswith("$ echo abc | tr a-z A-Z\nABC\n$ ")
    browser.act("keys", data="nothing\x15echo $((6*7))\r")  # Ctrl-U erases the line
    assert term.transcript.endswith("$ echo $((6*7))\n42\n$ ")


def test_without_a_tty_ctrl_c_signals_every_process_and_ctrl_d_ends_input(piped):
    term, browser = piped
    browser.message("keys", data="yes > /dev/null\r")
    time.sleep(0.3)
    assert term.status == "running"
    browser.act("keys", data="\x03")
    term.wait(10)
    browser.act("keys", data="echo $?\r")
    assert term.transcript.endswith("^C\n$ echo $?\n130\n$ ")
    browser.act("keys", data="\x04")
    assert (term.status, term.exit_status) == ("exited", 0)
