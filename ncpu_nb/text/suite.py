"""The text machine's suite (programs/synth/text): every task's training pairs to the synthesizer,
then the program it reports run on the exact CPU on the task's held-out pairs. A task counts as
solved only if every held-out pair comes out right.

The outcomes and totals have the shape of `ncpu_nb.synthesis.synth_bench` (same fields and keys), so
`ncpu-nb synth-bench --suite text` can print them with the other suites. Gradient descent plays no
part here: its counts are 0, and the report says so.
"""
from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass
from pathlib import Path

from ncpu_nb.html import Table
from ncpu_nb.resources import data_dir
from ncpu_nb.text.execute import run_many, to_bytes
from ncpu_nb.text.transform_search import SOLVERS
from ncpu_nb.text.synthesize import TextSynthesizer

DEFAULT_TIME_LIMIT = 30.0


@dataclass
class TaskOutcome:
    name: str
    category: str
    solved: bool
    method: str | None  # the solver that found the program reported (see ncpu_nb.text.transform_search)
    seconds: float
    held_out: tuple[int, int]  # the task's held-out pairs the program got right / all
    restarts: int = 0  # the fields below keep synth_bench's shape; no gradient descent runs here
    restart_successes: int = 0
    length: int = 0  # instructions, HALT excluded (as synth_bench counts)
    gradient_solved: bool = False
    transform: str = ""


def default_directory() -> Path:
    return data_dir("programs") / "synth" / "text"


def task_files(directory=None, names=None) -> list[Path]:
    directory = Path(directory) if directory else default_directory()
    files = sorted(directory.glob("*.json"))
    if names:
        wanted = set(names)
        files = [p for p in files if p.stem in wanted]
        missing = wanted - {p.stem for p in files}
        if missing:
            raise KeyError(f"no task named {', '.join(sorted(missing))} in {directory}")
    return files


def run_task(path: Path, synthesizer: TextSynthesizer, time_limit: float | None = None) -> TaskOutcome:
    task = json.loads(Path(path).read_text())
    result = synthesizer.synthesize([tuple(p) for p in task["examples"]],
                                    time_limit or task.get("time_limit", DEFAULT_TIME_LIMIT))
    held_out = task["held_out"]
    passed = 0
    if result.solved:
        outputs, _ = run_many(result.program, [to_bytes(x) for x, _ in held_out])
        passed = sum(out == to_bytes(y) for out, (_, y) in zip(outputs, held_out))
    return TaskOutcome(task["name"], task["category"], result.solved and passed == len(held_out), result.solver,
                       result.seconds, (passed, len(held_out)), length=result.size - 1 if result.solved else 0,
                       transform=str(result.pipeline) if result.solved else "")


def run_suite(directory=None, *, names=None, limit=None, time_limit=None, progress=None) -> list[TaskOutcome]:
    """Run the suite; `limit` keeps the first n tasks, `time_limit` overrides each task's seconds."""
    files = task_files(directory, names)[:limit]
    iterator = files
    if progress:
        from tqdm.auto import tqdm

        iterator = tqdm(files, desc="text suite", unit="task")
    synthesizer = TextSynthesizer()
    outcomes = []
    for path in iterator:
        outcomes.append(run_task(path, synthesizer, time_limit))
        if progress:
            iterator.set_postfix(solved=sum(o.solved for o in outcomes))
    return outcomes


run = run_suite  # the name synth_bench uses


def totals(outcomes: list[TaskOutcome]) -> dict:
    """synth_bench's totals, gradient figures 0 (no gradient descent in this suite)."""
    n = len(outcomes)
    solved = sum(o.solved for o in outcomes)
    return {"tasks": n, "solved_by_gradient": 0, "solved_by_portfolio": solved, "gradient_percent": 0.0,
            "portfolio_percent": round(100 * solved / n, 1) if n else 0.0,
            "median_seconds": round(statistics.median(o.seconds for o in outcomes), 3) if n else 0.0,
            "restarts": 0, "restart_successes": 0, "per_restart_success_rate": 0.0,
            "fit_examples_but_failed_held_out": sum(o.method is not None and not o.solved for o in outcomes),
            "by_method": {m: sum(o.solved and o.method == m for o in outcomes) for m in SOLVERS},
            "gradient_solved_but_shorter_reported": 0,
            "held_out_pairs": [sum(o.held_out[0] for o in outcomes), sum(o.held_out[1] for o in outcomes)]}


def report(outcomes: list[TaskOutcome]) -> Table:
    rows = []
    for o in outcomes:
        result = f"solved ({o.method})" if o.solved else ("FAILED held-out" if o.method else "not solved")
        rows.append([o.name, o.category, result, o.transform, f"{o.seconds:.2f}",
                     f"{o.held_out[0]}/{o.held_out[1]}", o.length])
    t = totals(outcomes)
    notes = [f"tasks: {t['tasks']}",
             f"solved: {t['solved_by_portfolio']} ({t['portfolio_percent']} %)  by solver: "
             + ", ".join(f"{m} {k}" for m, k in t["by_method"].items()),
             "solved by gradient descent: 0 (not used: the text machine enumerates a typed DSL of transforms)",
             f"fit the training examples but failed held-out: {t['fit_examples_but_failed_held_out']}",
             f"held-out pairs right: {t['held_out_pairs'][0]}/{t['held_out_pairs'][1]}",
             f"median seconds per task: {t['median_seconds']}"]
    return Table("Text machine suite", ["task", "category", "result", "transform", "seconds", "held-out", "len"],
                 rows, numeric=(4, 5, 6), notes=notes)


def format_report(outcomes: list[TaskOutcome]) -> str:
    return str(report(outcomes))


def as_json(outcomes: list[TaskOutcome]) -> str:
    return json.dumps({"suite": "text", "tasks": [asdict(o) for o in outcomes], "totals": totals(outcomes)}, indent=1)
