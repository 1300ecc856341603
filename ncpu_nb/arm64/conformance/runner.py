"""Runs the testsuite one applet at a time on several workers, each in a bindir of its own (runtest's scratch files
would collide), and reads runtest's verdicts. Ctrl-C stops every worker's processes. With `ray`, each applet is one
Ray task (ncpu_nb.sweeps) that fills a bindir of its own in a temporary folder on its worker: the same verdicts, in
the same order."""
from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from ncpu_nb.arm64.conformance.targets import MACHINE, QEMU_ORACLE, Target
from ncpu_nb.arm64.conformance.testsuite import make_bindir, units_to_run
from ncpu_nb.errors import NcpuError

# As Debian's build runs it (debian/rules): known bugs and internet tests skipped, a UTF-8 locale, the host's
# /bin/echo (dash's echo knows no -e) and the host's SHELL.
RUNTEST_ENV = {"SKIP_KNOWN_BUGS": "1", "SKIP_INTERNET_TESTS": "1", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "ECHO": "/bin/echo", "SHELL": "/bin/sh"}
VERDICT_LINE = re.compile(r"^(PASS|FAIL|SKIPPED|UNTESTED): (.*)$", re.MULTILINE)
OUTCOMES = {"PASS": "pass", "FAIL": "fail", "SKIPPED": "skip", "UNTESTED": "skip"}


@dataclass(frozen=True)
class Verdict:
    unit: str     # the applet whose tests runtest ran
    outcome: str  # pass, fail or skip
    name: str     # the test's name as runtest printed it

    @property
    def key(self) -> str:
        return f"{self.unit}: {self.name}"


@dataclass
class SuiteRun:
    """Every verdict of one target's run."""

    target: str
    verdicts: list[Verdict] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False

    def count(self, outcome: str) -> int:
        return sum(v.outcome == outcome for v in self.verdicts)

    @property
    def failures(self) -> list[str]:
        return sorted(v.key for v in self.verdicts if v.outcome == "fail")


def parse_verdicts(unit: str, output: str) -> list[Verdict]:
    return [Verdict(unit, OUTCOMES[word], name) for word, name in VERDICT_LINE.findall(output)]


class _LiveProcesses:
    """The runtest processes now running, so Ctrl-C can end each one's whole process group."""

    def __init__(self):
        self._lock, self._processes, self.stopping = threading.Lock(), set(), False

    def start(self, *args, **kwargs) -> subprocess.Popen:
        with self._lock:
            if self.stopping:
                raise KeyboardInterrupt
            process = subprocess.Popen(*args, start_new_session=True, **kwargs)
            self._processes.add(process)
            return process

    def finish(self, process: subprocess.Popen) -> None:
        with self._lock:
            self._processes.discard(process)

    def stop_all(self) -> None:
        with self._lock:
            self.stopping = True
            for process in self._processes:
                _kill_group(process)


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def list_applets(bindir: Path) -> list[str]:
    listed = subprocess.run([str(bindir / "busybox"), "--list"], capture_output=True, text=True, cwd=bindir)
    if listed.returncode != 0:
        raise NcpuError(f"{bindir / 'busybox'} --list failed: {listed.stderr.strip()}")
    return listed.stdout.split()


def _run_unit(unit: str, tests: Path, live: _LiveProcesses, timeout: float, log: Path) -> list[Verdict]:
    process = live.start(["./runtest", unit], cwd=tests, env={**os.environ, **RUNTEST_ENV},
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        output, timed_out = process.communicate(timeout=timeout)[0], False
    except subprocess.TimeoutExpired:
        _kill_group(process)
        output, timed_out = process.communicate()[0], True
    finally:
        live.finish(process)
    text = output.decode(errors="replace")
    log.write_text(text)
    verdicts = parse_verdicts(unit, text)
    if timed_out:
        verdicts.append(Verdict(unit, "fail", f"(runtest {unit} timed out after {timeout:g} s)"))
    elif not verdicts and process.returncode != 0:  # it could not run at all (see its log)
        verdicts.append(Verdict(unit, "fail", f"(runtest {unit} gave no verdict, exit status {process.returncode})"))
    return verdicts


TARGETS = {t.name: t for t in (MACHINE, QEMU_ORACLE)}


def run_unit_task(item: tuple[str, str, float]) -> tuple[list[Verdict], str]:
    """One applet's tests against a target, in a bindir of its own under a temporary folder (a Ray task:
    the item is (target name, applet, timeout)); its verdicts and runtest's log."""
    import shutil
    import tempfile

    name, unit, timeout = item
    folder = Path(tempfile.mkdtemp(prefix=f"ncpu-nb-conformance-{unit}-"))
    try:
        tests = make_bindir(folder / "job", TARGETS[name].wrapper(folder))
        log = folder / "runtest.log"
        verdicts = _run_unit(unit, tests, _LiveProcesses(), timeout, log)
        return verdicts, log.read_text()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _run_on_ray(target: Target, home: Path, units: list[str], unit_timeout: float, progress: bool,
                ray) -> SuiteRun:
    from ncpu_nb.sweeps import sweep

    run, start = SuiteRun(target.name), time.perf_counter()

    def report(index: int, result) -> None:
        for v in result[0]:
            if v.outcome == "fail":
                print(f"FAIL ({target.name}) {v.key}", file=sys.stderr)

    results = sweep(run_unit_task, [(target.name, unit, unit_timeout) for unit in units], ray=ray,
                    desc=f"busybox testsuite on {target.name} (Ray)", progress=progress,
                    on_result=report if progress else None)
    for unit, (verdicts, log) in zip(units, results):
        (home / "logs" / f"{unit}.log").write_text(log)
        run.verdicts += verdicts
    run.seconds = time.perf_counter() - start
    return run


def run_suite(target: Target, root: Path, *, only: tuple[str, ...] | None = None, jobs: int = 2,
              unit_timeout: float = 900.0, progress: bool = True, ray=None) -> SuiteRun:
    """Runs runtest for every applet that has tests (or those in `only`) against `target`, with `jobs` workers
    under `root`/TARGET (logs in `root`/TARGET/logs); with `ray` (True, "local" or a cluster address), one Ray
    task per applet instead of `jobs` threads here."""
    from tqdm.auto import tqdm

    home = root / target.name
    (home / "logs").mkdir(parents=True, exist_ok=True)
    if ray is not None and ray is not False:
        folder = home / "list"
        make_bindir(folder, target.wrapper(folder))
        units = units_to_run(list_applets(folder))
        if only is not None:
            units = [u for u in units if u in only]
        return _run_on_ray(target, home, units, unit_timeout, progress, ray)
    folders = [home / f"job{i}" for i in range(max(1, jobs))]
    free = queue.Queue()
    for folder in folders:
        free.put(make_bindir(folder, target.wrapper(folder)))
    units = units_to_run(list_applets(folders[0]))
    if only is not None:
        units = [u for u in units if u in only]

    live, run, start = _LiveProcesses(), SuiteRun(target.name), time.perf_counter()

    def work(unit: str) -> list[Verdict]:
        tests = free.get()
        try:
            return _run_unit(unit, tests, live, unit_timeout, home / "logs" / f"{unit}.log")
        finally:
            free.put(tests)

    bar = tqdm(total=len(units), desc=f"busybox testsuite on {target.name}", unit="applet", file=sys.stderr,
               disable=not progress)
    pool = ThreadPoolExecutor(max_workers=len(folders))
    try:
        for done in as_completed([pool.submit(work, unit) for unit in units]):
            verdicts = done.result()
            run.verdicts += verdicts
            for v in verdicts:
                if v.outcome == "fail":
                    bar.write(f"FAIL ({target.name}) {v.key}", file=sys.stderr)
            bar.update()
            bar.set_postfix(passed=run.count("pass"), failed=run.count("fail"))
    except KeyboardInterrupt:
        run.interrupted = True
        live.stop_all()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        bar.close()
    run.seconds = time.perf_counter() - start
    run.verdicts.sort(key=lambda v: v.unit)  # runtest's order, whichever worker finished first
    return run
