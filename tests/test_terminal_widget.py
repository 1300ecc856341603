"""The BusyBox terminal's kernel side through the comm messages its view sends (no browser): a typed
line reaches the shell and its output comes back as binary buffers; Ctrl-C interrupts a running
command; the shell's exit ends the terminal with its status; the static fallback is the transcript."""
from __future__ import annotations

import time

import pytest

import ncpu_nb
from ncpu_nb.views import BusyboxTerminal
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


def test_a_typed_line_runs_in_the_shell_and_streams_back(term):
    term, browser = term
    assert term.status == "input" and term.transcript.endswith("$ ")
    browser.act("stdin", text="echo hi | tr a-z A-Z")
    assert term.status == "input"
    assert output(browser) == "echo hi | tr a-z A-Z\nHI\n$ "  # the echo of the line, the answer, the prompt
    streams = [c["streams"] for c, _ in browser.replies if c.get("kind") == "output"]
    assert ["stdin"] in streams and any("stdout" in s for s in streams)
    assert term.transcript.endswith("$ echo hi | tr a-z A-Z\nHI\n$ ")


def test_errors_come_on_stderr_and_the_history_replays_everything(term):
    term, browser = term
    browser.act("stdin", text="ls /no-such-dir")
    browser.act("history")
    history = [(c, b) for c, b in browser.replies if c.get("kind") == "history"][-1]
    pieces = dict(zip(history[0]["streams"], history[1]))  # the last piece of each stream
    assert b"/no-such-dir: No such file or directory" in bytes(pieces["stderr"])
    assert b"".join(bytes(b) for b in history[1]).decode() == term.transcript


def test_output_is_throttled_while_a_long_command_runs(term):
    term, browser = term
    browser.replies.clear()
    t0 = time.perf_counter()
    browser.act("stdin", text="seq 1 20000 | tail -c 6")  # ~tens of ms of guest work
    seconds = time.perf_counter() - t0
    sent = [c for c, _ in browser.replies if c.get("kind") == "output"]
    assert output(browser).endswith("20000\n$ ")
    assert len(sent) <= 2 + seconds * 30


def test_interrupt_stops_a_running_command_and_the_shell_prompts_again(term):
    term, browser = term
    browser.message("stdin", text="while true; do :; done")
    time.sleep(0.3)
    assert term.status == "running"
    browser.act("interrupt")
    term.wait(10)
    assert term.status == "input"
    assert term.transcript.endswith("^C\n$ ")
    browser.message("stdin", text="yes > /dev/null")  # an external command: SIGINT kills it, not the shell
    time.sleep(0.3)
    browser.act("interrupt")
    term.wait(10)
    assert term.status == "input"
    browser.act("stdin", text="echo $?")
    assert term.transcript.endswith("echo $?\n130\n$ ")  # 128 + SIGINT, as Linux reports it


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


def test_exit_ends_the_terminal_with_its_status(term):
    term, browser = term
    browser.act("stdin", text="exit 3")
    assert (term.status, term.exit_status, term.machine.exit_status) == ("exited", 3, 3)
    browser.act("stdin", text="echo too late")
    errors = [c for c, _ in browser.replies if c.get("kind") == "error"]
    assert errors and "exited" in errors[-1]["message"]


def test_end_of_input_makes_the_shell_exit(term):
    term, browser = term
    browser.act("eof")
    assert (term.status, term.exit_status) == ("exited", 0)


def test_static_fallback_is_the_transcript():
    term = ncpu_nb.busybox_terminal(deterministic=True)
    term.send("echo '<b>' && uname -m")
    data, _ = term._repr_mimebundle_()
    assert WIDGET_VIEW in data
    assert "&lt;b&gt;" in data["text/html"] and "aarch64" in data["text/html"]
    assert "waiting for input" in data["text/html"]


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


def test_lines_typed_while_a_command_runs_are_read_after_it(term):
    term, browser = term
    browser.message("stdin", text="i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; echo looped $i")
    browser.message("stdin", text="echo after")  # typed ahead: queued for the guest's stdin
    term.wait(10)
    assert term.status == "input"
    assert term.transcript.endswith("looped 2000\n$ after\n$ ")


def test_a_breakpoint_set_by_code_pauses_the_terminal_and_enter_runs_on(term):
    term, browser = term
    machine = term.machine
    machine.breakpoints.add(machine.pc)  # where the shell waits for its next line
    browser.act("stdin", text="uname -m")  # runs, prompts, and stops on the way to read the next line
    assert term.status == "input" and term.message == "stopped at a breakpoint"
    machine.breakpoints.clear()
    browser.act("stdin", text="")
    assert "aarch64\n$ " in term.transcript and term.message == ""
