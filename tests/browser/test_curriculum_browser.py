"""Chapters and tutorials as a learner meets them: opened in JupyterLab, Run All, saved, closed and
reopened. Fails on any error output, "Error displaying widget", or browser console error; the reopened
chapter is screenshotted to tests/artifacts/curriculum/ (to be looked at).

What only a browser sees is the live views: a widget that fails to render, or a widget reference
saved where no kernel owns it any more. So the test suite runs the chapters that show live views
(LIVE) here, and checks that each of them still shows one; nbmake runs the others (each chapter is
executed once: nbmake leaves out what the browser runs, tests/conftest.py).
`pytest tests/browser/test_curriculum_browser.py --all-chapters` runs every chapter and tutorial
(about 45 minutes here) and checks that none outside LIVE shows a live view either."""
from __future__ import annotations

import json
import shutil
import urllib.request

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from labpage import ARTIFACTS, REPO, TOKEN, lab_command, open_notebook

CHAPTERS = sorted(REPO.glob("notebooks/*.ipynb")) + sorted(REPO.glob("tutorials/*.ipynb"))
# Chapters with a live view (a debugger, a terminal, a widget progress bar), as folder/stem.
LIVE = {
    "notebooks/02_the_neural_alu", "notebooks/03_neural_vs_fast", "notebooks/05_stepping_the_ncpu",
    "notebooks/08_synthesis_by_gradient_descent", "notebooks/09_programs_from_examples", "notebooks/10_gradient_flow",
    "notebooks/11_differentiable_memory", "notebooks/12_self_modifying_code", "notebooks/23_debugging_arm64",
    "notebooks/26_busybox_terminal", "notebooks/27_sweeps_on_ray", "notebooks/28_forth_on_two_instructions",
    "notebooks/29_a_gallery_of_programs",
}
# The longest chapter (13, discovering an ISA) takes about 130 s on an idle core.
RUN_ALL_SECONDS = 600


def pytest_generate_tests(metafunc):
    if "chapter" in metafunc.fixturenames:
        every = metafunc.config.getoption("--all-chapters")
        chosen = [c for c in CHAPTERS if every or key(c) in LIVE]
        # The chapter is executed here, so nbmake leaves it out (tests/conftest.py); without chromium it does not.
        browser = shutil.which("chromium") or shutil.which("chromium-browser")
        metafunc.parametrize("chapter", [pytest.param(c, marks=[pytest.mark.executes(c)] if browser else [])
                                         for c in chosen], ids=lambda p: p.stem)


def key(chapter) -> str:
    return f"{chapter.parent.name}/{chapter.stem}"


# Every code cell with code has run, or one has failed, and the kernel is idle. A running cell alone would not
# do: on a loaded machine the kernel can be idle, with no cell marked running, between two cells of Run All.
# (The chapters are kept without outputs, so no cell has a count before this run gives it one.)
RUN_ALL_FINISHED = """() => {
    const cells = window.jupyterapp.shell.currentWidget.content.widgets
        .filter(cell => cell.model.type === 'code' && cell.model.sharedModel.getSource().trim() !== '');
    const outputs = cell => Array.from({length: cell.model.outputs.length}, (_, i) => cell.model.outputs.get(i));
    const failed = cells.some(cell => outputs(cell).some(output => output.type === 'error'));
    return !cells.some(cell => cell.model.executionState === 'running')
        && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'
        && (failed || cells.every(cell => cell.model.executionCount !== null));
}"""


def shows_live_views(page) -> bool:
    return page.evaluate("""() => window.jupyterapp.shell.currentWidget.content.widgets.some(cell =>
        cell.model.type === 'code' && Array.from({length: cell.model.outputs.length}, (_, i) => cell.model.outputs.get(i))
            .some(output => 'application/vnd.jupyter.widget-view+json' in output.data))""")


@pytest.mark.slow
def test_run_all_save_and_reopen(lab, page, chapter):
    name = f"{chapter.parent.name}-{chapter.name}"
    shutil.copy(chapter, lab[1] / name)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        open_notebook(page, lab, name)
        lab_command(page, "notebook:run-all-cells")
        try:
            page.wait_for_function(RUN_ALL_FINISHED, timeout=RUN_ALL_SECONDS * 1_000, polling=500)
        except PlaywrightTimeout:
            pytest.fail(f"{name}: Run All did not finish in {RUN_ALL_SECONDS} s")
        expect(page.get_by_text("Error displaying widget")).to_have_count(0)
        live = shows_live_views(page)  # before saving: the save drops widget references
        lab_command(page, "docmanager:save")
        expect(page.locator(".jp-mod-dirty")).to_have_count(0)
        saved = json.loads((lab[1] / name).read_text())
        failed = [(i, o.get("ename"), o.get("evalue")) for i, cell in enumerate(saved["cells"])
                  for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        assert failed == [], f"{name}: cells raised {failed}"
        assert live == (key(chapter) in LIVE), (
            f"{name}: {'shows' if live else 'shows no'} live view; LIVE in this file must say so")
        shut_down(lab, name)  # the reader comes back another day: a new kernel, the old widgets gone
        lab_command(page, "application:close-all")
        open_notebook(page, lab, name)
        expect(page.get_by_text("model not found")).to_have_count(0)
        (ARTIFACTS / "curriculum").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "curriculum" / f"{chapter.stem}.png"), full_page=True)
    finally:
        # Also after a failure: a kernel left busy would slow every test after it.
        shut_down(lab, name)
        lab_command(page, "application:close-all")
    # JupyterLab's own debugger extension complains when the test shuts a kernel down under it.
    ours = [e for e in errors if "favicon" not in e and "debug_request" not in e]
    assert ours == [], f"{name}: console errors {ours}"


def shut_down(lab, name: str) -> None:
    """Ends the sessions (and kernels) of notebook `name` through the server's REST API."""
    url, _ = lab
    with urllib.request.urlopen(f"{url}/api/sessions?token={TOKEN}") as reply:
        sessions = json.load(reply)
    for session in sessions:
        if session["path"] == name:
            urllib.request.urlopen(urllib.request.Request(
                f"{url}/api/sessions/{session['id']}?token={TOKEN}", method="DELETE")).close()
