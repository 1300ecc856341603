"""The Python -> nCPU compiler: random programs against Python itself, hand cases, located errors."""
from __future__ import annotations

import pytest

from ncpu_nb import compile_python
from ncpu_nb.compiler.python_reference import run_python, wrap32
from ncpu_nb.errors import CompiledRuntimeError, CompileError, NcpuError
from pygen import generate

PROGRAMS, BATCHES = 520, 8  # seeded generated programs, checked in batches


def outcome(source: str, **inputs):
    """(values, None) or (None, (exception, line)) of the compiled program on the nCPU."""
    try:
        return compile_python(source, inputs=list(inputs)).run(**inputs), None
    except CompiledRuntimeError as error:
        return None, (error.kind, error.line)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_generated_programs_equal_python(batch):
    """Each generated program's module variables (or the exception and its line) equal Python's, with
    Python's integers reduced to signed 32 bits after every operation (the oracle wraps; see
    `python_reference`)."""
    equal = completed = 0
    for seed in range(batch, PROGRAMS, BATCHES):
        source = generate(seed)
        expected = run_python(source)
        values, error = outcome(source)
        if expected.error:
            assert error == (expected.error, expected.line), source
        else:
            assert error is None and values == expected.values, source
            completed += 1
        equal += 1
    assert equal == len(range(batch, PROGRAMS, BATCHES)) and completed > 0.7 * equal


def test_the_oracle_is_plain_python_where_values_stay_in_32_bits():
    source = "a = 7\nb = -7 // 2\nc = -7 % 3\nxs = [1, 2, 3]\nxs[-1] += a * 100\n"
    assert run_python(source) == run_python(source, wrapped=False)
    assert run_python("x = 2147483647 + 1").values["x"] == -2147483648


@pytest.mark.parametrize("a", [-7, -6, -1, 0, 1, 6, 7, -2147483648, 2147483647])
@pytest.mark.parametrize("b", [-3, -2, -1, 1, 2, 3, 7, -2147483648])
def test_floor_division_and_modulo_are_pythons(a, b):
    values, _ = outcome("q = a // b\nr = a % b\nq3 = a // 3\nr3 = a % -3\n", a=a, b=b)
    assert values["q"] == wrap32(a // b) and values["r"] == wrap32(a % b)
    assert values["q3"] == a // 3 and values["r3"] == a % -3


def test_integers_wrap_at_32_bits():
    values, _ = outcome("x = 2147483647\nx += 1\ny = 65536 * 65536 + 5\nz = -(-2147483648)\nw = 1 << 40\n"
                        "v = -5 >> 40\nu = 0xFFFFFFFF\n")
    assert values == {"x": -2147483648, "y": 5, "z": -2147483648, "w": 0, "v": -1, "u": -1}


def test_recursion_on_the_stack():
    source = """
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)

def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))

f = fib(15)
g = fact(10)
h = ackermann(2, 3)
"""
    values, _ = outcome(source)
    assert (values["f"], values["g"], values["h"]) == (610, 3628800, 9)


def test_lists_as_arrays_in_memory():
    source = """
def bubble(xs):
    n = len(xs)
    for i in range(n):
        for j in range(n - 1 - i):
            if xs[j] > xs[j + 1]:
                xs[j], xs[j + 1] = xs[j + 1], xs[j]
    return xs

def total(xs):
    s = 0
    for x in xs:
        s += x
    return s

data = [5, -2, 9, 0, 3]
bubble(data)
zeros = [0] * 4
zeros[-1] = len(data)
copy = 3 * [7]
s = total(data)
last = data[-1]
"""
    values, _ = outcome(source)
    assert values["data"] == [-2, 0, 3, 5, 9] and values["zeros"] == [0, 0, 0, 5]
    assert values["copy"] == [7, 7, 7] and values["s"] == 15 and values["last"] == 9


def test_booleans_chains_and_short_circuit():
    values, _ = outcome("a = 3 < 5\nb = 1 < 2 < 2\nc = 0 or 7\nd = 4 and 0\ne = not 9\nf = 1 if a and not d else 2\n"
                        "g = min(4, -1, 3) + max(2, 8) + abs(-5)\n")
    assert values == {"a": 1, "b": 0, "c": 7, "d": 0, "e": 0, "f": 1, "g": 12}


def test_while_for_else_break_continue_global():
    source = """
count = 0
def bump(k):
    global count
    count += k
    return count
n = 0
while n < 10:
    n += 1
    if n % 2:
        continue
    if n == 8:
        break
    bump(n)
else:
    n = -1
for i in range(10, 0, -3):
    pass
else:
    i = i * 100
"""
    values, _ = outcome(source)
    assert values["count"] == 2 + 4 + 6 and values["n"] == 8 and values["i"] == 100


def test_runtime_errors_are_pythons_with_their_line():
    assert outcome("x = 0\ny = 5 // x\n")[1] == ("ZeroDivisionError", 2)
    assert outcome("xs = [1, 2]\ny = xs[2]\n")[1] == ("IndexError", 2)
    assert outcome("xs = [1, 2]\ny = xs[-3]\n")[1] == ("IndexError", 2)
    assert outcome("k = -1\ny = 1 << k\n")[1] == ("ValueError", 2)
    assert outcome("s = 0\nfor i in range(1, 5, s):\n    pass\n")[1] == ("ValueError", 2)
    assert outcome("assert 1 > 2\n")[1] == ("AssertionError", 1)
    assert outcome("def f(n):\n    return f(n + 1)\nx = f(0)\n")[1] == ("RecursionError", 1)
    with pytest.raises(CompiledRuntimeError, match=r"(?s)IndexError.*line 2, column 5.*y = xs\[2\]\n        \^\^\^\^\^"):
        compile_python("xs = [1, 2]\ny = xs[2]\n").run()


def test_source_map_names_the_python_line_of_every_instruction():
    compiled = compile_python("a = 1\nb = a * 7\n\ndef f(x):\n    return x + 1\nc = f(b)\n")
    program = compiled.program
    assert len(program.lines) == len(program)
    assert {program.source_line(i) for i in range(len(program))} >= {"a = 1", "b = a * 7", "return x + 1",
                                                                       "c = f(b)"}
    assert program.listing()[0][4] == "a = 1"


UNSUPPORTED = [
    ("x = 1.5\n", 1, 5, "floats"),
    ("s = 'hi'\n", 1, 5, "strings"),
    ("class A:\n    pass\n", 1, 1, "classes"),
    ("import os\n", 1, 1, "imports"),
    ("from math import pi\n", 1, 1, "imports"),
    ("xs = [i for i in range(3)]\n", 1, 6, "comprehensions"),
    ("x = 7 / 2\n", 1, 5, "true division"),
    ("x = 2 ** 3\n", 1, 5, "\\*\\*"),
    ("d = {}\n", 1, 5, "dicts"),
    ("f = lambda x: x\n", 1, 5, "lambdas"),
    ("xs = [1]\nxs.append(2)\n", 2, 1, "methods"),
    ("xs = [1, 2]\ny = xs[0:1]\n", 2, 8, "slices"),
    ("try:\n    x = 1\nexcept:\n    x = 2\n", 1, 1, "try"),
    ("x = None\n", 1, 5, "NoneType"),
    ("def f(a=1):\n    return a\n", 1, 1, "default values"),
    ("x = 1\ny = x is 1\n", 2, 5, "is / is not"),
    ("x = y + 1\n", 1, 5, "not defined"),
    ("def f(a):\n    return a\nx = f(1, 2)\n", 3, 5, "takes 1 argument"),
    ("return 3\n", 1, 1, "return outside"),
    ("xs = [1]\nx = xs + 1\n", 2, 5, "a list where an integer belongs"),
    ("x = 5000000000\n", 1, 5, "does not fit in 32 bits"),
    ("x = 1\nx = [1]\n", 2, 1, "keeps one type"),
]


@pytest.mark.parametrize("source, line, column, words", UNSUPPORTED, ids=[u[3] for u in UNSUPPORTED])
def test_unsupported_syntax_is_a_located_error(source, line, column, words):
    with pytest.raises(CompileError, match=words) as caught:
        compile_python(source)
    error = caught.value
    assert isinstance(error, NcpuError)
    assert (error.line, error.column) == (line, column)
    assert "^" in str(error) and error.source_line == source.splitlines()[line - 1]


def test_every_problem_is_listed_not_just_the_first():
    with pytest.raises(CompileError) as caught:
        compile_python("x = 1.5\nimport os\ny = 'a'\nz = 2 ** 8\n")
    assert [d.line for d in caught.value.diagnostics] == [1, 2, 3, 4]
    assert str(caught.value).startswith("4 errors in Python source")


def test_syntax_errors_are_compile_errors():
    with pytest.raises(CompileError, match="syntax error") as caught:
        compile_python("x = = 1\n")
    assert caught.value.line == 1


@pytest.mark.parametrize("terms", [400, 5_000, 100_000])
def test_an_expression_too_deep_for_the_compiler_is_a_located_error(terms):
    """Past the parser's depth (5,000 terms) or the compiler's passes' (400), not a RecursionError."""
    source = "y = 2\nif y:\n    x = " + " + ".join(["y"] * terms) + "\n"
    with pytest.raises(CompileError, match="nests too deeply to compile") as caught:
        compile_python(source)
    assert caught.value.line == 3 and caught.value.column >= 5
    assert caught.value.source_line == source.splitlines()[2]


def test_a_deep_expression_within_the_limit_equals_python():
    source = "y = 3\nx = " + " + ".join(["y"] * 150) + " - " + " * ".join(["1"] * 40) + "\n"
    assert outcome(source) == (run_python(source).values, None)


@pytest.mark.parametrize("n", [1, 4096, 4097, 7000])
def test_a_long_list_literal_equals_python(n):
    """Its elements are stored through a base moved 4,096 words at a time (offsets hold 16 bits)."""
    source = ("xs = [" + ", ".join(str(7 * i - 3) for i in range(n)) + "]\nn = len(xs)\ns = 0\n"
              "for x in xs:\n    s = s + x\nlast = xs[n - 1] if n else 0\n")
    expected = run_python(source)
    assert expected.error is None and outcome(source) == (expected.values, None)


def test_a_list_literal_past_32_kib_of_offsets_compiles_and_is_pythons_memory_error_past_data_memory():
    """9,000 elements took offsets past 32 KiB, and the assembler refused them (1,617 errors)."""
    source = "x = 1\nxs = [" + ", ".join(["x"] * 9000) + "]\n"
    assert outcome(source) == (None, ("MemoryError", 2))


@pytest.mark.parametrize("source, what", [
    (", ".join(f"a{i}" for i in range(9000)) + " = " + ", ".join(["1"] * 9000) + "\n", "a tuple takes 9,000 words"),
    ("def f():\n" + "".join(f"    v{i} = {i}\n" for i in range(9000)) + "    return v1\nx = f()\n",
     r"the frame of f\(\) takes 9,000 words"),
])
def test_a_frame_past_16_bit_stack_offsets_is_a_located_error(source, what):
    with pytest.raises(CompileError, match=what) as caught:
        compile_python(source)
    assert caught.value.line == 1 and len(caught.value.diagnostics) == 1


def test_inputs_and_the_neural_alu_agree():
    compiled = compile_python("y = x * x - 3 * x + 2\nq = y // 4\n", inputs=["x"])
    assert compiled.run(x=9) == {"x": 9, "y": 56, "q": 14}
    with pytest.raises(KeyError, match="not an input"):
        compiled.run(z=1)


def test_magic_compiles_shows_runs_and_debugs():
    from IPython.core.error import UsageError
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "ncpu_nb")
    assert "ncpu_python" in shell.magics_manager.magics["cell"]
    cell = "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nx = fib(n)\n"
    assert shell.run_cell_magic("ncpu_python", "n=12 --quiet --as fibs", cell) == {"n": 12, "x": 144}
    assert shell.user_ns["fibs"].run(n=7)["x"] == 13
    assert shell.run_cell_magic("ncpu_python", "--no-run --quiet", "x = 1\n") is None
    with pytest.raises(UsageError, match="line 1, column 5: floats"):
        shell.run_cell_magic("ncpu_python", "", "x = 1.5\n")
    with pytest.raises(UsageError, match="unknown word"):
        shell.run_cell_magic("ncpu_python", "--fast", "x = 1\n")
    pytest.importorskip("anywidget")
    view = shell.run_cell_magic("ncpu_python", "n=5 --debug", cell)
    assert "Debugger" in type(view).__name__
