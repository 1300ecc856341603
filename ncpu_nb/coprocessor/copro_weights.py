"""The trained models of the comparison, shipped: seed 0 of both arms at the full budget, as
safetensors with a manifest (sha256, seed, steps, data recipe, held-out accuracy).

    python -m ncpu_nb.coprocessor.copro_weights [--out DIR]   # retrain both (about 3 minutes), write DIR
    model = load_trained("coprocessor")                         # checked against its sha256
"""
from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path

from ncpu_nb.coprocessor.arithmetic_text import OPS, TRAIN_LENGTHS
from ncpu_nb.coprocessor.experiment import ARMS, RunConfig, build, evaluate, train

DATA_RECIPE = (f"training_problems(numpy default_rng([seed, 2026])): op uniform over {''.join(OPS)}, each operand's "
               f"length uniform in {TRAIN_LENGTHS} digits, uniform among numbers of that length, problems with "
               "held_out(op, a, b) rejected; a fresh batch every step")


def folder(directory=None) -> Path:
    from ncpu_nb.resources import data_dir

    return Path(directory) if directory else data_dir("weights") / "coprocessor"


def write(directory, seed: int = 0, config: RunConfig = RunConfig()) -> dict:
    from safetensors.torch import save_file

    from ncpu_nb.ncpu.neural_cells import sha256

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    models = {}
    for arm in ARMS:
        model, losses, seconds, _ = train(arm, seed, config)
        file = directory / f"{arm}_seed{seed}.safetensors"
        save_file({k: v.contiguous() for k, v in model.state_dict().items()}, str(file))
        scores = evaluate(model, 100)
        models[arm] = {"file": file.name, "sha256": sha256(file), "arm": arm, "seed": seed, "config": asdict(config),
                       "parameters": sum(p.numel() for p in model.parameters()), "data": DATA_RECIPE,
                       "final_answer_loss": round(sum(losses[-50:]) / 50, 5), "train_seconds": round(seconds, 1),
                       "held_out_accuracy": {f"{op} {n}": v for (op, n), v in scores.items()}}
    (directory / "manifest.json").write_text(json.dumps({"models": models}, indent=2) + "\n")
    return models


def load_trained(arm: str = "coprocessor", directory=None):
    """The shipped model of `arm`, its coprocessor hooked where it was; refused if its sha256 differs."""
    from safetensors.torch import load_file

    from ncpu_nb.errors import WeightsError
    from ncpu_nb.ncpu.neural_cells import sha256

    where = folder(directory)
    entry = json.loads((where / "manifest.json").read_text())["models"][arm]
    file = where / Path(entry["file"]).name
    if sha256(file) != entry["sha256"]:
        raise WeightsError(f"{file} does not match its sha256 in manifest.json (tampered or stale)")
    model = build(arm, entry["seed"], RunConfig(**entry["config"]))
    model.load_state_dict(load_file(str(file)))
    return model.eval()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="the folder to write (default: the kit's weights/coprocessor)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for arm, entry in write(folder(args.out), args.seed).items():
        print(arm, entry["file"], entry["sha256"][:12], f"{entry['train_seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
