"""The exercises of chapters 06-11: gradients through programs, optimization and synthesis."""
from __future__ import annotations

import math

from ncpu_nb.exercises.checker import Row, expect, exercise, integer, number, require, text
from ncpu_nb.exercises.programs import instruction_count, program_rows


def gradient(program: str, inputs: dict, output: str, wrt: str) -> float:
    """d output / d wrt at `inputs`, by autograd through the differentiable engine."""
    import torch
    import ncpu_nb

    values = {name: torch.tensor([float(v)], dtype=torch.float64, requires_grad=name == wrt)
              for name, v in inputs.items()}
    run = ncpu_nb.DifferentiableEngine(program).run(inputs=values)
    run[output].sum().backward()
    return values[wrt].grad.item()


def close(what: str, expected: float, got: float, relative: float = 1e-6) -> Row:
    passed = math.isclose(got, expected, rel_tol=relative, abs_tol=1e-9)
    return Row(what, passed, f"got {got:.6g}" if passed else f"expected {expected:.6g}, got {got:.6g}")


def choices(answer, description: str) -> set[str]:
    """A set of names from text ("XOR, SHL") or a collection, upper-cased."""
    items = require(answer, (str, set, list, tuple, frozenset), description)
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    return {str(item).strip().upper() for item in items}


# --- 06 · backpropagation through a program ----------------------------------------------------------

HAND_PROGRAM = "MUL R2, R0, R1\nADD R3, R2, R0\nHALT"


@exercise("06", "hand_gradient", "By hand: dR3/dR0 of `MUL R2, R0, R1; ADD R3, R2, R0` at R0 = 4, R1 = 5")
def _(answer):
    autograd = gradient(HAND_PROGRAM, {"R0": 4, "R1": 5}, "R3", "R0")
    return [close("dR3/dR0 (autograd says the same?)", autograd, number(answer))]


SMOOTH = {"ADD": True, "MUL": True, "NEG": True, "XOR": False, "SHL": False, "DIV": False}


@exercise("06", "straight_through", "Which of ADD, MUL, NEG, XOR, SHL, DIV get a straight-through gradient?")
def _(answer):
    chosen = choices(answer, "mnemonics, e.g. \"ADD MUL\"")
    return [Row(op, (op in chosen) != smooth, "smooth: its true derivative" if smooth
                else "piecewise constant: straight-through") for op, smooth in SMOOTH.items()]


@exercise("06", "slope_seven", "A straight-line program whose R2 has derivative 7 with respect to R0, for any R0")
def _(answer):
    source = require(answer, str, "the program as text")
    rows = []
    for r0 in (-3, 0, 11):
        rows.append(close(f"dR2/dR0 at R0 = {r0}", 7.0, gradient(source, {"R0": r0}, "R2", "R0")))
    return rows


# --- 07 · optimizing inputs and constants ------------------------------------------------------------

SQUARE_PLUS = "MUL R1, R0, R0\nADD R2, R1, R0\nHALT"


@exercise("07", "find_input", "Which R0 makes `MUL R1, R0, R0; ADD R2, R1, R0` end with R2 = 56?")
def _(answer):
    import ncpu_nb

    if isinstance(answer, dict):  # an optimizer's `result.values` is fine too
        answer = answer.get("R0")
    cpu = ncpu_nb.CPU(SQUARE_PLUS, registers={"R0": integer(answer, "R0 as a whole number")})
    cpu.run()
    return [expect("R2 on the exact CPU", 56, cpu.registers["R2"])]


LINE = "MUL R1, R0, 0\nADD R1, R1, 0\nHALT"


@exercise("07", "fit_line", "The line program with its two constants fitted to R1 = 5·R0 − 3")
def _(answer):
    from ncpu_nb.ncpu import assemble
    from ncpu_nb.ncpu.program import Program

    program = answer if isinstance(answer, Program) else assemble(require(answer, str, "the program as text"))
    shape = [i.form.mnemonic for i in assemble(LINE).instructions]
    rows = [expect("same instructions, only constants changed", shape, [i.form.mnemonic for i in program.instructions],
                   show=lambda ops: " ".join(ops))]
    cases = [({"R0": x}, {"R1": 5 * x - 3}) for x in (-50, -1, 0, 2, 9, 1000)]
    return rows + program_rows(program, cases, "points, far ones included")


# --- 08 · synthesis by gradient descent --------------------------------------------------------------

@exercise("08", "shortest_fit", "The shortest program for `three_x_plus_1` (at most two instructions and HALT)")
def _(answer):
    from ncpu_nb.synthesis import synth_bench
    from ncpu_nb.synthesis.spec import SynthesisSpec

    spec = SynthesisSpec.from_json(synth_bench.default_directory() / "three_x_plus_1.json")
    rows = program_rows(answer, [(dict(i), dict(o)) for i, o in spec.examples], "examples")
    if rows[0].passed:
        rows += program_rows(answer, [(dict(i), dict(o)) for i, o in spec.held_out], "held-out examples")[1:]
        count = instruction_count(answer)
        rows.append(Row("instructions besides HALT", count <= 2, f"{count} (at most 2)"))
    return rows


CANDIDATES = {"A": "MOV R1, R0\nHALT", "B": "MUL R1, R0, R0\nHALT", "C": "AND R1, R0, 1\nHALT"}


@exercise("08", "which_generalises", "Examples 0 → 0, 1 → 1; held out 3 → 9: which candidate, A, B or C, is solved?")
def _(answer):
    import ncpu_nb

    def r1(letter: str, r0: int) -> int:
        cpu = ncpu_nb.CPU(CANDIDATES[letter], registers={"R0": r0})
        cpu.run()
        return cpu.registers["R1"]

    letter = require(answer, str, "a letter, \"A\", \"B\" or \"C\"").strip().upper()
    if letter not in CANDIDATES:
        return [Row("candidate", False, f"expected one of A, B, C, got {letter!r}")]
    right = next(c for c in CANDIDATES if r1(c, 3) == 9)
    fits = r1(letter, 0) == 0 and r1(letter, 1) == 1
    return [Row("fits the examples 0 → 0, 1 → 1", fits, "every candidate does"),
            expect(f"{letter} on the held-out R0 = 3", 9, r1(letter, 3)),
            expect("candidate", right, letter, show=str)]


# --- 10 · gradient flow ------------------------------------------------------------------------------

SQUARINGS = "MUL R0, R0, R0\nMUL R0, R0, R0\nMUL R0, R0, R0\nMUL R0, R0, R0\nHALT"


@exercise("10", "explode_gradient", "By hand: d(final R0)/d(R0) for four squarings, starting at R0 = 1.7")
def _(answer):
    autograd = gradient(SQUARINGS, {"R0": 1.7}, "R0", "R0")
    return [close("d(final R0)/d(R0) (autograd agrees?)", autograd, number(answer))]


FACTORIAL = "MOV R1, 1\nloop: MUL R1, R1, R0\nDEC R0\nJNZ loop\nHALT"


@exercise("10", "no_path_register", "Factorial flow (R0 = 5 and 6): which register has gradient 0 in the `(inputs)` row?")
def _(answer):
    import torch
    import ncpu_nb
    from ncpu_nb.differentiable.gradient_flow import trace_gradients

    engine = ncpu_nb.DifferentiableEngine(FACTORIAL, max_steps=200)
    flow = trace_gradients(engine, {"R0": torch.tensor([5.0, 6.0], dtype=torch.float64)}, lambda run: run["R1"].sum())
    unreached = " ".join(name for name, magnitude in zip(flow.registers, flow.grid[0]) if magnitude == 0)
    return [expect("register", unreached, text(answer, "a register's name, e.g. \"R3\"").upper(), show=str)]


# --- 11 · differentiable memory ----------------------------------------------------------------------

SUM_OF_SQUARES = """
    MOV R1, 0
    MOV R2, 256
loop:
    LDR R3, [R2]
    MUL R3, R3, R3
    ADD R1, R1, R3
    ADD R2, R2, 4
    CMP R2, 268
    JNZ loop
    HALT
"""


@exercise("11", "array_gradient", "By hand: dR1/d(second word) of the sum of squares of the array [3, 4, 5] at 256")
def _(answer):
    import torch
    import ncpu_nb

    array = torch.tensor([3.0, 4.0, 5.0], dtype=torch.float64, requires_grad=True)
    ncpu_nb.DifferentiableEngine(SUM_OF_SQUARES).run(inputs={"memory": {256: array}})["R1"].sum().backward()
    return [close("dR1/d(second word) (autograd agrees?)", array.grad[1].item(), number(answer))]


QUADRATIC = "LDR R1, [256]\nMUL R1, R1, R0\nLDR R2, [260]\nADD R1, R1, R2\nMUL R1, R1, R0\nLDR R2, [264]\n" \
            "ADD R1, R1, R2\nHALT"
QUADRATIC_POINTS = {0: 2, 1: -1, 2: 4, 3: 17}  # shown in the chapter
QUADRATIC_HELD_OUT = {-5: 137, 10: 332, 100: 39302}  # never shown: the same quadratic further out


@exercise("11", "find_array", "The three words at 256 that make the quadratic program give the chapter's points")
def _(answer):
    from ncpu_nb.ncpu import assemble
    from ncpu_nb.ncpu.exact_check import passing

    values = require(answer, (list, tuple), "the three words as a list, e.g. [1, 2, 3]")
    if len(values) != 3:
        return [Row("three words", False, f"got {len(values)}")]
    words = [integer(v, "whole numbers") for v in values]
    rows = []
    for what, points in (("the chapter's points", QUADRATIC_POINTS), ("points further out", QUADRATIC_HELD_OUT)):
        cases = [({"R0": x, "memory": {256: words}}, {"R1": y}) for x, y in points.items()]
        ok = passing(assemble(QUADRATIC), cases)
        rows.append(Row(what, bool(ok.all()), f"{int(ok.sum())} of {len(cases)} right on the exact CPU"))
    return rows


# --- 12 · self-modifying code ------------------------------------------------------------------------

PATCHING_SUM = """
    MOV R1, 0
loop:
    ADD R1, R1, 1
    LDR R5, [4100]
    ADD R5, R5, 1
    STR R5, [4100]
    DEC R0
    JNZ loop
    HALT
"""
PATCHED = "LDR R5, [256]\nSTR R5, [4112]\nMOV R1, R0\nMOV R2, 0\nNOP\nHALT"
CODE_AT = 0x1000


@exercise("12", "patched_sum", "R1 at the end of PATCHING_SUM with R0 = 6, its code in memory")
def _(answer):
    from ncpu_nb.ncpu import assemble
    from ncpu_nb.ncpu.reference_interpreter import run_reference

    state = run_reference(assemble(PATCHING_SUM), registers={"R0": 6}, code_at=CODE_AT)
    return [expect("R1", state.registers[1], integer(answer, "R1 as a whole number"))]


@exercise("12", "patch_word", "The word that, copied over slot 4 of PATCHED, makes R1 = R0 - 12")
def _(answer):
    from ncpu_nb.ncpu import assemble
    from ncpu_nb.ncpu.exact_check import passing_with_code_in_memory

    word = integer(answer, "the word as a whole number")
    cases = [({"R0": x, "memory": {256: [word]}}, {"R1": x - 12}) for x in (0, 12, 100, -5, 70000)]
    ok = passing_with_code_in_memory(assemble(PATCHED), cases, CODE_AT)
    return [Row("R1 = R0 - 12, code in memory", bool(ok.all()), f"{int(ok.sum())} of {len(cases)} right")]
