"""The compiled subset's meaning, run by Python itself: the oracle the compiler is checked against.

`run_python(source, inputs)` executes the source with CPython after one change to its tree: every
integer operation's result (and every literal) is reduced to signed 32 bits, as the nCPU's
registers wrap. Nothing else is emulated — `//` and `%` floor, `and`/`or`, indexing, range, the
exceptions raised — so on programs whose values never leave 32 bits it is plain Python (and
`wrapped=False` runs it without the change, to check that).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

MASK, SIGN = 0xFFFF_FFFF, 0x8000_0000


def wrap32(value):
    """A Python int reduced to a signed 32-bit value (lists and other values pass through)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        value &= MASK
        return value - (1 << 32) if value & SIGN else value
    return value


class _Wrap(ast.NodeTransformer):
    """Wrap every integer result in `__w32(...)`; `x op= e` becomes an assignment of the wrapped result
    (a list element's container and index evaluated once, in Python's order)."""

    def __init__(self):
        self.count = 0

    @staticmethod
    def _call(node: ast.expr) -> ast.expr:
        return ast.copy_location(ast.Call(ast.Name("__w32", ast.Load()), [node], []), node)

    def visit_BinOp(self, node: ast.BinOp):
        self.generic_visit(node)
        if isinstance(node.left, ast.List) or isinstance(node.right, ast.List):
            return node
        return self._call(node)

    def visit_UnaryOp(self, node: ast.UnaryOp):
        self.generic_visit(node)
        return node if isinstance(node.op, ast.Not) else self._call(node)

    def visit_Constant(self, node: ast.Constant):
        return self._call(node) if isinstance(node.value, int) and not isinstance(node.value, bool) else node

    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        return self._call(node) if isinstance(node.func, ast.Name) and node.func.id == "abs" else node

    def visit_AugAssign(self, node: ast.AugAssign):
        node.value = self.visit(node.value)
        target = node.target
        if isinstance(target, ast.Name):
            value = ast.BinOp(ast.Name(target.id, ast.Load()), node.op, node.value)
            return ast.fix_missing_locations(ast.copy_location(
                ast.Assign([ast.Name(target.id, ast.Store())], self._call(ast.copy_location(value, node))), node))
        self.count += 1
        holder, index = f"__list{self.count}", f"__index{self.count}"
        statements = [ast.Assign([ast.Name(holder, ast.Store())], self.visit(target.value)),
                      ast.Assign([ast.Name(index, ast.Store())], self.visit(target.slice))]
        element = ast.Subscript(ast.Name(holder, ast.Load()), ast.Name(index, ast.Load()), ast.Load())
        value = self._call(ast.copy_location(ast.BinOp(element, node.op, node.value), node))
        statements.append(ast.Assign([ast.Subscript(ast.Name(holder, ast.Load()), ast.Name(index, ast.Load()),
                                                    ast.Store())], value))
        return [ast.fix_missing_locations(ast.copy_location(s, node)) for s in statements]


@dataclass(frozen=True)
class PythonResult:
    """The module variables Python ended with (ints, lists of ints), or the exception it raised and
    the line it raised on."""

    values: dict
    error: str | None = None
    line: int | None = None


def run_python(source: str, inputs: dict | None = None, wrapped: bool = True) -> PythonResult:
    """Execute `source` (the compiled subset) with CPython, integers reduced to 32 bits (see the module
    docstring); `inputs` are module variables set first."""
    import textwrap
    import traceback

    source = textwrap.dedent(source)
    tree = ast.parse(source)
    if wrapped:
        tree = ast.fix_missing_locations(_Wrap().visit(tree))
    namespace = {"__w32": wrap32, "__builtins__": {"len": len, "abs": abs, "min": min, "max": max, "range": range,
                                                   "AssertionError": AssertionError}}
    namespace.update({k: wrap32(v) for k, v in (inputs or {}).items()})
    code = compile(tree, "<compiled subset>", "exec")
    error = line = None
    try:
        exec(code, namespace)
    except (ArithmeticError, LookupError, ValueError, AssertionError, RecursionError, MemoryError) as exc:
        error = type(exc).__name__
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<compiled subset>"]
        line = frames[-1].lineno if frames else None
    values = {}
    for name, value in namespace.items():
        if name.startswith("__") or callable(value):
            continue
        values[name] = [wrap32(v) for v in value] if isinstance(value, list) else wrap32(value)
    return PythonResult(values, error, line)
