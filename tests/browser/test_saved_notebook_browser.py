"""A notebook with live views, saved, closed and reopened in JupyterLab (as `ncpu-nb lab` serves it):
the views' static HTML shows, never "Error displaying widget: model not found"; re-running a cell gives
a live view again. Screenshots go to tests/artifacts/."""
from __future__ import annotations

import json

from playwright.sync_api import expect

from labpage import lab_command, open_notebook, run_notebook, screenshot

CELLS = [
    "import ncpu_nb\ncpu = ncpu_nb.CPU(ncpu_nb.load_program('bubble_sort'))\ncpu.debugger()",
    "term = ncpu_nb.busybox_terminal()\nterm.send('echo saved')\nterm",
]


def test_a_saved_notebook_reopens_with_static_views_and_rerunning_brings_them_back(lab, page):
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    run_notebook(page, lab, "saved.ipynb", CELLS)
    expect(page.locator(".ncpu-debugger")).to_have_count(1, timeout=60_000)
    expect(page.locator(".ncpu-terminal")).to_have_count(1)
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first).to_be_visible()
    lab_command(page, "docmanager:save")
    saved = lab[1] / "saved.ipynb"
    expect(page.locator(".jp-mod-dirty")).to_have_count(0)
    outputs = [o for cell in json.loads(saved.read_text())["cells"] for o in cell["outputs"] if "data" in o]
    views = [o["data"] for o in outputs if "ncpu-view" in "".join(o["data"].get("text/html", ""))]
    assert len(views) == 2 and not any("application/vnd.jupyter.widget-view+json" in d for d in views)

    lab_command(page, "application:close-all")
    open_notebook(page, lab, "saved.ipynb")
    expect(page.locator(".jp-OutputArea-output .ncpu-view")).to_have_count(2)
    expect(page.get_by_text("model not found")).to_have_count(0)
    screenshot(page, page.locator(".jp-Notebook"), "saved_notebook_reopened.png")
    lab_command(page, "notebook:run-all-cells")
    expect(page.locator(".ncpu-debugger")).to_have_count(1, timeout=60_000)
    assert not [e for e in errors if "model not found" in e or "Error" in e], errors
