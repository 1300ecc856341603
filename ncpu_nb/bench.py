"""`ncpu-nb bench`: speed figures measured side by side in one run (never asserted in unit tests)."""
from __future__ import annotations

import platform
import time

import numpy as np

# Five instructions per iteration: add, logic, shift, count down, branch.
LOOP = """
    MOV R1, 0
    MOV R2, 3
loop:
    ADD R1, R1, R0
    XOR R3, R1, R2
    SHL R4, R3, 1
    DEC R0
    JNZ loop
    HALT
"""
# A second loop with different instructions, so lanes can run different programs.
LOOP_B = """
    MOV R1, 1
loop:
    MUL R2, R1, R0
    AND R3, R2, R1
    SUB R1, R2, R3
    DEC R0
    JNZ loop
    HALT
"""


def _time_run(cpu, iterations) -> tuple[int, float]:
    """Run from reset with R0 = iterations (when given); (instructions executed, seconds)."""
    cpu.reset()
    if iterations:
        cpu.set_registers(R0=iterations)
    t0 = time.perf_counter()
    result = cpu.run(max_steps=max(10 * iterations + 10, cpu.max_steps))
    seconds = time.perf_counter() - t0
    return result.instructions, seconds


def bench_fast(quick: bool = False) -> dict:
    from ncpu_nb.ncpu import CPU

    single_iters = 200_000 if quick else 4_000_000
    lane_iters, lanes = (200, 1024) if quick else (2_000, 4096)
    rows = {}
    for label, depth in (("single stream, trace off", 0), ("single stream, trace 256", 256)):
        cpu = CPU(LOOP, trace_depth=depth)
        _time_run(cpu, 1000)  # warm up
        n, s = _time_run(cpu, single_iters)
        rows[label] = {"instructions": n, "seconds": s, "per_second": n / s}
    for label, programs in (("lanes, same program", [LOOP] * lanes),
                            ("lanes, two programs mixed", [LOOP, LOOP_B] * (lanes // 2))):
        cpu = CPU(programs, memory_size=256, trace_depth=0)
        n, s = _time_run(cpu, lane_iters)
        rows[f"{label} ({lanes} lanes)"] = {"instructions": n, "seconds": s, "per_second": n / s}
    return rows


def bench_neural(quick: bool = False) -> dict:
    """Neural mode beside fast mode in one run, and the latency of single operations in each."""
    from ncpu_nb.ncpu import CPU

    rows = {}
    iterations, lane_iters, lanes = (20, 5, 256) if quick else (40_000, 50, 4096)
    for mode in ("neural", "fast"):
        n, s = _time_run(CPU(LOOP, mode=mode, trace_depth=0), iterations)
        rows[f"{mode}: single stream"] = {"instructions": n, "seconds": s, "per_second": n / s}
        n, s = _time_run(CPU(LOOP, mode=mode, lanes=lanes, memory_size=256, trace_depth=0), lane_iters)
        rows[f"{mode}: {lanes} lanes"] = {"instructions": n, "seconds": s, "per_second": n / s}
    copies = 50 if quick else 2_000
    for mnemonic in ("ADD", "MUL", "AND", "SHL", "DIV"):
        for mode in ("neural", "fast"):
            cpu = CPU(f"{mnemonic} R2, R0, R1\n" * copies + "HALT", mode=mode, trace_depth=0,
                      registers={"R0": -1_234_567_891, "R1": 13})
            n, s = _time_run(cpu, 0)
            rows[f"{mode}: {mnemonic} latency"] = {"instructions": n, "seconds": s / n, "per_second": n / s}
    rows.update(bench_torch_wiring(quick))
    # No ratio to the original nCPU's neural mode: it is not run here, and a ratio to a quoted figure
    # would not be a measurement (its speed varies ~70x with torch's thread count).
    return rows


def bench_torch_wiring(quick: bool = False, progress: bool = False) -> dict:
    """Operations per second of the torch NeuralALU on one large batch: on the CPU, and on a GPU
    when torch sees one (the tier for whole verification sets and many lanes at once).
    `progress`: a bar per operation (DIV alone takes most of the time)."""
    import torch
    from tqdm.auto import tqdm

    from ncpu_nb.ncpu.neural_alu import NeuralALU, to_bits

    batch = 4_096 if quick else 65_536
    rng = np.random.default_rng(0)
    a, b = (rng.integers(0, 1 << 32, batch, dtype=np.uint64) for _ in range(2))
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    rows = {}
    for device in devices:
        alu = NeuralALU(device=device)
        x, y = to_bits(a, device), to_bits(b, device)
        for name in tqdm(("add", "mul", "and", "shl", "div"), desc=f"torch wiring on {device}", disable=not progress):
            with torch.no_grad():
                alu.op(name)(x[:64], y[:64])  # warm up (kernels, allocator)
                if device == "cuda":
                    torch.cuda.synchronize()
                t0 = time.perf_counter()
                alu.op(name)(x, y)
                if device == "cuda":
                    torch.cuda.synchronize()
                s = time.perf_counter() - t0
            rows[f"torch wiring on {device}: {name.upper()} x {batch:,}"] = {
                "instructions": batch, "seconds": s, "per_second": batch / s}
    return rows


ASH_LOOP = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"  # BusyBox ash: far more than 10 M instructions


def bench_debugger(quick: bool = False) -> dict:
    """A BusyBox run of 10 M AArch64 instructions (1 M with `quick`): plain with the trace off and
    on, and in the debugger widget (on its worker thread, the view updated up to 30 times a second,
    the trace off while it runs and its last 64 steps rebuilt when it stops), timed against the
    plain untraced run."""
    from ncpu_nb.arm64 import Arm64Machine

    n = 1_000_000 if quick else 10_000_000
    dbg = Arm64Machine.busybox("sh", "-c", ASH_LOOP).debugger()  # shows the last 64 instructions

    def in_debugger():
        dbg.reset()
        dbg.run(n)

    plain = "busybox ash, plain run, trace off"
    runs = {plain: lambda: Arm64Machine.busybox("sh", "-c", ASH_LOOP).run(n),
            "busybox ash, plain run, trace 64": lambda: Arm64Machine.busybox("sh", "-c", ASH_LOOP, trace_depth=64).run(n),
            "busybox ash run in the debugger": in_debugger}
    times: dict[str, list[float]] = {label: [] for label in runs}
    for _ in range(3):  # the best of three, taken in turns: the machine may be shared
        for label, run in runs.items():
            t0 = time.perf_counter()
            run()
            times[label].append(time.perf_counter() - t0)
    rows = {label: {"instructions": n, "seconds": min(t), "per_second": n / min(t)} for label, t in times.items()}
    debugged = min(times["busybox ash run in the debugger"])
    rows["debugger time, ratio to plain untraced"] = {"instructions": n, "seconds": debugged,
                                                      "per_second": debugged / min(times[plain])}
    return rows


def run(target: str, quick: bool = False) -> dict:
    from ncpu_nb.arm64 import machine_bench

    benches = {"fast": bench_fast, "neural": bench_neural, "debugger": bench_debugger, "machine": machine_bench.run}
    return {"target": target, "machine": f"{platform.machine()}, {platform.python_implementation()} "
                                         f"{platform.python_version()}, numpy {np.__version__}",
            "results": benches[target](quick)}


def format_report(report: dict) -> str:
    if report["target"] == "machine":
        from ncpu_nb.arm64 import machine_bench

        return machine_bench.format_report(report)
    lines = [f"ncpu-nb bench {report['target']}  ({report['machine']})"]
    for label, r in report["results"].items():
        if "ratio to plain" in label:
            lines.append(f"  {label:42s} {r['per_second']:>16.2f} x")
        elif "latency" in label:
            lines.append(f"  {label:42s} {r['seconds'] * 1e9:>16,.0f} ns per instruction")
        elif " / " in label:
            lines.append(f"  {label:42s} {r['per_second']:>16,.0f} x")
        elif label.startswith("torch wiring"):
            lines.append(f"  {label:42s} {r['per_second']:>16,.0f} operations/s"
                         f"   ({r['instructions']:,} in {r['seconds']:.3f} s)")
        else:
            lines.append(f"  {label:42s} {r['per_second']:>16,.0f} instructions/s"
                         f"   ({r['instructions']:,} in {r['seconds']:.3f} s)")
    return "\n".join(lines)
