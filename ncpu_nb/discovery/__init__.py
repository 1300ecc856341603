"""Programs from examples: `Discovery` (the logic), presets, example parsing; the notebook widget is
`ncpu_nb.discover()` (ncpu_nb.views.discover) and the terminal REPL `ncpu-nb discover` (shell).

The names load on first use, so the command line can list the presets without numpy or torch."""
from __future__ import annotations

import importlib

_LAZY = {"Discovery": "discovery", "DiscoveryError": "discovery", "Summary": "discovery",
         "ExampleError": "examples", "parse_example": "examples", "PRESETS": "presets"}

__all__ = list(_LAZY)


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'ncpu_nb.discovery' has no attribute {name!r}")
    return getattr(importlib.import_module(f"ncpu_nb.discovery.{_LAZY[name]}"), name)
