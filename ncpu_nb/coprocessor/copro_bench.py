"""`ncpu-nb bench coprocessor`: the full comparison — both arms, three seeds, 1,500 steps each —
as benchmark rows: the training time of each arm per run, the held-out accuracies in the detail."""
from __future__ import annotations

from ncpu_nb.coprocessor.experiment import RunConfig, compare


def bench_rows(quick: bool = False) -> list[dict]:
    from ncpu_nb import bench_stats as bs

    seeds, config, n_test = ((0,), RunConfig(steps=200), 20) if quick else ((0, 1, 2), RunConfig(), 100)
    result = compare(seeds, config, n_test, progress=True)
    series = {arm: bs.series_from(arm, list(zip(result.seconds[arm], result.cpu_seconds[arm])), config.steps, "step")
              for arm in result.seconds}
    accuracy = result.text()
    return [bs.row("coprocessor: training, the transformer with the ALU coprocessor",
                   f"{config.steps} steps of batch {config.batch} per seed, seeds {list(seeds)}; the reference is "
                   "the same transformer without it, same data and steps", series["coprocessor"],
                   series["baseline"], detail=accuracy)]
