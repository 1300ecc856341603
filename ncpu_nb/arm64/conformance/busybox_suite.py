"""`busybox_conformance()`: BusyBox 1.35.0's own testsuite against the machine, and against qemu-user as the oracle."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from ncpu_nb.arm64.conformance.report import ConformanceReport
from ncpu_nb.arm64.conformance.runner import run_suite
from ncpu_nb.arm64.conformance.targets import MACHINE, QEMU_ORACLE, qemu_path
from ncpu_nb.arm64.conformance.testsuite import QUICK, recorded_qemu_failures

SUBSETS = {"quick": QUICK, "full": None}


def busybox_conformance(subset: str = "full", *, qemu: bool = False, jobs: int | None = None,
                        keep: str | None = None, progress: bool = True, ray=None,
                        only: tuple[str, ...] | None = None) -> ConformanceReport:
    """Runs the testsuite (`subset` quick or full) on the machine and, with `qemu`, under qemu-aarch64 too.
    Without `qemu` the machine is compared with qemu's recorded failures. `keep` names a folder to leave the
    work folders and each applet's runtest log in (otherwise a temporary one, removed afterwards). `ray` (True,
    "local" or a cluster address) runs each applet as a Ray task (ncpu_nb.sweeps), with the same verdicts;
    `only` narrows the subset to those applets."""
    if subset not in SUBSETS:
        raise ValueError(f"unknown subset {subset!r}: use quick or full")
    if qemu:
        qemu_path()  # missing: say so before the machine's run, not after it
    root = Path(keep).resolve() if keep else Path(tempfile.mkdtemp(prefix="ncpu-nb-conformance-"))
    jobs = jobs or os.cpu_count() or 1
    try:
        targets = (MACHINE, QEMU_ORACLE) if qemu else (MACHINE,)
        runs = {}
        for target in targets:
            units = SUBSETS[subset] if only is None else tuple(u for u in only
                                                               if SUBSETS[subset] is None or u in SUBSETS[subset])
            runs[target.name] = run_suite(target, root, only=units, jobs=jobs, progress=progress, ray=ray)
            if runs[target.name].interrupted:
                break
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
    if "qemu" in runs:
        return ConformanceReport(runs, "qemu (this run)", set(runs["qemu"].failures))
    return ConformanceReport(runs, "qemu (recorded)", recorded_qemu_failures())


def main(args) -> int:
    """`ncpu-nb conformance busybox`: the report on stdout; status 1 when the machine has failures of its own."""
    report = busybox_conformance(args.subset, qemu=args.qemu, jobs=args.jobs, keep=args.keep,
                                 progress=not args.json, ray=args.ray, only=tuple(args.applet) or None)
    print(json.dumps(report.to_json(), indent=1) if args.json else report)
    if any(run.interrupted for run in report.runs.values()):
        return 130
    return 1 if report.machine_only else 0
