"""The text machine in a real JupyterLab: example pairs typed into the table, synthesize clicked, the
program appears, apply shows zruog, the neural switch, and the program opened in the debugger with
the string in memory; screenshots go to tests/artifacts/."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from labpage import run_notebook, screenshot

CELLS = ["import ncpu_nb\nncpu_nb.text_machine()"]


@pytest.fixture(scope="module")
def machine(lab, page):
    run_notebook(page, lab, "text_machine.ipynb", CELLS)
    found = page.locator(".ncpu-textmachine")
    expect(found).to_have_count(1, timeout=60_000)
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first).to_be_visible()
    return found.first


def test_pairs_typed_synthesize_apply_debugger(machine, page):
    machine.locator("[data-field=example-input]").first.fill("hello")
    machine.locator("[data-field=example-output]").first.fill("khoor")
    machine.locator("[data-action=synthesize]").click()
    expect(machine.locator("[data-field=status]")).to_have_text("solved")
    expect(machine.locator("[data-field=program]")).to_contain_text("LDRB R3, [R1]")
    expect(machine.locator("[data-row=DSL]")).to_have_text("caesar(3)")
    expect(machine.locator("[data-row=verified]")).to_contain_text("held-out strings match")

    machine.locator("[data-field=apply-input]").fill("world")
    machine.locator("[data-action=apply]").click()
    expect(machine.locator("[data-field=applied-result]").first).to_have_text("zruog")

    machine.locator("[data-mode=neural]").click()
    expect(machine.locator("[data-mode=neural]")).to_have_class("ncpu-seg on")
    machine.locator("[data-field=apply-input]").fill("xyz")
    machine.locator("[data-action=apply]").click()
    expect(machine.locator("tr", has_text="neural").locator("[data-field=applied-result]")).to_have_text("abc")
    screenshot(page, machine, "text_machine.png")

    machine.locator("[data-field=apply-input]").fill("world")
    machine.locator("[data-action=debugger]").click()
    dbg = page.locator(".ncpu-debugger")
    expect(dbg).to_have_count(1)
    expect(dbg.locator(".ncpu-memrow").first).to_contain_text("77 6f 72 6c 64 00")  # "world\0" at 0x1000
    dbg.locator(".ncpu-toolbar [data-action='run']").click()
    expect(dbg.locator("[data-field=status]")).to_have_text("halted")
