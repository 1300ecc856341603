"""`ncpu-nb lab`: open the curriculum (notebooks/ and tutorials/) in JupyterLab."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from ncpu_nb.resources import PACKAGE, data_dir


def curriculum_root(target: str | None) -> Path:
    """The folder JupyterLab opens: the checkout itself, or a fresh copy for an installed package
    (never the installed files, which notebooks would write into)."""
    checkout = PACKAGE.parent
    if target is None and (checkout / "notebooks").is_dir() and (checkout / "pyproject.toml").is_file():
        return checkout
    root = Path(target or "ncpu_nb_curriculum").resolve()
    for name in ("notebooks", "tutorials"):
        if not (root / name).exists():
            shutil.copytree(data_dir(name), root / name)
    return root


def launch(target: str | None = None, port: int | None = None, extra: list[str] | None = None) -> int:
    root = curriculum_root(target)
    cmd = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={root}",
           "--LabApp.default_url=/lab/tree/notebooks/00_tour.ipynb"]
    if port:
        cmd.append(f"--port={port}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # containers and CI machines often run as root
    cmd += [a for a in (extra or []) if a != "--"]
    print(f"Opening the ncpu_nb curriculum in {root}", file=sys.stderr)
    try:
        return subprocess.call(cmd, cwd=root)
    except KeyboardInterrupt:
        return 0
