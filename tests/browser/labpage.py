"""Helpers for the real-browser tests: the system chromium, opening notebooks, JupyterLab commands,
screenshots."""
from __future__ import annotations

import os
import shutil
import socket
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TOKEN = uuid.uuid4().hex


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        message = "chromium is not installed (Debian: apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def open_notebook(page, lab, name: str):
    """Opens `name` (in the lab's root) in a fresh workspace and waits for an idle kernel."""
    from playwright.sync_api import expect

    url, _ = lab
    page.goto(f"{url}/lab/workspaces/{uuid.uuid4().hex[:8]}/tree/{name}?reset&token={TOKEN}")
    expect(page.locator(".jp-StatusBar-TextItem", has_text="| Idle").first).to_be_visible(timeout=60_000)


def run_notebook(page, lab, name: str, cells: list[str]) -> None:
    """Writes `cells` as notebook `name` in the lab's folder, opens it and runs every cell."""
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nbformat.write(nb, lab[1] / name)
    open_notebook(page, lab, name)
    lab_command(page, "notebook:run-all-cells")


def lab_command(page, command: str, args: dict | None = None):
    """Starts a JupyterLab command (returns before it finishes: running cells may take long)."""
    page.evaluate("([c, a]) => { window.jupyterapp.commands.execute(c, a); }", [command, args or {}])


def set_theme(page, theme: str) -> None:
    """'JupyterLab Light' or 'JupyterLab Dark'; waits until the page wears it."""
    from playwright.sync_api import expect

    lab_command(page, "apputils:change-theme", {"theme": theme})
    light = "true" if "Light" in theme else "false"
    expect(page.locator(f"body[data-jp-theme-light='{light}']")).to_have_count(1)
    # Two animation frames: the page has painted in the new colours before a screenshot.
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def screenshot(page, locator, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    locator.screenshot(path=str(path))
    return path


def click(view, action: str) -> None:
    """Clicks a debugger toolbar button by its action (step, step-over, run, back, ...)."""
    view.locator(f".ncpu-toolbar [data-action='{action}']").click()
