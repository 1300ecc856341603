"""The debugger and the views in a real JupyterLab: run a notebook, click step / step N / back / run /
pause / reset, toggle breakpoints and the radix, move through memory, filter a trace, and check what
the page shows; screenshots in light and dark themes go to tests/artifacts/."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from labpage import REPO, click, lab_command, run_notebook, screenshot, set_theme

CELLS = [
    "import ncpu_nb\nsort = ncpu_nb.CPU(ncpu_nb.load_program('bubble_sort'))\nsort.debugger()",
    "spin = ncpu_nb.CPU('MOV R1, 1\\nloop:\\n    ADD R0, R0, R1\\n    JMP loop')\nspin_dbg = spin.debugger()\nspin_dbg",
    "third = ncpu_nb.CPU(ncpu_nb.load_program('bubble_sort'))\nthird.debugger()",
    "from ncpu_nb.views import MemoryView, RegisterView, TraceView\n"
    "done = ncpu_nb.CPU(ncpu_nb.load_program('bubble_sort'), trace_depth=1000)\ndone.run()\n"
    "display(RegisterView(done), MemoryView(done, 0x10), TraceView(done))",
    f"import sys\nsys.path.insert(0, {str(REPO / 'tests')!r})\nfrom unicorn_machine import UnicornMachine\n"
    "from ncpu_nb.views import Debugger\n"
    "arm_dbg = Debugger(UnicornMachine())\narm_dbg.step(5)\narm_dbg",
    "import time\ntime.sleep(8 if 'slept' in globals() else 0)  # the second run keeps the kernel busy\nslept = True",
]


@pytest.fixture(scope="module")
def notebook(lab, page):
    """The notebook above, opened and run once for the module; each test uses its own widgets."""
    run_notebook(page, lab, "debugger.ipynb", CELLS)
    found = page.locator(".ncpu-debugger")
    expect(found).to_have_count(4, timeout=60_000)
    expect(found.first.locator("[data-field=title]")).to_have_text("bubble_sort · fast mode")
    expect(page.locator(".ncpu-traceview")).to_have_count(1)
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first).to_be_visible()  # every cell done
    return found


def test_step_back_breakpoints_memory_and_themes(notebook, page):
    dbg = notebook.nth(0)
    set_theme(page, "JupyterLab Light")
    pc, cycles = dbg.locator("[data-field=pc]"), dbg.locator("[data-field=cycles]")
    expect(pc).to_have_text("0")
    # The data array starts with 42 = 2a 00 00 00.
    expect(dbg.locator(".ncpu-memrow").first).to_contain_text("2a 00 00 00 07 00 00 00")

    click(dbg, "step")
    expect(pc).to_have_text("1")  # a key pressed while that step still runs is dropped, as a busy button is
    dbg.focus()
    page.keyboard.press("s")  # the keyboard shortcut for step
    expect(pc).to_have_text("2")
    r4 = dbg.locator("[data-reg=R4]")
    expect(r4).to_have_text("0x0000000a")
    expect(dbg.locator("tr.changed [data-reg=R4]")).to_have_count(1)
    expect(dbg.locator(".ncpu-trace tbody tr")).to_have_count(2)
    expect(dbg.locator(".ncpu-trace tbody tr").last).to_contain_text("R4 0x00000000 → 0x0000000a")

    dbg.locator("[data-radix=dec]").click()
    expect(r4).to_have_text("10")
    expect(dbg.locator("[data-reg=SP]")).to_have_text("65536")

    dbg.locator("[data-field=step-count]").fill("25")
    click(dbg, "step-n")
    expect(cycles).to_have_text("27")
    click(dbg, "back")
    expect(cycles).to_have_text("26")
    click(dbg, "back-n")  # 25 more: back to cycle 1
    expect(cycles).to_have_text("1")
    expect(pc).to_have_text("1")

    # A breakpoint on the swap (the first STR) stops a run before it executes.
    store = dbg.locator(".ncpu-listing tr[data-loc='15']")
    store.locator("td.gutter").click()
    expect(store).to_have_class(re.compile(r"\bbp\b"))
    click(dbg, "run")
    expect(dbg.locator("[data-field=status]")).to_have_text("breakpoint")
    expect(pc).to_have_text("15")
    screenshot(page, dbg, "debugger_breakpoint_light.png")

    click(dbg, "step")  # the store writes a[i]: the memory view marks the changed bytes
    expect(dbg.locator(".ncpu-memgrid .byte.changed").first).to_be_visible()
    dbg.locator(".ncpu-listing tr[data-loc='15'] td.gutter").click()
    expect(dbg.locator(".ncpu-listing tr.bp")).to_have_count(0)
    click(dbg, "run")
    expect(dbg.locator("[data-field=status]")).to_have_text("halted")
    # Sorted: -8 = f8 ff ff ff, then -3.
    expect(dbg.locator(".ncpu-memrow").first).to_contain_text("f8 ff ff ff fd ff ff ff")

    # Go to a register: SP points past the end of data memory (unmapped bytes show as --).
    dbg.locator("[data-field=memory-address]").fill("sp")
    dbg.locator("[data-field=memory-address]").press("Enter")
    expect(dbg.locator(".ncpu-memrow").first).to_contain_text("00010000")
    expect(dbg.locator(".ncpu-memrow").first).to_contain_text("-- --")
    dbg.locator("[data-action=memory-prev]").click()
    expect(dbg.locator(".ncpu-memrow").first).to_contain_text("0000ff00")

    dbg.locator("[data-field=memory-address]").fill("0")
    dbg.locator("[data-field=memory-address]").press("Enter")
    screenshot(page, dbg, "debugger_halted_light.png")
    set_theme(page, "JupyterLab Dark")
    screenshot(page, dbg, "debugger_halted_dark.png")

    click(dbg, "reset")
    expect(cycles).to_have_text("0")
    expect(dbg.locator(".ncpu-memrow").first).to_contain_text("2a 00 00 00")


def test_run_and_pause(notebook, page):
    spin = notebook.nth(1)
    set_theme(page, "JupyterLab Dark")
    cycles = spin.locator("[data-field=cycles]")
    click(spin, "run")
    expect(spin.locator("[data-field=status]")).to_have_text("running")
    expect(spin.locator("[data-action=step]")).to_be_disabled()
    first = cycles.inner_text()
    expect(cycles).not_to_have_text(first)  # the view updates while it runs
    assert int(cycles.inner_text().replace(",", "")) > int(first.replace(",", ""))
    screenshot(page, spin, "debugger_running_dark.png")
    click(spin, "pause")
    expect(spin.locator("[data-field=status]")).to_have_text("paused")  # it can go on
    expect(spin.locator("[data-action=step]")).to_be_enabled()
    expect(spin.locator("[data-field=message]")).to_contain_text("paused")
    stopped = cycles.inner_text()
    page.wait_for_timeout(300)  # not a wait for something: the count must not move in that time
    expect(cycles).to_have_text(stopped)
    click(spin, "back")
    expect(cycles).to_have_text(f"{int(stopped.replace(',', '')) - 1:,}")


def run_cell(page, index: int) -> None:
    """Runs the notebook's cell `index` as a click on ▶ would, without waiting for it."""
    page.evaluate("i => { window.jupyterapp.shell.currentWidget.content.activeCellIndex = i; }", index)
    lab_command(page, "notebook:run-cell")


def test_interrupting_the_kernel_pauses_a_run_started_by_a_cell(notebook, page):
    spin = notebook.nth(1)
    kernel = "window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first).to_be_visible()
    page.evaluate(f"() => {{ {kernel}.requestExecute({{code: 'spin_dbg.run()'}}); }}")  # waits for the run
    expect(spin.locator("[data-field=status]")).to_have_text("running")
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Busy").first).to_be_visible()
    page.evaluate(f"() => {{ {kernel}.interrupt(); }}")
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first).to_be_visible()
    expect(spin.locator("[data-field=status]")).to_have_text("paused")
    expect(spin.locator("[data-field=message]")).to_contain_text("paused")


def test_clicks_wait_while_a_cell_runs(notebook, page):
    dbg = notebook.nth(2)
    set_theme(page, "JupyterLab Light")
    expect(dbg.locator("[data-field=pc]")).to_have_text("0")
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first).to_be_visible()
    run_cell(page, len(CELLS) - 1)  # a cell that sleeps 8 s: long enough to see it waiting on a loaded machine
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Busy").first).to_be_visible()
    click(dbg, "step")
    expect(dbg.locator("[data-field=message]")).to_contain_text("waiting for the kernel")
    expect(dbg).to_have_class(re.compile(r"\bwaiting\b"))
    # When the cell ends the kernel handles the click.
    expect(dbg.locator("[data-field=pc]")).to_have_text("1", timeout=30_000)
    expect(dbg).not_to_have_class(re.compile(r"\bwaiting\b"))
    expect(dbg.locator("[data-field=message]")).to_have_text("1 instruction")


def test_register_memory_and_trace_views(notebook, page):
    set_theme(page, "JupyterLab Light")
    registers, memory, trace = page.locator(".ncpu-registerview"), page.locator(".ncpu-memoryview"), page.locator(".ncpu-traceview")
    expect(registers.locator("[data-reg=R0]")).to_have_text("0x00000007")
    registers.locator("[data-radix=dec]").click()
    expect(registers.locator("[data-reg=R0]")).to_have_text("7")

    expect(memory.locator(".ncpu-memrow").first).to_contain_text("f8 ff ff ff fd ff ff ff")
    expect(memory.locator(".byte.target")).to_have_text("07")  # 0x10, the view's address: a[4] = 7
    memory.locator("[data-action=memory-next]").click()
    expect(memory.locator(".ncpu-memrow").first).to_contain_text("00000100")

    count, rows = trace.locator("[data-field=count]"), trace.locator(".ncpu-trace tbody tr")
    expect(count).to_have_text("470 of 470 steps")
    expect(rows).to_have_count(200)  # a window; more on request
    trace.locator("[data-action=more]").click()
    expect(rows).to_have_count(400)
    trace.locator("[data-field=text]").fill("str")
    expect(count).to_have_text("48 of 470 steps")
    expect(rows).to_have_count(48)
    expect(rows.first).to_contain_text("STR R3, [R1]")
    trace.locator("[data-field=text]").fill("")
    trace.locator("[data-field=register]").select_option("R5")
    expect(count).to_have_text("12 of 470 steps")
    trace.locator("[data-field=stores]").check()
    expect(count).to_have_text("0 of 470 steps")
    trace.locator("[data-field=register]").select_option("")
    expect(count).to_have_text("48 of 470 steps")
    for theme in ("light", "dark"):
        set_theme(page, f"JupyterLab {theme.title()}")
        for name, view in (("registerview", registers), ("memoryview", memory), ("traceview", trace)):
            screenshot(page, view, f"{name}_{theme}.png")


def test_a_64_bit_machine(notebook, page):
    """AArch64 under Unicorn: 64-bit registers, 128-bit SIMD registers shown on demand, hex
    addresses, and memory pages of a sparse 64-bit address space."""
    arm = notebook.nth(3)
    set_theme(page, "JupyterLab Light")
    expect(arm.locator("[data-field=pc]")).to_have_text("0x400014")
    expect(arm.locator("[data-reg=x1]")).to_have_text("0xffffffffffffffff")
    expect(arm.locator("[data-reg=v0]")).to_have_count(0)
    arm.locator(".ncpu-group", has_text="simd").locator("button").click()
    expect(arm.locator("[data-reg=v0]")).to_have_text("0x00000000000000010000000000000001")
    arm.locator("[data-field=memory-address]").fill("sp")
    arm.locator("[data-field=memory-address]").press("Enter")
    last_row = arm.locator(".ncpu-memrow").last
    expect(last_row).to_contain_text("00007ffffff0fff0")
    expect(last_row).to_contain_text("01 00 00 00 00 00 00 00")  # pushed x0 = 1 at sp
    arm.locator("[data-radix=dec]").click()
    expect(arm.locator("[data-reg=x1]")).to_have_text("-1")
    arm.locator("[data-radix=hex]").click()
    for theme in ("light", "dark"):
        set_theme(page, f"JupyterLab {theme.title()}")
        screenshot(page, arm, f"debugger_arm64_{theme}.png")
