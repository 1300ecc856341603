"""Float programs in the differentiable engine (soft_float): forward = the CPU's fast mode bit for bit,
gradients checked against finite differences, constants and inputs fitted, mixes refused."""
import math
import random

import numpy as np
import pytest
import torch

import ncpu_nb
from ncpu_nb.differentiable.engine import DifferentiableEngine
from ncpu_nb.differentiable.optimizer import ProgramOptimizer
from ncpu_nb.differentiable.soft_float import bits, cpu_value, float64_forward, float_op
from ncpu_nb.errors import UnsupportedInstruction
from ncpu_nb.ncpu.float_format import BINARY32
from ncpu_nb.ncpu.table import MASK, REGISTERS, alu

FREGS = ["R1", "R2", "R3", "R4"]
IREGS = ["R0", "R5", "R6"]
SPECIAL = ["0.0", "-0.0", "inf", "-inf", "nan", "1e-40", "-3e-39", "3e38", "-2.5e38", "1e-20", "16777217"]
JUMPS = ["JZ", "JNZ", "JS", "JNS", "JC", "JNC", "JG", "JGE", "JL", "JLE", "JO", "JNO", "JA", "JBE"]
VALUES = [0.0, -0.0, 1.0, -1.5, 3.0, 1e-40, -1e-45, 3.4e38, -3.4e38, 1e-20, float("inf"), float("-inf"),
          float("nan"), 16777217.0, 0.1]


def t(values):
    return torch.tensor([float(v) for v in values], dtype=torch.float64)


@pytest.mark.parametrize("name", ["fadd", "fsub", "fmul", "fdiv", "fsqrt", "ftoi"])
def test_each_operation_is_the_oracle_on_special_values(name):
    """Every pair of awkward binary32 values (±0, subnormals, ±max, ±inf, NaN): the engine's value,
    as bits, is the exact oracle's (the table's ALU on rationals)."""
    values = [BINARY32.to_float(bits(v)) for v in VALUES]
    pairs = [(a, b) for a in values for b in values]
    result, _ = float_op(name, t([a for a, _ in pairs]), t([b for _, b in pairs]), torch.zeros(len(pairs), 4))
    for (a, b), got in zip(pairs, result.tolist()):
        want = alu(name, bits(a), bits(b))[0]
        assert (bits(got) if name != "ftoi" else int(got) & MASK) == want, (name, a, b, got)


def _literal(rng):
    if rng.random() < 0.2:
        return rng.choice(SPECIAL)
    return f"{rng.choice([-1, 1]) * rng.uniform(0, 10) ** rng.choice([1, 2, 3]):.6g}"


def _operation(rng):
    k, f = rng.random(), lambda: rng.choice(FREGS)
    if k < 0.45:
        return f"{rng.choice(['FADD', 'FSUB', 'FMUL', 'FDIV'])} {f()}, {f()}, {f()}"
    if k < 0.55:
        return f"FSQRT {f()}, {f()}"
    if k < 0.63:
        return f"ITOF {f()}, {rng.choice(IREGS)}"
    if k < 0.71:
        return f"FTOI {rng.choice(IREGS)}, {f()}"
    if k < 0.79:
        return f"FMOV {f()}, {_literal(rng)}"
    if k < 0.86:
        return f"ADD {rng.choice(IREGS)}, {rng.choice(IREGS)}, {rng.choice(IREGS)}"
    return f"MOV {f()}, {f()}"


def random_float_program(seed: int) -> str:
    """Straight-line (seed % 3 == 0), branching on FCMP (1) or a counted loop with branches (2)."""
    rng = random.Random(seed)
    lines = [f"FMOV {r}, {_literal(rng)}" for r in FREGS[1:]] + ["FADD R2, R2, R1"]
    kind, body = seed % 3, []
    for label in range(rng.randint(4, 10)):
        if kind and rng.random() < 0.3:
            body += [f"FCMP {rng.choice(FREGS)}, {rng.choice(FREGS)}", f"{rng.choice(JUMPS)} skip{label}",
                     *[_operation(rng) for _ in range(rng.randint(1, 2))], f"skip{label}:"]
        else:
            body.append(_operation(rng))
    if kind == 2:
        lines += [f"MOV R7, {rng.randint(1, 4)}", "loop:", *body, "DEC R7", "JNZ loop"]
    else:
        lines += body
    return "\n".join(lines + ["HALT"])


def test_forward_equals_the_cpu_bit_for_bit_on_60_random_float_programs():
    """Each program on 4 lanes (a float input R1 among ordinary values, ±0, NaN, inf; an integer
    input R0): every register of every lane, a float register compared as binary32 bits (NaN is the
    canonical NaN on both sides), with gradients on so that every step evaluates every instruction."""
    covered = set()
    for seed in range(60):
        rng = random.Random(1000 + seed)
        source = random_float_program(seed)
        xs = [BINARY32.to_float(bits(rng.choice([rng.uniform(-50, 50), 0.0, -0.0, 2.0, math.nan, math.inf])))
              for _ in range(4)]
        ns = [rng.randint(-1000, 1000) for _ in range(4)]
        cpu = ncpu_nb.CPU(source, mode="fast", lanes=4, registers={"R1": [bits(x) for x in xs],
                                                                    "R0": [n & MASK for n in ns]})
        cpu.run()
        want = cpu.registers_array().astype(np.int64) & MASK
        engine = DifferentiableEngine(source)
        run = engine.run(inputs={"R1": t(xs).requires_grad_(True), "R0": t(ns).requires_grad_(True)})
        floats = engine.float_registers
        got = [[bits(v) if REGISTERS[r] in floats else int(round(v)) & MASK for r, v in enumerate(row)]
               for row in run.registers.detach().tolist()]
        assert (np.array(got) == want).all(), (seed, source, got, want.tolist())
        assert {n: v & MASK for n, v in engine.registers.items()} == {n: int(v) for n, v in zip(REGISTERS, want[0])}
        covered |= {BINARY32.is_nan(int(w)) for w, r in zip(want.ravel(), list(range(9)) * 4)
                    if REGISTERS[r] in floats}
    assert covered == {True, False}  # NaN results were among them


STRAIGHT = """
    FMOV R2, 0.75        ; the constant fitted below (PC 0)
    FMUL R3, R1, R1
    FADD R3, R3, R2
    FSQRT R4, R3
    FDIV R5, R4, R1
    FSUB R5, R5, R2
    ITOF R6, R0
    FMUL R5, R5, R6
    HALT
"""

BRANCH = """
    FMOV R2, 2.5
    FCMP R1, R2
    JS less
    FMUL R3, R1, R1
    JMP done
less:
    FADD R3, R1, R2
done:
    HALT
"""


def _with_constant(engine, c):
    return engine.immediates.index_put((torch.tensor([0]),), c)


def test_gradcheck_through_a_float_program_input_and_constant():
    """d R5 / d R1 and d R5 / d c (c the FMOV literal) against finite differences of the float64
    relaxation (`float64_forward`: the rounding to binary32, straight-through, left out)."""
    engine = DifferentiableEngine(STRAIGHT)

    def f(x, c):
        return engine.run(inputs={"R1": x, "R0": t([3.0])}, immediates=_with_constant(engine, c))["R5"]

    x, c = t([1.7]).requires_grad_(True), t([0.75]).requires_grad_(True)
    with float64_forward():
        assert torch.autograd.gradcheck(f, (x, c))
    # with the rounding on, the forward is binary32 and the gradient the same to within binary32's precision
    f(x, c).sum().backward()
    with float64_forward():
        x2, c2 = t([1.7]).requires_grad_(True), t([0.75]).requires_grad_(True)
        f(x2, c2).sum().backward()
    assert torch.allclose(x.grad, x2.grad, rtol=1e-6) and torch.allclose(c.grad, c2.grad, rtol=1e-6)


def test_gradcheck_through_a_soft_branch_on_fcmp():
    """With soft branches the flags of FCMP take their sigmoid surrogates forward, the PC splits, and
    the whole execution is smooth: finite differences agree with autograd through the branch."""
    engine = DifferentiableEngine(BRANCH, soft_branches=True, flag_temperature=0.5)

    def f(x, c):
        return engine.run(inputs={"R1": x}, immediates=_with_constant(engine, c))["R3"]

    with float64_forward():
        assert torch.autograd.gradcheck(f, (t([2.2]).requires_grad_(True), t([2.5]).requires_grad_(True)))


def test_inputs_are_values_rounded_to_binary32_and_registers_are_the_cpu_bits():
    engine = DifferentiableEngine("FADD R2, R1, R1\nMOV R3, R2\nJZ zero\nFMOV R4, 1.0\nzero: HALT",
                                  inputs={"R1": 0.1})
    run = engine.run()
    assert run["R2"].item() == 2 * BINARY32.to_float(bits(0.1)) and engine.float_registers == ("R1", "R2", "R3", "R4")
    cpu = ncpu_nb.CPU(engine.program, mode="fast", registers={"R1": [bits(0.1)]})
    cpu.run()
    assert engine.registers == cpu.registers
    assert cpu_value(cpu.registers["R2"]) == run["R2"].item()
    run["R2"].backward()
    assert engine.inputs["R1"].grad.item() == 2.0


@pytest.mark.parametrize("source, where", [
    ("FMOV R1, 1.5\nAND R2, R1, R1\nHALT", "PC=1: AND R2, R1, R1"),
    ("FMOV R1, 1.5\nCMP R1, R2\nHALT", "PC=1: CMP R1, R2"),
    ("FMOV R1, 1.5\nSTR R1, [256]\nHALT", "PC=1: STR R1, \\[256\\]"),
    ("FMOV R1, 2.5\nFTOI R1, R1\nHALT", "PC=1: FTOI R1, R1"),
    ("ADD R1, R0, R0\nFADD R2, R1, R1\nHALT", "PC=1: FADD R2, R1, R1"),
    ("FMOV R1, 1.5\nMOV R2, R1\nINC R2\nHALT", "PC=2: INC R2"),
])
def test_integer_operations_on_a_float_register_are_refused_with_pc_and_instruction(source, where):
    with pytest.raises(UnsupportedInstruction, match=where):
        DifferentiableEngine(source)


def test_float_code_in_memory_is_refused():
    with pytest.raises(UnsupportedInstruction, match="code_at"):
        DifferentiableEngine("FMOV R1, 1.5\nHALT", code_at=1024)


def test_the_optimizer_fits_an_fmov_constant_exactly():
    program = "FMOV R2, 1.0\nFMUL R1, R0, R2\nFMOV R3, 0.5\nFADD R1, R1, R3\nHALT"  # R1 = c * R0 + 0.5
    train = [({"R0": x}, {"R1": 2.75 * x + 0.5}) for x in (1.0, 2.0, -3.0, 0.25)]
    result = ProgramOptimizer(max_steps=50).fit_constants(program, train, which=[0],
                                                          held_out=[({"R0": 8.0}, {"R1": 22.5})])
    assert result.solved and result.values == {0: 2.75} and result.held_out == (1, 1)
    assert result.program.instructions[0].text() == "FMOV R2, 2.75"


def test_the_optimizer_finds_a_float_input():
    result = ProgramOptimizer(max_steps=300).optimize_inputs("FSQRT R1, R0\nFMUL R2, R1, R1\nFADD R2, R2, R1\nHALT",
                                                             {"R2": 6.0}, ["R0"], init={"R0": 1.0}, lr=0.1,
                                                             tolerance=1e-5)
    assert result.solved and abs(result.values["R0"] - 4.0) < 1e-4  # sqrt(x)^2 + sqrt(x) = 6 at x = 4


NEWTON = """
; R0 = x (a float); R1 = sqrt(x) after R4 Newton steps from the guess c0 + c1 * x
    FMOV R2, {c0}       ; c0
    FMOV R3, {c1}       ; c1
    FMUL R1, R3, R0
    FADD R1, R1, R2     ; y = c0 + c1 * x
    FMOV R5, 0.5
    MOV R4, {steps}
loop:
    FDIV R6, R0, R1
    FADD R6, R1, R6
    FMUL R1, R6, R5     ; y = (y + x / y) / 2
    DEC R4
    JNZ loop
    HALT
"""


def _relative_errors(program, xs, mode):
    cpu = ncpu_nb.CPU(program, mode=mode, lanes=len(xs), registers={"R0": [bits(x) for x in xs]})
    cpu.run()
    y = [cpu_value(b) for b in cpu.registers_array()[:, 1]]
    return [abs(v / math.sqrt(x) - 1) for v, x in zip(y, xs)], y


def test_newton_sqrt_learns_its_initial_guess_and_beats_the_naive_one_on_the_cpu():
    """One Newton step from y0 = c0 + c1 x on [0.5, 2): gradient descent through the execution fits
    c0, c1 (from the naive y0 = x); on held-out x the fitted program, run on the CPU in fast and in
    neural mode (bit-identical), is far more accurate."""
    train = [({"R0": float(x)}, {"R1": math.sqrt(x)}) for x in np.linspace(0.5, 2.0, 32, endpoint=False)]
    naive = NEWTON.format(c0=0.0, c1=1.0, steps=1)
    result = ProgramOptimizer(max_steps=60).fit_constants(naive, train, which=[0, 1])
    assert result.losses[-1] < result.losses[0] / 1000
    held_out = [BINARY32.to_float(bits(x)) for x in np.random.default_rng(1).uniform(0.5, 2.0, 100)]
    before, _ = _relative_errors(naive, held_out, "fast")
    after, fast = _relative_errors(result.program, held_out, "fast")
    _, neural = _relative_errors(result.program, held_out, "neural")
    assert fast == neural
    assert max(after) < max(before) / 20 and max(after) < 2e-3 and max(before) > 0.05


def test_a_mov_of_bits_into_a_float_register_is_the_float_those_bits_are():
    engine = DifferentiableEngine("MOV R1, 0x3FC00000\nFMOV R3, 0.0\nFADD R2, R1, R1\nFADD R2, R2, R3\nHALT")
    assert engine.run()["R2"].item() == 3.0 and engine.registers["R2"] == bits(3.0)
    fit = ProgramOptimizer(max_steps=20).fit_constants(engine.program, [({}, {"R2": 3.5})])
    assert fit.solved and fit.values == {1: 0.5}  # the FMOV literal is fitted; the MOV's bits are not a number


def test_the_neural_alu_engine_runs_float_programs_as_the_fast_one():
    """alu="neural" computes integer operations with the trained networks; the float ones go through the
    same float relaxation, so both engines end with the same registers."""
    for seed in range(6):
        source = random_float_program(seed)
        registers = []
        for mode in ("fast", "neural"):
            engine = DifferentiableEngine(source, alu=mode, inputs={"R1": 1.25, "R0": 7.0})
            engine.run()
            registers.append(engine.registers)
        assert registers[0] == registers[1], (seed, source)
