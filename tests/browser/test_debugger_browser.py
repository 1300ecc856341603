"""The debugger in a real JupyterLab: run a notebook, click step / step N / back / run / pause /
reset, toggle breakpoints and the radix, move the memory view, and check what the page shows."""
from __future__ import annotations

import re

import nbformat
import pytest
from playwright.sync_api import expect

from labpage import lab_command, open_notebook, screenshot, set_theme

SORT = "sort"    # bubble sort: stepping, registers, memory, breakpoints
SPIN = "spin"    # an endless loop: run and pause


def write_notebook(root):
    cells = [
        "import ncpu_nb\ncpu = ncpu_nb.CPU(ncpu_nb.load_program('bubble_sort'))\ncpu.debugger()",
        "spin = ncpu_nb.CPU('MOV R1, 1\\nloop:\\n    ADD R0, R0, R1\\n    JMP loop')\nspin.debugger()",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nbformat.write(nb, root / "debugger.ipynb")


@pytest.fixture
def debuggers(lab, page):
    write_notebook(lab[1])
    open_notebook(page, lab, "debugger.ipynb")
    lab_command(page, "notebook:run-all-cells")
    found = page.locator(".ncpu-debugger")
    expect(found).to_have_count(2, timeout=60_000)
    return found.nth(0), found.nth(1)


def click(dbg, action):
    dbg.locator(f".ncpu-toolbar [data-action='{action}']").click()


def test_step_back_breakpoints_memory_and_themes(debuggers, page):
    dbg, _ = debuggers
    set_theme(page, "JupyterLab Light")
    pc, cycles = dbg.locator("[data-field=pc]"), dbg.locator("[data-field=cycles]")
    expect(pc).to_have_text("0")
    # The data array starts with 42 = 2a 00 00 00.
    expect(dbg.locator(".ncpu-memrow").first).to_contain_text("2a 00 00 00 07 00 00 00")

    click(dbg, "step")
    click(dbg, "step")
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


def test_run_and_pause(debuggers, page):
    _, spin = debuggers
    set_theme(page, "JupyterLab Dark")
    cycles = spin.locator("[data-field=cycles]")
    click(spin, "run")
    expect(spin.locator("[data-field=status]")).to_have_text("running")
    expect(spin.locator("[data-action=step]")).to_be_disabled()
    first = int(cycles.inner_text().replace(",", ""))
    page.wait_for_timeout(400)
    assert int(cycles.inner_text().replace(",", "")) > first  # the view updates while it runs
    screenshot(page, spin, "debugger_running_dark.png")
    click(spin, "pause")
    expect(spin.locator("[data-field=status]")).to_have_text("ready")  # paused: it can go on
    expect(spin.locator("[data-action=step]")).to_be_enabled()
    expect(spin.locator("[data-field=message]")).to_contain_text("paused")
    stopped = cycles.inner_text()
    page.wait_for_timeout(300)
    expect(cycles).to_have_text(stopped)
    click(spin, "back")
    expect(cycles).to_have_text(f"{int(stopped.replace(',', '')) - 1:,}")
