"""The debugger's newer controls in a real JupyterLab: type a register and a memory byte, step over a
call and step out of one, run to a row, drag the history scrubber back, pick a lane, reassemble an
nCPU program in its editor, set a watchpoint, and see C source lines and the call stack of an
AArch64 program; screenshots go to tests/artifacts/."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from labpage import REPO, click, run_notebook, screenshot, set_theme

HEAP_BUGS = REPO / "programs" / "arm64" / "c" / "bin" / "heap_bugs"
CELLS = [
    "import ncpu_nb\nfact = ncpu_nb.CPU(ncpu_nb.load_program('recursive_factorial'))\nfact.debugger()",
    "lanes = ncpu_nb.CPU('MOV R0, 1\\nloop: MUL R0, R0, R1\\nDEC R1\\nJNZ loop\\nHALT', lanes=4,\n"
    "                    registers={'R1': [3, 4, 5, 6]})\nlanes.debugger()",
    f"c = ncpu_nb.Arm64Machine.from_elf({str(HEAP_BUGS)!r}, ['heap_bugs', 'clean'])\n"
    "c.breakpoints.add('sum')\nc.run(check=False)\nc.breakpoints.clear()\nc.debugger()",
]


@pytest.fixture(scope="module")
def notebook(lab, page):
    run_notebook(page, lab, "parity.ipynb", CELLS)
    found = page.locator(".ncpu-debugger")
    expect(found).to_have_count(3, timeout=60_000)
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first).to_be_visible()
    return found


def test_edit_a_register_step_over_step_out_run_to_cursor_and_scrub_back(notebook, page):
    dbg = notebook.nth(0)
    set_theme(page, "JupyterLab Light")
    pc, cycles = dbg.locator("[data-field=pc]"), dbg.locator("[data-field=cycles]")
    message = dbg.locator("[data-field=message]")

    click(dbg, "step")  # MOV R1, 10: the PC is on CALL fact
    expect(pc).to_have_text("1")
    r1 = dbg.locator("[data-reg=R1]")
    r1.click()  # type a register: 5 instead of 10
    edit = dbg.locator("input[data-field=edit]")
    edit.fill("5")
    edit.press("Enter")
    expect(r1).to_have_text("0x00000005")
    expect(message).to_have_text("R1 = 5")

    click(dbg, "step-over")  # the whole recursion, back at HALT
    expect(pc).to_have_text("2")
    expect(message).to_contain_text("stepped over the call")
    expect(dbg.locator("[data-reg=R0]")).to_have_text("0x00000078")  # 5! = 120

    # Scrub back to cycle 1 (just after the edit), then run to the base case's RET (row 7).
    scrubber = dbg.locator("[data-field=scrubber]")
    scrubber.fill("1")  # a range input: sets the value and fires input and change, as a drag does
    expect(cycles).to_have_text("1")
    expect(r1).to_have_text("0x00000005")
    row = dbg.locator(".ncpu-listing tr[data-loc='7']")
    row.hover()
    row.locator("[data-run-to]").click()
    expect(pc).to_have_text("7")
    expect(message).to_contain_text("reached 7")
    frames = dbg.locator(".ncpu-frames tr")
    expect(frames).to_have_count(6)  # fact at depths 1..5 and the entry
    expect(frames.first).to_contain_text("fact")

    click(dbg, "step-out")
    expect(message).to_contain_text("returned from fact")
    expect(pc).to_have_text("11")
    expect(frames).to_have_count(5)
    screenshot(page, dbg, "debugger-parity-ncpu.png")


def test_the_editor_reassembles_and_keeps_a_breakpoint(notebook, page):
    dbg = notebook.nth(0)
    click(dbg, "reset")
    expect(dbg.locator("[data-field=cycles]")).to_have_text("0")
    dbg.locator(".ncpu-listing tr[data-loc='12'] td.gutter").click()  # MUL R0, R0, R1
    expect(dbg.locator(".ncpu-listing tr.bp")).to_have_count(1)
    editor = dbg.locator("[data-field=editor]")
    text = editor.input_value()
    editor.fill(text.replace("    MOV R1, 10\n", "    MOV R1, 4\n    NOP\n"))
    dbg.locator("[data-action=assemble]").click()
    expect(dbg.locator("[data-field=message]")).to_contain_text("1 breakpoint kept")
    expect(dbg.locator(".ncpu-listing tr.bp")).to_have_attribute("data-loc", "13")  # moved down one line
    editor.fill(text.replace("CALL fact\n", "CALL nowhere\n", 1))
    dbg.locator("[data-action=assemble]").click()
    expect(dbg.locator("[data-field=editor-error]")).to_contain_text("nowhere")


def test_a_lane_picker_and_a_typed_memory_byte(notebook, page):
    dbg = notebook.nth(1)
    click(dbg, "run")
    expect(dbg.locator("[data-field=status]")).to_have_text("halted")
    expect(dbg.locator("[data-field=lane-states]")).to_have_text("4 halted")
    lane = dbg.locator("[data-field=lane]")
    lane.fill("3")
    lane.press("Enter")
    expect(dbg.locator("[data-field=title]")).to_contain_text("lane 3 of 4")
    expect(dbg.locator("[data-reg=R0]")).to_have_text("0x000002d0")  # 6! = 720
    byte = dbg.locator(".ncpu-memrow .byte[data-offset='0']")
    byte.click()
    edit = dbg.locator("input[data-field=edit]")
    edit.fill("ab")
    edit.press("Enter")
    expect(byte).to_have_text("ab")
    expect(byte).to_have_class(re.compile(r"\bchanged\b"))


def test_c_source_lines_the_call_stack_step_out_and_a_watchpoint_on_arm64(notebook, page):
    dbg = notebook.nth(2)  # stopped at the start of sum (heap_bugs.c, built -g)
    set_theme(page, "JupyterLab Dark")
    expect(dbg.locator(".ncpu-listing tr.source").first).to_contain_text("heap_bugs.c:")
    expect(dbg.locator(".ncpu-listing tr.source", has_text="total += table[i];")).to_have_count(1)
    functions = dbg.locator(".ncpu-frames td.function")
    expect(functions.nth(0)).to_have_text("sum")
    expect(functions.nth(1)).to_have_text("clean")
    expect(functions.nth(2)).to_have_text("main")
    screenshot(page, dbg, "debugger-parity-arm64.png")

    click(dbg, "step-out")
    expect(dbg.locator("[data-field=message]")).to_contain_text("returned from sum")
    expect(functions.nth(0)).to_have_text("clean")

    dbg.locator("[data-field=watch-where]").fill("0x1000")
    dbg.locator("[data-action=watch]").click()
    expect(dbg.locator(".ncpu-watches tr")).to_have_count(1)
    expect(dbg.locator(".ncpu-watches tr")).to_contain_text("0x1000")
    dbg.locator("[data-unwatch]").click()
    expect(dbg.locator(".ncpu-watches tr")).to_have_count(0)
