"""How every `ncpu-nb bench` row is measured and what it holds: one row shape for every target.

A row times one workload N times, in turns with its reference (the machine may be shared, so neither
side gets the quiet minutes alone), and keeps for each side the wall time and the CPU time of every
run: best, median, min–max and quartiles. The CPU time is the process's own (`time.process_time`,
every thread) for work done in this process, and the child's (`os.wait4`'s rusage, its own waited-for
children included) for a subprocess. The ratio divides the same statistic on both sides, each taken
per unit of work first (so a reference run on less work still compares fairly), and the row says which
statistic. No ratio ever comes from a constant: a reference that was not measured gives no ratio.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import time
from typing import Callable

MIN_SECONDS = 0.1  # the least work one timed run may be: shorter ones are repeated within the run
STATISTICS = ("best", "median")
CLOCKS = ("cpu", "wall")
DEFAULT_STATISTIC = "median cpu"


def summary(values: list[float]) -> dict:
    """best (the minimum), median, min, max, q1, q3 of some run times (seconds)."""
    if not values:
        raise ValueError("no runs to summarise")
    ordered = sorted(values)
    if len(ordered) >= 2:
        q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    else:
        q1 = q3 = ordered[0]
    return {"best": ordered[0], "median": statistics.median(ordered), "min": ordered[0], "max": ordered[-1],
            "q1": q1, "q3": q3, "runs": [round(v, 9) for v in values]}


class Series:
    """The runs of one side of a row: wall and CPU seconds of each, and the work each run did."""

    def __init__(self, name: str, work: float = 1, unit: str = "run"):
        self.name, self.work, self.unit = name, work, unit
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.extra: dict = {}

    def add(self, wall: float, cpu: float) -> None:
        self.wall.append(wall)
        self.cpu.append(cpu)

    @property
    def runs(self) -> int:
        return len(self.wall)

    def statistic(self, which: str = DEFAULT_STATISTIC) -> float:
        """e.g. 'median cpu' or 'best wall': that figure of the runs, in seconds per run."""
        stat, clock = which.split()
        if stat not in STATISTICS or clock not in CLOCKS:
            raise ValueError(f"a statistic is one of {STATISTICS} and one of {CLOCKS}, not {which!r}")
        return summary(getattr(self, clock))[stat]

    def per_unit(self, which: str = DEFAULT_STATISTIC) -> float:
        return self.statistic(which) / self.work

    def as_json(self) -> dict:
        return {"name": self.name, "measured": True, "runs": self.runs, "work_per_run": self.work,
                "unit": self.unit, "wall_s": summary(self.wall), "cpu_s": summary(self.cpu), **self.extra}


class NotMeasured:
    """A reference that could not be run here: the row says why and gives no ratio."""

    def __init__(self, name: str, why: str):
        self.name, self.why = name, why

    def as_json(self) -> dict:
        return {"name": self.name, "measured": False, "why": self.why}


def timed_call(fn: Callable, wall_clock=time.perf_counter, cpu_clock=time.process_time):
    """(fn(), wall seconds, CPU seconds of this process: every thread)."""
    w0, c0 = wall_clock(), cpu_clock()
    result = fn()
    return result, wall_clock() - w0, cpu_clock() - c0


class ChildRun:
    """A finished subprocess: exit status, its output, wall seconds, CPU seconds (user + system of the
    child and the children it waited for)."""

    def __init__(self, returncode: int, stdout: bytes, stderr: bytes, wall: float, cpu: float):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr
        self.wall, self.cpu = wall, cpu


def repeats_for(side_once, least: float = MIN_SECONDS, most: int = 1_000_000) -> int:
    """How many repeats of a short run make one timed run of at least `least` seconds: after one
    untimed warm-up call, trial batches doubling until one takes a tenth of that, then with a margin."""
    side_once()
    batch = 1
    while True:
        _, wall, _ = timed_call(lambda: [side_once() for _ in range(batch)])
        if wall >= least / 10 or batch >= most:
            break
        batch *= 2
    return max(1, min(most, int(1.3 * least * batch / max(wall, 1e-9)) + 1))


def max_rss_kib(args: list[str], *, cwd=None, env=None) -> int | None:
    """The peak resident set of one run of a program, by `/usr/bin/time` (None where it is absent).
    Not from our own wait4: a child forked from this (large) process starts with our peak as its own."""
    import re
    import shutil

    time_program = shutil.which("time", path="/usr/bin:/bin")
    if time_program is None:
        return None
    done = run_child([time_program, "-f", "max_rss_kib=%M", *args], cwd=cwd, env=env)
    found = re.findall(rb"max_rss_kib=(\d+)", done.stderr)
    return int(found[-1]) if found else None


def run_child(args: list[str], *, cwd=None, env=None, stdin: bytes | None = None, timeout: float | None = None) -> ChildRun:
    """Run a program to its end; its resources from `os.wait4` (not a delta over every child of ours)."""
    import tempfile

    # Output through unnamed temporary files, not pipes: no reader thread's CPU time lands on ours.
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=out, stderr=err,
                                stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL)
        if stdin is not None:
            proc.stdin.write(stdin)
            proc.stdin.close()
        deadline = None if timeout is None else start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG if deadline else 0)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.001)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return ChildRun(proc.returncode, out.read(), err.read(), wall, usage.ru_utime + usage.ru_stime)


def in_turns(sides: dict[str, Callable[[], tuple[float, float]]], runs: int, warmup: bool = False) -> dict[str, list]:
    """Each side's (wall, cpu) of `runs` runs, taken in turns (A B A B …) so a busy minute on a
    shared machine falls on both; `warmup` runs each side once first, untimed."""
    if warmup:
        for side in sides.values():
            side()
    samples: dict[str, list] = {name: [] for name in sides}
    for _ in range(runs):
        for name, side in sides.items():
            samples[name].append(side())
    return samples


def ratio(ours: Series, reference, which: str = DEFAULT_STATISTIC) -> float | None:
    """Ours over the reference, time per unit of work, from `which` on both sides (None: not measured).
    Below 1: ours takes less time for the same work."""
    if not isinstance(ours, Series) or not isinstance(reference, Series) or reference.runs == 0 or ours.runs == 0:
        return None
    theirs = reference.per_unit(which)
    return ours.per_unit(which) / theirs if theirs > 0 else None


def row(label: str, measures: str, ours: Series | NotMeasured, reference=None, *, statistic: str = DEFAULT_STATISTIC,
        target: str = "", sense: str = "time", limit: float | None = None, absolute: float | None = None,
        detail: str = "", ok: bool = True) -> dict:
    """One benchmark row.

    measures   what the row measures, in words
    ours       a Series, or NotMeasured where our side could not be run here either (no runs, no verdict)
    reference  a Series (measured in the same run), NotMeasured, or None (the row has no reference)
    statistic  which figure the ratio divides, e.g. 'median cpu'
    sense      'time': ratio = our time / the reference's per unit of work (target: ratio <= limit);
               'speedup': ratio = the reference's time / ours (target: ratio >= limit)
    limit      the target on the ratio (None: no ratio target)
    absolute   the target on our own `statistic`, in seconds per run (e.g. 0.050 for a start-up)
    ok         False when the outputs differed: the target is then not met, whatever the times
    """
    r = ratio(ours, reference, statistic)
    if r is not None and sense == "speedup":
        r = 1 / r if r > 0 else None
    met = None
    if limit is not None and r is not None:
        met = ok and (r <= limit if sense == "time" else r >= limit)
    if absolute is not None and isinstance(ours, Series):
        met = (met is not False) and ok and ours.statistic(statistic) <= absolute
    runs = ours.runs if isinstance(ours, Series) else 0
    return {"label": label, "measures": measures, "runs": runs, "statistic": statistic,
            "ours": ours.as_json(), "reference": None if reference is None else reference.as_json(),
            "ratio": r, "ratio_sense": sense if reference is not None else None,
            "target": target, "met": met, "outputs_match": ok, "detail": detail}


def series_from(name: str, samples: list[tuple[float, float]], work: float = 1, unit: str = "run") -> Series:
    series = Series(name, work, unit)
    for wall, cpu in samples:
        series.add(wall, cpu)
    return series
