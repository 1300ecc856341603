"""The text machine: string transforms and ciphers found from examples, as nCPU programs that loop
over bytes in memory.

    tm = ncpu_nb.text.TextMachine([("hello", "khoor")])
    tm.synthesize()          # a Caesar shift of 3 with wrap-around, verified on the exact CPU
    tm.apply("world")        # 'zruog', computed by the nCPU

One concern per file: `transforms` is the DSL (the Python reference of every transform, over the
classes of `char_classes`), `transform_search` finds the transforms that fit examples, `assembly`
writes them as nCPU programs over the buffers of `memory_layout`, `execute` runs them on the CPU,
`synthesize` verifies and ranks, `text_machine` keeps a session, `text_repl` and `text_widget` are its
faces, `suite` runs the benchmark of programs/synth/text.
"""
from __future__ import annotations

import importlib

_LAZY = {"TextMachine": "text_machine", "TextSynthesizer": "synthesize", "TextResult": "synthesize",
         "Pipeline": "transforms", "Transform": "transforms"}
__all__ = list(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(f"ncpu_nb.text.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'ncpu_nb.text' has no attribute {name!r}")
