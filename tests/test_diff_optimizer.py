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


HORNER = """
    MOV R1, 0
    MOV R2, 256        ; the coefficients, highest first
    MOV R3, 4
loop:
    MUL R1, R1, R0
    LDR R4, [R2]
    ADD R1, R1, R4
    ADD R2, R2, 4
    DEC R3
    JNZ loop
    HALT
"""


def test_fit_memory_finds_the_array_a_program_reads():
    """Polynomial coefficients in data memory, found from (x, p(x)) examples through the loads,
    confirmed on the CPU and on held-out points."""
    coefficients = [2, -3, 5, 7]

    def p(x):
        return ((coefficients[0] * x + coefficients[1]) * x + coefficients[2]) * x + coefficients[3]

    examples = [({"R0": x}, {"R1": p(x)}) for x in (0, 1, 2, 3, -1)]
    held_out = [({"R0": x}, {"R1": p(x)}) for x in (5, -4, 10)]
    result = ProgramOptimizer(max_steps=200).fit_memory(HORNER, examples, 256, 4, held_out=held_out)
    assert result.solved and result.held_out == (3, 3)
    assert result.values == {256: 2, 260: -3, 264: 5, 268: 7}
    assert "fit_memory" in result._repr_html_()


def test_fit_memory_reports_an_unreachable_target_as_not_solved():
    # two examples that disagree on the same input: no array fits both
    result = ProgramOptimizer(max_steps=20).fit_memory(HORNER, [({"R0": 1}, {"R1": 3}), ({"R0": 1}, {"R1": 4})], 256, 4)
    assert not result.solved
