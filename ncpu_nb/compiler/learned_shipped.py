"""Where the shipped learned compiler is (weights/learned_compiler/) and its sha256-checked file: what
`LearnedCompiler.load()` reads. Writing it is `learned_weights.py`'s (a command that trains)."""
from __future__ import annotations

import json
from pathlib import Path

NAME = "learned_compiler"


def folder(directory=None) -> Path:
    from ncpu_nb.resources import data_dir

    return Path(directory) if directory else data_dir("weights") / NAME


def manifest_entry(directory=None) -> dict:
    from ncpu_nb.errors import WeightsError

    path = folder(directory) / "manifest.json"
    if not path.is_file():
        raise WeightsError(f"{path} is missing: retrain with `python -m ncpu_nb.compiler.learned_weights`")
    return json.loads(path.read_text())["models"][NAME]


def shipped_file(directory=None) -> Path:
    """The shipped weights file, refused (WeightsError) if its sha256 is not the manifest's."""
    from ncpu_nb.errors import WeightsError
    from ncpu_nb.ncpu.neural_cells import sha256

    entry = manifest_entry(directory)
    file = folder(directory) / Path(entry["file"]).name
    if not file.is_file() or sha256(file) != entry["sha256"]:
        raise WeightsError(f"{file} is missing or does not match its sha256 in manifest.json (tampered or stale)")
    return file
