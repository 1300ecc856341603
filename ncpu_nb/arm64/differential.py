"""The differential suites: the machine's runs of BusyBox and the C test programs against what qemu-user
printed for the same runs (programs/arm64/busybox/expected, programs/arm64/c/expected), case by case.

    report = differential_suite("busybox")             # the 178 runs of busybox/cases.json, here
    report = differential_suite("all", ray=True)       # every case as a Ray task (ncpu_nb.sweeps)
    report.verdicts, report.failures                   # the same verdicts either way, in the cases' order

A case passes when its stdout is qemu's byte for byte, its exit status is qemu's and the machine met no
system call it does not know. `tests/test_linux_machine.py` checks the same cases one test each.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from html import escape

from ncpu_nb import html
from ncpu_nb.resources import data_dir

SUITES = ("busybox", "c", "all")
CHUNK = 20_000_000
LIMIT = 3_000_000_000  # instructions: a run past this fails as a hang
# The C programs' runs of programs/arm64/c/expected/RUNS.md that need no stdin or files: (argv, env).
C_RUNS = {
    "hello": ([], []),
    "argv_env": (["one", "two words", "", "last"], ["ARM64_TEST_VAR=hello_world", "ARM64_TEST_EMPTY=", "LANG=C"]),
    "file_io": ([], []),
    "fork_pipe_wait": ([], []),
    "signals": ([], []),
    "float_math": ([], []),
    "threads": ([], []),
    "gradebook": (["90", "120", "50", "100", "100", "100", "100", "100", "30"], []),
}


@dataclass(frozen=True)
class CaseVerdict:
    suite: str         # busybox or c
    name: str
    passed: bool
    stop: str          # how the run ended: exited, or what stopped it
    status: int | None
    expected_status: int
    same_stdout: bool
    unknown_syscalls: int
    instructions: int

    @property
    def key(self) -> str:
        return f"{self.suite}: {self.name}"


def cases(suite: str = "all", names=None) -> list[tuple[str, str]]:
    """(suite, case name) for every case of `suite` (busybox, c or all), those in `names` alone if given."""
    if suite not in SUITES:
        raise ValueError(f"unknown suite {suite!r}: use busybox, c or all")
    found = []
    if suite in ("busybox", "all"):
        listed = json.loads((data_dir("programs") / "arm64" / "busybox" / "cases.json").read_text())
        found += [("busybox", c["name"]) for c in listed]
    if suite in ("c", "all"):
        found += [("c", name) for name in C_RUNS]
    if names is not None:
        wanted = set(names)
        unknown = wanted - {name for _, name in found}
        if unknown:
            raise ValueError(f"no such case in the {suite} suite: {', '.join(sorted(unknown))}")
        found = [(s, n) for s, n in found if n in wanted]
    return found


def run_case(item: tuple[str, str]) -> CaseVerdict:
    """Runs one case on the machine and compares it with qemu's recorded run (a sweep's task)."""
    from ncpu_nb import _metal

    suite, name = item
    arm64 = data_dir("programs") / "arm64"
    if suite == "busybox":
        case = next(c for c in json.loads((arm64 / "busybox" / "cases.json").read_text()) if c["name"] == name)
        machine = _metal.LinuxMachine((arm64 / "busybox" / "busybox").read_bytes(), ["busybox", *case["argv"]],
                                      ["PATH=/bin:/usr/bin"], stdin=case.get("stdin", "").encode())
        expected = arm64 / "busybox" / "expected" / name
    else:
        argv, env = C_RUNS[name]
        machine = _metal.LinuxMachine((arm64 / "c" / "bin" / name).read_bytes(), [f"bin/{name}", *argv], env,
                                      exe_path=f"/bin/{name}")
        expected = arm64 / "c" / "expected" / name
    while True:
        stop = machine.run(CHUNK)
        if stop[0] != "budget" or machine.instructions > LIMIT:
            break
    want_status = int(expected.with_suffix(".status").read_text())
    status = machine.exit_status if stop[0] == "exited" else None
    same = machine.take_stdout() == expected.with_suffix(".out").read_bytes()
    unknown = len(machine.unknown_syscalls())
    return CaseVerdict(suite, name, stop[0] == "exited" and same and status == want_status and not unknown,
                       str(stop[0]), status, want_status, same, unknown, int(machine.instructions))


@dataclass
class DifferentialReport:
    verdicts: list[CaseVerdict]
    seconds: float

    @property
    def failures(self) -> list[str]:
        return [v.key for v in self.verdicts if not v.passed]

    @property
    def passed(self) -> int:
        return sum(v.passed for v in self.verdicts)

    def __str__(self) -> str:
        lines = [f"{self.passed}/{len(self.verdicts)} cases give qemu's output and status ({self.seconds:.1f} s)"]
        for v in self.verdicts:
            if not v.passed:
                lines.append(f"  FAIL {v.key}: stop {v.stop}, status {v.status} (qemu {v.expected_status}), "
                             f"stdout {'same' if v.same_stdout else 'differs'}, {v.unknown_syscalls} unknown syscalls")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"passed": self.passed, "cases": len(self.verdicts), "seconds": round(self.seconds, 1),
                "failures": self.failures, "verdicts": [asdict(v) for v in self.verdicts]}

    def rows(self) -> list[dict]:
        """One dict per case (for a DataFrame)."""
        return [{**asdict(v)} for v in self.verdicts]

    def _repr_html_(self) -> str:
        rows = [[escape(v.suite), escape(v.name), "pass" if v.passed else "FAIL", f"{v.instructions:,}"]
                for v in self.verdicts]
        return html.view(f"differential suite: {self.passed}/{len(self.verdicts)} as qemu ({self.seconds:.1f} s)",
                         html.table(["suite", "case", "verdict", "instructions"], rows, numeric=(3,)))


def differential_suite(suite: str = "all", names=None, *, ray=None, progress: bool = True) -> DifferentialReport:
    """Every case of `suite` (busybox, c or all; `names` for some of them) on the machine against qemu's recorded
    runs: here one after another, or with `ray` (True, "local" or a cluster address) one Ray task per case."""
    import time

    from ncpu_nb.sweeps import sweep

    items = cases(suite, names)
    start = time.perf_counter()
    verdicts = sweep(run_case, items, ray=ray, desc=f"{suite} differential suite", progress=progress)
    return DifferentialReport(verdicts, time.perf_counter() - start)


def main(args) -> int:
    """`ncpu-nb differential`: the report on stdout; status 1 when a case differs from qemu."""
    report = differential_suite(args.suite, args.case or None, ray=args.ray, progress=not args.json)
    print(json.dumps(report.to_json(), indent=1) if args.json else report)
    return 1 if report.failures else 0
