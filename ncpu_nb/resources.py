"""Where the kit's data folders are: inside the installed package, or beside it in a checkout."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """`programs`, `weights`, `notebooks` or `tutorials`: packaged copy first, then the checkout."""
    for candidate in (PACKAGE / "data" / name, PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"ncpu_nb's {name}/ folder is missing from {PACKAGE}; reinstall the package")


@lru_cache(maxsize=None)
def program_manifest() -> dict:
    """The nCPU program catalogue (programs/ncpu/manifest.json): name -> entry."""
    return json.loads((data_dir("programs") / "ncpu" / "manifest.json").read_text())


def program_source(name: str) -> str:
    """Source text of a catalogued nCPU program, e.g. program_source("fibonacci")."""
    manifest = program_manifest()
    if name not in manifest:
        raise KeyError(f"no program {name!r}; available: {', '.join(sorted(manifest))}")
    return (data_dir("programs") / "ncpu" / manifest[name]["file"]).read_text()
