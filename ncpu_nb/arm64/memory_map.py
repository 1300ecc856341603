"""The mapped regions of a process (like /proc/PID/maps), each with an entropy strip.

Entropy (bits per byte, 0-8) tells what a region holds at a glance: zeros and sparse tables near 0,
code and text around 4-6, compressed or encrypted data and random keys near 8. Each region is cut into
`CELLS` cells and the first `SAMPLE` bytes of each cell are measured.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ncpu_nb import html

CELLS = 48
SAMPLE = 4096  # bytes read from the start of each cell


class Region(NamedTuple):
    start: int
    end: int
    perms: str


def entropy(data: bytes) -> float:
    """Shannon entropy of `data` in bits per byte (0 for empty data)."""
    if not data:
        return 0.0
    counts = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    p = counts[counts > 0] / len(data)
    return max(0.0, float(-(p * np.log2(p)).sum()))


class MemoryMap(tuple):
    """The mapped regions of the current process, lowest first; `entropy(region)` measures one."""

    def __new__(cls, regions, read: Callable[[int, int], bytes] | None = None):
        self = super().__new__(cls, regions)
        self._read = read
        return self

    def entropy(self, region: Region, cells: int = CELLS) -> list[float]:
        """Bits per byte of each of `cells` equal cells of the region (its first SAMPLE bytes each)."""
        if self._read is None:
            raise ValueError("this memory map has no machine to read from")
        size = region.end - region.start
        cells = max(1, min(cells, size // 16))
        out = []
        for i in range(cells):
            start = region.start + size * i // cells
            n = min(SAMPLE, region.start + size * (i + 1) // cells - start)
            try:
                out.append(entropy(self._read(start, n)))
            except Exception:  # noqa: BLE001 - a page that cannot be read (guard, not yet touched)
                out.append(float("nan"))
        return out

    def _strip(self, region: Region) -> str:
        cells = self.entropy(region)
        width = max(1, 192 // len(cells))

        def colour(bits: float) -> str:
            if bits != bits:  # unreadable
                return "#ccc"
            return f"hsl({240 - 240 * bits / 8:.0f},70%,{92 - 45 * bits / 8:.0f}%)"

        return (f"<svg width='{width * len(cells)}' height='12'>" + "".join(
            f"<rect x='{i * width}' width='{width}' height='12' fill='{colour(b)}'><title>{b:.2f} bits/byte"
            f"</title></rect>" for i, b in enumerate(cells)) + "</svg>")

    def _repr_html_(self) -> str:
        rows = [[f"0x{r.start:012x}", f"0x{r.end:012x}", f"{(r.end - r.start) // 1024:,} KiB", r.perms]
                + ([self._strip(r)] if self._read is not None else []) for r in self]
        headers = ["start", "end", "size", "perms"] + (["entropy (0 → 8 bits/byte)"] if self._read else [])
        return html.view(f"Memory map: {len(self)} regions", html.table(headers, rows, numeric=(2,)))
