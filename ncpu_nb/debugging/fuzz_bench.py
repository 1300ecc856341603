"""`ncpu-nb bench fuzz`: the fuzzer's throughput beside a process per execution, and its time to the crash.

Rows (the shape of `ncpu_nb.bench_stats.row`), all on `programs/arm64/c/bin/magic`:
  executions, 1 worker   restore a snapshot taken where the program waits for stdin, write the input, run
                         with edge coverage on; reference: `qemu-aarch64 -cpu cortex-a53 magic < input` as a
                         process per execution (what a fuzzer driving qemu-user without a fork server does)
  executions, 2 workers  the same with two workers (threads; the engine runs with the GIL released), beside
                         one worker: the speed-up of many machines at once (aim >= 1.5 on two cores)
  to the crash           executions and seconds until the campaign finds magic's 4-byte crash, over several
                         seeds (one worker, so each seed's campaign is deterministic)
  nCPU, 256 lanes        `programs/ncpu/magic_word` fuzzed with its input at `input`, 256 inputs a batch run
                         as the lanes of one CPU (per-lane edge coverage on), beside the same campaign one
                         lane at a time: executions/s of both, measured in turns in the same run
"""
from __future__ import annotations

import shutil
import statistics
import time

from ncpu_nb import bench_stats as bs
from ncpu_nb import load_program
from ncpu_nb.debugging.fuzzer import Fuzzer
from ncpu_nb.resources import data_dir

QEMU = "qemu-aarch64"


def _magic() -> str:
    return str(data_dir("programs") / "arm64" / "c" / "bin" / "magic")


def _campaign_side(workers: int, executions: int):
    def side():
        fuzzer = Fuzzer(_magic(), workers=workers, seed=7)
        _, wall, cpu = bs.timed_call(lambda: fuzzer.run(executions=executions))
        return wall, cpu
    return side


def _lanes_side(lanes: int, executions: int):
    def side():
        fuzzer = Fuzzer(load_program("magic_word"), where="memory:input", lanes=lanes, seed=7)
        _, wall, cpu = bs.timed_call(lambda: fuzzer.run(executions=executions))
        return wall, cpu
    return side


def _qemu_side(executions: int):
    inputs = [b"", b"F", b"FU", b"HX", b"FUZ", b"\xff" * 8]

    def side():
        start = time.perf_counter()
        children = 0.0
        for i in range(executions):
            run = bs.run_child([QEMU, "-cpu", "cortex-a53", _magic()], stdin=inputs[i % len(inputs)])
            children += run.cpu
        return time.perf_counter() - start, children
    return side


def bench_rows(quick: bool = False) -> list[dict]:
    executions, runs, seeds = (300, 1, 2) if quick else (3000, 3, 5)
    sides = {"one": _campaign_side(1, executions), "two": _campaign_side(2, executions)}
    if shutil.which(QEMU):
        sides["qemu"] = _qemu_side(executions // 10)
    samples = bs.in_turns(sides, runs, warmup=not quick)
    one = bs.series_from("ncpu_nb fuzzer, 1 worker", samples["one"], executions, "execution")
    two = bs.series_from("ncpu_nb fuzzer, 2 workers", samples["two"], executions, "execution")
    qemu = (bs.series_from("qemu-aarch64, a process per execution", samples["qemu"], executions // 10, "execution")
            if "qemu" in samples else bs.NotMeasured(f"{QEMU} is not installed"))
    what = f"{executions:,} executions of magic (stdin mutated, edge coverage on)"
    rows = [bs.row("fuzz magic, 1 worker", what + "; reference: qemu-aarch64 started for each input",
                   one, qemu, statistic="median wall", sense="speedup"),
            bs.row("fuzz magic, 2 workers", what + "; reference: the same with 1 worker", two, one,
                   statistic="median wall", sense="speedup", limit=1.5, target="speed-up >= 1.5 on two cores")]
    found = []
    for seed in range(seeds):
        fuzzer = Fuzzer(_magic(), workers=1, seed=seed)
        start = time.perf_counter()
        report = fuzzer.run(executions=300_000, stop_on_crash=True)
        found.append((report.crashes[0].execution if report.crashes else None, time.perf_counter() - start))
    hits = [n for n, _ in found if n is not None]
    detail = (f"seeds 0-{seeds - 1}: executions to the crash {[n for n, _ in found]}, seconds "
              f"{[round(s, 1) for _, s in found]}; median {statistics.median(hits):,.0f} executions"
              if hits else "no seed found the crash within 300,000 executions")
    series = bs.Series("ncpu_nb fuzzer, 1 worker", 1, "campaign")
    for _, seconds in found:
        series.add(seconds, seconds)
    rows.append(lanes_row(quick))
    rows.append(bs.row("fuzz magic to the crash", "a campaign from the empty input until the FUZZ crash "
                       "(300,000 executions at most), one per seed", series, None, detail=detail,
                       ok=len(hits) == len(found)))
    return rows


def lanes_row(quick: bool = False, lanes: int = 256) -> dict:
    """The nCPU campaign as batches of `lanes` lanes beside one lane at a time (see the module doc)."""
    executions, runs = (5_000, 1) if quick else (50_000, 3)
    samples = bs.in_turns({"many": _lanes_side(lanes, executions), "one": _lanes_side(1, executions)}, runs,
                          warmup=not quick)
    many = bs.series_from(f"ncpu_nb fuzzer, {lanes} lanes", samples["many"], executions, "execution")
    one = bs.series_from("ncpu_nb fuzzer, 1 lane", samples["one"], executions, "execution")
    rate = {name: executions / statistics.median(wall for wall, _ in runs) for name, runs in samples.items()}
    return bs.row(f"fuzz nCPU magic_word, {lanes} lanes",
                  f"{executions:,} executions of programs/ncpu/magic_word (input at `input`, edge coverage on "
                  f"per lane), {lanes} inputs a batch as lanes; reference: the same campaign on 1 lane",
                  many, one, statistic="median wall", sense="speedup", limit=2.0,
                  target="speed-up >= 2 over one lane at a time",
                  detail=f"{rate['many']:,.0f} executions/s with {lanes} lanes, {rate['one']:,.0f}/s with 1 lane")
