#!/usr/bin/env python3
"""Record what BusyBox prints for each run in cases.json under the oracle, QEMU user mode.

Each case runs twice as
    env -i PATH=/bin:/usr/bin qemu-aarch64 -cpu cortex-a53 busybox ARGV...
from this folder, with the case's "stdin" (if any) on standard input; expected/NAME.out gets the
exact stdout and expected/NAME.status the exit status. The two runs must agree. Only runs whose
output cannot depend on the host are listed (no host files, clock, names or pids are printed;
scratch files live in /tmp/ncpu_bb_* and are removed by the run itself). Under plain qemu-user a
guest execve of an AArch64 program fails, so no case execs a program: BusyBox's shell runs its
applets in-process or by fork alone.

Usage: ./make_expected.py          (write expected/)
       ./make_expected.py --check  (compare with expected/, write nothing)
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
QEMU = os.environ.get("QEMU", "qemu-aarch64")


def run(case):
    cmd = ["env", "-i", "PATH=/bin:/usr/bin", QEMU, "-cpu", "cortex-a53", "./busybox", *case["argv"]]
    p = subprocess.run(cmd, cwd=HERE, input=case.get("stdin", "").encode(), capture_output=True, timeout=60)
    return p.stdout, p.returncode


def main():
    check = sys.argv[1:] == ["--check"]
    failed = 0
    for case in json.load(open(os.path.join(HERE, "cases.json"))):
        name = case["name"]
        first, second = run(case), run(case)
        if first != second:
            print(f"NONDETERMINISTIC: {name}", file=sys.stderr)
            failed += 1
            continue
        out, status = first
        base = os.path.join(HERE, "expected", name)
        if check:
            same = open(base + ".out", "rb").read() == out and open(base + ".status").read() == f"{status}\n"
            print(("match:    " if same else "MISMATCH: ") + name)
            failed += not same
        else:
            open(base + ".out", "wb").write(out)
            open(base + ".status", "w").write(f"{status}\n")
            print(f"wrote expected/{name}.{{out,status}} (status {status})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
