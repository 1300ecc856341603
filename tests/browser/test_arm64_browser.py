"""The AArch64 machine in a real JupyterLab: a C program in the debugger (run to a breakpoint on `main`,
step, step back, SIMD registers; a long run followed live and paused); screenshots in light and dark
themes go to tests/artifacts/. The BusyBox terminal has its own tests (test_terminal_browser.py)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from labpage import REPO, run_notebook, screenshot, set_theme

HELLO = REPO / "programs" / "arm64" / "c" / "bin" / "float_math"
CELLS = [
    f"import ncpu_nb\nm = ncpu_nb.Arm64Machine.from_elf({str(HELLO)!r})\nm.breakpoints.add('main')\nm.debugger()",
    "ncpu_nb.Arm64Machine.busybox('sh', '-c', 'i=0; while [ $i -lt 1000000 ]; do i=$((i+1)); done').debugger()",
]


@pytest.fixture(scope="module")
def notebook(lab, page):
    run_notebook(page, lab, "arm64.ipynb", CELLS)
    expect(page.locator(".ncpu-debugger")).to_have_count(2, timeout=60_000)
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first).to_be_visible()
    return page


def test_debugger_stops_a_c_program_at_main_steps_and_goes_back(notebook, page):
    dbg = page.locator(".ncpu-debugger").first
    set_theme(page, "JupyterLab Light")
    pc, cycles = dbg.locator("[data-field=pc]"), dbg.locator("[data-field=cycles]")
    dbg.locator(".ncpu-toolbar [data-action=run]").click()
    expect(dbg.locator("[data-field=status]")).to_have_text("breakpoint")
    main = pc.inner_text()
    expect(dbg.locator(".ncpu-listing tr.current")).to_have_count(1)
    expect(dbg.locator(".ncpu-listing")).to_contain_text("main")
    at_main = int(cycles.inner_text().replace(",", ""))

    dbg.locator(".ncpu-toolbar [data-action=step]").click()
    expect(cycles).to_have_text(f"{at_main + 1:,}")
    expect(pc).not_to_have_text(main)
    dbg.locator(".ncpu-toolbar [data-action=back]").click()
    expect(cycles).to_have_text(f"{at_main:,}")
    expect(pc).to_have_text(main)

    dbg.locator(".ncpu-subtitle", has_text="simd").locator("button").click()
    expect(dbg.locator("[data-reg=v31]")).to_have_count(1)
    expect(dbg.locator("[data-reg=x0]")).to_have_count(1)
    screenshot(page, dbg, "debugger_c_program_light.png")
    set_theme(page, "JupyterLab Dark")
    screenshot(page, dbg, "debugger_c_program_dark.png")


def test_a_long_busybox_run_updates_the_page_and_pauses(notebook, page):
    dbg = page.locator(".ncpu-debugger").nth(1)
    cycles, status = dbg.locator("[data-field=cycles]"), dbg.locator("[data-field=status]")
    dbg.locator(".ncpu-toolbar [data-action=run]").click()  # billions of instructions: it runs until paused
    expect(status).to_have_text("running")
    expect(cycles).not_to_have_text("0")
    first = cycles.inner_text()
    expect(cycles).not_to_have_text(first)  # the view follows the run
    assert int(cycles.inner_text().replace(",", "")) > int(first.replace(",", "")) > 0
    dbg.locator(".ncpu-toolbar [data-action=pause]").click()
    expect(status).to_have_text("paused")
    expect(dbg.locator("[data-field=message]")).to_contain_text("paused")
