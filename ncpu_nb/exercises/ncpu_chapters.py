"""The exercises of chapters 00-03 and 05: the nCPU, its neural ALU, and its debugger."""
from __future__ import annotations

from ncpu_nb.coursework import random_cases
from ncpu_nb.exercises.checker import Row, expect, exercise, integer, require
from ncpu_nb.exercises.programs import instruction_count, program_rows

MASK = 0xFFFFFFFF
EDGES = [-2**31, -1, 0, 1, 2**31 - 1]  # where signed and unsigned readings of a word part ways


def collatz_steps(n: int) -> int:
    steps = 0
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


# --- 00 · the tour ---------------------------------------------------------------------------------

@exercise("00", "collatz_97", "How many Collatz steps does 97 take to reach 1?")
def _(answer):
    return [expect("steps from 97", collatz_steps(97), integer(answer))]


@exercise("00", "longest_below_1000", "Which n from 1 to 1,000 takes the most Collatz steps?")
def _(answer):
    longest = max(range(1, 1001), key=collatz_steps)
    n = integer(answer)
    rows = [expect("n", longest, n)]
    if n != longest and 1 <= n <= 1000:
        detail = f"{n} takes {collatz_steps(n)}; the longest takes {collatz_steps(longest)}"
        rows.append(Row("its steps", False, detail))
    return rows


# --- 01 · the instruction set ------------------------------------------------------------------------

@exercise("01", "sub_word", "What 32-bit word does `SUB R1, R2, R3` assemble to?")
def _(answer):
    from ncpu_nb.ncpu import assemble, decode

    word = integer(answer, "the word as a number, e.g. 0x12345678")
    rows = [expect("word", assemble("SUB R1, R2, R3").words[0], word, show=lambda w: f"0x{w & MASK:08X}")]
    if not rows[0].passed:
        try:
            rows.append(Row("your word decodes to", False, decode(word & MASK).text()))
        except Exception as error:  # not every word is an instruction
            rows.append(Row("your word decodes to", False, str(error)))
    return rows


@exercise("01", "unsigned_less", "A program: R2 = 1 if R0 < R1 as unsigned numbers, else 0")
def _(answer):
    below = lambda R0, R1: {"R2": int(R0 & MASK < R1 & MASK)}
    edges = [({"R0": a, "R1": b}, below(a, b)) for a in EDGES for b in EDGES]
    return program_rows(answer, edges + random_cases(below, ["R0", "R1"], n=60, seed=1),
                        "edge and random cases")


@exercise("01", "floor_quarter", "One instruction (and HALT): R1 = R0 / 4 rounded down, negatives included")
def _(answer):
    quarter = lambda R0: {"R1": R0 >> 2}  # Python's >> rounds toward minus infinity
    cases = [({"R0": v}, quarter(v)) for v in EDGES + [-7, -4, 7]] + random_cases(quarter, ["R0"], n=40, seed=2)
    rows = program_rows(answer, cases)
    if rows[0].passed:
        rows.append(expect("instructions besides HALT", 1, instruction_count(answer)))
    return rows


# --- 02 · the neural ALU -----------------------------------------------------------------------------

@exercise("02", "nor_neuron", "(weights, bias) of one threshold neuron that computes NOR")
def _(answer):
    weights, bias = require(answer, (tuple, list), "a pair (weights, bias), e.g. ([1, 1], -1.5)")
    weights = [float(w) for w in weights]
    if len(weights) != 2:
        return [Row("two weights", False, f"got {len(weights)}")]
    rows = []
    for a in (0, 1):
        for b in (0, 1):
            fires = int(weights[0] * a + weights[1] * b + float(bias) > 0)
            rows.append(expect(f"NOR({a}, {b})", int(not (a or b)), fires))
    return rows


@exercise("02", "shifter_cell", "Which of the four cells does the barrel shifter (SHL, SHR, SAR) use?")
def _(answer):
    return [expect("cell", "mux", require(answer, str, "a cell's name, as text").strip().lower())]


@exercise("02", "combine_cells", "How many `combine` cells does the 32-bit Kogge-Stone carry prefix use (5 levels)?")
def _(answer):
    cells = sum(32 - (1 << level) for level in range(5))  # at level k, every bit from 2^k up combines
    return [expect("combine cells", cells, integer(answer))]


# --- 03 · neural vs fast -----------------------------------------------------------------------------

@exercise("03", "gcd_neural_cycles", "How many cycles does the bundled `gcd` take in neural mode?")
def _(answer):
    import ncpu_nb

    cpu = ncpu_nb.CPU(ncpu_nb.load_program("gcd"), trace_depth=0)
    cpu.run()  # fast mode: a cycle is one instruction in either mode
    return [expect("cycles", cpu.cycles, integer(answer))]


NEURAL_PARTS = {"A": "the effective address of LDR", "B": "the next instruction index pc + 1",
                "C": "the zero flag ZF", "D": "the branch condition of JL", "E": "SP - 4 on PUSH"}


@exercise("03", "through_the_cells", "Which of A-E come from the trained cells in neural mode?")
def _(answer):
    chosen = {letter.upper() for letter in require(answer, (str, set, list, tuple), "letters, e.g. \"AB\"")
              if str(letter).strip()}
    rows = []
    for letter, part in NEURAL_PARTS.items():
        computed = letter in "ACE"  # data values are computed by cells; wiring and control are not
        if (letter in chosen) == computed:
            rows.append(Row(f"{letter}: {part}", True, "cells" if computed else "wiring or control"))
        else:
            rows.append(Row(f"{letter}: {part}", False, "it is computed by the cells" if computed
                            else "it is wiring or control, not arithmetic on data"))
    return rows


@exercise("03", "square_minus_one", "A program: R1 = R0 * R0 - 1, the same in fast and neural mode")
def _(answer):
    import numpy as np
    import ncpu_nb

    cases = random_cases(lambda R0: {"R1": (R0 * R0 - 1 + 2**31) % 2**32 - 2**31}, ["R0"], n=40, seed=3)
    rows = program_rows(answer, cases)
    if not rows[0].passed:
        return rows
    machines = {}
    for mode in ("fast", "neural"):
        cpu = ncpu_nb.CPU(answer, mode=mode, lanes=8, trace_depth=0)
        cpu.set_registers(R0=np.array([given["R0"] for given, _ in cases[:8]]))
        cpu.run(10_000, check=False)
        machines[mode] = cpu
    fast, neural = machines["fast"], machines["neural"]
    same = bool((fast.registers_array() == neural.registers_array()).all()
                and (fast.lane_cycles() == neural.lane_cycles()).all())
    rows.append(Row("8 lanes in neural mode", same, "registers and cycles equal fast mode's" if same
                    else "neural mode disagrees with fast mode"))
    return rows


# --- 05 · stepping the nCPU --------------------------------------------------------------------------

def bubble_sort_pass_ends() -> list[int]:
    """The cycle at each stop on `pass_done` in a run of the bundled bubble sort."""
    import ncpu_nb

    cpu = ncpu_nb.CPU(ncpu_nb.load_program("bubble_sort"), trace_depth=0)
    cpu.breakpoints.add("pass_done")
    stops = []
    while cpu.run().stop == "breakpoint":
        stops.append(cpu.cycles)
        cpu.step()  # off the breakpoint, so the next run goes on
    return stops


@exercise("05", "first_pass_cycle", "Break on `pass_done` in bubble_sort: at which cycle does the first pass end?")
def _(answer):
    return [expect("cycle of the first stop", bubble_sort_pass_ends()[0], integer(answer))]


@exercise("05", "passes", "How many passes does the sort make (stops at `pass_done`)?")
def _(answer):
    return [expect("passes", len(bubble_sort_pass_ends()), integer(answer))]


def deepest_call_stack(name: str) -> int:
    """The most frames `call_stack()` holds at any step of a bundled program (the entry is one)."""
    import ncpu_nb

    cpu = ncpu_nb.CPU(ncpu_nb.load_program(name), trace_depth=0)
    deepest = 0
    while cpu.status == "running":
        deepest = max(deepest, len(cpu.call_stack()))
        cpu.step()
    return deepest


@exercise("05", "deepest_stack", "Step recursive_fibonacci to its end: how many frames does the call stack "
                                 "hold at its deepest (the entry counts as one)?")
def _(answer):
    return [expect("frames at the deepest point", deepest_call_stack("recursive_fibonacci"), integer(answer))]
