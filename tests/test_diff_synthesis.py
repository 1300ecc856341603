"""Synthesis: each solver on a task it is meant for, and the guarantee that nothing wrong is
reported solved (every program is re-run on the exact CPU, held-out examples included)."""
import json

import pytest

from ncpu_nb.synthesis import synth_bench as bench
from ncpu_nb.synthesis.spec import SpecError, SynthesisSpec
from ncpu_nb.synthesis.synthesizer import Synthesizer, simplify
from ncpu_nb.ncpu.exact_check import passing
from ncpu_nb.ncpu.assembler import assemble

ADD = {"inputs": ["R0", "R1"], "outputs": ["R2"],
       "examples": [[{"R0": a, "R1": b}, {"R2": a + b}] for a, b in [(3, 5), (-4, 9), (10, 20), (0, -7), (6, 6)]],
       "held_out": [[{"R0": 100, "R1": -1}, {"R2": 99}]], "time_limit": 20}


def task(name):
    return SynthesisSpec.from_json(bench.default_directory() / f"{name}.json")


def test_the_benchmark_has_120_tasks_with_held_out_examples_made_by_their_reference_programs():
    files = bench.task_files()
    assert len(files) >= 120
    categories = set()
    for path in files:
        data = json.loads(path.read_text())
        spec = SynthesisSpec.from_dict(data)
        categories.add(spec.category)
        assert spec.held_out and not {tuple(sorted(i.items())) for i, _ in spec.examples} & \
            {tuple(sorted(i.items())) for i, _ in spec.held_out}, spec.name
        assert passing(assemble(data["reference"]), spec.examples + spec.held_out).all(), spec.name
    assert {"arithmetic", "bitwise", "selection", "multi-output", "loop", "parity ring"} <= categories


def test_gradient_descent_alone_finds_addition():
    result = Synthesizer(methods=("gradient",)).synthesize(ADD)
    assert result.solved and result.method == "gradient" and result.restarts > 0
    assert passing(result.program, [tuple(e) for e in ADD["examples"]]).all()
    assert result.as_json()["program"].startswith("ADD R2")


@pytest.mark.parametrize("name, shape", [("max", "CMP"), ("swap", "MOV"), ("divmod", "MOD")])
def test_gradient_descent_alone_finds_a_branch_and_a_parallel_output_block(name, shape):
    spec = task(name)
    result = Synthesizer(methods=("gradient",)).synthesize(spec, time_limit=30)
    assert result.solved and result.method == "gradient" and shape in result.program.source
    assert passing(result.program, spec.examples + spec.held_out).all()


def test_simplify_drops_what_the_examples_do_not_need_and_the_jumps_left_over():
    spec = SynthesisSpec.from_dict(ADD)
    found = assemble("CMP R3, R2\nJNC taken\nADD R2, R0, R1\nJMP done\ntaken:\nSUB R2, R0, R1\ndone:\nHALT")
    assert simplify(found, spec).source == "ADD R2, R0, R1\nHALT"


@pytest.mark.parametrize("name, method", [("three_x_plus_1", "enumerative"), ("max", "select"),
                                          ("factorial", "loop"), ("reverse_bits_count", "loop")])
def test_each_discrete_solver_on_its_kind_of_task(name, method):
    spec = task(name)
    result = Synthesizer(methods=(method,)).synthesize(spec, time_limit=30)
    assert result.solved and result.method == method
    assert passing(result.program, spec.examples + spec.held_out).all()


class WrongSolver(Synthesizer):
    def _run(self, method, spec, until, result):
        return "SUB R2, R0, R1\nHALT"  # not addition


def test_a_wrong_program_is_never_reported():
    result = WrongSolver(methods=("enumerative",)).synthesize(ADD)
    assert not result.solved and result.program is None
    assert result.attempts[0][2] == "rejected by the CPU"


class RoundaboutGradient(Synthesizer):
    def _run(self, method, spec, until, result):
        if method == "gradient":  # right, the long way round
            return "ADD R2, R0, R1\nADD R2, R2, R1\nSUB R2, R2, R1\nHALT"
        return super()._run(method, spec, until, result)


def test_the_shortest_program_that_fits_is_reported_and_every_fit_is_kept():
    result = RoundaboutGradient().synthesize(ADD)
    assert result.solved and result.method == "chain" and result.program.source == "ADD R2, R0, R1\nHALT"
    assert [(m, len(p)) for m, p in result.fits][:2] == [("gradient", 4), ("chain", 2)]
    assert all(len(p) >= 2 for _, p in result.fits)


def test_a_program_that_fits_the_examples_but_not_the_held_out_ones_is_not_solved():
    # x*x and x agree on 0 and 1: the shortest fit is a copy, and the held-out 3 -> 9 exposes it
    spec = {"inputs": ["R0"], "outputs": ["R1"], "examples": [[{"R0": 0}, {"R1": 0}], [{"R0": 1}, {"R1": 1}]],
            "held_out": [[{"R0": 3}, {"R1": 9}]], "time_limit": 10}
    result = Synthesizer(methods=("enumerative",)).synthesize(spec)
    assert result.program is not None and not result.solved and result.held_out == (0, 1)


class OverfittingGradient(Synthesizer):
    def _run(self, method, spec, until, result):
        if method == "gradient":  # a + b as a 7-bit signed number: right on every example, not on 100 - 1
            return "ADD R2, R0, R1\nSHL R2, R2, 25\nSAR R2, R2, 25\nHALT"
        return super()._run(method, spec, until, result)


def test_a_fit_that_fails_the_held_out_examples_does_not_end_the_search():
    result = OverfittingGradient(methods=("gradient", "enumerative")).synthesize(ADD)
    assert result.attempts[0][0] == "gradient" and result.attempts[0][2] == "found, 3 instructions"
    assert result.solved and result.program.source == "ADD R2, R0, R1\nHALT" and result.method == "enumerative"


def test_spec_errors_say_which_field():
    with pytest.raises(SpecError, match="missing field 'outputs'"):
        SynthesisSpec.from_dict({"inputs": ["R0"], "examples": []})
    with pytest.raises(SpecError, match="'R9' is not a register"):
        SynthesisSpec.from_dict({"inputs": ["R9"], "outputs": ["R1"], "examples": []})
    with pytest.raises(SpecError, match=r"examples\[0\]: needs inputs"):
        SynthesisSpec.from_dict({"inputs": ["R0"], "outputs": ["R1"], "examples": [[{"R1": 1}, {"R1": 2}]]})


@pytest.mark.slow
def test_a_reduced_benchmark_reports_only_checked_programs():
    names = ["add", "xor", "negate", "max", "factorial", "parity_ring_3"]
    outcomes = bench.run(names=names, time_limit=12)
    totals = bench.totals(outcomes)
    assert totals["tasks"] == 6 and totals["solved_by_portfolio"] >= 5
    assert "solved by gradient descent alone" in bench.format_report(outcomes)
