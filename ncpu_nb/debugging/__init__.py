"""Debugging tools that need a deterministic, replayable machine: run diffs, the constant-time check,
where a value came from, the memory sanitizer, the fuzzer and the profiler."""
from ncpu_nb.debugging.constant_time import ConstantTimeReport, Leak, constant_time
from ncpu_nb.debugging.fuzzer import FuzzReport, Fuzzer, fuzz
from ncpu_nb.debugging.origin import Origin, origin
from ncpu_nb.debugging.profiler import Profile, profile
from ncpu_nb.debugging.run_diff import Divergence, Rejoin, RunDiff, diff_runs
from ncpu_nb.debugging.sanitizer import Finding, SanitizerReport, sanitize

__all__ = ["diff_runs", "RunDiff", "Divergence", "Rejoin", "constant_time", "ConstantTimeReport", "Leak", "origin",
           "Origin", "sanitize", "SanitizerReport", "Finding", "fuzz", "Fuzzer", "FuzzReport",
           "profile", "Profile"]
