"""The compiled Python subset, checked: every construct outside it reported with line, column and caret.

The subset (see `ncpu_nb.compile_python`):
  * integers (32-bit, two's complement, wrapping) and True/False (1/0); no floats, strings or None;
  * `+ - * // % << >> & | ^`, unary `- + ~ not`, comparisons (chains too), `and`/`or`, `x if c else y`;
  * `=` (also `a = b = e`, `a, b = e1, e2`), `+=` and the other augmented assignments, `pass`, `assert`;
  * `if`/`elif`/`else`, `while` and `for` (over `range(...)` or a list) with `break`, `continue`, `else`;
  * `def` at module level with positional parameters, `return`, calls and recursion, `global`;
  * lists of integers: `[e, ...]`, `[e] * n`, `xs[i]` (negative indices too), `xs[i] = e`, `len(xs)`;
  * the built-ins `len`, `abs`, `min`, `max`, `range`.
Python's `ast` module parses; this module walks the tree and lists what the compiler cannot take.
"""
from __future__ import annotations

import ast
import io
import tokenize

from ncpu_nb.errors import CompileError, Diagnostic

BUILTINS = ("len", "abs", "min", "max", "range")
BINARY = {ast.Add: "ADD", ast.Sub: "SUB", ast.Mult: "MUL", ast.FloorDiv: "//", ast.Mod: "%", ast.LShift: "<<",
          ast.RShift: ">>", ast.BitAnd: "AND", ast.BitOr: "OR", ast.BitXor: "XOR"}
COMPARE = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
INT_MIN, UINT_MAX = -(1 << 31), (1 << 32) - 1
MAX_DEPTH = 200  # nesting of the tree the compiler's passes follow (they recurse, one frame or more a level)
TOO_DEEP = "nests too deeply to compile: split it into smaller expressions held in variables"

# Constructs outside the subset, and what to say (a node type, or a name for an operator).
UNSUPPORTED = {
    ast.ClassDef: "classes are outside the compiled subset",
    ast.Import: "imports are outside the compiled subset",
    ast.ImportFrom: "imports are outside the compiled subset",
    ast.ListComp: "comprehensions are outside the compiled subset; write a for loop",
    ast.SetComp: "comprehensions are outside the compiled subset; write a for loop",
    ast.DictComp: "comprehensions are outside the compiled subset; write a for loop",
    ast.GeneratorExp: "generators are outside the compiled subset; write a for loop",
    ast.Lambda: "lambdas are outside the compiled subset; use def",
    ast.Dict: "dicts are outside the compiled subset; lists of integers only",
    ast.Set: "sets are outside the compiled subset; lists of integers only",
    ast.With: "with is outside the compiled subset",
    ast.Try: "try/except is outside the compiled subset",
    ast.Raise: "raise is outside the compiled subset (assert is in)",
    ast.Yield: "generators are outside the compiled subset",
    ast.YieldFrom: "generators are outside the compiled subset",
    ast.Await: "async is outside the compiled subset",
    ast.AsyncFunctionDef: "async is outside the compiled subset",
    ast.AsyncFor: "async is outside the compiled subset",
    ast.AsyncWith: "async is outside the compiled subset",
    ast.Nonlocal: "nonlocal is outside the compiled subset (functions are not nested)",
    ast.Delete: "del is outside the compiled subset",
    ast.Starred: "* unpacking is outside the compiled subset",
    ast.Slice: "slices are outside the compiled subset; lists have a fixed size",
    ast.Attribute: "attributes and methods are outside the compiled subset (lists have a fixed size: no append)",
    ast.JoinedStr: "strings are outside the compiled subset",
    ast.NamedExpr: "the walrus operator := is outside the compiled subset",
    ast.Div: "true division / makes a float, outside the subset; use // (floor division)",
    ast.Pow: "** is outside the compiled subset; multiply in a loop",
    ast.MatMult: "@ is outside the compiled subset",
    ast.Is: "is / is not are outside the compiled subset; use == and !=",
    ast.IsNot: "is / is not are outside the compiled subset; use == and !=",
    ast.In: "in / not in are outside the compiled subset; write a loop",
    ast.NotIn: "in / not in are outside the compiled subset; write a loop",
}
if hasattr(ast, "Match"):
    UNSUPPORTED[ast.Match] = "match is outside the compiled subset; use if/elif"
if hasattr(ast, "TryStar"):
    UNSUPPORTED[ast.TryStar] = "try/except is outside the compiled subset"


class Problems:
    """Diagnostics collected over a compile, each located by an AST node."""

    def __init__(self, source: str):
        self.lines = source.splitlines()
        self.found: list = []

    def add(self, node: ast.AST, message: str) -> None:
        line = getattr(node, "lineno", 1)
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        encoded = text.encode()
        start = getattr(node, "col_offset", 0) or 0
        column = len(encoded[:start].decode(errors="replace")) + 1
        end_line, end = getattr(node, "end_lineno", line), getattr(node, "end_col_offset", None)
        stop = len(encoded[:end].decode(errors="replace")) + 1 if end_line == line and end is not None else len(text) + 1
        diagnostic = Diagnostic(line, column, message, text, max(1, stop - column))
        if diagnostic not in self.found:
            self.found.append(diagnostic)

    def raise_if_any(self) -> None:
        if self.found:
            raise CompileError(sorted(self.found, key=lambda d: (d.line, d.column)))


def parse(source: str) -> ast.Module:
    """Python's own parser; a syntax error becomes a located CompileError."""
    try:
        return ast.parse(source, filename="<ncpu_python>")
    except SyntaxError as exc:
        line = exc.lineno or 1
        lines = source.splitlines()
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        raise CompileError([Diagnostic(line, max(1, exc.offset or 1), f"syntax error: {exc.msg}", text)]) from None
    except RecursionError:  # deeper than Python's own parser builds a tree
        line, column = _longest_statement(source)
        lines = source.splitlines()
        raise CompileError([Diagnostic(line, column, f"this statement {TOO_DEEP}", lines[line - 1])]) from None


def _longest_statement(source: str) -> tuple[int, int]:
    """Where the logical line of the most tokens starts (line, column): the one too deep to parse.
    The tokenizer reads without recursion, so it takes any depth."""
    best, count, start = (0, (1, 1)), 0, None
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            best, count, start = max(best, (count, start or (1, 0))), 0, None
        elif token.type not in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            start, count = start or token.start, count + 1
    line, column = best[1]
    return line, column + 1


def check_subset(tree: ast.Module, problems: Problems) -> None:
    """Report every construct outside the subset (node kinds, operators, argument forms, constants)."""
    if _too_deep(tree, problems):
        return  # the checks below recurse: they would fail on it
    for index, node in enumerate(tree.body):
        _statement(node, problems, top=True, first=index == 0)


def _too_deep(tree: ast.Module, problems: Problems) -> bool:
    """Report, for each top-level statement, the first node nested more than MAX_DEPTH deep (a walk
    without recursion)."""
    found = False
    for statement in tree.body:
        stack = [(statement, statement, 1)]  # a node, its nearest ancestor with a location, its depth
        while stack:
            node, located, depth = stack.pop()
            located = node if hasattr(node, "lineno") else located  # operators (ast.Add) have none
            if depth > MAX_DEPTH:
                problems.add(located, f"this expression {TOO_DEEP}")
                found = True
                break
            stack.extend((child, located, depth + 1) for child in ast.iter_child_nodes(node))
    return found


def _statement(node: ast.stmt, problems: Problems, *, top: bool, first: bool = False) -> None:
    if type(node) in UNSUPPORTED:
        problems.add(node, UNSUPPORTED[type(node)])
        return
    if isinstance(node, ast.FunctionDef):
        if not top:
            problems.add(node, "def belongs at module level: functions are not nested")
        a = node.args
        for what, present in (("default values", a.defaults or a.kw_defaults), ("*args", a.vararg),
                              ("**kwargs", a.kwarg), ("keyword-only parameters", a.kwonlyargs),
                              ("positional-only parameters", a.posonlyargs)):
            if present:
                problems.add(node, f"{what} are outside the compiled subset: positional parameters only")
        if node.decorator_list:
            problems.add(node.decorator_list[0], "decorators are outside the compiled subset")
        for index, statement in enumerate(node.body):
            _statement(statement, problems, top=False, first=index == 0)
        return
    if isinstance(node, ast.Expr):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str) and first:
            return  # a docstring
        if not isinstance(node.value, ast.Call):
            problems.add(node, "an expression statement does nothing here; only calls stand alone")
        _expression(node.value, problems)
        return
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if isinstance(node, ast.AnnAssign) and node.value is None:
            problems.add(node, "a bare annotation assigns nothing; write x: int = 0")
        for target in targets:
            _target(target, problems, tuple_ok=isinstance(node, ast.Assign))
        if isinstance(node, ast.AugAssign):
            _operator(node.op, node, problems)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple):
            if not all(isinstance(t, ast.Tuple) and len(t.elts) == len(node.value.elts) for t in targets):
                problems.add(node, "a tuple of values is assigned to as many names (a, b = b, a)")
            for value in node.value.elts:
                _expression(value, problems)
        elif node.value is not None:
            if any(isinstance(t, ast.Tuple) for t in targets):
                problems.add(node, "unpacking is outside the compiled subset; assign a, b = e1, e2")
            _expression(node.value, problems)
        return
    if isinstance(node, (ast.For, ast.While, ast.If)):
        if isinstance(node, ast.For):
            if not isinstance(node.target, ast.Name):
                problems.add(node.target, "a for loop's variable is one name")
            _expression(node.iter, problems)
        else:
            _expression(node.test, problems)
        for statement in node.body + node.orelse:
            _statement(statement, problems, top=False)
        return
    if isinstance(node, ast.Return):
        if top:
            problems.add(node, "return outside a function")
        if node.value is not None:
            _expression(node.value, problems)
        return
    if isinstance(node, ast.Assert):
        _expression(node.test, problems)
        if node.msg is not None:
            problems.add(node.msg, "an assert's message is outside the compiled subset (no strings)")
        return
    if isinstance(node, ast.Global):
        if top:
            problems.add(node, "global belongs inside a function")
        return
    if isinstance(node, (ast.Pass, ast.Break, ast.Continue)):
        return
    problems.add(node, f"{type(node).__name__} statements are outside the compiled subset")


def _target(node: ast.expr, problems: Problems, tuple_ok: bool) -> None:
    if isinstance(node, ast.Name):
        return
    if isinstance(node, ast.Subscript):
        _expression(node, problems)
        return
    if isinstance(node, ast.Tuple) and tuple_ok:
        for element in node.elts:
            _target(element, problems, tuple_ok=False)
        return
    problems.add(node, UNSUPPORTED.get(type(node), "assign to a name or a list element (xs[i])"))


def _operator(op: ast.AST, node: ast.AST, problems: Problems) -> None:
    if type(op) in UNSUPPORTED:
        problems.add(node, UNSUPPORTED[type(op)])
    elif type(op) not in BINARY:
        problems.add(node, f"the operator {type(op).__name__} is outside the compiled subset")


def _expression(node: ast.expr, problems: Problems) -> None:
    if type(node) in UNSUPPORTED:
        problems.add(node, UNSUPPORTED[type(node)])
        return
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or (isinstance(value, int) and INT_MIN <= value <= UINT_MAX):
            return
        if isinstance(value, int):
            problems.add(node, f"{value} does not fit in 32 bits (integers are 32-bit: {INT_MIN}..{UINT_MAX})")
        else:
            kind = {float: "floats", str: "strings", bytes: "bytes", complex: "complex numbers"}.get(
                type(value), f"{type(value).__name__} values")
            problems.add(node, f"{kind} are outside the compiled subset: integers are 32-bit")
        return
    if isinstance(node, ast.BinOp):
        _operator(node.op, node, problems)
    elif isinstance(node, ast.UnaryOp) and not isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert, ast.Not)):
        problems.add(node, f"the operator {type(node.op).__name__} is outside the compiled subset")
    elif isinstance(node, ast.Compare):
        for op in node.ops:
            if type(op) not in COMPARE:
                problems.add(node, UNSUPPORTED.get(type(op), "this comparison is outside the compiled subset"))
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name):
            problems.add(node.func, UNSUPPORTED.get(type(node.func), "call a function by its name"))
        if node.keywords:
            problems.add(node.keywords[0].value, "keyword arguments are outside the compiled subset")
        for arg in node.args:
            _expression(arg, problems)
        return
    elif isinstance(node, ast.Subscript):
        if isinstance(node.slice, ast.Slice) or isinstance(node.slice, ast.Tuple):
            problems.add(node.slice, UNSUPPORTED[ast.Slice] if isinstance(node.slice, ast.Slice)
                         else "index with one integer")
            return
    elif isinstance(node, ast.Tuple):
        problems.add(node, "tuples are outside the compiled subset (except a, b = e1, e2)")
        return
    elif not isinstance(node, (ast.BoolOp, ast.UnaryOp, ast.IfExp, ast.Name, ast.List, ast.BinOp)):
        problems.add(node, f"{type(node).__name__} expressions are outside the compiled subset")
        return
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr):
            _expression(child, problems)
