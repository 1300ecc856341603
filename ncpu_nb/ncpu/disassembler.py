"""Disassembler: 32-bit words back to canonical assembly text."""
from __future__ import annotations

from ncpu_nb.ncpu.encoding import decode


def disassemble(words, literals=(), labels: dict[int, str] | None = None) -> list[str]:
    """One line of text per word. `labels` (index -> name) names jump targets.
    Raises DecodeError on a word that is not an instruction."""
    return [decode(w, literals).text(labels) for w in words]
