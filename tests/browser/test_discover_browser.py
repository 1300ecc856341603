"""`ncpu_nb.discover()` in a real JupyterLab: examples typed into the table, synthesize clicked, the
program appears with its summary; a test on new inputs; the program opened in the debugger."""
from __future__ import annotations

from playwright.sync_api import expect

from labpage import run_notebook, screenshot

CELLS = ["import ncpu_nb\nview = ncpu_nb.discover()\nview"]


def test_typed_examples_synthesize_test_and_debugger(lab, page):
    run_notebook(page, lab, "discover.ipynb", CELLS)
    view = page.locator(".ncpu-discover")
    expect(view).to_have_count(1, timeout=60_000)
    examples = [("3, 4", "7"), ("10, -2", "8"), ("0, 0", "0"), ("25, 17", "42"), ("-6, 1", "-5")]
    for inputs, outputs in examples:
        view.locator("[data-action=add]").click()
        row = view.locator(".ncpu-examples tbody tr").last
        row.locator("[data-field=inputs]").fill(inputs)
        row.locator("[data-field=outputs]").fill(outputs)
    view.locator("[data-action=synthesize]").click()
    program = view.locator("[data-field=program]")
    expect(program).to_contain_text("ADD R2, R0, R1", timeout=60_000)
    expect(view.locator("[data-field=summary]")).to_contain_text("found by")
    view.locator("[data-field=test-inputs]").fill("13, 21")
    view.locator("[data-action=test]").click()
    expect(view.locator("[data-field=tests]")).to_contain_text("34")
    view.locator("[data-action=debugger]").click()
    expect(view.locator(".ncpu-debugger")).to_have_count(1, timeout=30_000)
    screenshot(page, view, "discover.png")


def test_preset_and_a_bad_cell(lab, page):
    run_notebook(page, lab, "discover_preset.ipynb", CELLS)
    view = page.locator(".ncpu-discover")
    expect(view).to_have_count(1, timeout=60_000)
    view.locator("[data-field=preset]").select_option("squares")
    expect(view.locator(".ncpu-examples tbody tr")).to_have_count(10)
    view.locator(".ncpu-examples tbody tr").first.locator("[data-field=inputs]").fill("zz")
    view.locator("[data-action=synthesize]").click()
    expect(view.locator(".ncpu-message.error")).to_contain_text("row 1, inputs: column 1: 'zz' is not an integer")
