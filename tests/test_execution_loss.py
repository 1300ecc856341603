"""ExecutionLoss: compile -> relax -> run differentiably -> loss -> backward, checked against finite
differences of the same relaxed execution."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from ncpu_nb import CodeToISAParser, DifferentiableEngine, ExecutionLoss  # noqa: E402
from ncpu_nb.compiler.execution_loss import CompiledSoftProgram, TrainableProgram  # noqa: E402

F64 = torch.float64


def snippet():
    parser = CodeToISAParser()
    loss_fn = ExecutionLoss(engine=DifferentiableEngine)
    result = parser.parse_block("result = a * b + c", arg_names=["a", "b", "c"])
    return loss_fn, result


def central_difference(f, point: dict, name: str, h: float = 1e-5) -> float:
    up, down = dict(point), dict(point)
    up[name] += h
    down[name] -= h
    return (f(up) - f(down)) / (2 * h)


def test_the_issue_snippet_value_and_gradients_match_finite_differences():
    loss_fn, result = snippet()
    soft = result.to_soft_program()
    assert isinstance(soft, CompiledSoftProgram)
    assert result.compiled.run(a=3, b=5, c=2)["result"] == 17  # the exact program
    r = loss_fn.compute_soft(soft, inputs={"a": 3, "b": 5, "c": 2}, expected={"result": 17.0})
    r.total_loss.backward()
    assert abs(float(r.outputs["result"].detach()) - 17.0) < 1e-5  # the relaxed program, peaked on the compiled one
    grads = r.gradients()

    def loss_at(point):
        values = {k: torch.tensor(float(v), dtype=F64) for k, v in point.items()}
        return float(loss_fn.compute_soft(soft, inputs=values, expected={"result": 17.0}).total_loss)

    for name in "abc":
        assert grads[name] != 0 and torch.isfinite(torch.tensor(grads[name]))
        numeric = central_difference(loss_at, {"a": 3.0, "b": 5.0, "c": 2.0}, name)
        assert grads[name] == pytest.approx(numeric, rel=1e-4, abs=1e-12)


def test_the_compiled_snippet_passes_gradcheck_in_float64():
    """On the exact compiled program (MUL and ADD: smooth) autograd is the true derivative. (A soft
    program's mixture also holds DIV, AND, SHL..., whose straight-through gradients a finite difference
    does not see: there the check above, at the default sharpness, is the one that holds.)"""
    loss_fn, result = snippet()

    def f(a, b, c):
        return loss_fn.compute_soft(result.compiled, inputs={"a": a, "b": b, "c": c},
                                    expected={"result": 17.0}).total_loss

    inputs = tuple(torch.tensor(v, dtype=F64, requires_grad=True) for v in (3.2, 5.1, 2.3))
    assert torch.autograd.gradcheck(f, inputs, eps=1e-6, atol=1e-6, rtol=1e-5)


def test_gradients_reach_constants_and_instruction_choices():
    loss_fn, _ = snippet()
    soft = CodeToISAParser().parse_block("y = x * 3 + 4", arg_names=["x"]).to_soft_program(sharpness=6.0)
    r = loss_fn.compute_soft(soft, inputs={"x": 2}, expected={"y": 13.0})
    r.total_loss.backward()
    constants = r.constant_gradients()
    assert {origin[2] for origin in constants} == {3, 4}
    assert all(g != 0 for g in constants.values())
    choices = soft.choice_gradients()
    assert set(choices) == {"op", "dst", "a", "b"} and all(abs(g).sum() > 0 for g in choices.values())


def test_a_program_with_loops_and_lists_trains_its_inputs_and_constants():
    parsed = CodeToISAParser().parse_block("s = 0\nfor i in range(n):\n    s += x * 3\nxs = [s, s + 1]\n",
                                           arg_names=["n", "x"])
    program = parsed.to_soft_program()
    assert isinstance(program, TrainableProgram)
    r = ExecutionLoss().compute_soft(program, inputs={"n": 3, "x": 2}, expected={"s": 20.0, "xs": [20, 21]},
                                     record=True)
    assert float(r.outputs["s"].detach()) == 18.0 and r.outputs["xs"].tolist() == [[18.0, 19.0]]  # exact forward
    r.total_loss.backward()
    assert r.gradients()["x"] == pytest.approx(2 * (18 - 20) * 3 * 3 + 2 * (18 - 20) * 9 + 2 * (19 - 21) * 9)
    by_value = {origin[2]: g for origin, g in r.constant_gradients().items()}
    assert by_value[3] == pytest.approx(2 * (18 - 20) * 6 + 2 * (18 - 20) * 6 + 2 * (19 - 21) * 6)
    assert by_value[1] == pytest.approx(2 * (19 - 21))
    flow = r.gradient_flow()
    assert flow.grid.shape[0] == len(r.run.executed) + 1 and flow.grid[0].any()
    assert any("s += x * 3" in label for label in flow.labels)


def test_a_recursive_function_runs_in_the_engine_with_gradients():
    parsed = CodeToISAParser().parse_block(
        "def f(n, k):\n    if n <= 0:\n        return k\n    return f(n - 1, k * 2) + 1\ny = f(3, x)\n", arg_names=["x"])
    r = ExecutionLoss(engine=DifferentiableEngine(parsed.program)).compute_soft(parsed, inputs={"x": 5},
                                                                                  expected={"y": 40.0})
    assert float(r.outputs["y"].detach()) == 5 * 8 + 3
    r.total_loss.backward()
    assert r.gradients()["x"] == pytest.approx(2 * (43 - 40) * 8)


def test_unknown_names_are_refused():
    loss_fn, result = snippet()
    with pytest.raises(KeyError, match="zz"):
        loss_fn.compute_soft(result.to_soft_program(), inputs={"a": 1, "b": 2, "c": 3}, expected={"zz": 1.0})
