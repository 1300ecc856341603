"""The original nCPU (github.com/robertcprice/nCPU) as a live reference for `ncpu-nb bench neural`.

Its model-based CPU with `neural_execution=True` runs the teaching ISA's text through its trained
PyTorch ALU networks. It is run where its code is present — a checkout named by `NCPU_ORIGINAL`, or an
installed `ncpu` package — in a subprocess of its own (it imports torch), on the same loop program,
with torch's thread count stated. Nothing of it is kept in this repository.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ENV = "NCPU_ORIGINAL"
NOT_PRESENT = f"original not present; set {ENV}=/path to a checkout of github.com/robertcprice/nCPU"

# Run in the child: import the original, load its models, time its run of the program (not the imports).
CHILD = r"""
import json, sys, time
root, source, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
if root:
    sys.path.insert(0, root)
import torch
if threads:
    torch.set_num_threads(threads)
from ncpu.model.cpu import CPU
models = (root or '.') + '/models'
cpu = CPU(mock_mode=True, neural_execution=True, models_dir=models, max_cycles=10**9)
registry = cpu._neural_registry
available = dict(getattr(getattr(registry, "neural", registry), "_available_ops", {}) or {})
cpu.load_program(source)
w0, c0 = time.perf_counter(), time.process_time()
cpu.run()
wall, cpu_s = time.perf_counter() - w0, time.process_time() - c0
print(json.dumps({"wall": wall, "cpu": cpu_s, "cycles": cpu.get_cycle_count(), "threads": torch.get_num_threads(),
                  "registers": cpu.dump_registers(), "neural_ops": sorted(k for k, v in available.items() if v),
                  "torch": torch.__version__}))
"""


def location() -> str | None:
    """Where the original's code is: the NCPU_ORIGINAL folder, '' for an installed `ncpu`, None if absent."""
    root = os.environ.get(ENV)
    if root:
        return root if (Path(root) / "ncpu" / "model" / "cpu.py").is_file() else None
    import importlib.util

    try:
        spec = importlib.util.find_spec("ncpu.model.cpu")
    except (ImportError, ValueError):
        spec = None
    return "" if spec is not None else None


def program(source: str, iterations: int) -> str:
    """The bench loop for the original: R0 set by an instruction (its CPU takes no initial registers)."""
    return f"MOV R0, {iterations}\n" + source


def run_once(root: str, source: str, threads: int, python: str = sys.executable, timeout: float = 600) -> dict:
    """One run in a fresh subprocess; its own timing of the run (wall and process CPU seconds)."""
    import subprocess

    done = subprocess.run([python, "-c", CHILD, root, source, str(threads)], capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ, PYTHONWARNINGS="ignore"))
    if done.returncode != 0:
        raise RuntimeError(f"the original nCPU failed: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
