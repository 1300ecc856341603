"""`ncpu-nb bench learned-compiler`: the shipped configuration trained from its seed (supervision +
execution), beside the same network trained with supervision only and with execution only (same
steps, batch and seed), each evaluated on the held-out expressions; the rows time the training, the
detail gives every arm's accuracies by depth."""
from __future__ import annotations

import time
from dataclasses import replace

ARMS = {"supervised + execution": {}, "supervised only": {"execution_weight": 0.0},
        "execution only": {"supervised_steps": 0}}


def train_arms(steps: int | None = None, seed: int = 0, progress: bool = True, skip: str | None = None) -> dict:
    """arm -> (compiler, wall seconds, CPU seconds, held-out report); `skip` leaves one arm out."""
    from ncpu_nb.compiler.learned_compiler import LearnedCompiler, TrainConfig

    found = {}
    for arm, change in ARMS.items():
        if arm == skip:
            continue
        config = replace(TrainConfig(seed=seed), **change, **({"steps": steps} if steps else {}))
        compiler = LearnedCompiler(config)
        wall, cpu = time.perf_counter(), time.process_time()
        compiler.train(progress=progress)
        found[arm] = (compiler, time.perf_counter() - wall, time.process_time() - cpu, compiler.evaluate())
    return found


def bench_rows(quick: bool = False) -> list[dict]:
    from ncpu_nb import bench_stats as bs

    steps = 25 if quick else None
    arms = train_arms(steps)
    work = next(iter(arms.values()))[0].steps_trained
    series = {arm: bs.series_from(arm, [(wall, cpu)], work, "step") for arm, (_, wall, cpu, _) in arms.items()}
    detail = "\n\n".join(f"{arm}:\n{report.text()}" for arm, (_, _, _, report) in arms.items())
    return [bs.row("learned compiler: training with the execution loss",
                   f"{work} steps of batch {next(iter(arms.values()))[0].config.batch}, seed 0; the reference is the "
                   "same network trained with supervision only (no execution term)", series["supervised + execution"],
                   series["supervised only"], detail=detail)]
