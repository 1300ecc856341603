"""ISA discovery: learned ops checked exactly on a held-out grid, reproducible from a seed."""
import pytest
import torch

import ncpu_nb
from ncpu_nb.differentiable import isa_search
from ncpu_nb.differentiable.isa_discovery import ISADiscovery, fixed_isa_programs
from ncpu_nb.differentiable.isa_library import ARITHMETIC, BITWISE, PRIMITIVES
from ncpu_nb.differentiable.soft_alu import exact_op

QUICK = dict(steps=120, restarts=1)


@pytest.fixture(scope="module")
def arithmetic_seed_1():
    return ISADiscovery("arithmetic", seed=1, **QUICK).fit()


def test_a_trained_seed_recovers_add_sub_mul_on_the_held_out_grid(arithmetic_seed_1):
    result = arithmetic_seed_1
    assert result.recovers_all, result
    ga, gb = ARITHMETIC.grid_pairs()
    for symbol, reference in (("+", ga + gb), ("-", ga - gb), ("*", ga * gb)):
        op = next(op for op in result.ops if op.agreement[symbol] >= 0.99)
        circuit = next(p for p in PRIMITIVES if p.name == op.circuit)
        assert (circuit.exact(ga, gb) == reference).double().mean() >= 0.99  # recomputed here, not trusted
    # the grid never overlaps the training square
    assert not ((ga.abs() <= 8) & (gb.abs() <= 8)).any() and len(ga) == 129 ** 2 - 17 ** 2


def test_programs_are_checked_on_the_grid_and_the_cpu(arithmetic_seed_1):
    programs = {p.target: p for p in arithmetic_seed_1.programs}
    assert programs["a*b"].length == 1 and programs["a*b"].grid_exact and programs["a*b"].cpu_checked
    assert programs["(a+b)*a"].length == 2 and programs["(a+b)*a"].grid_exact
    assert all(p.fixed_length is not None for p in programs.values())


def test_same_seed_same_result_other_seed_other_examples():
    first = ISADiscovery("bitwise", seed=3, steps=40, restarts=1).fit()
    again = ISADiscovery("bitwise", seed=3, steps=40, restarts=1).fit()
    assert [op.circuit for op in first.ops] == [op.circuit for op in again.ops]
    assert first.history["loss"] == again.history["loss"] and first.history["entropy"] == again.history["entropy"]
    other = ISADiscovery("bitwise", seed=4, steps=40, restarts=1).fit()
    assert other.history["loss"] != first.history["loss"]


def test_learning_curves_fall_and_mixtures_sharpen(arithmetic_seed_1):
    history = arithmetic_seed_1.history
    assert len(history["loss"]) == 120 and history["loss"][-1] < history["loss"][0]
    assert history["entropy"][-1] < history["entropy"][0]
    assert len(history["cost"][0]) == 6


def test_fixed_isa_lengths_come_from_the_exact_alu():
    fixed = fixed_isa_programs(ARITHMETIC)
    assert [len(fixed[t]) for t in ("a+b", "a-b", "a*b", "2a+b", "(a-b)*(a+b)")] == [1, 1, 1, 2, 3]
    assert fixed_isa_programs(BITWISE)["~(a|b)"] == ["v1 = OR(a, b)", "v2 = NOT(v1, v1)"] or \
        len(fixed_isa_programs(BITWISE)["~(a|b)"]) == 2


def test_enumeration_decodes_what_it_evaluates():
    a, b = torch.tensor([3, -5, 7]), torch.tensor([2, 4, -6])
    names = ("add", "sub", "mul")
    exact = lambda x, y: torch.stack([exact_op(n, x, y) for n in names], -1)  # noqa: E731
    values = list(isa_search.levels(exact, a, b, 3))
    assert [len(v) for v in values] == [12, 36 * 9, 252 * 27]
    for length, level in enumerate(values, start=1):
        for index in (0, 7, len(level) - 1):
            program = isa_search.decode(length, index, 3)
            regs = [a, b]
            for ins in program:
                regs.append(exact_op(names[ins.op], regs[ins.a], regs[ins.b]))
            assert torch.equal(regs[-1], level[index])
            assert isa_search.uses(length, 3)[index].tolist() == [i in {x.op for x in program} for i in range(3)]


def test_repr_and_static_html(arithmetic_seed_1):
    text = repr(arithmetic_seed_1)
    assert text.startswith("<ISAResult arithmetic seed 1: ops [") and "+✔" in text
    page = arithmetic_seed_1._repr_html_()
    assert "<script" not in page and "<svg" in page and "agrees with +" in page and "fixed nCPU ISA" in page


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(benchmark="geometry"), ValueError, "no benchmark 'geometry'"),
    (dict(benchmark=3), TypeError, "benchmark must be a name"),
    (dict(ops=0), ValueError, "ops must be at least 1"),
    (dict(ops=2.5), TypeError, "ops must be a whole number"),
    (dict(ops=9), ValueError, "at most 8 ops"),
    (dict(program_length=4), ValueError, "at most 3 instructions"),
    (dict(lr=0), ValueError, "lr must be positive"),
    (dict(area_cost=-1), ValueError, "area_cost must be at least 0"),
    (dict(length_cost="x"), TypeError, "length_cost must be a number"),
    (dict(seed=True), TypeError, "seed must be a whole number"),
])
def test_bad_arguments_get_clear_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        ISADiscovery(**kwargs)


def test_reachable_from_the_package():
    assert ncpu_nb.ISADiscovery is ISADiscovery


@pytest.mark.slow
def test_three_of_five_seeds_recover_add_sub_mul(full):
    # Under --full all five seeds, three of which must recover; CI trains seeds 1 and 2, which both do.
    seeds = range(5) if full else (1, 2)
    results = [ISADiscovery("arithmetic", seed=seed).fit() for seed in seeds]
    assert sum(r.recovers_all for r in results) >= (3 if full else 2), results  # (time per seed is the chapter's)
