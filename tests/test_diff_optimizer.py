"""ProgramOptimizer: the targets of the issue, each result re-checked here on the exact CPU."""
from ncpu_nb.differentiable.optimizer import ProgramOptimizer
from ncpu_nb.ncpu.exact_check import passing
from ncpu_nb.ncpu.assembler import assemble

POLY = "MUL R1, R0, R0\nMUL R1, R1, 0\nMUL R2, R0, 0\nADD R1, R1, R2\nADD R1, R1, 0\nHALT"


def test_optimize_inputs_finds_r0_times_3_is_42_within_34_steps():
    program = "MOV R1, 3\nMUL R2, R0, R1\nHALT"
    result = ProgramOptimizer().optimize_inputs(program, {"R2": 42}, ["R0"])
    assert result.solved and result.values == {"R0": 14} and result.steps <= 34
    assert passing(assemble(program), [({"R0": 14}, {"R2": 42})]).all()
    assert "solved" in result._repr_html_() and len(result.losses) == result.steps


def test_optimize_inputs_through_a_branch_with_restarts():
    program = "SUB R2, R0, R1\nCMP R2, 0\nJGE done\nNEG R2, R2\ndone: HALT"  # R2 = |R0 - R1|
    result = ProgramOptimizer().optimize_inputs(program, {"R2": 9}, ["R0"], fixed={"R1": 4}, restarts=4)
    assert result.solved and abs(result.values["R0"] - 4) == 9


def test_fit_a_quadratic_and_check_it_on_held_out_points():
    f = lambda x: 3 * x * x - 7 * x + 11  # noqa: E731
    train = [({"R0": x}, {"R1": f(x)}) for x in range(-6, 7)]
    held_out = [({"R0": x}, {"R1": f(x)}) for x in (-40, 17, 25, 100)]
    result = ProgramOptimizer().fit_constants(POLY, train, held_out=held_out)
    assert result.solved and result.values == {1: 3, 2: -7, 4: 11} and result.held_out == (4, 4)
    assert passing(result.program, held_out).all()


def test_an_impossible_fit_is_not_reported_solved():
    train = [({"R0": x}, {"R1": x ** 3}) for x in range(-5, 6)]  # a cubic: no quadratic fits
    result = ProgramOptimizer(max_steps=40).fit_constants(POLY, train)
    assert not result.solved and not passing(result.program, train).all()
