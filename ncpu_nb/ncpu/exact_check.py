"""The last word on any program the differentiable engine finds: a run on the exact fast CPU."""
from __future__ import annotations

import numpy as np

from ncpu_nb.ncpu.program import Program
from ncpu_nb.ncpu.table import MASK, REGISTERS

MAX_CYCLES = 100_000


def run_exact(program: Program, inputs: list[dict], max_cycles: int = MAX_CYCLES) -> tuple[np.ndarray, np.ndarray]:
    """Run `program` once per input dict, all as lanes of one exact CPU.
    Returns ((examples, 9) signed register values, (examples,) whether each lane halted)."""
    from ncpu_nb.ncpu import CPU

    names = sorted({k.upper() for d in inputs for k in d})
    registers = {n: [int(d.get(n, d.get(n.lower(), 0))) & MASK for d in inputs] for n in names}
    cpu = CPU(program, lanes=len(inputs), trace_depth=0, registers=registers)
    cpu.run(max_cycles, check=False)
    halted = np.array([s == "halted" for s in cpu.lane_status()])
    return cpu.registers_array().astype(np.int64), halted


def passing(program: Program, examples: list[tuple[dict, dict]], max_cycles: int = MAX_CYCLES) -> np.ndarray:
    """Which examples (input dict, expected output dict) the program gets exactly right on the CPU."""
    if not examples:
        return np.zeros(0, dtype=bool)
    values, halted = run_exact(program, [i for i, _ in examples], max_cycles)
    ok = halted.copy()
    for lane, (_, outputs) in enumerate(examples):
        for name, want in outputs.items():
            got = int(values[lane, REGISTERS.index(name.upper())]) & MASK
            ok[lane] &= got == int(want) & MASK
    return ok
