"""Running with the trace off, then rebuilding the trace of the last steps.

Keeping a trace costs a run most of its speed (the engine compares the registers after every
instruction), while the debugger only shows the last few steps. So a run goes untraced and takes a
snapshot as each chunk starts; when it stops, the trace is rebuilt by deterministic re-execution:
restore the newest snapshot at least `depth` instructions before the stop, run untraced up to the
last `depth` instructions and traced through them, then return to the exact state the run stopped in
(breakpoint and watchpoint resumption included), keeping the rebuilt trace.

It uses the protocol's `trace_depth` and `restore_keeping_trace(snapshot)`; a machine whose trace is
off runs as it is.
"""
from __future__ import annotations


class UntracedRun:
    """Turns the trace off for a run (`chunk` before each chunk, `finish` when it stops)."""

    def __init__(self, machine):
        self._machine, self.depth = machine, machine.trace_depth
        # Taken with the trace on: a run shorter than `depth` shows the steps before it too.
        self._starts = [(machine.cycles, machine.snapshot())]
        machine.trace_depth = 0

    def chunk(self) -> None:
        """A chunk starts: keep its snapshot, and the older ones only while they are within `depth`."""
        m = self._machine
        now = m.cycles
        if now > self._starts[-1][0]:
            self._starts.append((now, m.snapshot()))
        while len(self._starts) > 1 and self._starts[1][0] <= now - self.depth:
            self._starts.pop(0)

    def finish(self) -> None:
        """Trace back on, holding the last `depth` steps of the run; the machine as the run left it."""
        m = self._machine
        end, target = m.snapshot(), m.cycles
        traced_from = target - self.depth
        cycles, start = next((s for s in reversed(self._starts) if s[0] <= traced_from), self._starts[0])
        rebuilt = False
        try:
            m.trace_depth = self.depth
            m.restore(start)
            if traced_from > cycles:
                m.trace_depth = 0
                self._advance(traced_from)
                m.trace_depth = self.depth
            rebuilt = self._advance(target)
        finally:
            m.trace_depth = self.depth
            if rebuilt:
                m.restore_keeping_trace(end)
            else:  # re-execution went elsewhere (it should not): the exact state, with no trace
                m.trace_depth = 0
                m.restore(end)
                m.trace_depth = self.depth

    def _advance(self, to: int) -> bool:
        """Step to cycle `to` (breakpoints do not stop a step; a watchpoint may, once)."""
        m = self._machine
        while m.cycles < to:
            if m.step(to - m.cycles) == 0:
                break
        return m.cycles == to
