"""`python -m ncpu_nb.train`: rebuild every cell in weights/ from scratch, deterministically.

Each cell trains on its whole (tiny) input domain from a recorded seed until every pattern is
right with a margin, then is saved as safetensors with its sha256 and verification in
weights/manifest.json.

`--seeds 0-7` trains instead each cell from each of those seeds and reports, per (cell, seed), the
steps to the margin, the patterns right and a digest of the weights, saving nothing; `--ray [ADDRESS]`
makes every (cell, seed) a Ray task (ncpu_nb.sweeps), with the same rows (each run is one thread).
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch
from tqdm.auto import tqdm

from ncpu_nb.ncpu.neural_cells import CELLS, CellSpec, sha256
from ncpu_nb.ncpu.torch_cells import Cell
from ncpu_nb.resources import data_dir

MARGIN = 2.0  # every logit at least this far on the right side of 0


def _fit(spec: CellSpec, max_steps: int) -> tuple[Cell, int, float]:
    """The cell trained from its seed: (cell, Adam steps taken, the last loss; 0 when every pattern has the margin)."""
    torch.manual_seed(spec.seed)
    cell = Cell(spec)
    x, y = torch.from_numpy(spec.domain()), torch.from_numpy(spec.targets())
    sign = y * 2 - 1
    opt = torch.optim.Adam(cell.parameters(), lr=0.05)
    steps, last = 0, float("nan")
    for steps in range(max_steps + 1):
        logits = cell.logits(x)
        # hinge on the margin: zero loss once every pattern is right by MARGIN
        loss = torch.relu(MARGIN - sign * logits).mean()
        last = loss.item()
        if last == 0 or steps == max_steps:
            break
        opt.zero_grad()
        loss.backward()
        opt.step()
    return cell, steps, last


def train_cell(spec: CellSpec, max_steps: int = 20_000) -> Cell:
    cell = _fit(spec, max_steps)[0]
    right, total = cell.check()
    if right != total:
        raise RuntimeError(f"cell {spec.name} reached only {right}/{total} patterns; change its seed")
    return cell


def train_all(directory: Path, names=None) -> dict:
    from safetensors.torch import save_file

    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "manifest.json"
    manifest = json.loads(path.read_text()) if path.is_file() else {"cells": {}}
    for name in tqdm(names or list(CELLS), desc="training cells"):
        spec, t0 = CELLS[name], time.perf_counter()
        cell = train_cell(spec)
        file = directory / f"{name}.safetensors"
        save_file({k: v.contiguous() for k, v in cell.state_dict().items()}, str(file))
        right, total = cell.check()
        manifest["cells"][name] = {
            "file": file.name, "sha256": sha256(file),
            "parameters": sum(p.numel() for p in cell.parameters()),
            "inputs": list(spec.inputs), "outputs": list(spec.outputs), "hidden": spec.hidden,
            "domain": f"all {total} patterns of {len(spec.inputs)} input bits", "domain_size": total,
            "seed": spec.seed, "training_seconds": round(time.perf_counter() - t0, 2),
            "verified": {"correct": right, "of": total},
        }
    manifest["cells"] = dict(sorted(manifest["cells"].items()))
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def train_seed(item: tuple[str, int, int]) -> dict:
    """One cell from one seed (a sweep's task: the item is (cell name, seed, max steps)), on one thread so the
    arithmetic does not depend on the process: its steps, final loss, patterns right and weights' sha256."""
    import dataclasses
    import hashlib

    name, seed, max_steps = item
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        cell, steps, loss = _fit(dataclasses.replace(CELLS[name], seed=seed), max_steps)
    finally:
        torch.set_num_threads(threads)
    right, total = cell.check()
    digest = hashlib.sha256()
    for key, value in sorted(cell.state_dict().items()):
        digest.update(key.encode() + value.detach().contiguous().numpy().tobytes())
    return {"cell": name, "seed": seed, "steps": steps, "loss": loss, "correct": right, "of": total,
            "exact": right == total, "weights_sha256": digest.hexdigest()}


def seed_sweep(cells=None, seeds=range(4), *, max_steps: int = 20_000, ray=None, progress: bool = True) -> list[dict]:
    """Trains every cell of `cells` (default: all) from every seed of `seeds`, saving nothing; one row per
    (cell, seed), cell by cell. With `ray` (True, "local" or a cluster address) each is a Ray task."""
    from ncpu_nb.sweeps import sweep

    items = [(name, int(seed), max_steps) for name in (cells or list(CELLS)) for seed in seeds]
    return sweep(train_seed, items, ray=ray, desc="training seeds", progress=progress)


def _seed_range(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ncpu_nb.train", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="weights folder (default: the kit's weights/)")
    parser.add_argument("--seeds", type=_seed_range, metavar="A-B",
                        help="train from each seed A..B and report per seed (saving nothing)")
    parser.add_argument("--max-steps", type=int, default=20_000, help="Adam steps at most per run (with --seeds)")
    parser.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                        help="with --seeds: each (cell, seed) a Ray task; alone, on a local Ray started here")
    parser.add_argument("--json", action="store_true", help="with --seeds: the rows as JSON")
    parser.add_argument("cells", nargs="*", choices=[[], *CELLS], help="cells to train (default: all)")
    args = parser.parse_args(argv)
    if args.seeds is None:
        if args.ray:
            parser.error("--ray needs --seeds")
        train_all(args.out or data_dir("weights"), args.cells or None)
        return 0
    from ncpu_nb import sweeps

    was_running = sweeps.running()
    try:
        rows = seed_sweep(args.cells or None, args.seeds, max_steps=args.max_steps, ray=args.ray,
                          progress=not args.json)
    finally:
        if args.ray and not was_running:
            sweeps.shutdown()
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for r in rows:
            print(f"{r['cell']:<11} seed {r['seed']:>3}: {r['steps']:>6} steps, {r['correct']}/{r['of']} right, "
                  f"weights {r['weights_sha256'][:12]}")
    return 0 if all(r["exact"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
