"""The exercises of chapters 14 (compiling Python to the nCPU) and 15 (execution as a training signal)."""
from __future__ import annotations

import math

from ncpu_nb.exercises.checker import Row, expect, exercise, integer, number, text

# --- 14 · compiling Python to the nCPU -----------------------------------------------------------------


@exercise("14", "floor_of_negative", "What does the compiled `q = -17 // 5` leave in q (Python's floor, not DIV's truncation)?")
def _(answer):
    from ncpu_nb.compiler.compiled import compile_python

    machine = compile_python("q = -17 // 5").run()["q"]
    return [expect("q on the nCPU", machine, integer(answer))]


@exercise("14", "sum_of_squares", "Python (the compiled subset) that sets `total` to 1² + 2² + ... + n² for the input n")
def _(answer):
    from ncpu_nb.compiler.compiled import compile_python
    from ncpu_nb.errors import NcpuError

    source = text(answer, "the program as text")
    try:
        compiled = compile_python(source, inputs=["n"])
    except NcpuError as error:
        return [Row("compiles", False, str(error).splitlines()[0])]
    rows = []
    for n in (0, 1, 4, 30):
        want = n * (n + 1) * (2 * n + 1) // 6
        try:
            got = compiled.run(n=n, max_steps=200_000).get("total")
        except NcpuError as error:
            rows.append(Row(f"n = {n}", False, str(error).splitlines()[0]))
            continue
        rows.append(expect(f"total for n = {n}", want, got))
    return rows


# --- 15 · execution as a training signal ---------------------------------------------------------------


def _loss_gradients(source: str, inputs: dict, expected: dict):
    from ncpu_nb.compiler.compiled import compile_python
    from ncpu_nb.compiler.execution_loss import ExecutionLoss

    compiled = compile_python(source, inputs=list(inputs))
    r = ExecutionLoss().compute_soft(compiled, inputs=inputs, expected=expected)
    r.total_loss.backward()
    return r


def _close(what: str, expected: float, got: float) -> Row:
    passed = math.isclose(got, expected, rel_tol=1e-6, abs_tol=1e-9)
    return Row(what, passed, f"got {got:.6g}" if passed else f"expected {expected:.6g}, got {got:.6g}")


@exercise("15", "input_gradient", "By hand: d loss / d a of `result = a * b + c` at a=3, b=5, c=2 when 20 is expected")
def _(answer):
    r = _loss_gradients("result = a * b + c", {"a": 3, "b": 5, "c": 2}, {"result": 20.0})
    return [_close("d loss / d a (autograd agrees?)", r.gradients()["a"], number(answer))]


@exercise("15", "constant_gradient", "By hand: d loss / d the literal 3 of `y = x * 3 + 4` at x = 2 when 13 is expected")
def _(answer):
    r = _loss_gradients("y = x * 3 + 4", {"x": 2}, {"y": 13.0})
    by_value = {origin[2]: g for origin, g in r.constant_gradients().items()}
    return [_close("d loss / d 3 (autograd agrees?)", by_value[3], number(answer))]
