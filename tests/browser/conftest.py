"""Real-browser fixtures: JupyterLab on a free loopback port with its own config, settings and
workspaces, and the system chromium driven by Playwright (never a downloaded browser).

Without chromium the tests skip on a developer's machine and fail in CI (env CI set)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request

import pytest
from labpage import CHROMIUM_FLAGS, REPO, TOKEN, chromium_path, free_port

from ncpu_nb.lab import SERVER_OPTIONS  # as `ncpu-nb lab` starts it


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """A JupyterLab server: (base url, root folder for notebooks)."""
    chromium_path()
    home = tmp_path_factory.mktemp("lab")
    root, settings = home / "root", home / "settings"
    root.mkdir()
    # No news or update checks: nothing may reach the network, and no pop-up may cover the page.
    notification = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notification.parent.mkdir(parents=True)
    notification.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    port = free_port()
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={TOKEN}", "--ServerApp.port_retries=0",
         f"--LabApp.user_settings_dir={settings}", f"--LabApp.workspaces_dir={home / 'workspaces'}",
         "--LabApp.expose_app_in_browser=True", "--ServerApp.disable_check_xsrf=False", *SERVER_OPTIONS]
        + (["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []),
        env=env, stdout=subprocess.DEVNULL, stderr=(home / "server.log").open("w"))
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=2)
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail("JupyterLab did not start:\n" + (home / "server.log").read_text()[-3000:])
            time.sleep(0.25)
    yield url, root
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()

@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()

@pytest.fixture(scope="module")
def page(browser):
    """One page per test module (JupyterLab takes seconds to load): tests in a module share it."""
    from playwright.sync_api import expect

    expect.set_options(timeout=30_000)  # JupyterLab starts slowly on two cores
    context = browser.new_context(viewport={"width": 1400, "height": 1600})
    page = context.new_page()
    page.route(re.compile(r"^https?://(?!(127\.0\.0\.1|localhost)[:/])"), lambda route: route.abort())
    yield page
    context.close()
