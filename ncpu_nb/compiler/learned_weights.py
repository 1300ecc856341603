"""The shipped learned compiler: weights/learned_compiler/ (safetensors + manifest.json with its sha256,
seed, config, training seconds, learning curve and the held-out accuracies measured when it was written).

    python -m ncpu_nb.compiler.learned_weights [--out DIR] [--seed N]   # retrain (minutes), evaluate, write DIR
    python -m ncpu_nb.compiler.learned_weights --compare               # also train the supervision-only and
                                                                       # execution-only arms, record their figures
    LearnedCompiler.load()                                             # the shipped model, sha256-checked
"""
from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path

from ncpu_nb.compiler.learned_shipped import NAME, folder, manifest_entry, shipped_file  # noqa: F401 (their old home)

DATA_RECIPE = ("training_expression(numpy default_rng([seed, 2026, 0])): depth uniform over 1-3, a random "
               "expression of that depth (+ - * over a, b, c and literals 1-9, leaves variables with probability "
               "0.6), held-out expressions (a hash of the text, 20%) rejected; a fresh batch every step")


def write(directory, seed: int = 0, progress: bool = True) -> dict:
    """Train the shipped configuration with `seed`, evaluate on the held-out set, write weights and manifest."""
    from ncpu_nb.compiler.learned_compiler import LearnedCompiler, TrainConfig
    from ncpu_nb.ncpu.neural_cells import sha256

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    config = TrainConfig(seed=seed)
    compiler = LearnedCompiler(config)
    history = compiler.train(progress=progress)
    report = compiler.evaluate()
    file = directory / f"{NAME}_seed{seed}.safetensors"
    compiler.save(file)
    entry = {"file": file.name, "sha256": sha256(file), "seed": seed, "config": asdict(config),
             "steps": compiler.steps_trained, "parameters": sum(p.numel() for p in compiler.model.parameters()),
             "data": DATA_RECIPE, "train_seconds": round(history.seconds, 1),
             "evaluation": "evaluate(): held_out_expressions(per_depth=200, seed=0), 8 random inputs in [-50, 50] "
                           "each (default_rng([0, 2028])), argmax programs on the nCPU, fast mode",
             "held_out": _rounded(report),
             "curve": history.curve(25)}
    (directory / "manifest.json").write_text(json.dumps({"models": {NAME: entry}}, indent=2) + "\n")
    return entry


def _rounded(report) -> dict:
    return {str(d): {k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items()}
            for d, r in report.by_depth().items()}


def add_comparison(directory) -> dict:
    """Train the other arms of `learned_bench.ARMS` (same seed, steps and batch as the shipped model),
    evaluate them the same way, and record every arm's figures under the manifest's "comparison"."""
    from ncpu_nb.compiler.learned_bench import ARMS, train_arms

    path = Path(directory) / "manifest.json"
    manifest = json.loads(path.read_text())
    entry = manifest["models"][NAME]
    arms = train_arms(entry["steps"], entry["seed"], skip=next(iter(ARMS)))
    entry["comparison"] = {next(iter(ARMS)): entry["held_out"],
                           **{arm: _rounded(report) for arm, (_, _, _, report) in arms.items()}}
    entry["comparison_train_seconds"] = {arm: round(wall, 1) for arm, (_, wall, _, _) in arms.items()}
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    return entry["comparison"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="the folder to write (default: the kit's weights/learned_compiler)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compare", action="store_true", help="also train and record the other two arms")
    parser.add_argument("--compare-only", action="store_true", help="only add the other arms to an existing manifest")
    args = parser.parse_args(argv)
    where = folder(args.out) if args.out else _checkout_folder()
    if not args.compare_only:
        entry = write(where, args.seed)
        print(entry["file"], entry["sha256"][:12], f"{entry['train_seconds']} s")
        for depth, row in entry["held_out"].items():
            print(f"depth {depth}: {row}")
    if args.compare or args.compare_only:
        for arm, rows in add_comparison(where).items():
            print(arm, {d: (r["exact_match"], r["execution"]) for d, r in rows.items()})
    return 0


def _checkout_folder() -> Path:
    try:
        return folder()
    except FileNotFoundError:
        return Path(__file__).resolve().parents[2] / "weights" / NAME


if __name__ == "__main__":
    raise SystemExit(main())
