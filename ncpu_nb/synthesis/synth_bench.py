"""`ncpu-nb synth-bench`: the synthesis benchmark of programs/synth, task by task.

For every task the synthesizer runs its portfolio (gradient descent first); a task counts as
solved only if the program passes the held-out examples on the exact CPU. Totals: solved by
gradient descent alone (its own program passed the held-out examples, even where the portfolio
reported a shorter one a sketch found), by the whole portfolio, median seconds, and the per-restart
success rate of gradient descent (restarts that decoded to a program fitting the examples / restarts run).
`ablation="random"` (`--ablation random`) runs gradient descent's sampler alone with learning rate 0:
what it solves, random sampling solves, so the gap to `--gradient-only` is what the gradient adds.
`device` (`--device cuda`) runs gradient descent's restarts on that torch device.
"""
from __future__ import annotations

import json
import statistics
from dataclasses import dataclass

from ncpu_nb.synthesis.gradient_search import GradientSearch
from ncpu_nb.synthesis.spec import SynthesisSpec
from ncpu_nb.synthesis.synthesizer import METHODS, Synthesizer
from ncpu_nb.ncpu.exact_check import passing
from ncpu_nb.html import Table
from ncpu_nb.resources import data_dir


@dataclass
class TaskOutcome:
    name: str
    category: str
    solved: bool
    method: str | None
    seconds: float
    held_out: tuple[int, int]
    restarts: int
    restart_successes: int
    length: int
    gradient_solved: bool  # gradient descent's own program passed the held-out examples (reported or not)
    program: str | None = None  # the reported program's source


def default_directory():
    return data_dir("programs") / "synth"


def suites() -> list[str]:
    """The bundled suites: "default" (the tasks in programs/synth itself) and every folder of tasks in it."""
    return ["default"] + sorted(p.name for p in default_directory().iterdir() if p.is_dir() and any(p.glob("*.json")))


def suite_directory(name: str):
    """The folder of a bundled suite: programs/synth for "default", programs/synth/NAME otherwise."""
    if name == "default":
        return default_directory()
    if name not in suites():
        raise KeyError(f"no suite named {name!r}; the suites are {', '.join(suites())}")
    return default_directory() / name


def task_files(directory=None, names=None) -> list:
    from pathlib import Path

    directory = Path(directory) if directory else default_directory()
    files = sorted(p for p in Path(directory).glob("*.json") if p.name != "manifest.json")
    if names:
        wanted = set(names)
        files = [p for p in files if p.stem in wanted]
        missing = wanted - {p.stem for p in files}
        if missing:
            raise KeyError(f"no task named {', '.join(sorted(missing))} in {directory}")
    return files


ABLATIONS = {"random": "gradient descent's sampler with learning rate 0: its distributions stay at their random "
                       "starts (restarts still re-draw them), so whatever it solves it solves by random sampling"}


def run_task(job: tuple) -> TaskOutcome:
    """One task: job is (path of its spec, time_limit, methods, ablation, turn_steps, device). A
    module-level function of its job alone, so `sweeps.sweep` can run it here or as a Ray task."""
    path, time_limit, methods, ablation, turn_steps, device = job
    still = {"lr": 0.0} if ablation else {}  # the ablation's sampler never moves
    gradient = GradientSearch(turn_steps=turn_steps, device=device, **still)
    synthesizer = Synthesizer(methods=("gradient",) if ablation else methods, gradient=gradient)
    spec = SynthesisSpec.from_json(path)
    result = synthesizer.synthesize(spec, time_limit=time_limit)
    by_gradient = [program for method, program in result.fits if method == "gradient"]
    return TaskOutcome(spec.name, spec.category, result.solved, result.method, result.seconds,
                       result.held_out, result.restarts, result.restart_successes,
                       len(result.program) - 1 if result.program else 0,
                       bool(by_gradient) and bool(passing(by_gradient[0], spec.held_out,
                                                          width=spec.memory_width).all()),
                       result.program.source if result.program else None)


def run(directory=None, *, names=None, limit=None, time_limit=None, methods=METHODS, ablation=None,
        progress=None, ray=None, turn_steps=None, device: str = "cpu") -> list[TaskOutcome]:
    """Run the benchmark; `limit` keeps the first n tasks, `time_limit` overrides each task's.
    `ablation` "random" runs gradient descent's sampler alone with learning rate 0 (see ABLATIONS).
    `ray` (True, "local" or a cluster address) runs the tasks as Ray tasks (see `ncpu_nb.sweeps`).
    `turn_steps` makes gradient descent's turns a number of steps rather than seconds, so that
    its answers are the same however fast (or shared) the machine is, within the time limit.
    `device` (a name: it travels to Ray tasks) is where gradient descent's restarts run."""
    from ncpu_nb.ncpu.neural_alu import torch_device
    from ncpu_nb.sweeps import sweep

    torch_device(device)  # an unknown or absent device is an error before any task starts
    if ablation is not None and ablation not in ABLATIONS:
        raise ValueError(f"unknown ablation {ablation!r}; choose from {', '.join(ABLATIONS)}")
    files = task_files(directory, names)[:limit]
    jobs = [(str(path), time_limit, tuple(methods), ablation, turn_steps, str(device)) for path in files]
    return sweep(run_task, jobs, ray=ray, desc="synth-bench", progress=bool(progress))


def totals(outcomes: list[TaskOutcome]) -> dict:
    n = len(outcomes)
    by_gradient = sum(o.gradient_solved for o in outcomes)
    solved = sum(o.solved for o in outcomes)
    restarts = sum(o.restarts for o in outcomes)
    successes = sum(o.restart_successes for o in outcomes)
    return {"tasks": n, "solved_by_gradient": by_gradient, "solved_by_portfolio": solved,
            "gradient_percent": round(100 * by_gradient / n, 1) if n else 0.0,
            "portfolio_percent": round(100 * solved / n, 1) if n else 0.0,
            "median_seconds": round(statistics.median(o.seconds for o in outcomes), 3) if n else 0.0,
            "restarts": restarts, "restart_successes": successes,
            "per_restart_success_rate": round(successes / restarts, 4) if restarts else 0.0,
            "fit_examples_but_failed_held_out": sum(o.method is not None and not o.solved for o in outcomes),
            "by_method": {m: sum(o.solved and o.method == m for o in outcomes) for m in METHODS},
            "gradient_solved_but_shorter_reported": sum(o.gradient_solved and o.method != "gradient"
                                                        for o in outcomes)}


def report(outcomes: list[TaskOutcome], ablation=None, methods=METHODS) -> Table:
    """Task by task, then the totals: a table in a notebook, text in a terminal."""
    rows = []
    for o in outcomes:
        result = f"solved ({o.method})" if o.solved else ("FAILED held-out" if o.method else "not solved")
        if o.gradient_solved and o.method != "gradient":
            result = f"solved ({o.method}; gradient too)"
        rows.append([o.name, o.category, result, f"{o.seconds:.2f}", f"{o.held_out[0]}/{o.held_out[1]}",
                     f"{o.restart_successes}/{o.restarts}", o.length])
    t = totals(outcomes)
    notes = [f"tasks: {t['tasks']}",
             f"solved by gradient descent alone: {t['solved_by_gradient']} ({t['gradient_percent']} %)",
             "solved by the portfolio: — (gradient descent alone ran)" if ablation or tuple(methods) == ("gradient",)
             else f"solved by the portfolio: {t['solved_by_portfolio']} ({t['portfolio_percent']} %)  reported: "
             + ", ".join(f"{m} {k}" for m, k in t["by_method"].items())
             + f"  (gradient descent solved {t['gradient_solved_but_shorter_reported']} more; a sketch's "
             "shorter program was reported)",
             f"fit the training examples but failed held-out: {t['fit_examples_but_failed_held_out']}",
             f"median seconds per task: {t['median_seconds']}",
             f"gradient restarts: {t['restart_successes']} of {t['restarts']} succeeded "
             f"(per-restart success rate {t['per_restart_success_rate']:.4f})"]
    title = "Synthesis benchmark" + (f" — ablation {ablation}: {ABLATIONS[ablation]}" if ablation else "")
    return Table(title, ["task", "category", "result", "seconds", "held-out", "restarts ok", "len"], rows,
                 numeric=(3, 4, 5, 6), notes=notes)


def format_report(outcomes: list[TaskOutcome], ablation=None, methods=METHODS) -> str:
    return str(report(outcomes, ablation, methods))


def as_json(outcomes: list[TaskOutcome], ablation=None) -> str:
    return json.dumps({"ablation": ablation, "tasks": [o.__dict__ for o in outcomes], "totals": totals(outcomes)},
                      indent=1)


BENCH_TASKS = ("add", "abs", "max", "cube", "factorial", "bit_parity")  # one of several kinds each, small enough to repeat


def bench_rows(quick: bool = False, device: str = "cpu") -> list[dict]:
    """`ncpu-nb bench synth [--device D]`: the portfolio on a fixed handful of tasks, N runs (the shape of
    `ncpu_nb.bench_stats.row`), gradient descent on `device`; no reference (no other synthesizer runs
    here). Solved counts in the detail."""
    from ncpu_nb import bench_stats as bs

    available = {p.stem for p in task_files()}
    names = [n for n in BENCH_TASKS if n in available][:2 if quick else None]
    runs, limit = (1, 5.0) if quick else (3, 30.0)
    solved: list[int] = []

    def side():
        outcomes, wall, cpu = bs.timed_call(lambda: run(names=names, time_limit=limit, device=device))
        solved.append(sum(o.solved for o in outcomes))
        return wall, cpu

    samples = bs.in_turns({"portfolio": side}, runs)
    series = bs.series_from("synthesizer portfolio", samples["portfolio"], len(names), "task")
    where = "" if str(device) == "cpu" else f" on {device}"
    return [bs.row(f"synthesis portfolio{where}, {len(names)} tasks",
                   f"the portfolio (gradient descent{where} first) on "
                   f"{', '.join(names)}, {limit:g} s per task at most; no reference", series,
                   detail=f"solved per run: {solved} of {len(names)}")]
