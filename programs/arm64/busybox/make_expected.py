#!/usr/bin/env python3
"""Record what BusyBox prints for each run in cases.json under the oracle, QEMU user mode.

Each case runs twice as
    env -i PATH=WRAPPERS qemu-aarch64 -cpu cortex-a53 busybox ARGV...
from this folder, with the case's "stdin" (if any) on standard input; expected/NAME.out gets the
exact stdout and expected/NAME.status the exit status. The two runs must agree. Only runs whose
output cannot depend on the host are listed (no host files, clock, names or pids are printed;
scratch files live in /tmp/ncpu_bb_* and are removed by the run itself).

Under plain qemu-user a guest execve runs a *host* program (or fails for an AArch64 one), so a
shell looking up `diff` in PATH would run the host's diff. WRAPPERS is a temporary folder with one
host script per applet, `exec qemu-aarch64 -cpu cortex-a53 busybox APPLET "$@"`, so every program a
guest shell starts is BusyBox under qemu. (BusyBox's own re-exec through /proc/self/exe still fails
under qemu-user, so no case uses env, xargs, nice or similar.)

Usage: ./make_expected.py          (write expected/)
       ./make_expected.py --check  (compare with expected/, write nothing)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
QEMU = os.environ.get("QEMU", "qemu-aarch64")


def make_wrappers(folder, qemu):
    applets = subprocess.run([qemu, "-cpu", "cortex-a53", os.path.join(HERE, "busybox"), "--list"],
                             capture_output=True, text=True, check=True).stdout.split()
    for applet in applets:
        path = os.path.join(folder, applet)
        with open(path, "w") as f:
            f.write(f'#!/bin/sh\nexec {qemu} -cpu cortex-a53 {HERE}/busybox {applet} "$@"\n')
        os.chmod(path, 0o755)


def run(case, wrappers, qemu):
    cmd = ["env", "-i", f"PATH={wrappers}", qemu, "-cpu", "cortex-a53", "./busybox", *case["argv"]]
    p = subprocess.run(cmd, cwd=HERE, input=case.get("stdin", "").encode(), capture_output=True, timeout=60)
    return p.stdout, p.returncode


def main():
    check = sys.argv[1:] == ["--check"]
    failed = 0
    qemu = shutil.which(QEMU)
    if qemu is None:
        sys.exit(f"make_expected.py: {QEMU} not found (apt-get install qemu-user)")
    wrappers = tempfile.mkdtemp(prefix="busybox-wrappers-")
    make_wrappers(wrappers, qemu)
    for case in json.load(open(os.path.join(HERE, "cases.json"))):
        name = case["name"]
        first, second = run(case, wrappers, qemu), run(case, wrappers, qemu)
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
    shutil.rmtree(wrappers)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
