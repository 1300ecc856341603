"""The exercises of chapter 04: the float unit (its bits, its compare, a float program)."""
from __future__ import annotations

from ncpu_nb.exercises.checker import Row, exercise, integer, require

BRANCHES = ("JZ", "JS", "JG", "JGE", "JL", "JO")


@exercise("04", "one_third", "The 32-bit word FDIV leaves for 1.0 / 3.0")
def _(answer):
    from ncpu_nb import CPU
    from ncpu_nb.ncpu.float_format import BINARY32

    cpu = CPU("FMOV R1, 1.0\nFMOV R2, 3.0\nFDIV R0, R1, R2\nHALT")
    cpu.run()
    right = cpu.registers["R0"] & 0xFFFFFFFF
    got = integer(answer, "a 32-bit word, e.g. 0x3F800000") & 0xFFFFFFFF
    if got == right:
        return [Row("the word", True, f"0x{got:08X}")]
    detail = f"got 0x{got:08X} ({BINARY32.to_float(got)!r})"
    if abs(got - right) == 1:
        detail += ": one unit in the last place off; which way does 0.333… round, to nearest even?"
    return [Row("the word", False, detail)]


@exercise("04", "nan_branches", "After `FCMP R1, R2` with R1 a NaN, which of JZ JS JG JGE JL JO jump?")
def _(answer):
    from ncpu_nb import CPU

    items = require(answer, (str, set, list, tuple, frozenset), 'mnemonics, e.g. "JZ JG"')
    chosen = {str(i).strip().upper() for i in (items.replace(",", " ").split() if isinstance(items, str) else items)}
    rows = []
    for jump in BRANCHES:
        cpu = CPU(f"FMOV R1, nan\nFMOV R2, 1.0\nFCMP R1, R2\n{jump} 5\nMOV R0, 1\nHALT")
        cpu.run()
        taken = cpu.registers["R0"] == 0
        rows.append(Row(jump, (jump in chosen) == taken, "jumps" if taken else "falls through"))
    return rows


@exercise("04", "hypotenuse", "A program that leaves sqrt(R0² + R1²) in R2 (floats), as binary32 computes it")
def _(answer):
    import numpy as np

    from ncpu_nb import CPU, assemble
    from ncpu_nb.errors import AssemblyError

    source = require(answer, str, "the program as text")
    try:
        program = assemble(source)
    except AssemblyError as exc:
        return [Row("assembles", False, str(exc).splitlines()[-1].strip())]
    rng = np.random.default_rng(4)
    x = np.concatenate([[3.0, 0.0, -5.0, 1e-20, 3e19], rng.normal(0, 100, 27)]).astype(np.float32)
    y = np.concatenate([[4.0, 0.0, 12.0, 1e-20, 4e19], rng.normal(0, 100, 27)]).astype(np.float32)
    with np.errstate(over="ignore"):  # 3e19 squared overflows to inf, as it does on the CPU
        want = np.sqrt(x * x + y * y)  # float32 throughout: each step rounded, as the float unit rounds
    rows = [Row("assembles", True, "yes")]
    for mode, lanes in (("fast", len(x)), ("neural", 4)):
        cpu = CPU([program] * lanes, mode=mode)
        cpu.set_floats(R0=x[:lanes].tolist(), R1=y[:lanes].tolist())
        cpu.run(10_000, check=False)
        got = np.array([cpu.lane_floats(lane)["R2"] for lane in range(lanes)], dtype=np.float32)
        wrong = np.flatnonzero(got.view(np.uint32) != want[:lanes].view(np.uint32))
        detail = f"all {lanes} pairs bit-exact" if not len(wrong) else \
            f"{len(wrong)} of {lanes} differ, e.g. R0 = {x[wrong[0]]!r}, R1 = {y[wrong[0]]!r}: " \
            f"expected {want[wrong[0]]!r}, got {got[wrong[0]]!r}"
        rows.append(Row(f"{mode} mode", not len(wrong), detail))
    return rows
