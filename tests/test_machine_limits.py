"""What a guest may take of the host: past each limit it gets Linux's error and the host goes on.

Each case runs in a child process under `prlimit --as`, so a limit that did not hold would kill
the child (allocation failure) instead of passing quietly.
"""
import shutil
import subprocess
import sys
import textwrap

import pytest

pytestmark = [pytest.mark.skipif(shutil.which("prlimit") is None, reason="prlimit (util-linux) is needed"),
              pytest.mark.slow]

HOST_ADDRESS_SPACE = 3 << 30  # the child's whole virtual memory: Python, the extension and the guest


def guest_under_prlimit(script: str, **limits) -> dict:
    code = textwrap.dedent(f"""
        import json, re
        from ncpu_nb import _metal
        from ncpu_nb.arm64.busybox import busybox_path
        m = _metal.LinuxMachine(busybox_path().read_bytes(), ["busybox", "sh", "-c", {script!r}],
                                ["PATH=/bin:/usr/bin"], **{limits!r})
        while (stop := m.run(50_000_000))[0] == "budget":
            pass
        print(json.dumps(dict(stop=stop[0], out=m.take_stdout().decode(), err=m.take_stderr().decode(),
                              # VmHWM: this program's peak (ru_maxrss would count the forking pytest's too)
                              rss_mb=int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read())[1]) // 1024)))
    """)
    p = subprocess.run(["prlimit", f"--as={HOST_ADDRESS_SPACE}", sys.executable, "-c", code],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    import json
    return json.loads(p.stdout)


def test_a_big_file_fills_the_in_memory_filesystem_then_enospc():
    r = guest_under_prlimit("head -c 200000000 /dev/zero > /tmp/big; echo status $?; wc -c < /tmp/big; "
                            "echo x > /dev/full || echo full", file_limit=64 << 20)
    assert r["out"] == f"status 1\n{64 << 20}\nfull\n", r
    assert "No space left on device" in r["err"]


def test_guest_memory_is_bounded_over_all_processes():
    # Each awk doubles a string until it fails; four at once share one machine-wide allowance.
    awk = "awk 'BEGIN{s=\"x\"; for(i=0;i<40;i++) s=s s}' 2>/dev/null; echo $?"
    r = guest_under_prlimit(f"({awk}) & ({awk}) & ({awk}) & ({awk}); wait", memory_limit=256 << 20)
    assert r["out"].split() == ["1"] * 4, r
    assert r["rss_mb"] < 1500


def test_a_sparse_executable_is_refused_before_it_is_read(tmp_path):
    from ncpu_nb.arm64.busybox import busybox_path

    with open(tmp_path / "busybox", "wb") as f:  # 2 GiB to read, a few MB on disk
        f.write(busybox_path().read_bytes())
        f.truncate(2 << 30)
    (tmp_path / "busybox").chmod(0o755)
    r = guest_under_prlimit("/mnt/busybox true; echo $?", memory_limit=64 << 20,
                            mounts=[(str(tmp_path), "/mnt", True)])
    # It used to read the whole file: 2.1 GB of host memory under a 64 MiB machine.
    assert r["out"] == "126\n" and "/mnt/busybox: Cannot allocate memory" in r["err"], r
    assert r["rss_mb"] < 500


def test_processes_are_bounded():
    r = guest_under_prlimit("i=0; while [ $i -lt 2000 ]; do sleep 1000 & i=$((i+1)); done; echo never", task_limit=40)
    assert "never" not in r["out"] and "can't fork: Resource temporarily unavailable" in r["err"], r


def test_limits_from_python_and_the_command_line():
    import ncpu_nb

    r = ncpu_nb.busybox("sh", "-c", "head -c 3000000 /dev/zero > /tmp/x; echo $?; wc -c < /tmp/x",
                        limits={"tmpfs_size": "1M"})
    assert r.stdout == f"1\n{1 << 20}\n"
    assert ncpu_nb.Limits.of({"memory": "2G"}) == ncpu_nb.Limits(memory=2 << 30)
    with pytest.raises(ValueError, match="max_procs"):
        ncpu_nb.Limits(max_procs=0)
    cli = [sys.executable, "-m", "ncpu_nb", "busybox"]
    p = subprocess.run([*cli, "--max-procs", "3", "sh", "-c", "sleep 5 & sleep 5 & sleep 5 & echo never"],
                       capture_output=True, text=True, timeout=120)
    assert "never" not in p.stdout and "can't fork" in p.stderr
    p = subprocess.run([*cli, "--memory", "lots", "true"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "not a size: 'lots'" in p.stderr
