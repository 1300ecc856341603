"""Stepping back: checkpoints (snapshots at known cycle counts) and deterministic re-execution.

Going back to cycle t restores the newest checkpoint at or before t and steps forward to t, so
any distance back costs one restore plus at most the gap between two checkpoints. Checkpoints are
taken wherever the debugger stops and every quarter second during a run; past `limit`, the
older ones (all but the first and the newest half) are thinned to every other one, so memory stays
bounded and recent history stays dense.

Edits (a register or memory typed into the debugger) are part of history: each is kept with the
cycle it was made at and made again when re-execution passes that cycle; going back before it
undoes it (and forgets it: what comes after is executed afresh).
"""
from __future__ import annotations

from collections.abc import Callable

from ncpu_nb.protocol import MachineProtocol


class History:
    def __init__(self, machine: MachineProtocol, limit: int = 128):
        self._machine, self._limit = machine, limit
        self._points: list[tuple[int, object]] = []
        self._edits: list[tuple[int, Callable[[], None]]] = []
        self.restart()

    def restart(self) -> None:
        """Forget everything; the machine's present state is the earliest one reachable."""
        self._points = [(self._machine.cycles, self._machine.snapshot())]
        self._edits = []

    @property
    def oldest(self) -> int:
        return self._points[0][0]

    def __len__(self) -> int:
        return len(self._points)

    def record(self) -> None:
        cycles = self._machine.cycles
        if cycles <= self._points[-1][0]:
            return
        self._points.append((cycles, self._machine.snapshot()))
        if len(self._points) > self._limit:  # keep the first and the newest half; halve the rest
            recent = max(1, self._limit // 2)
            self._points = self._points[:1] + self._points[1:-recent][1::2] + self._points[-recent:]

    def edit(self, change: Callable[[], None]) -> None:
        """Make `change` to the machine now, as a step of its history. The state after it becomes the
        checkpoint of this cycle (going back to this cycle lands after the edit)."""
        cycles = self._machine.cycles
        change()
        self._edits.append((cycles, change))
        point = (cycles, self._machine.snapshot())
        if self._points[-1][0] == cycles:
            self._points[-1] = point
        else:
            self._points.append(point)

    def back(self, n: int) -> int:
        """Return the machine to `n` cycles ago (not before `oldest`); returns the cycle reached."""
        target = max(self.oldest, self._machine.cycles - max(0, n))
        while self._points[-1][0] > target:
            self._points.pop()
        self._edits = [(at, change) for at, change in self._edits if at <= target]
        cycles, snapshot = self._points[-1]
        self._machine.restore(snapshot)
        for at, change in self._edits:
            if at > cycles:  # made after this checkpoint: make it again on the way
                self._forward(at)
                change()
        self._forward(target)
        return self._machine.cycles

    def _forward(self, target: int) -> None:
        """Re-execute up to cycle `target` (a watchpoint stops a step before its access: go on over it)."""
        m = self._machine
        while m.cycles < target and m.step(target - m.cycles):
            pass
