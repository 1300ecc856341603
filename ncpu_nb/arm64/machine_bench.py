"""`ncpu-nb bench machine`: the AArch64 machine measured beside its references, in one run.

Each row is one workload timed on ncpu_nb and on a reference on the same host, with the ratio:
  loop, untraced         Arm64Core vs Unicorn without hooks (same code, same count)  speed ratio, aim >= 1
  loop, budgeted         the same beside Unicorn stopping after exactly N instructions (`count=N`, which
                         Unicorn counts with an internal per-instruction hook), as a debugger's step N does
  loop, trace ring 64    the Linux machine tracing vs Unicorn calling Python on each instruction, aim >= 20
  BusyBox workloads      the Linux machine vs qemu-aarch64 -cpu cortex-a53 (user mode)   time ratio, aim <= 5
  busybox echo, cold     the first call in a fresh Python process                        aim <= 50 ms
Outputs of the BusyBox workloads are compared between the two; a difference is reported, not hidden.
"""
from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ncpu_nb import _metal
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


def _row(label: str, value: float, unit: str, reference: str, reference_value: float | None,
         ratio: float | None, target: str, detail: str = "", ok: bool | None = None) -> dict:
    return {"label": label, "value": value, "unit": unit, "reference": reference,
            "reference_value": reference_value, "ratio": ratio, "target": target, "detail": detail,
            "meets_target": ok}


def _timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def _best(fn, repeats: int):
    """The fastest of `repeats` runs (the host is shared: the minimum is the least disturbed)."""
    return min((_timed(fn) for _ in range(repeats)), key=lambda r: r[1])


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


def bench_loop_untraced(iterations: int, repeats: int) -> list[dict]:
    """Two rows: Unicorn running to the end address (its JIT unhindered), and Unicorn held to an
    instruction budget."""
    code, _ = loop_code(iterations)
    n = loop_instructions(iterations) + 1  # the svc stops the core and counts as executed
    n_unicorn = loop_instructions(iterations)  # Unicorn stops before the svc

    def ours():
        core = _metal.Arm64Core()
        core.map(LOOP_BASE, 0x1000, 5)
        core.write_memory(LOOP_BASE, code)
        core.set("pc", LOOP_BASE)
        executed, stop = core.step(2 * n)
        if stop is None or stop[0] != "svc" or executed != n:
            raise RuntimeError(f"loop on Arm64Core stopped at {stop} after {executed:,} instructions")
        return core.get("x2")

    from unicorn.arm64_const import UC_ARM64_REG_X2

    x2, seconds = _best(ours, repeats)
    ours_rate = n / seconds
    rows = []
    for budget, reference, target in ((False, "Unicorn, no hooks", ">= 1.0x"),
                                      (True, "Unicorn, instruction budget (count=N)", "")):
        uc, useconds = _best(lambda: _unicorn_loop(iterations, hook=False, budget=budget), repeats)
        if uc.reg_read(UC_ARM64_REG_X2) != x2 or x2 != iterations:
            raise RuntimeError(f"loop results differ: ncpu_nb x2={x2}, Unicorn x2={uc.reg_read(UC_ARM64_REG_X2)}")
        their_rate = n_unicorn / useconds
        label = "ARM64 loop, Arm64Core untraced" + (" (budgeted)" if budget else "")
        rows.append(_row(label, ours_rate, "instructions/s", reference, their_rate, ours_rate / their_rate,
                         target, f"{n:,} instructions in {seconds:.3f} s; Unicorn {n_unicorn:,} in {useconds:.3f} s",
                         ours_rate / their_rate >= 1.0 if target else None))
    return rows


def bench_loop_traced(iterations: int, hooked_iterations: int, repeats: int) -> dict:
    elf = loop_elf(iterations)
    n = loop_instructions(iterations) + 1  # and the svc

    def ours():
        machine = _metal.LinuxMachine(elf, ["loop"], [], exe_path="/bin/loop")
        machine.set_trace(64)
        stop = machine.run(2 * n)
        if stop[0] != "exited" or machine.exit_status != 0 or machine.instructions != n:
            raise RuntimeError(f"loop on the Linux machine stopped with {stop} after {machine.instructions:,}")
        return len(machine.trace())

    depth, seconds = _best(ours, repeats)
    hooked_n = loop_instructions(hooked_iterations)
    _, useconds = _best(lambda: _unicorn_loop(hooked_iterations, hook=True), 1)
    ours_rate, their_rate = n / seconds, hooked_n / useconds
    return _row("ARM64 loop, Linux machine, trace ring 64", ours_rate, "instructions/s",
                "Unicorn, Python hook per instruction", their_rate, ours_rate / their_rate, ">= 20x",
                f"{n:,} instructions in {seconds:.3f} s, {depth} kept; Unicorn {hooked_n:,} in {useconds:.3f} s",
                ours_rate / their_rate >= 20)


def busybox_workloads(quick: bool) -> dict[str, str]:
    """Shell scripts using only builtins and `busybox APPLET`, so qemu-user runs BusyBox for every step."""
    sha, gz, loop = (1 << 20, 1 << 18, 2_000) if quick else (64 << 20, 16 << 20, 200_000)
    return {
        f"busybox sha256sum of {sha >> 10:,} KiB of zeros":
            f"busybox head -c {sha} /dev/zero | busybox sha256sum",
        f"busybox seq | head -c {gz >> 10:,} KiB | gzip | wc -c":
            f"busybox seq {gz} | busybox head -c {gz} | busybox gzip | busybox wc -c",
        f"busybox ash loop of {loop:,} iterations":
            f"i=0; while [ $i -lt {loop} ]; do i=$((i+1)); done; echo $i",
    }


def _qemu_runner(qemu: str, folder: str) -> list[str]:
    """`busybox` in PATH as a host script running the AArch64 BusyBox under qemu (a guest execve under
    qemu-user starts a host program)."""
    wrapper = Path(folder) / "busybox"
    wrapper.write_text(f'#!/bin/sh\nexec {qemu} -cpu cortex-a53 {busybox_path()} "$@"\n')
    wrapper.chmod(0o755)
    return ["env", "-i", f"PATH={folder}", qemu, "-cpu", "cortex-a53", str(busybox_path())]


def bench_busybox(quick: bool, qemu: str | None) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="ncpu-nb-bench-") as folder:
        runner = _qemu_runner(qemu, folder) if qemu else None
        for label, script in busybox_workloads(quick).items():
            result, seconds = _timed(lambda: busybox("sh", "-c", script))
            if result.exit_code != 0:
                raise RuntimeError(f"{label}: exit {result.exit_code} on ncpu_nb: {result.stderr}")
            detail = f"{result.instructions:,} instructions; output {result.stdout.strip()!r}"
            if runner is None:
                rows.append(_row(label, seconds, "s", "qemu-aarch64 (absent)", None, None, "<= 5x", detail))
                continue
            qemu_run, qseconds = _timed(lambda: subprocess.run([*runner, "sh", "-c", script],
                                                               capture_output=True, check=False))
            same = qemu_run.returncode == 0 and qemu_run.stdout == result.stdout_bytes
            if not same:
                detail += f"; OUTPUTS DIFFER: qemu {qemu_run.returncode} {qemu_run.stdout[:80]!r}"
            ratio = seconds / qseconds
            rows.append(_row(label, seconds, "s", "qemu-aarch64 -cpu cortex-a53", qseconds, ratio, "<= 5x",
                             detail, same and ratio <= 5))
    return rows


COLD_ECHO = """\
import time
start = time.perf_counter()
import ncpu_nb
imported = time.perf_counter()
result = ncpu_nb.busybox("echo", "hello")
done = time.perf_counter()
assert result.stdout == "hello\\n", result
print(imported - start, done - imported)
"""


def bench_cold_echo(repeats: int) -> dict:
    """`busybox echo` as the first call in a fresh Python process (import time shown apart)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(Path(__file__).parents[2]),
                                                                    os.environ.get("PYTHONPATH")])))
    runs = []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", COLD_ECHO], capture_output=True, text=True, env=env,
                             check=True).stdout
        runs.append(tuple(map(float, out.split())))
    imported, first = min(runs, key=lambda r: r[1])
    warm = min(_timed(lambda: busybox("echo", "hello"))[1] for _ in range(repeats))
    return _row("busybox echo from Python, first call, cold", first, "s", "", None, None, "<= 50 ms",
                f"best of {repeats} fresh processes; import ncpu_nb {imported * 1e3:.0f} ms apart; "
                f"a later call with a new Arm64Machine {warm * 1e3:.1f} ms", first <= 0.050)


def run(quick: bool = False) -> list[dict]:
    """Every row; quick: small sizes for a smoke test (the ratios then mean little)."""
    qemu = shutil.which("qemu-aarch64")
    if quick:
        return [*bench_loop_untraced(200_000, 1), bench_loop_traced(200_000, 20_000, 1),
                *bench_busybox(True, qemu), bench_cold_echo(1)]
    return [*bench_loop_untraced(60_000_000, 3), bench_loop_traced(20_000_000, 400_000, 3),
            *bench_busybox(False, qemu), bench_cold_echo(3)]


def _value(row: dict, value: float | None) -> str:
    if value is None:
        return "—"
    if row["unit"] == "s":
        return f"{value * 1e3:,.1f} ms" if value < 1 else f"{value:,.2f} s"
    return f"{value / 1e6:,.1f} M/s"


def format_report(report: dict) -> str:
    lines = [f"ncpu-nb bench machine  ({report['machine']})",
             f"  {'':46s} {'ncpu_nb':>12s} {'reference':>12s} {'ratio':>8s}  target"]
    for row in report["results"]:
        ratio = "—" if row["ratio"] is None else f"{row['ratio']:.2f}x"
        verdict = {True: "met", False: "NOT MET", None: ""}[row["meets_target"]]
        lines.append(f"  {row['label']:46s} {_value(row, row['value']):>12s} "
                     f"{_value(row, row['reference_value']):>12s} {ratio:>8s}  {row['target']} {verdict}")
        ref = f"reference: {row['reference']}; " if row["reference"] else ""
        lines.append(f"  {'':46s} {ref}{row['detail']}")
    return "\n".join(lines)
