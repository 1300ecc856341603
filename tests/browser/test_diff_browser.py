"""The debugger on the differentiable engine in a real JupyterLab: a soft branch on a non-integer
input spreads the PC, and the page shows the register values with their gradients, the PC
distribution as bars on the listing (the halted slot's too) and a soft program's slot choices."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from labpage import run_notebook, screenshot, set_theme

CELLS = [
    "import ncpu_nb\n"
    "branch = ncpu_nb.DifferentiableEngine('CMP R0, 0\\nJZ zero\\nMUL R1, R0, 10\\nHALT\\nzero: MOV R1, 20\\nHALT',\n"
    "                                      inputs={'R0': 0.3}, soft_branches=True)\n"
    "branch.debugger()",
    "soft = ncpu_nb.DifferentiableEngine(ncpu_nb.SoftProgram(2, seed=1, scale=1.0))\nsoft.debugger()",
]


@pytest.fixture(scope="module")
def notebook(lab, page):
    run_notebook(page, lab, "differentiable.ipynb", CELLS)
    found = page.locator(".ncpu-debugger")
    expect(found).to_have_count(2, timeout=60_000)
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first).to_be_visible()
    return found


def test_values_gradients_and_the_pc_distribution(notebook, page):
    dbg = notebook.nth(0)
    set_theme(page, "JupyterLab Light")
    weights = dbg.locator(".ncpu-listing td.weight")
    expect(weights).to_have_count(7)  # six instructions and the halted slot
    expect(dbg.locator(".ncpu-listing tr[data-loc='0'] td.weight")).to_contain_text("1.000")
    for cycle in ("1", "2", "3"):  # each click once the last step is shown, as a user sees it
        dbg.locator(".ncpu-toolbar [data-action='step']").click()
        expect(dbg.locator("[data-field=cycles]")).to_have_text(cycle)
    # ZF's surrogate at |R0| = 0.3 is sigmoid(0.2) = 0.550: the jump's share of the PC.
    expect(dbg.locator(".ncpu-listing tr[data-loc='5'] td.weight")).to_contain_text("0.550")
    expect(dbg.locator(".ncpu-listing tr[data-loc='3'] td.weight")).to_contain_text("0.450")
    gradients = dbg.locator(".ncpu-extra[data-panel='Values and gradients']")
    expect(gradients.locator("thead")).to_contain_text("∂/∂R0₀")
    expect(gradients.locator("tr[data-row='R0']")).to_contain_text("0.3")
    dbg.locator(".ncpu-toolbar [data-action='run']").click()
    expect(dbg.locator("[data-field=status]")).to_have_text("halted")
    expect(dbg.locator(".ncpu-listing tr[data-loc='6'] td.weight")).to_contain_text("1.000")
    # R1 = 0.5498 * 20 + 0.4502 * (10 * 0.3) = 12.347; dR1/dR0 = 0.4502 * 10 - (20 - 3) * sigmoid'(0.2) = 0.294
    expect(gradients.locator("tr[data-row='R1'] td")).to_have_text(["R1", "12.3472", "0.293878"])
    screenshot(page, dbg, "diff_debugger_light.png")
    set_theme(page, "JupyterLab Dark")
    screenshot(page, dbg, "diff_debugger_dark.png")
    set_theme(page, "JupyterLab Light")


def test_soft_program_slot_choices(notebook, page):
    dbg = notebook.nth(1)
    choices = dbg.locator(".ncpu-extra[data-panel='Slot choices']")
    expect(choices.locator("tbody tr")).to_have_count(8)  # two slots x op, dst, a, b
    expect(choices.locator(".ncpu-prob-bar .fill")).to_have_count(24)
    expect(dbg.locator(".ncpu-listing tr[data-loc='0'] td.text")).to_contain_text("p=")
