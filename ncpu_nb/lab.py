"""`ncpu-nb lab`: open the curriculum (notebooks/ and tutorials/) in JupyterLab, in the learner's own copy.

The first run copies the chapters into a workspace (`~/ncpu_nb-curriculum`, or `--dir`); later runs
open the same copy, keep every change the learner made, and add only chapters that are new to it.
So outputs and edits never land in the kit's own files (a git checkout or the installed package).
Contributors who edit the chapters themselves open the checkout with `--here`.

The workspace gets student versions of the assignments in tutorials/, never their sources: the
installed package holds student versions only, and from a checkout (which holds the sources) each is
made on copying by nbgrader's preprocessors (`ncpu_nb.coursework.student`); without nbgrader there
(the `course` extra) a checkout's assignments are left out, with a warning.

Saved notebooks reopen with the views' static HTML: a live view's output holds both the widget and a
static snapshot, and a notebook saved with the widget part shows "model not found" once the kernel that
owned the widget is gone. So the server this command starts drops the widget part of every widget output
on save (`keep_static_views`): our views keep their static HTML, others (a tqdm progress bar) their text;
the open notebook keeps its live widgets, and re-running a cell brings one back.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

from ncpu_nb.coursework import student
from ncpu_nb.resources import PACKAGE, data_dir

FOLDERS = ("notebooks", "tutorials")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
DEFAULT_WORKSPACE = Path("~/ncpu_nb-curriculum")


def checkout() -> Path:
    """The git checkout this package runs from (for `--here`)."""
    root = PACKAGE.parent
    if not ((root / "notebooks").is_dir() and (root / "pyproject.toml").is_file()):
        raise FileNotFoundError(f"--here opens a source checkout, and {root} is not one")
    return root


def _learners_copy(path: Path, copy: Path) -> bool:
    """Copies `path` to `copy`, an assignment's source as its student version; False (nothing
    written) for a source when nbgrader is missing."""
    if path.suffix == ".ipynb" and student.is_source(text := path.read_text()):
        try:
            text = student.student_version(text)
        except ImportError:
            return False
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(text)
        return True
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(path, copy)
    return True


def workspace(target: str | Path | None = None) -> tuple[Path, list[str]]:
    """The learner's copy of the curriculum (made or completed now) and the files added to it now.
    A checkout's assignment sources are left out, with a warning, when nbgrader is not installed."""
    root = Path(target or DEFAULT_WORKSPACE).expanduser().resolve()
    added, left_out = [], []
    for folder in FOLDERS:
        source = data_dir(folder)
        for path in sorted(source.rglob("*")):
            if path.is_dir() or ".ipynb_checkpoints" in path.parts:
                continue
            copy = root / folder / path.relative_to(source)
            if not copy.exists():  # never overwrite: the learner's edits and outputs live there
                (added if _learners_copy(path, copy) else left_out).append(str(copy.relative_to(root)))
    if left_out:
        warnings.warn(f"{', '.join(left_out)} left out of {root}: a student version is made with nbgrader "
                      "(pip install 'ncpu_nb[course]'), and an assignment's source is never copied", stacklevel=2)
    return root, added


def keep_static_views(model: dict, **_) -> None:
    """A Jupyter server pre-save hook: in a notebook being saved, widget outputs lose the widget reference
    that could not be shown after a reopen, and keep what else they hold (ncpu_nb's views their static
    HTML, other widgets their text). One with nothing else is left as it is."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    for cell in model["content"].get("cells", []):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            data = output.get("data", {})
            if WIDGET_VIEW in data and len(data) > 1:
                del data[WIDGET_VIEW]


SERVER_OPTIONS = [f"--ContentsManager.pre_save_hook={__name__}.keep_static_views"]


def launch(target: str | None = None, port: int | None = None, extra: list[str] | None = None,
           here: bool = False) -> int:
    if here:
        root, note = checkout(), "the checkout itself (--here): outputs you save land in its tracked notebooks"
    else:
        root, added = workspace(target)
        note = (f"your copy ({len(added)} new files copied; your own changes are kept across runs; "
                "--here opens the checkout instead)" if added else "your copy (kept as you left it)")
    cmd = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={root}",
           "--LabApp.default_url=/lab/tree/notebooks/00_tour.ipynb", *SERVER_OPTIONS]
    if port:
        cmd.append(f"--port={port}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # containers and CI machines often run as root
    cmd += [a for a in (extra or []) if a != "--"]
    print(f"Opening the ncpu_nb curriculum in {root}: {note}", file=sys.stderr)
    try:
        return subprocess.call(cmd, cwd=root)
    except KeyboardInterrupt:
        return 0
