"""`ncpu-nb bench fast|neural|debugger|machine|synth [--device DEVICE]`: speed figures, each beside its reference measured
in the same run (never asserted in unit tests). Every row has the shape of `ncpu_nb.bench_stats.row`:
N runs taken in turns with the reference, best/median/spread of wall and CPU time on both sides, and a
ratio from the same statistic on both. `--json` writes the document of `ncpu_nb.bench_report`."""
from __future__ import annotations

import sys
import time

from ncpu_nb import bench_stats as bs

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
TARGETS = ("fast", "neural", "debugger", "machine", "synth", "coprocessor", "learned-compiler", "fuzz")


def _time_run(cpu, iterations) -> tuple[int, float]:
    """Run from reset with R0 = iterations (when given); (instructions executed, seconds)."""
    cpu.reset()
    if iterations:
        cpu.set_registers(R0=iterations)
    t0 = time.perf_counter()
    result = cpu.run(max_steps=max(10 * iterations + 10, cpu.max_steps))
    seconds = time.perf_counter() - t0
    return result.instructions, seconds


def _runner(cpu, iterations: int, repeats: int = 1, registers: dict | None = None):
    """A side for `in_turns`: `repeats` runs from reset, timed together (wall, cpu)."""
    steps = max(10 * iterations + 10, cpu.max_steps)

    def side():
        def work():
            for _ in range(repeats):
                cpu.reset()
                if iterations:
                    cpu.set_registers(R0=iterations)
                elif registers:
                    cpu.set_registers(**registers)
                cpu.run(max_steps=steps)
        _, wall, cpu_s = bs.timed_call(work)
        return wall, cpu_s
    return side


def _instructions(cpu, iterations: int, registers: dict | None = None) -> int:
    cpu.reset()
    if iterations:
        cpu.set_registers(R0=iterations)
    elif registers:
        cpu.set_registers(**registers)
    return cpu.run(max_steps=max(10 * iterations + 10, cpu.max_steps)).instructions


def _pair(label, measures, cpu_ours, cpu_ref, iterations, runs, ref_name, *, registers=None, unit="instruction",
          target="", limit=None, sense="time", quick=False):
    """A row of ours beside a reference CPU, both on the same program, timed in turns."""
    n = _instructions(cpu_ours, iterations, registers)
    if cpu_ref is not None and _instructions(cpu_ref, iterations, registers) != n:
        raise RuntimeError(f"{label}: the two sides executed different instruction counts")
    once = _runner(cpu_ours, iterations, 1, registers)
    repeats = 1 if quick else bs.repeats_for(lambda: once())
    sides = {"ours": _runner(cpu_ours, iterations, repeats, registers)}
    if cpu_ref is not None:
        ref_once = _runner(cpu_ref, iterations, 1, registers)
        ref_repeats = 1 if quick else bs.repeats_for(lambda: ref_once())
        sides["ref"] = _runner(cpu_ref, iterations, ref_repeats, registers)
    samples = bs.in_turns(sides, runs)
    ours = bs.series_from("ncpu_nb", samples["ours"], n * repeats, unit)
    ours.extra["repeats_per_run"] = repeats
    reference = None
    if cpu_ref is not None:
        reference = bs.series_from(ref_name, samples["ref"], n * ref_repeats, unit)
        reference.extra["repeats_per_run"] = ref_repeats
    detail = f"{n:,} {unit}s per program run; {repeats} program run(s) per timed run"
    return bs.row(label, measures, ours, reference, target=target, limit=limit, sense=sense, detail=detail)


def bench_fast(quick: bool = False) -> list[dict]:
    from ncpu_nb.ncpu import CPU

    runs = 1 if quick else 5
    single = 20_000 if quick else 10_000_000
    lane_iters, lanes = (100, 256) if quick else (2_000, 4096)
    rows = []
    for depth in (0, 256):
        rows.append(_pair(f"fast: single stream, trace {'off' if not depth else depth}",
                          f"the 5-instruction loop, {single:,} iterations in one run, one lane"
                          + (f", the last {depth} steps kept" if depth else ""),
                          CPU(LOOP, trace_depth=depth), None, single, runs, "", quick=quick))
    for label, programs in (("same program", [LOOP] * lanes), ("two programs mixed", [LOOP, LOOP_B] * (lanes // 2))):
        rows.append(_pair(f"fast: {lanes} lanes, {label}", f"{lanes} lanes × {lane_iters:,} iterations of the loop(s)",
                          CPU(programs, memory_size=256, trace_depth=0), None, lane_iters, runs, "", quick=quick))
    rows.append(_pair("fast: per-run overhead (a program of one HALT)",
                      "reset + run of a one-instruction program, repeated to fill a timed run: the cost of a "
                      "run call, not of instructions", CPU("HALT", trace_depth=0), None, 0, runs, "",
                      unit="run", quick=quick))
    rows.append(_pair("fast: per-instruction cost, 2,000 straight-line ADDs",
                      "reset + run of 2,000 ADDs (no loop), repeated to fill a timed run; per-run overhead included",
                      CPU("ADD R2, R0, R1\n" * 2000 + "HALT", trace_depth=0), None, 0, runs, "",
                      registers={"R0": -1_234_567_891, "R1": 13}, quick=quick))
    return rows


def bench_neural(quick: bool = False) -> list[dict]:
    """Neural mode beside fast mode in one run; the original nCPU's neural CPU on the same loop where
    its code is present; per-instruction cost of single operations; the torch wiring's batches."""
    from ncpu_nb.ncpu import CPU

    runs = 1 if quick else 5
    iterations, lane_iters, lanes = (20, 5, 64) if quick else (40_000, 50, 1024)
    rows = [_pair("neural: single stream", f"the 5-instruction loop, {iterations:,} iterations, neural mode; "
                  "reference: fast mode on the same program", CPU(LOOP, mode="neural", trace_depth=0),
                  CPU(LOOP, mode="fast", trace_depth=0), iterations, runs, "fast mode, same program", quick=quick)]
    rows.append(original_row(iterations, quick))
    rows.append(_pair(f"neural: {lanes} lanes", f"{lanes} lanes × {lane_iters:,} iterations of the loop, neural "
                      "mode; reference: fast mode", CPU(LOOP, mode="neural", lanes=lanes, memory_size=256, trace_depth=0),
                      CPU(LOOP, mode="fast", lanes=lanes, memory_size=256, trace_depth=0), lane_iters, runs,
                      "fast mode, same lanes", quick=quick))
    copies = 50 if quick else 2_000
    registers = {"R0": -1_234_567_891, "R1": 13}
    for mnemonic in ("ADD", "MUL", "AND", "SHL", "DIV"):
        source = f"{mnemonic} R2, R0, R1\n" * copies + "HALT"
        rows.append(_pair(f"neural: per-instruction cost of {mnemonic}",
                          f"{copies:,} straight-line {mnemonic}s per program run (run overhead included); "
                          "reference: fast mode", CPU(source, mode="neural", trace_depth=0),
                          CPU(source, mode="fast", trace_depth=0), 0, runs, "fast mode, same program",
                          registers=registers, quick=quick))
    rows += torch_wiring_rows(quick)
    return rows


def original_row(iterations: int, quick: bool) -> dict:
    """The original nCPU's neural CPU on the same loop, run live (torch 1 thread and torch's default),
    beside ncpu_nb's neural mode on the same program in the same run; 'not measured' without its code."""
    from ncpu_nb import original_ncpu
    from ncpu_nb.ncpu import CPU

    label = "neural: the original nCPU's neural CPU, same loop"
    root = original_ncpu.location()
    ours_cpu = CPU(LOOP, mode="neural", trace_depth=0)
    measures = ("the loop on ncpu_nb's neural mode beside the original nCPU's model CPU with neural_execution "
                "(its PyTorch ALU networks) in a subprocess, timed around its run only (not torch's import)")
    if root is None:
        n = _instructions(ours_cpu, iterations)
        ours = bs.series_from("ncpu_nb neural mode", [_runner(ours_cpu, iterations)()], n, "instruction")
        return bs.row(label, measures, ours, bs.NotMeasured("the original nCPU", original_ncpu.NOT_PRESENT))
    runs = 1 if quick else 3
    small = {1: 4 if quick else 200, 0: 2 if quick else 20}  # it runs ~2,000 instructions/s on 1 thread, ~30 on 2
    details, sides, series = [], {}, {}
    for threads, its in small.items():
        source = original_ncpu.program(LOOP, its)
        sides[threads] = (lambda s=source, t=threads: original_ncpu.run_once(root, s, t))
    ours_n = _instructions(ours_cpu, iterations)
    ours_samples, ref_samples = [], {t: [] for t in sides}
    ours_cpu.reset()
    ours_cpu.set_registers(R0=small[1])
    ours_cpu.run()
    expected = {r: ours_cpu.registers[r] for r in ("R1", "R3", "R4")}
    same = True
    info = {}
    for _ in range(runs):
        ours_samples.append(_runner(ours_cpu, iterations)())
        for threads, side in sides.items():
            result = side()
            ref_samples[threads].append((result["wall"], result["cpu"]))
            info[threads] = result
    for threads, result in info.items():
        series[threads] = bs.series_from(f"the original nCPU, torch {result['threads']} thread(s)"
                                         f"{' (torch default)' if threads == 0 else ''}", ref_samples[threads],
                                         result["cycles"], "instruction")
        if threads == 1:
            same = all(result["registers"][r] == v for r, v in expected.items())
        details.append(f"torch {result['threads']} thread(s): {result['cycles']} instructions a run")
    ops = info[1]["neural_ops"]
    missing = sorted({"ADD", "XOR", "DEC"} - set(ops)) + ([] if "SHL" in ops else ["SHL"])
    ours = bs.series_from("ncpu_nb neural mode", ours_samples, ours_n, "instruction")
    note = (f"; its networks loaded for {', '.join(ops)}" + (f" ({', '.join(missing)} ran without a network: "
            "its model file was absent, so the original ran faster than fully neural)" if missing else "")
            + f"; torch {info[1]['torch']}; code at {root or 'the installed ncpu package'}")
    rows = [bs.row(f"{label}, torch {info[t]['threads']} thread(s){' (default)' if t == 0 else ''}", measures,
                   ours, series[t], sense="speedup", ok=same, detail="; ".join(details) + note) for t in series]
    return rows[0] if len(rows) == 1 else {**rows[0], "also": rows[1:]}


def torch_wiring_rows(quick: bool = False, progress: bool = False) -> list[dict]:
    """Operations per second of the torch NeuralALU on one batch per timed run, on the CPU (and on a GPU
    when torch sees one): the tier for whole verification sets and many lanes at once. `progress`: a
    bar per device (DIV and MUL take most of the time)."""
    import numpy as np
    import torch
    from tqdm.auto import tqdm

    from ncpu_nb.ncpu.neural_alu import NeuralALU, to_bits

    runs = 1 if quick else 3
    rng = np.random.default_rng(0)
    rows = []
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for device in devices:
        alu = NeuralALU(device=device)
        for name in tqdm(("add", "mul", "and", "shl", "div"), desc=f"torch wiring on {device}", disable=not progress):
            batch = {"div": 256 if quick else 1_024, "mul": 1_024 if quick else 16_384}.get(name, 4_096 if quick else 65_536)
            a, b = (rng.integers(0, 1 << 32, batch, dtype=np.uint64) for _ in range(2))
            x, y = to_bits(a, device), to_bits(b, device)

            def once(x=x, y=y, name=name):
                with torch.no_grad():
                    alu.op(name)(x, y)
                    if device == "cuda":
                        torch.cuda.synchronize()

            with torch.no_grad():
                alu.op(name)(x[:64], y[:64])  # warm up (kernels, allocator)
            repeats = 1 if quick else bs.repeats_for(once)

            def side(repeats=repeats, once=once):
                def work():
                    for _ in range(repeats):
                        once()
                _, wall, cpu_s = bs.timed_call(work)
                return wall, cpu_s
            samples = bs.in_turns({"ours": side}, runs)["ours"]
            series = bs.series_from("torch NeuralALU", samples, batch * repeats, "operation")
            rows.append(bs.row(f"torch wiring on {device}: {name.upper()} × {batch:,}",
                               f"one batch of {batch:,} {name.upper()}s through the torch wiring, {repeats} batch(es) "
                               f"per timed run; torch {torch.get_num_threads()} threads", series))
    return rows


def bench_torch_wiring(quick: bool = False, progress: bool = False) -> dict:
    """Operations per second of each torch wiring batch (a notebook's table): {label: {per_second, ...}}."""
    out = {}
    for r in torch_wiring_rows(quick, progress):
        seconds = r["ours"]["wall_s"]["median"]
        out[r["label"]] = {"instructions": r["ours"]["work_per_run"], "seconds": seconds,
                           "per_second": r["ours"]["work_per_run"] / seconds}
    return out


TORCH_LANES = {"cpu": (1_024, 16_384, 65_536), "cuda": (1_024, 16_384, 65_536, 262_144, 1_048_576)}
TORCH_GOALS = {"fast": 1e9, "neural": 1e8}  # lane-instructions/s on a data-centre GPU (the tracker's issue 23)


def _timed_runs(cpu, iterations: int, repeats: int):
    """A side for `in_turns`: `repeats` runs of the loop from reset, only the runs timed (a reset of
    many lanes is per-lane Python work on either executor, not instructions)."""
    def side():
        wall = cpu_s = 0.0
        for _ in range(repeats):
            cpu.reset()
            cpu.set_registers(R0=iterations)
            _, w, c = bs.timed_call(lambda: cpu.run(max_steps=10 * iterations + 10))
            wall, cpu_s = wall + w, cpu_s + c
        return wall, cpu_s
    return side


def torch_lanes_rows(mode: str, device: str, quick: bool = False) -> list[dict]:
    """Lane-instructions/s of torch lanes (`CPU(device=...)`) at several lane counts beside the Rust
    executor on the same lanes, in the same run and the same mode; every lane's registers and cycles
    compared first. The GPU goals are the row targets only on a GPU; on the CPU the figure is reported."""
    import torch
    from tqdm.auto import tqdm

    from ncpu_nb.ncpu import CPU
    from ncpu_nb.ncpu.neural_alu import torch_device

    kind = torch_device(device).type
    runs = 1 if quick else 3
    counts = (64, 256) if quick else TORCH_LANES.get(kind, TORCH_LANES["cuda"])
    rows = []
    bar = tqdm(counts, desc=f"{mode} torch lanes on {device}", unit="lane count", disable=quick)
    for lanes in bar:
        if quick:
            iterations = 3
        elif kind != "cpu":  # 5k + 3 instructions a lane: 1,023 and 63 steps fill 16 and 1 captured 64-step graphs
            iterations = 204 if mode == "fast" else 12
        elif mode == "fast":
            iterations = max(10, 100_000 // lanes)
        else:
            iterations = max(2, 4_096 // lanes)
        ours_cpu = CPU(LOOP, mode=mode, lanes=lanes, memory_size=256, trace_depth=0, device=device)
        rust_cpu = CPU(LOOP, mode=mode, lanes=lanes, memory_size=256, trace_depth=0)
        done, first = [], []
        for cpu in (ours_cpu, rust_cpu):
            cpu.reset()
            cpu.set_registers(R0=iterations)
            _, wall, _ = bs.timed_call(lambda: done.append(cpu.run(max_steps=10 * iterations + 10).instructions))
            first.append(wall)
        same = (done[0] == done[1] and (ours_cpu.registers_array() == rust_cpu.registers_array()).all()
                and (ours_cpu.lane_cycles() == rust_cpu.lane_cycles()).all())
        n = done[0]
        # That first run warmed both up; one that took twice the least timed work needs no repeats
        # (neural mode on the Rust executor takes seconds at a million lanes).
        ours_repeats, ref_repeats = (1 if quick or wall >= 2 * bs.MIN_SECONDS
                                     else bs.repeats_for(_timed_runs(cpu, iterations, 1))
                                     for cpu, wall in ((ours_cpu, first[0]), (rust_cpu, first[1])))
        samples = bs.in_turns({"ours": _timed_runs(ours_cpu, iterations, ours_repeats),
                               "ref": _timed_runs(rust_cpu, iterations, ref_repeats)}, runs)
        ours = bs.series_from(f"torch lanes on {device}", samples["ours"], n * ours_repeats, "lane-instruction")
        ref = bs.series_from("Rust lane executor", samples["ref"], n * ref_repeats, "lane-instruction")
        ours.extra["repeats_per_run"], ref.extra["repeats_per_run"] = ours_repeats, ref_repeats
        goal = TORCH_GOALS[mode]
        on_gpu = kind == "cuda"
        rows.append(bs.row(
            f"{mode}: torch lanes on {device}, {lanes:,} lanes",
            f"{lanes:,} lanes x {iterations:,} iterations of the 5-instruction loop, {mode} mode, as batched tensor "
            f"operations on {device}; reference: the Rust lane executor on the same lanes (its threads)",
            ours, ref, statistic="median wall", sense="speedup",
            absolute=n * ours_repeats / goal if on_gpu else None,
            target=f">= {goal:,.0f} lane-instructions/s" if on_gpu else "",
            ok=bool(same),
            detail=("" if on_gpu else f"no target on {device}: the goal, {goal:,.0f} lane-instructions/s, is for a "
                    "data-centre GPU; ") + f"{n:,} lane-instructions per program run; runs timed without their resets; torch "
                   f"{torch.__version__}, {torch.get_num_threads()} CPU thread(s)" + _graph_note(ours_cpu._exec)
                   + ("" if same else "; REGISTERS OR CYCLES DIFFER from the Rust executor")))
        # each row as it is measured, so a run cut short (a lent GPU's time limit) still says what it found
        bar.write(f"{lanes:>9,} lanes: torch {1 / ours.per_unit('median wall'):,.0f}, Rust "
                  f"{1 / ref.per_unit('median wall'):,.0f} lane-instructions/s{'' if same else ' (DIFFER)'}",
                  file=sys.stderr)
    return rows


def _graph_note(lanes) -> str:
    """How the torch lanes stepped: compiled or not (and why not), replaying captured CUDA graphs or eagerly."""
    compiled = ("; " + lanes.compile_error if lanes.compile_error else
                "; steps compiled by torch.compile" if lanes.compiled else "; steps not compiled")
    if lanes.graph_error:
        return f"{compiled}; {lanes.graph_error}"
    return compiled + (f"; {lanes.graphs_captured} CUDA graph(s) captured and replayed" if lanes.graphs_captured else "")


ASH_LOOP = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"  # BusyBox ash: far more than 10 M instructions


def bench_debugger(quick: bool = False) -> list[dict]:
    """A BusyBox run of 10 M AArch64 instructions (300 k with `quick`): plain with the trace off and
    on, and in the debugger widget (on its worker thread, the view updated up to 30 times a second,
    the trace off while it runs and its last 64 steps rebuilt when it stops), each beside the plain
    untraced run, all taken in turns."""
    from ncpu_nb.arm64 import Arm64Machine

    n, runs = (300_000, 1) if quick else (10_000_000, 5)
    dbg = Arm64Machine.busybox("sh", "-c", ASH_LOOP).debugger()  # shows the last 64 instructions

    def in_debugger():
        dbg.reset()
        dbg.run(n)

    sides = {"plain": lambda: Arm64Machine.busybox("sh", "-c", ASH_LOOP).run(n),
             "trace": lambda: Arm64Machine.busybox("sh", "-c", ASH_LOOP, trace_depth=64).run(n),
             "debugger": in_debugger}
    samples = bs.in_turns({k: (lambda f=f: bs.timed_call(f)[1:]) for k, f in sides.items()}, runs,
                          warmup=True)  # the first run compiles the hot regions, which later machines share
    plain = bs.series_from("busybox ash, plain run, trace off", samples["plain"], n, "instruction")
    what = f"{n:,} instructions of a BusyBox ash loop (a fresh machine each run)"
    return [bs.row("busybox ash, plain run, trace off", what, plain),
            bs.row("busybox ash, plain run, trace 64", what + ", the last 64 kept; reference: the same, trace off",
                   bs.series_from("ncpu_nb", samples["trace"], n, "instruction"), plain),
            bs.row("busybox ash run in the debugger", what + " in the debugger widget (worker thread, view updates); "
                   "reference: the plain run, trace off", bs.series_from("ncpu_nb", samples["debugger"], n, "instruction"),
                   plain)]


def run(target: str, quick: bool = False, device: str | None = None) -> dict:
    """The whole bench of one target as a document (`ncpu_nb.bench_report.document`). With `device`:
    fast and neural, the torch lanes on that device beside the Rust executor instead; synth, gradient
    descent's restarts on that device."""
    from ncpu_nb import bench_report

    if target not in TARGETS:
        raise ValueError(f"unknown bench target {target!r}; choose from {', '.join(TARGETS)}")
    if device is not None and target not in ("fast", "neural", "synth"):
        raise ValueError(f"--device applies to the fast, neural and synth targets, not {target!r}")
    started, t0 = bench_report.host(), time.perf_counter()
    if device is not None and target != "synth":
        rows = torch_lanes_rows(target, device, quick)
    elif target == "machine":
        from ncpu_nb.arm64 import machine_bench

        rows = machine_bench.run(quick)
    elif target == "synth":
        from ncpu_nb.synthesis import synth_bench

        rows = synth_bench.bench_rows(quick, device or "cpu")
    elif target == "coprocessor":
        from ncpu_nb.coprocessor import copro_bench

        rows = copro_bench.bench_rows(quick)
    elif target == "fuzz":
        from ncpu_nb.debugging import fuzz_bench

        rows = fuzz_bench.bench_rows(quick)
    elif target == "learned-compiler":
        from ncpu_nb.compiler import learned_bench

        rows = learned_bench.bench_rows(quick)
    else:
        rows = {"fast": bench_fast, "neural": bench_neural, "debugger": bench_debugger}[target](quick)
    flat = []
    for r in rows:
        flat += [r, *r.pop("also", [])]
    return bench_report.document(target, quick, flat, started, time.perf_counter() - t0)


def format_report(report: dict) -> str:
    from ncpu_nb import bench_report

    return bench_report.format_document(report)
