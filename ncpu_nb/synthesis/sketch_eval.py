"""What the loop and array sketches share: 32-bit values as the CPU holds them, a filling's run on
one example's registers and memory in plain Python (cheap enough to try thousands of fillings; the
exact CPU still checks whatever is reported), and the test of a run against an example."""
from __future__ import annotations

from ncpu_nb.ncpu.table import MASK, alu
from ncpu_nb.synthesis.spec import MEMORY, USABLE, SynthesisSpec

MAX_TRIPS = 300  # a loop still running after this many trips on an example does not fit it (Collatz 27: 111)
KEEP = 4  # fitting fillings a sketch hands back (the synthesizer keeps the first that passes held-out ones)


class TooLong(Exception):
    """A filling ran past MAX_TRIPS on an example."""


def op(name: str, a: int, b: int) -> int:
    return alu(name, a, b)[0]


def signed(v: int) -> int:
    v &= MASK
    return v - (1 << 32) if v >> 31 else v


def signed_compare(a: int, b: int) -> int:
    """-1, 0 or 1 as CMP's signed conditions see a - b (no overflow for the small values sketches compare)."""
    x, y = signed(a), signed(b)
    return (x > y) - (x < y)


def memory_of(example_side: dict, width: int) -> dict[int, int]:
    """address -> value (masked to the width) of one example's arrays."""
    cells = {}
    mask = (1 << (8 * width)) - 1
    for address, values in example_side.get(MEMORY, {}).items():
        for i, v in enumerate(values):
            cells[int(address) + width * i] = v & mask
    return cells


def fits(spec: SynthesisSpec, run, examples=None) -> bool:
    """Does `run(registers, memory) -> (registers, memory)` give every expected output?
    Registers are {name: unsigned value}; a run raising TooLong fits nothing."""
    mask = (1 << (8 * spec.memory_width)) - 1
    for inputs, outputs in spec.examples if examples is None else examples:
        registers = {r: inputs[r] & MASK for r in spec.inputs}
        try:
            registers, memory = run(registers, memory_of(inputs, spec.memory_width))
        except (TooLong, ZeroDivisionError):
            return False
        for name, want in outputs.items():
            if name == MEMORY:
                for address, values in want.items():
                    if any(memory.get(int(address) + spec.memory_width * i, 0) != v & mask
                           for i, v in enumerate(values)):
                        return False
            elif registers.get(name, 0) & MASK != want & MASK:
                return False
    return True


def scratch(spec: SynthesisSpec, n: int) -> list[str] | None:
    """n registers that are neither inputs nor outputs (None if R0-R7 run out)."""
    free = [r for r in USABLE if r not in spec.inputs and r not in spec.outputs]
    return free[:n] if len(free) >= n else None
