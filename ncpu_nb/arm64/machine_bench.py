"""`ncpu-nb bench machine`: the AArch64 machine measured beside its references, in one run.

Every row (the shape of `ncpu_nb.bench_stats.row`) times a workload N times on ncpu_nb and on its
reference in turns:
  loop, untraced         Arm64Core vs Unicorn without hooks                          speed-up, aim >= 1
  loop, budgeted         the same beside Unicorn stopping after exactly N instructions (`count=N`, which
                         Unicorn counts with an internal per-instruction hook), as a debugger's step N does
  loop, trace ring 64    the Linux machine tracing vs Unicorn calling a Python hook on each instruction
                         (what a Python tracer on Unicorn costs), speed-up, aim >= 20
  BusyBox, one process   ash loop, sha256sum / gzip -c / awk / sort of a host file: the Linux machine (in
                         this process) vs qemu-aarch64 -cpu cortex-a53 (a subprocess), CPU time, aim <= 1.5x
  BusyBox pipelines      shell pipelines whose every stage is a BusyBox process (qemu-user's run them on
                         both cores at once; the machine on one)
  Debian start-ups       `bash -c true`, `python3 -c 'print(1)'`, `lua5.4 -e 'print(1)'`: Debian's dynamically
                         linked programs from a guest root (rootfs.default_root()) vs qemu-aarch64 -L ROOT on the
                         same files, CPU time, aim <= 1.5x; "not measured" where the root or the program is missing
  cold start             `ncpu-nb busybox echo hi` end to end vs qemu's `busybox echo hi`, aim <= 50 ms;
                         `import ncpu_nb` vs a bare Python start, aim <= 100 ms
Outputs of the BusyBox workloads are compared byte for byte with qemu's; a difference is reported (and
the row's target not met), not hidden.
"""
from __future__ import annotations

import os
import shutil
import struct
import sys
import tempfile
from pathlib import Path

from ncpu_nb import _metal
from ncpu_nb import bench_stats as bs
from ncpu_nb.arm64.busybox import busybox, busybox_path

LOOP_BASE = 0x400000
INSTRUCTIONS_PER_ITERATION = 5  # add, eor, lsl, subs, b.ne


def _movz(rd: int, imm16: int, shift: int = 0) -> int:
    return 0xD2800000 | (shift // 16) << 21 | imm16 << 5 | rd


def _movk(rd: int, imm16: int, shift: int) -> int:
    return 0xF2800000 | (shift // 16) << 21 | imm16 << 5 | rd


def loop_code(iterations: int) -> tuple[bytes, int]:
    """A counted loop ending in `svc #0` (exit(0) on Linux); returns the code and the offset of the svc.
    Instructions retired before the svc: 4 set-up + 5 per iteration + 2 (mov x0, mov x8)."""
    if not 0 < iterations < 1 << 32:
        raise ValueError(f"iterations must be in 1..2**32-1, not {iterations}")
    words = [
        _movz(0, iterations & 0xFFFF), _movk(0, iterations >> 16, 16),  # x0 = iterations
        _movz(1, 1), _movz(2, 0),
        0x8B010042,  # loop: add x2, x2, x1
        0xCA010043,  # eor x3, x2, x1
        0xD37DF064,  # lsl x4, x3, #3
        0xF1000400,  # subs x0, x0, #1
        0x54FFFF81,  # b.ne loop
        _movz(0, 0), _movz(8, 93),  # exit(0)
        0xD4000001,  # svc #0
    ]
    return struct.pack(f"<{len(words)}I", *words), 4 * (len(words) - 1)


def loop_instructions(iterations: int) -> int:
    return 4 + INSTRUCTIONS_PER_ITERATION * iterations + 2


def loop_elf(iterations: int) -> bytes:
    """The loop as a minimal static AArch64 executable: one read+execute LOAD segment."""
    code, _ = loop_code(iterations)
    header_size, phdr_size = 64, 56
    entry = LOOP_BASE + header_size + phdr_size
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    header = struct.pack("<16sHHIQQQIHHHHHH", ident, 2, 183, 1, entry, header_size, 0, 0,
                         header_size, phdr_size, 1, 64, 0, 0)
    size = header_size + phdr_size + len(code)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, LOOP_BASE, LOOP_BASE, size, size, 0x1000)
    return header + phdr + code


def _unicorn_loop(iterations: int, hook: bool, budget: bool = False):
    from unicorn import UC_ARCH_ARM64, UC_HOOK_CODE, UC_MODE_ARM, Uc

    code, svc = loop_code(iterations)
    uc = Uc(UC_ARCH_ARM64, UC_MODE_ARM)
    uc.mem_map(LOOP_BASE, 0x1000)
    uc.mem_write(LOOP_BASE, code)
    if hook:
        uc.hook_add(UC_HOOK_CODE, lambda uc, address, size, user_data: None)
    uc.emu_start(LOOP_BASE, LOOP_BASE + svc, count=loop_instructions(iterations) if budget else 0)
    return uc


def _core_loop(iterations: int):
    code, _ = loop_code(iterations)
    n = loop_instructions(iterations) + 1  # the svc stops the core and counts as executed
    core = _metal.Arm64Core()
    core.map(LOOP_BASE, 0x1000, 5)
    core.write_memory(LOOP_BASE, code)
    core.set("pc", LOOP_BASE)
    executed, stop = core.step(2 * n)
    if stop is None or stop[0] != "svc" or executed != n or core.get("x2") != iterations:
        raise RuntimeError(f"loop on Arm64Core stopped at {stop} after {executed:,} instructions")


def _timed(fn):
    return lambda: bs.timed_call(fn)[1:]


def bench_loop_untraced(iterations: int, free_iterations: int, budgeted_iterations: int, runs: int) -> list[dict]:
    """Two rows: Unicorn running to the end address (its JIT unhindered), and Unicorn held to an
    instruction budget, each on fewer iterations than ours (they are slower; times compare per instruction)."""
    from unicorn.arm64_const import UC_ARM64_REG_X2

    for budget, its in ((False, 1000), (True, 1000)):
        if _unicorn_loop(its, hook=False, budget=budget).reg_read(UC_ARM64_REG_X2) != its:
            raise RuntimeError("the loop's result on Unicorn is not its iteration count")
    samples = bs.in_turns({"ours": _timed(lambda: _core_loop(iterations)),
                           "free": _timed(lambda: _unicorn_loop(free_iterations, hook=False)),
                           "budget": _timed(lambda: _unicorn_loop(budgeted_iterations, hook=False, budget=True))},
                          runs, warmup=True)
    ours = bs.series_from("Arm64Core", samples["ours"], loop_instructions(iterations) + 1, "instruction")
    rows = []
    for key, its, name, target, limit in (("free", free_iterations, "Unicorn, no hooks", ">= 1.0x", 1.0),
                                          ("budget", budgeted_iterations, "Unicorn, instruction budget (count=N)", "",
                                           None)):
        ref = bs.series_from(name, samples[key], loop_instructions(its), "instruction")
        label = "ARM64 loop, Arm64Core untraced" + (" (budgeted)" if key == "budget" else "")
        rows.append(bs.row(label, f"a 5-instruction register loop, {iterations:,} iterations on the bare core; "
                           f"reference {its:,} iterations", ours, ref, sense="speedup", target=target, limit=limit))
    return rows


def bench_loop_traced(iterations: int, hooked_iterations: int, runs: int) -> dict:
    elf = loop_elf(iterations)
    n = loop_instructions(iterations) + 1  # and the svc

    def ours():
        machine = _metal.LinuxMachine(elf, ["loop"], [], exe_path="/bin/loop")
        machine.set_trace(64)
        stop = machine.run(2 * n)
        if stop[0] != "exited" or machine.exit_status != 0 or machine.instructions != n or len(machine.trace()) != 64:
            raise RuntimeError(f"loop on the Linux machine stopped with {stop} after {machine.instructions:,}")

    samples = bs.in_turns({"ours": _timed(ours), "hooked": _timed(lambda: _unicorn_loop(hooked_iterations, hook=True))},
                          runs, warmup=True)
    return bs.row("ARM64 loop, Linux machine, trace ring 64",
                  f"the loop as an ELF on the Linux machine keeping its last 64 instructions, {iterations:,} iterations; "
                  f"reference: Unicorn calling an empty Python hook on each instruction, {hooked_iterations:,} iterations",
                  bs.series_from("Linux machine, trace 64", samples["ours"], n, "instruction"),
                  bs.series_from("Unicorn, Python hook per instruction", samples["hooked"],
                                 loop_instructions(hooked_iterations), "instruction"),
                  sense="speedup", target=">= 20x", limit=20)


def _write_inputs(folder: Path, scale: int) -> dict[str, str]:
    """Input files for the one-process workloads, the same bytes for both sides; {name: what it is}."""
    import random

    rng = random.Random(1234)
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
    lines = [f"{rng.choice(words)}{rng.randrange(1000)} {rng.randrange(1_000_000)} {rng.random():.6f}\n"
             for _ in range(scale)]
    (folder / "lines.txt").write_text("".join(lines))
    (folder / "random.bin").write_bytes(rng.randbytes(scale * 64))
    return {"lines.txt": f"{scale:,} lines of text", "random.bin": f"{scale * 64 >> 10:,} KiB of random bytes"}


AWK_PROGRAM = "{ n[$1 % 7] += $2; total += $3 } END { for (k = 0; k < 7; k++) print k, n[k]; printf \"%.3f\\n\", total }"


def single_process_workloads(quick: bool) -> dict[str, tuple[list[str], str]]:
    """{label: (busybox argv, what it does)}: each one BusyBox process, reading the files of _write_inputs."""
    loop = 2_000 if quick else 100_000
    return {
        f"busybox ash loop of {loop:,} iterations": (
            ["sh", "-c", f"i=0; while [ $i -lt {loop} ]; do i=$((i+1)); done; echo $i"], "shell builtins only"),
        "busybox sha256sum FILE": (["sha256sum", "random.bin"], "hash a file of random bytes"),
        "busybox gzip -c FILE": (["gzip", "-c", "lines.txt"], "compress a text file to stdout"),
        "busybox awk PROGRAM FILE": (["awk", AWK_PROGRAM, "lines.txt"], "sum columns by key"),
        "busybox sort FILE": (["sort", "lines.txt"], "sort a text file (stdout)"),
    }


def pipeline_workloads(quick: bool) -> dict[str, str]:
    """Shell scripts using only builtins and `busybox APPLET`, so qemu-user runs BusyBox for every stage."""
    sha, gz = (1 << 20, 1 << 18) if quick else (64 << 20, 4 << 20)
    return {
        f"pipeline: head -c {sha >> 10:,} KiB /dev/zero | sha256sum":
            f"busybox head -c {sha} /dev/zero | busybox sha256sum",
        f"pipeline: seq | head -c {gz >> 10:,} KiB | gzip | wc -c":
            f"busybox seq {gz} | busybox head -c {gz} | busybox gzip | busybox wc -c",
    }


def _qemu_wrapper(qemu: str, folder: Path) -> None:
    """`busybox` in PATH as a host script running the AArch64 BusyBox under qemu (a guest execve under
    qemu-user starts a host program)."""
    wrapper = folder / "busybox"
    wrapper.write_text(f'#!/bin/sh\nexec {qemu} -cpu cortex-a53 {busybox_path()} "$@"\n')
    wrapper.chmod(0o755)


QEMU_NAME = "qemu-aarch64 -cpu cortex-a53"


def _qemu_row(label: str, measures: str, ours_once, command: list[str] | None, runs: int, *, cwd=None, env=None,
              why_not: str = "", repeats: tuple[int, int] = (1, 1)) -> dict:
    """A program on the Linux machine (in this process) beside qemu-user running `command` (a subprocess;
    None: not measured, `why_not` says why). `ours_once()` runs ours once: (stdout, exit status, instructions).
    An untimed first run of ours gives the output and exit status (0) both sides must give; `repeats`
    (ours, qemu): runs of each side within one timed run."""
    out, status, instructions = ours_once()
    if status != 0:
        raise RuntimeError(f"{label}: exit {status} on ncpu_nb")
    detail = f"{instructions:,} instructions, {len(out):,} bytes of output"

    def side(once, n, check):
        def go():
            walls, cpus = [], []
            for _ in range(n):
                result, wall, cpu = once()
                check(result)
                walls.append(wall)
                cpus.append(cpu)
            return sum(walls), sum(cpus)
        return go

    def same_output(result):
        if result[:2] != (out, status):
            raise RuntimeError(f"{label}: ncpu_nb's output changed between runs")

    ours = side(lambda: bs.timed_call(ours_once), repeats[0], same_output)
    if command is None:
        samples = bs.in_turns({"ours": ours}, runs)
        return bs.row(label, measures, _series("ncpu_nb Linux machine", samples["ours"], repeats[0]),
                      bs.NotMeasured(QEMU_NAME, why_not), target="<= 1.5x (median cpu)", detail=detail)
    reference = bs.run_child(command, cwd=cwd, env=env)
    same = reference.returncode == status and reference.stdout == out
    if not same:
        detail += (f"; OUTPUTS DIFFER: qemu exit {reference.returncode}, {len(reference.stdout):,} bytes "
                   f"{reference.stdout[:60]!r} vs ours {out[:60]!r}")

    def theirs_once():
        done = bs.run_child(command, cwd=cwd, env=env)
        return None, done.wall, done.cpu

    samples = bs.in_turns({"ours": ours, "qemu": side(theirs_once, repeats[1], lambda _: None)}, runs)
    if repeats != (1, 1):
        detail += f"; {repeats[0]} run(s) of ours, {repeats[1]} of qemu's, per timed run"
    return bs.row(label, measures, _series("ncpu_nb Linux machine", samples["ours"], repeats[0]),
                  _series(QEMU_NAME, samples["qemu"], repeats[1]), target="<= 1.5x", limit=1.5, ok=same,
                  detail=detail)


def _series(name: str, samples: list, repeats: int) -> bs.Series:
    if repeats == 1:
        return bs.series_from(name, samples)
    series = bs.series_from(name, samples, repeats, "program run")
    series.extra["repeats_per_run"] = repeats
    return series


def _busybox_row(label: str, measures: str, argv: list[str], runs: int, qemu: str | None, data: Path,
                 bin_folder: Path) -> dict:
    def ours_once():
        result = busybox(*argv, mounts=[f"{data}:/data"], cwd="/data", max_output=None)
        if result.exit_code != 0:
            raise RuntimeError(f"{label}: exit {result.exit_code} on ncpu_nb: {result.stderr[-300:]}")
        return result.stdout_bytes, result.exit_code, result.instructions

    command = None if qemu is None else ["env", "-i", f"PATH={bin_folder}", qemu, "-cpu", "cortex-a53",
                                         str(busybox_path()), *argv]
    return _qemu_row(label, measures, ours_once, command, runs, cwd=data,
                     why_not="qemu-aarch64 not found (apt-get install qemu-user)")


def bench_busybox(quick: bool, qemu: str | None, runs: int) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="ncpu-nb-bench-") as folder:
        data, bin_folder = Path(folder) / "data", Path(folder) / "bin"
        data.mkdir()
        bin_folder.mkdir()
        if qemu:
            _qemu_wrapper(qemu, bin_folder)
        files = _write_inputs(data, 2_000 if quick else 200_000)
        inputs = "; ".join(f"{name}: {what}" for name, what in files.items())
        for label, (argv, what) in single_process_workloads(quick).items():
            rows.append(_busybox_row(label, f"one BusyBox process: {what} ({inputs}); ours in this process "
                                     "(a new machine each run; regions compiled in the first, untimed run are "
                                     "reused, as the block compiler shares them in a process), qemu-user as a "
                                     "subprocess (translating afresh each run)",
                                     argv, runs, qemu, data, bin_folder))
        for label, script in pipeline_workloads(quick).items():
            rows.append(_busybox_row(label, "a shell pipeline of BusyBox processes (qemu-user runs its stages on "
                                     f"every core; the machine on one): {script}", ["sh", "-c", script], runs, qemu,
                                     data, bin_folder))
    return rows


def debian_starts() -> dict[str, tuple[str, list[str]]]:
    """{label: (Debian package, argv)}: programs of a Debian root whose run is mostly their start-up
    (the dynamic loader, the shared libraries, the interpreter's own start)."""
    return {
        "Debian bash -c true": ("bash", ["bash", "-c", "true"]),
        "Debian python3 -c 'print(1)'": ("python3-minimal", ["python3", "-c", "print(1)"]),
        "Debian lua5.4 -e 'print(1)'": ("lua5.4", ["lua5.4", "-e", "print(1)"]),
    }


def _missing_from(root: Path, package: str, program: str) -> str | None:
    """Why `program` cannot be run from the guest root (None: it can)."""
    from ncpu_nb import rootfs

    if not root.is_dir():
        return f"no Debian guest root at {root}: ncpu_nb.rootfs.cached(PACKAGES) makes one, downloading"
    try:
        rootfs.find_program(root, program)
    except FileNotFoundError:
        return f"no {program} in the guest root {root}: one made by ncpu_nb.rootfs.cached with {package!r} has it"
    return None


def bench_debian(quick: bool, qemu: str | None, runs: int, root=None) -> list[dict]:
    """Debian's dynamically linked programs started on the Linux machine beside qemu-user running the same
    files with -L ROOT; `root`: the guest root (default `ncpu_nb.rootfs.default_root()`, which is never
    downloaded here: a root or program that is not there gives a row that says so)."""
    import shlex

    from ncpu_nb import rootfs
    from ncpu_nb.arm64.bare_machine import DEFAULT_ENV

    root = Path(root).expanduser() if root else rootfs.default_root()
    # The guest's environment, the same on both sides; qemu-user's Python would write bytecode caches into
    # the root (ours sees it read-only), so neither side does.
    guest_env = [*DEFAULT_ENV, "PYTHONDONTWRITEBYTECODE=1"]
    env = dict(e.split("=", 1) for e in guest_env)
    rows = []
    for label, (package, argv) in debian_starts().items():
        measures = (f"`{shlex.join(argv)}` of Debian's arm64 {package} in the guest root {root}: the dynamic loader, "
                    "its shared libraries and the program's start; ours a fresh machine in this process each run "
                    f"(regions compiled in untimed runs are reused), qemu-user -L ROOT as a subprocess; both with "
                    f"{' '.join(guest_env)}")
        why = _missing_from(root, package, argv[0])
        if why:
            rows.append(bs.row(label, measures, bs.NotMeasured("ncpu_nb Linux machine", why),
                               bs.NotMeasured(QEMU_NAME, why), target="<= 1.5x (median cpu)"))
            continue

        def ours_once(argv=argv):
            machine = rootfs.machine(root, *argv, env=guest_env, max_output=None)
            run = machine.run(check=False)
            if not run.exited:
                raise RuntimeError(f"{shlex.join(argv)} stopped ({run.stop}) on ncpu_nb: {machine.stderr[-300:]}")
            return machine.stdout_bytes, machine.exit_status, machine.instructions

        program = root / rootfs.find_program(root, argv[0]).lstrip("/")
        command = None if qemu is None else [qemu, "-cpu", "cortex-a53", "-L", str(root), str(program), *argv[1:]]
        repeats = (1, 1)
        if not quick:  # a start takes tens of milliseconds: each timed run holds enough of them
            repeats = (bs.repeats_for(ours_once),
                       bs.repeats_for(lambda command=command: bs.run_child(command, cwd=root, env=env)) if command else 1)
        rows.append(_qemu_row(label, measures, ours_once, command, runs, cwd=root, env=env, repeats=repeats,
                              why_not="qemu-aarch64 not found (apt-get install qemu-user)"))
    return rows


def _package_env() -> dict:
    """This checkout first on the path, and bytecode caches allowed (the untimed warm-up run writes
    them where they are missing), as an installed package has them."""
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


CONSOLE_SCRIPT = "import sys; from ncpu_nb.cli import main; sys.exit(main())"  # what the ncpu-nb script runs


def bench_cold_start(runs: int, qemu: str | None) -> list[dict]:
    """`ncpu-nb busybox echo hi` end to end (a fresh Python process running the console script's code)
    beside qemu's `busybox echo hi`; `import ncpu_nb` beside a bare Python start."""
    env = _package_env()
    ours_cmd = [sys.executable, "-c", CONSOLE_SCRIPT, "busybox", "echo", "hi"]
    first = bs.run_child(ours_cmd, env=env, cwd=Path(__file__).resolve().parents[2])
    if first.returncode != 0 or first.stdout != b"hi\n":
        raise RuntimeError(f"ncpu-nb busybox echo hi: exit {first.returncode}, {first.stdout!r} {first.stderr[-300:]!r}")
    sides = {"ours": ours_cmd}
    if qemu:
        sides["qemu"] = [qemu, "-cpu", "cortex-a53", str(busybox_path()), "echo", "hi"]
    sides["import"] = [sys.executable, "-c", "import ncpu_nb"]
    sides["python"] = [sys.executable, "-c", "pass"]
    here = Path(__file__).resolve().parents[2]  # `python -c` imports from its working folder first: this checkout's

    def side(name):
        def go():
            done = bs.run_child(sides[name], env=env, cwd=here)
            return done.wall, done.cpu
        return go

    samples = bs.in_turns({k: side(k) for k in sides}, runs, warmup=True)
    series = {}
    for key, name in (("ours", "ncpu-nb busybox echo hi"), ("qemu", "qemu-aarch64 -cpu cortex-a53 busybox echo hi"),
                      ("import", "python -c 'import ncpu_nb'"), ("python", "python -c pass")):
        if key in samples:
            series[key] = bs.series_from(name, samples[key])
            series[key].extra["max_rss_kib"] = bs.max_rss_kib(sides[key], env=env)  # one more run, under time
    reference = series.get("qemu") or bs.NotMeasured("qemu-aarch64 -cpu cortex-a53 busybox echo hi",
                                                     "qemu-aarch64 not found")
    return [bs.row("cold start: ncpu-nb busybox echo hi", "a fresh process: Python start, imports, the machine built, "
                   "BusyBox run, exit (the console script's code via python -c; bytecode cached)", series["ours"], reference,
                   statistic="median wall", target="<= 50 ms (median wall)", absolute=0.050,
                   detail=f"max RSS (/usr/bin/time): ours {series['ours'].extra['max_rss_kib']} KiB"
                   + (f", qemu {series['qemu'].extra['max_rss_kib']} KiB" if "qemu" in series else "")),
            bs.row("cold start: import ncpu_nb", "a fresh Python process importing the package; reference: a bare "
                   "Python start (python -c pass)", series["import"], series["python"], statistic="median wall",
                   target="<= 100 ms (median wall)", absolute=0.100)]


def run(quick: bool = False) -> list[dict]:
    """Every row; quick: small sizes and one run each, for a smoke test (the ratios then mean little)."""
    qemu = shutil.which("qemu-aarch64")
    if quick:
        return [*bench_loop_untraced(200_000, 200_000, 20_000, 1), bench_loop_traced(200_000, 20_000, 1),
                *bench_busybox(True, qemu, 1), *bench_debian(True, qemu, 1), *bench_cold_start(1, qemu)]
    return [*bench_loop_untraced(1_000_000_000, 100_000_000, 20_000_000, 5), bench_loop_traced(20_000_000, 400_000, 5),
            *bench_busybox(False, qemu, 5), *bench_debian(False, qemu, 5), *bench_cold_start(15, qemu)]
