"""The differentiable engine: exact forward values (against the plain-Python reference) and
gradients (against finite differences, torch.autograd.gradcheck in float64)."""
import random

import pytest
import torch

from ncpu_nb.differentiable.soft_alu import compare, condition, exact_op, relaxed_op
from ncpu_nb.differentiable.engine import DifferentiableEngine
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.reference_interpreter import run_reference
from ncpu_nb.ncpu.table import ALU_NAMES, CONDITION_NAMES, CONDITIONS, FLOAT_OPS, REGISTERS, alu

EDGE = [0, 1, -1, 2, 3, 7, 31, 32, -32, 100, -100, 12345, -9999, 0x7FFFFFFF, -0x80000000]
SMOOTH = ["ADD", "SUB", "MUL", "NEG", "NOT", "MOV"]  # true derivatives everywhere (gradcheck applies)


def signed(x):
    return x - (1 << 32) if x & 0x8000_0000 else x


def t(values):
    return torch.tensor([float(v) for v in values], dtype=torch.float64)


INTEGER_OPS = [name for name in ALU_NAMES if name not in FLOAT_OPS]  # the float ops: tests/test_diff_float.py


@pytest.mark.parametrize("name", INTEGER_OPS)
def test_every_operation_is_exact_on_integers(name):
    pairs = [(a, b) for a in EDGE for b in EDGE]
    got = relaxed_op(name, t([a for a, _ in pairs]), t([b for _, b in pairs]))
    assert got.tolist() == [float(signed(alu(name, a, b)[0])) for a, b in pairs]


@pytest.mark.parametrize("name", INTEGER_OPS)
def test_the_exact_integer_alu_matches_the_table(name):
    pairs = [(a, b) for a in EDGE for b in EDGE]
    got = exact_op(name, torch.tensor([a for a, _ in pairs]), torch.tensor([b for _, b in pairs]))
    assert got.tolist() == [signed(alu(name, a, b)[0]) for a, b in pairs]


def test_compare_gives_every_condition_after_cmp():
    pairs = [(a, b) for a in EDGE for b in EDGE]
    got = compare(torch.tensor([a for a, _ in pairs]), torch.tensor([b for _, b in pairs]))
    for row, (a, b) in zip(got.tolist(), pairs):
        r, c, v = alu("sub", a, b)
        flags = (int(r == 0), r >> 31, c, v)
        assert row == [float(bool(CONDITIONS[name](*flags))) for name in CONDITION_NAMES], (a, b)


def test_conditions_match_the_table_on_hard_flags():
    import itertools

    for combo in itertools.product((0, 1), repeat=4):
        flags = torch.tensor([combo], dtype=torch.float64)
        for i, name in enumerate(CONDITION_NAMES):
            assert condition(i, flags).item() == float(bool(CONDITIONS[name](*combo)))


def random_program(rng, length, mnemonics, jumps=False):
    lines = []
    for i in range(length):
        m = rng.choice(mnemonics)
        r = lambda: f"R{rng.randrange(4)}"  # noqa: E731
        if m in ("NEG", "NOT", "MOV"):
            lines.append(f"{m} {r()}, {r()}")
        elif rng.random() < 0.3:
            lines.append(f"{m} {r()}, {r()}, {rng.randint(-9, 9)}")
        else:
            lines.append(f"{m} {r()}, {r()}, {r()}")
        if jumps and rng.random() < 0.25:
            lines.append(f"CMP {r()}, {r()}")
            lines.append(f"{rng.choice(['JZ', 'JNZ', 'JL', 'JGE', 'JG', 'JA', 'JBE', 'JS'])} {rng.randint(i + 3, length + 2)}")
    return "\n".join(lines + ["HALT"])


@pytest.mark.parametrize("seed", range(25))
def test_forward_matches_the_reference_interpreter(seed):
    rng = random.Random(seed)
    ops = ["ADD", "SUB", "MUL", "DIV", "MOD", "AND", "OR", "XOR", "SHL", "SHR", "SAR", "NEG", "NOT", "MOV"]
    program = assemble(random_program(rng, 8, ops, jumps=True))
    inputs = [{f"R{r}": rng.choice(EDGE + [rng.randint(-1000, 1000)]) for r in range(4)} for _ in range(6)]
    for alu_kind in ("fast", "neural") if seed < 3 else ("fast",):
        run = DifferentiableEngine(program, alu=alu_kind, max_steps=60).run(
            inputs={f"R{r}": t([i[f"R{r}"] for i in inputs]) for r in range(4)}, check=False)
        for lane, regs in enumerate(inputs):  # the same number of steps, halted or in an endless loop
            want = run_reference(program, registers=regs, max_cycles=run.steps)
            assert [signed(v) for v in want.registers[:8]] == run.registers[lane, :8].tolist(), program.source
            assert run.halt_probability[lane].item() == float(want.halted)


@pytest.mark.parametrize("seed", range(12))
def test_gradients_match_finite_differences(seed):
    """Random straight-line programs of smooth operations: autograd == central differences."""
    rng = random.Random(100 + seed)
    engine = DifferentiableEngine(random_program(rng, rng.randint(2, 7), SMOOTH))
    x = (torch.rand(3, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(seed)) * 6 - 3)
    x.requires_grad_(True)

    def outputs(x):
        run = engine.run(inputs={f"R{r}": x[:, r] for r in range(4)}, lanes=3)
        return run.registers[:, :4]

    assert torch.autograd.gradcheck(outputs, (x,), eps=1e-6, atol=1e-5)


def test_gradient_with_respect_to_immediates():
    engine = DifferentiableEngine("MUL R1, R0, R0\nMUL R1, R1, 2\nADD R1, R1, 5\nHALT")
    imm = engine.immediates.clone().requires_grad_(True)
    assert torch.autograd.gradcheck(lambda i: engine.run(inputs={"R0": t([3.0, -2.0])}, immediates=i)["R1"], (imm,))


def test_a_loop_runs_exactly_and_passes_gradient_through_the_soft_pc():
    engine = DifferentiableEngine("MOV R1, 1\nloop: MUL R1, R1, R0\nDEC R0\nJNZ loop\nHALT")
    n = t([5, 3]).requires_grad_(True)
    run = engine.run(inputs={"R0": n})
    assert run["R1"].tolist() == [120.0, 6.0] and run.halt_probability.tolist() == [1.0, 1.0]
    run["R1"].sum().backward()
    assert torch.isfinite(n.grad).all() and (n.grad != 0).all()


def test_registers_are_named_and_lanes_agree():
    engine = DifferentiableEngine("ADD R2, R0, R1\nHALT")
    with pytest.raises(KeyError, match="R9"):
        engine.run(inputs={"R9": 1})
    with pytest.raises(ValueError, match="lanes"):
        engine.run(inputs={"R0": t([1, 2]), "R1": t([1, 2, 3])})
    assert engine.run(inputs={"R0": t([1, 2]), "R1": 10})["R2"].tolist() == [11.0, 12.0]
    assert "R2" in engine.run(inputs={"R0": 1})._repr_html_() and len(REGISTERS) == 9
