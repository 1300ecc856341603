"""`python -m ncpu_nb.train`: rebuild every cell in weights/ from scratch, deterministically.

Each cell trains on its whole (tiny) input domain from a recorded seed until every pattern is
right with a margin, then is saved as safetensors with its sha256 and verification in
weights/manifest.json.
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


def train_cell(spec: CellSpec, max_steps: int = 20_000) -> Cell:
    torch.manual_seed(spec.seed)
    cell = Cell(spec)
    x, y = torch.from_numpy(spec.domain()), torch.from_numpy(spec.targets())
    sign = y * 2 - 1
    opt = torch.optim.Adam(cell.parameters(), lr=0.05)
    for _ in range(max_steps):
        logits = cell.logits(x)
        # hinge on the margin: zero loss once every pattern is right by MARGIN
        loss = torch.relu(MARGIN - sign * logits).mean()
        if loss.item() == 0:
            break
        opt.zero_grad()
        loss.backward()
        opt.step()
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ncpu_nb.train", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="weights folder (default: the kit's weights/)")
    parser.add_argument("cells", nargs="*", choices=[[], *CELLS], help="cells to train (default: all)")
    args = parser.parse_args(argv)
    train_all(args.out or data_dir("weights"), args.cells or None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
