"""The last word on any program the differentiable engine finds: a run on the exact fast CPU (or, for
code that lives in memory and rewrites itself, which the CPU does not run, on the reference interpreter).

An example is (inputs, outputs): register name -> value, and optionally "memory" -> {address: values}
(arrays placed in data memory before the run, or expected there after it), `width` bytes per value."""
from __future__ import annotations

import numpy as np

from ncpu_nb.ncpu.float_format import BINARY32
from ncpu_nb.ncpu.program import Program
from ncpu_nb.ncpu.table import MASK, REGISTERS

MAX_CYCLES = 100_000
MEMORY = "memory"


def pack(values, width: int) -> bytes:
    return b"".join((int(v) & ((1 << (8 * width)) - 1)).to_bytes(width, "little") for v in values)


def float_bits(value: float) -> int:
    """The binary32 bits of a number (the nearest binary32, ties to even; NaN: the canonical one)."""
    if value != value:
        return BINARY32.nan
    with np.errstate(over="ignore"):
        return int(np.array(float(value), dtype=np.float32).view(np.uint32))


def run_exact(program: Program, inputs: list[dict], max_cycles: int = MAX_CYCLES, width: int = 4,
              floats: tuple[str, ...] = ()):
    """Run `program` once per input dict, all as lanes of one exact CPU; the registers named in
    `floats` are given as numbers and placed as their binary32 bits.
    Returns ((examples, 9) signed register values, (examples,) whether each lane halted, the CPU)."""
    from ncpu_nb.ncpu import CPU

    names = sorted({k.upper() for d in inputs for k in d if k != MEMORY})
    value = lambda n, d: d.get(n, d.get(n.lower(), 0))  # noqa: E731
    registers = {n: [float_bits(value(n, d)) if n in floats else int(value(n, d)) & MASK for d in inputs]
                 for n in names}
    cpu = CPU(program, lanes=len(inputs), trace_depth=0, registers=registers)
    for lane, d in enumerate(inputs):
        for address, values in d.get(MEMORY, {}).items():
            cpu.write_memory(int(address), pack(values, width), lane=lane)
    cpu.run(max_cycles, check=False)
    halted = np.array([s == "halted" for s in cpu.lane_status()])
    return cpu.registers_array().astype(np.int64), halted, cpu


def passing(program: Program, examples: list[tuple[dict, dict]], max_cycles: int = MAX_CYCLES,
            width: int = 4, floats: tuple[str, ...] = (), tolerance: float = 0.0) -> np.ndarray:
    """Which examples (input dict, expected output dict) the program gets exactly right on the CPU:
    every expected register, and every expected memory array byte for byte. The registers named in
    `floats` hold binary32 numbers: given and expected as numbers, right when the CPU's float is the
    expected number rounded to binary32 (NaN: NaN), or, with a `tolerance`, within it."""
    if not examples:
        return np.zeros(0, dtype=bool)
    values, halted, cpu = run_exact(program, [i for i, _ in examples], max_cycles, width, floats)
    ok = halted.copy()
    for lane, (_, outputs) in enumerate(examples):
        for name, want in outputs.items():
            if name == MEMORY:
                for address, array in want.items():
                    got = cpu.read_memory(int(address), width * len(array), lane)
                    ok[lane] &= got == pack(array, width)
                continue
            got = int(values[lane, REGISTERS.index(name.upper())]) & MASK
            if name.upper() in floats:
                number = BINARY32.to_float(got)
                ok[lane] &= (got == float_bits(want) or abs(number - float(want)) <= tolerance
                             or (number != number and want != want))
                continue
            ok[lane] &= got == int(want) & MASK
    return ok


def passing_with_code_in_memory(program: Program, examples: list[tuple[dict, dict]], code_at: int,
                                max_cycles: int = MAX_CYCLES, width: int = 4) -> np.ndarray:
    """`passing` for a program whose code lives in data memory from `code_at` (self-modifying code),
    run on the reference interpreter: the CPU keeps code apart from data."""
    from ncpu_nb.ncpu.reference_interpreter import initial_state, step_reference

    ok = np.zeros(len(examples), dtype=bool)
    for i, (inputs, outputs) in enumerate(examples):
        s = initial_state(program, registers={k: v for k, v in inputs.items() if k != MEMORY}, code_at=code_at)
        for address, values in inputs.get(MEMORY, {}).items():
            s.memory[int(address):int(address) + width * len(values)] = pack(values, width)
        while not s.halted and s.fault is None and s.cycles < max_cycles:
            step_reference(program, s)
        ok[i] = s.halted and all(
            all(bytes(s.memory[int(a):int(a) + width * len(v)]) == pack(v, width) for a, v in want.items())
            if name == MEMORY else s.registers[REGISTERS.index(name.upper())] == int(want) & MASK
            for name, want in outputs.items())
    return ok
