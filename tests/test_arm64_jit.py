"""The block compiler against the interpreter on real BusyBox runs.

Hot guest code runs as compiled regions unless NCPU_NB_JIT=0 (read once per process), so each
workload runs in two fresh processes, one each way. They must agree exactly: output, exit status,
the instruction count and the final registers (every instruction budget, system call and
scheduling slice lands on the same instruction either way), and the compiled side must really have
compiled. Runs in small odd chunks (budgets cutting regions short) agree too.
"""
import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

WORKLOADS = {
    "sha256sum": "head -c 3000000 /dev/zero | sha256sum",
    "gzip": "seq 1 60000 | gzip -c | gzip -dc | md5sum",
    "awk and sort": "seq 1 4000 | awk '{ print ($1 * 7919) % 1000, $1 }' | sort -n | tail -n 2",
    "ash arithmetic": "i=0; s=0; while [ $i -lt 4000 ]; do i=$((i+1)); s=$((s ^ (i * 31))); done; echo $s",
    "bzip2 and od": "seq 1 3000 | bzip2 | bzip2 -d | od -c | tail -n 3",
}

RUN = """
import json, sys
import ncpu_nb
m = ncpu_nb.Arm64Machine.busybox("sh", "-c", sys.argv[1])
chunk = int(sys.argv[2])
while m.alive:
    m.run(max_steps=chunk, check=False)
    if m.instructions > 4_000_000_000:
        break
print(json.dumps({"stdout": m.stdout, "exit": m.exit_status, "instructions": m.instructions,
                  "syscalls": m.syscall_count, "registers": m.registers,
                  "regions": ncpu_nb._metal.compiled_code()["regions"]}))
"""


def run(script: str, jit: bool, chunk: int) -> tuple[dict, int]:
    """The run's outcome, and how many regions were compiled for it."""
    env = {**os.environ, "NCPU_NB_JIT": "1" if jit else "0"}
    done = subprocess.run([sys.executable, "-c", RUN, script, str(chunk)], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    outcome = json.loads(done.stdout)
    return outcome, outcome.pop("regions")


@pytest.mark.parametrize("name", WORKLOADS)
def test_compiled_code_runs_busybox_as_the_interpreter_does(name):
    script = WORKLOADS[name]
    interpreted, none = run(script, jit=False, chunk=50_000_000)
    assert interpreted["exit"] == 0 and none == 0, interpreted
    compiled, regions = run(script, jit=True, chunk=50_000_000)
    assert compiled == interpreted
    assert regions > 10
    # Odd budgets end runs inside regions, where compiled code must stop exactly.
    assert run(script, jit=True, chunk=99_991)[0] == interpreted
