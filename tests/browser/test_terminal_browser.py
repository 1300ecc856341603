"""The BusyBox terminal in a real JupyterLab, typed into as a user would: keys go to xterm.js in the
page and from there to the guest's terminal. Tab completion, `vi` writing a file, job control
(`sleep 100 &`, `jobs`, `fg`, Ctrl-C), the window size following the view's box (`stty size`), and a
machine without a tty (the view edits the line itself). Screenshots in light and dark themes go to
tests/artifacts/."""
from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from labpage import run_notebook, screenshot, set_theme

CELLS = [
    "import ncpu_nb\nterm = ncpu_nb.busybox_terminal()\nterm",
    "from ncpu_nb.views import BusyboxTerminal\n"
    "piped = BusyboxTerminal(ncpu_nb.Arm64Machine.busybox('sh', '-i', interactive=True, env=['PS1=> ']))\npiped",
]


@pytest.fixture(scope="module")
def notebook(lab, page):
    run_notebook(page, lab, "terminal.ipynb", CELLS)
    expect(page.locator(".ncpu-terminal")).to_have_count(2, timeout=60_000)
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first).to_be_visible()
    return page


def lines(term) -> list[str]:
    """The rows xterm.js shows now (its DOM renderer draws one element per row)."""
    rows = term.locator(".xterm-rows > div").evaluate_all("rows => rows.map(r => r.textContent)")
    return [row.replace("\u00a0", " ").rstrip() for row in rows]


def screen_shows(term, wanted: list[str], timeout: float = 30) -> list[str]:
    """Waits until `wanted` appear as consecutive rows; returns the rows."""
    deadline = time.monotonic() + timeout
    while True:
        shown = lines(term)
        if any(shown[i:i + len(wanted)] == wanted for i in range(len(shown))):
            return shown
        if time.monotonic() > deadline:
            raise AssertionError(f"{wanted} not on the screen:\n" + "\n".join(shown))
        time.sleep(0.1)


def wait_until(term, test, timeout: float = 30) -> None:
    """Waits until `test(rows)` is true."""
    deadline = time.monotonic() + timeout
    while not test(lines(term)):
        if time.monotonic() > deadline:
            raise AssertionError("not on the screen:\n" + "\n".join(lines(term)))
        time.sleep(0.1)


def keys(page, term, *typed: str) -> None:
    """Focuses the terminal, then types text or presses a key (names like 'Enter', 'Control+c')."""
    term.locator(".xterm-helper-textarea").focus()
    for k in typed:
        if k in ("Enter", "Tab", "Escape", "Backspace") or "+" in k and len(k) > 1:
            page.keyboard.press(k)
        else:
            page.keyboard.type(k)


def test_tab_completes_a_command_and_the_guest_echoes(notebook, page):
    term = page.locator(".ncpu-terminal").first
    set_theme(page, "JupyterLab Light")
    expect(term.locator("[data-field=status]")).to_have_text("ready", timeout=30_000)
    screen_shows(term, ["Enter 'help' for a list of built-in commands."])
    keys(page, term, "ec", "Tab", "hi there", "Enter")
    screen_shows(term, ["$ echo hi there", "hi there", "$"])


def test_vi_writes_a_file_that_cat_shows(notebook, page):
    term = page.locator(".ncpu-terminal").first
    keys(page, term, "vi /tmp/f", "Enter")
    screen_shows(term, ["~", "~"])  # vi's empty lines: a full-screen program on the terminal
    keys(page, term, "i", "written in vi", "Enter", "line two", "Escape")
    # vi tells Escape from an arrow key's ESC [ A by the time until the next byte (50 ms), so, like a
    # person, wait for it to leave insert mode before typing the command
    wait_until(term, lambda shown: shown[-1].startswith("- /tmp/f [Modified]"))
    keys(page, term, ":wq", "Enter")
    wait_until(term, lambda shown: [s for s in shown if s][-1] == "$")
    keys(page, term, "cat /tmp/f", "Enter")
    screen_shows(term, ["$ cat /tmp/f", "written in vi", "line two", "$"])


def test_a_background_job_is_listed_brought_back_and_interrupted(notebook, page):
    term = page.locator(".ncpu-terminal").first
    keys(page, term, "sleep 100 &", "Enter")
    screen_shows(term, ["$ sleep 100 &"])
    keys(page, term, "jobs", "Enter")
    screen_shows(term, ["$ jobs"])
    wait_until(term, lambda shown: any(s.startswith("[1]") and "Running" in s and "sleep 100" in s for s in shown))
    keys(page, term, "fg", "Enter")
    screen_shows(term, ["$ fg", "sleep 100"])
    keys(page, term, "Control+c")
    screen_shows(term, ["sleep 100", "^C"])
    keys(page, term, "echo status $?", "Enter")
    screen_shows(term, ["$ echo status $?", "status 130", "$"])
    screenshot(page, term, "terminal_light.png")
    set_theme(page, "JupyterLab Dark")
    screenshot(page, term, "terminal_dark.png")
    set_theme(page, "JupyterLab Light")


def test_the_window_size_follows_the_box(notebook, page):
    term = page.locator(".ncpu-terminal").first
    size = term.locator("[data-field=size]")
    before = size.inner_text()
    cols, rows = map(int, before.split("×"))
    keys(page, term, "clear; stty size", "Enter")
    screen_shows(term, [f"{rows} {cols}", "$"])
    term.evaluate("t => { t.style.width = '34em'; t.querySelector('[data-field=screen]').style.height = '14em'; }")
    expect(size).not_to_have_text(before)
    new_cols, new_rows = map(int, size.inner_text().split("×"))
    assert new_cols < cols and new_rows < rows
    keys(page, term, "clear; stty size", "Enter")
    screen_shows(term, [f"{new_rows} {new_cols}", "$"])


def test_a_machine_without_a_tty_gets_the_views_own_line_editing(notebook, page):
    term = page.locator(".ncpu-terminal").nth(1)
    screen_shows(term, ["sh: can't access tty; job control turned off"])
    keys(page, term, "echo abx", "Backspace", "c | tr a-z A-Z", "Enter")
    screen_shows(term, ["> echo abc | tr a-z A-Z", "ABC", ">"])
    keys(page, term, "while true; do :; done", "Enter")
    expect(term.locator("[data-field=status]")).to_have_text("running")
    keys(page, term, "Control+c")
    expect(term.locator("[data-field=status]")).to_have_text("ready")
    keys(page, term, "exit 3", "Enter")
    expect(term.locator("[data-field=status]")).to_have_text("exited (status 3)")
    expect(term.locator("[data-action=interrupt]")).to_be_disabled()
