"""Debugging tools that need a deterministic, replayable machine: run diffs (more to come)."""
from ncpu_nb.debugging.run_diff import Divergence, Rejoin, RunDiff, diff_runs

__all__ = ["diff_runs", "RunDiff", "Divergence", "Rejoin"]
