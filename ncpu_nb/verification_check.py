"""One row of `ncpu-nb verify`: what was checked, over which domain, how many cases and mismatches. Apart from
verification.py (which imports torch), so that the float unit's checks (float_verification.py) make rows
without it."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Check:
    what: str
    domain: str
    cases: int  # checked in the core (for a cell: patterns checked)
    mismatches: int
    seconds: float
    torch_cases: int = 0  # of those, also checked through the torch wiring
    max_ulp: int = 0  # the float unit's rows: the largest error among mismatches, in units in the last place

    @property
    def exact(self) -> bool:
        return self.mismatches == 0
