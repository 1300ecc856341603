"""Every chapter and tutorial as a learner meets it: opened in JupyterLab, Run All, saved, closed and
reopened. Fails on any error output, "Error displaying widget", or browser console error; the reopened
chapter is screenshotted to tests/artifacts/curriculum/ (to be looked at)."""
from __future__ import annotations

import json
import shutil

import pytest
from playwright.sync_api import expect

from labpage import ARTIFACTS, REPO, lab_command, open_notebook

CHAPTERS = sorted(REPO.glob("notebooks/*.ipynb")) + sorted(REPO.glob("tutorials/*.ipynb"))
# The longest chapter (13, discovering an ISA) takes about 150 s on two idle cores here, and more on
# a loaded CI machine: 300 s was once not enough.
RUN_ALL_SECONDS = 600


def still_running(page) -> bool:
    return page.evaluate("""() => {
        const nb = window.jupyterapp.shell.currentWidget.content;
        return nb.widgets.some(cell => cell.model.type === 'code' && cell.model.executionState === 'running')
            || window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status !== 'idle';
    }""")


@pytest.mark.slow
@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_run_all_save_and_reopen(lab, page, chapter):
    name = f"{chapter.parent.name}-{chapter.name}"
    shutil.copy(chapter, lab[1] / name)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    open_notebook(page, lab, name)
    lab_command(page, "notebook:run-all-cells")
    page.wait_for_timeout(2_000)
    deadline = RUN_ALL_SECONDS * 1_000
    while still_running(page) and deadline > 0:
        page.wait_for_timeout(1_000)
        deadline -= 1_000
    assert deadline > 0, f"{name}: Run All did not finish in {RUN_ALL_SECONDS} s"
    expect(page.get_by_text("Error displaying widget")).to_have_count(0)
    lab_command(page, "docmanager:save")
    expect(page.locator(".jp-mod-dirty")).to_have_count(0)
    saved = json.loads((lab[1] / name).read_text())
    failed = [(i, o.get("ename"), o.get("evalue")) for i, cell in enumerate(saved["cells"])
              for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    assert failed == [], f"{name}: cells raised {failed}"
    shut_down(page)  # the reader comes back another day: a new kernel, the old widgets gone
    lab_command(page, "application:close-all")
    open_notebook(page, lab, name)
    expect(page.get_by_text("model not found")).to_have_count(0)
    (ARTIFACTS / "curriculum").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "curriculum" / f"{chapter.stem}.png"), full_page=True)
    shut_down(page)
    lab_command(page, "application:close-all")
    # JupyterLab's own debugger extension complains when the test shuts a kernel down under it.
    ours = [e for e in errors if "favicon" not in e and "debug_request" not in e]
    assert ours == [], f"{name}: console errors {ours}"


def shut_down(page) -> None:
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
