"""The machine's checking commands of `ncpu-nb`: sanitize (the memory sanitizer), conformance (BusyBox's own
testsuite), differential (the recorded qemu runs, case by case) and fuzz (a fuzzing campaign over seeds);
the last three fan out as Ray tasks with --ray. `ncpu_nb.cli` builds the command line from `fill_*`.
"""
from __future__ import annotations

import os
import sys

from ncpu_nb.cli_options import MAX_STDIN_FILE, add_ray_option, passed_through, ray_for, user_file


def cmd_conformance(args) -> int:
    from ncpu_nb.arm64.conformance.busybox_suite import main as busybox_conformance

    with ray_for(args):
        return busybox_conformance(args)


def cmd_sanitize(args) -> int:
    """A program under the memory sanitizer (its output, then the report), or every BusyBox case."""
    from ncpu_nb.arm64.machine import Arm64Machine
    from ncpu_nb.debugging.sanitizer import sanitize

    if args.busybox_cases:
        return _sanitize_busybox_cases()
    if args.elf is None:
        print("ncpu-nb sanitize: name a program (or --busybox-cases)", file=sys.stderr)
        return 2
    guest = passed_through(args.args)
    if args.stdin is None:
        stdin = None
    elif args.stdin == "-":
        stdin = sys.stdin.buffer.read()
    else:
        with open(user_file(args.stdin, MAX_STDIN_FILE), "rb") as file:
            stdin = file.read()
    if args.elf == "busybox" and not os.path.exists(args.elf):
        machine = Arm64Machine.busybox(*guest, stdin=stdin)
    else:
        machine = Arm64Machine.from_elf(args.elf, [os.path.basename(args.elf), *guest], stdin=stdin)
    report = sanitize(machine)
    sys.stdout.buffer.write(machine.stdout_bytes)
    sys.stdout.flush()
    sys.stderr.buffer.write(machine.stderr_bytes)
    print("\n".join(report.summary()), file=sys.stderr)
    for finding in report.findings:
        print(f"\n{finding.kind} at step {finding.step:,}:", *finding.backtrace, sep="\n    ", file=sys.stderr)
    return 1 if report.findings else (machine.exit_status or 0)


def _sanitize_busybox_cases() -> int:
    """Every run of programs/arm64/busybox/cases.json under the sanitizer: no finding, qemu's output."""
    import json
    import time

    from ncpu_nb.arm64.machine import Arm64Machine
    from ncpu_nb.debugging.sanitizer import sanitize
    from ncpu_nb.resources import data_dir

    folder = data_dir("programs") / "arm64" / "busybox"
    cases = json.loads((folder / "cases.json").read_text())
    start, steps, bad = time.perf_counter(), 0, 0
    for case in cases:
        machine = Arm64Machine.busybox(*case["argv"], stdin=case.get("stdin"), env=["PATH=/bin:/usr/bin"])
        report = sanitize(machine, max_steps=3_000_000_000)
        steps += report.steps
        same = machine.stdout_bytes == (folder / "expected" / f"{case['name']}.out").read_bytes()
        if report.findings or not same:
            bad += 1
            print(f"{case['name']}: {'output differs from qemu; ' if not same else ''}{report}")
    print(f"{len(cases)} BusyBox cases, {steps:,} instructions under the sanitizer in "
          f"{time.perf_counter() - start:.0f} s: {bad} with a finding or an output other than qemu's")
    return 1 if bad else 0


def fill_sanitize(p) -> None:
    import argparse

    p.add_argument("--busybox-cases", action="store_true",
                   help="run every BusyBox case of programs/arm64/busybox/cases.json under the sanitizer instead")
    p.add_argument("--stdin", metavar="FILE", help="the guest's standard input, read whole first ('-': ours)")
    p.add_argument("elf", nargs="?", help="the executable (a host file; 'busybox': the bundled BusyBox)")
    p.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="its arguments")
    p.set_defaults(func=cmd_sanitize)


def fill_conformance(p) -> None:
    p.add_argument("suite", choices=["busybox"])
    p.add_argument("--subset", choices=["quick", "full"], default="full",
                   help="quick: the tests of 17 text applets (under a minute); full (default): every applet's")
    p.add_argument("--qemu", action="store_true",
                   help="run it under qemu-aarch64 -cpu cortex-a53 too and compare with that run "
                        "(default: with qemu's recorded failures)")
    p.add_argument("--jobs", type=int, help="applets tested at once (default: one per CPU core)")
    p.add_argument("--keep", metavar="DIR", help="leave the work folders and each applet's runtest log in DIR")
    p.add_argument("--applet", action="append", default=[], metavar="NAME",
                   help="test only this applet of the subset (repeatable)")
    add_ray_option(p, "the applets (one task each, in a bindir of its own)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_conformance)


def cmd_differential(args) -> int:
    from ncpu_nb.arm64.differential import main as differential

    with ray_for(args):
        return differential(args)


def cmd_fuzz(args) -> int:
    import json

    from ncpu_nb.debugging.fuzzer import fuzz_campaign

    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    from pathlib import Path

    argv = [Path(args.program).name, *args.args] if args.args else None  # busybox: ARGS are the applet's words
    options = {"where": args.where} if args.where else {}
    if args.max_steps:
        options["max_steps"] = args.max_steps
    with ray_for(args):
        campaign = fuzz_campaign(args.program, argv, seeds=seeds, executions=args.executions, ray=args.ray,
                                 progress=not args.json, **options)
    if args.json:
        findings = [{"kind": f.outcome.kind, "signature": f.outcome.signature, "input": f.input.hex()}
                    for f in campaign.crashes + campaign.hangs]
        print(json.dumps({"seeds": campaign.rows(), "executions": campaign.executions, "edges": campaign.edges,
                          "corpus": len(campaign.corpus), "findings": findings}, indent=1))
    else:
        print(campaign)
        for row in campaign.rows():
            print(f"  seed {row['seed']}: {row['executions']:,} executions, {row['edges']} edges, "
                  f"corpus of {row['corpus']}, crashes: {row['crashes'] or 'none'}, hangs: {row['hangs']}")
    return 0


def fill_fuzz(p) -> None:
    import argparse

    p.add_argument("--seeds", default="0-3", metavar="A-B", help="one campaign per seed A..B (default 0-3)")
    p.add_argument("--executions", type=int, default=2000, help="executions per seed (default 2000)")
    p.add_argument("--where", help="where the input goes: stdin (default), argv, file:/PATH")
    p.add_argument("--max-steps", type=int, help="instructions before an execution counts as a hang")
    add_ray_option(p, "the seeds (one task each)")
    p.add_argument("--json", action="store_true")
    p.add_argument("program", help="a static AArch64 ELF (a host file) or 'busybox'")
    p.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS",
                   help="its arguments (after busybox: the applet and its arguments)")
    p.set_defaults(func=cmd_fuzz)


def fill_differential(p) -> None:
    p.add_argument("suite", nargs="?", choices=["busybox", "c", "all"], default="all",
                   help="busybox: the runs of programs/arm64/busybox/cases.json; c: the C test programs; all (default)")
    p.add_argument("--case", action="append", default=[], metavar="NAME", help="run only this case (repeatable)")
    add_ray_option(p, "the cases (one task each)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_differential)
