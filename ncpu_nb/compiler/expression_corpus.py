"""The expressions the learned compiler reads, and how they are split into training and held-out.

The grammar: `+`, `-` and `*` over the integer variables a, b, c and the literals 1-9, with
parentheses, of depth 1 to 3 (the depth of `a * b + c` is 2: operations nested two deep), every
operation with a variable somewhere among its operands (`3 + 4` is out: a constant the model never
sees). Written either as the bare expression or as `result = <expression>`.

    parse_expression("result = (a - 3) * b")   -> Expression(text='(a - 3) * b', depth=2, tokens=...)
    random_expression(rng, depth=2)            -> a canonical source text of exactly that depth
    is_held_out("(a - 3) * b")                 -> whether the expression is in the held-out part
    held_out_expressions(per_depth=200)        -> {depth: [texts]}, disjoint from anything trained on

Canonical text is Python's own `ast.unparse` (minimal parentheses), and the model reads it one
character per token, so `(a-3)*b` and `((a - 3)) * b` are the same expression to it. The split is by
a hash of the canonical text: HELD_OUT_PERCENT of all expressions, of every depth, are never
trained on (training draws reject them), so the held-out figures are on unseen expressions.
"""
from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass
from itertools import product

import numpy as np

from ncpu_nb.errors import ExpressionError

VARIABLES = ("a", "b", "c")
LITERALS = tuple(range(1, 10))
OPERATORS = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult}
DEPTHS = (1, 2, 3)
RESULT = "result"
TOKENS = ("<pad>", *VARIABLES, *(str(v) for v in LITERALS), *OPERATORS, "(", ")")
MAX_TOKENS = 40  # the longest canonical text of depth 3 (8 leaves, 7 operators, parentheses) is shorter
HELD_OUT_PERCENT = 20
VARIABLE_SHARE = 0.6  # a random leaf is a variable with this probability, else a literal


@dataclass(frozen=True)
class Expression:
    """A parsed expression: its canonical `text`, `depth`, and the token ids the model reads."""

    text: str
    depth: int
    tokens: tuple

    @property
    def statement(self) -> str:
        """The Python statement the exact compiler gets: `result = <text>`."""
        return f"{RESULT} = {self.text}"

    def value(self, a: int, b: int, c: int) -> int:
        """Python's value of the expression."""
        return int(eval(self.text, {"__builtins__": {}}, {"a": a, "b": b, "c": c}))  # noqa: S307 (our grammar only)


def _diagnostic(source: str, node: ast.AST | None, message: str, offset: int = 0):
    from ncpu_nb.errors import Diagnostic

    lines = source.splitlines() or [""]
    line = getattr(node, "lineno", 1) if node is not None else 1
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    start = (getattr(node, "col_offset", 0) or 0) if node is not None else 0
    end = getattr(node, "end_col_offset", None) if node is not None else None
    length = max(1, (end - start) if end is not None and getattr(node, "end_lineno", line) == line else len(text) - start)
    return Diagnostic(line, start + 1 + offset, message, text, length)


def _depth(node: ast.expr) -> int:
    return 1 + max(_depth(node.left), _depth(node.right)) if isinstance(node, ast.BinOp) else 0


def _has_variable(node: ast.expr) -> bool:
    if isinstance(node, ast.BinOp):
        return _has_variable(node.left) or _has_variable(node.right)
    return isinstance(node, ast.Name)


def _check(node: ast.expr, source: str, found: list) -> None:
    if isinstance(node, ast.BinOp):
        if type(node.op) not in OPERATORS.values():
            found.append(_diagnostic(source, node, f"the learned compiler knows + - * only, not "
                                                   f"{type(node.op).__name__}"))
        elif not _has_variable(node):
            found.append(_diagnostic(source, node, "an operation on literals only: every operation needs a "
                                                   "variable (a, b or c) among its operands"))
        _check(node.left, source, found)
        _check(node.right, source, found)
    elif isinstance(node, ast.Name):
        if node.id not in VARIABLES:
            found.append(_diagnostic(source, node, f"unknown variable {node.id!r}: the learned compiler's "
                                                   f"variables are {', '.join(VARIABLES)}"))
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        if node.value not in LITERALS:
            found.append(_diagnostic(source, node, f"the literal {node.value} is outside the vocabulary: "
                                                   f"literals are {LITERALS[0]}-{LITERALS[-1]}"))
    else:
        found.append(_diagnostic(source, node, f"{type(node).__name__} is outside the learned compiler's grammar "
                                               "(+ - * over a, b, c and the literals 1-9)"))


def parse_expression(source: str) -> Expression:
    """`source` (an expression, or `result = <expression>`) as an `Expression`; anything outside the
    grammar raises ExpressionError with every problem located (line, column, caret)."""
    if not isinstance(source, str):
        raise TypeError(f"source is a string, not {type(source).__name__}")
    source = source.strip()
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        from ncpu_nb.errors import Diagnostic

        line = error.lineno or 1
        text = (source.splitlines() or [""])[line - 1] if source else ""
        raise ExpressionError([Diagnostic(line, error.offset or 1, f"invalid syntax: {error.msg}", text)]) from None
    body = tree.body
    if len(body) != 1:
        node = body[1] if len(body) > 1 else None
        raise ExpressionError([_diagnostic(source, node, "one expression (or `result = <expression>`), on one line")])
    statement = body[0]
    if isinstance(statement, ast.Assign):
        if len(statement.targets) != 1 or not isinstance(statement.targets[0], ast.Name) \
                or statement.targets[0].id != RESULT:
            raise ExpressionError([_diagnostic(source, statement.targets[0], f"the learned compiler assigns "
                                                                              f"`{RESULT}` only")])
        node = statement.value
    elif isinstance(statement, ast.Expr):
        node = statement.value
    else:
        raise ExpressionError([_diagnostic(source, statement, f"{type(statement).__name__} is outside the learned "
                                                              "compiler's grammar: one expression")])
    found: list = []
    _check(node, source, found)
    depth = _depth(node)
    if not found and depth == 0:
        found.append(_diagnostic(source, node, "no operation: the learned compiler compiles expressions of depth "
                                               f"{DEPTHS[0]}-{DEPTHS[-1]}"))
    if not found and depth > DEPTHS[-1]:
        found.append(_diagnostic(source, node, f"depth {depth}: the learned compiler was trained on depths "
                                               f"{DEPTHS[0]}-{DEPTHS[-1]} only"))
    if found:
        raise ExpressionError(sorted(found, key=lambda d: (d.line, d.column)))
    text = ast.unparse(node)
    return Expression(text, depth, tokenize(text))


def tokenize(text: str) -> tuple:
    """Token ids of a canonical text, one per character (spaces dropped)."""
    ids = tuple(TOKENS.index(ch) for ch in text if ch != " ")
    if len(ids) > MAX_TOKENS:
        raise ExpressionError([_diagnostic(text, None, f"{len(ids)} tokens: the model reads at most {MAX_TOKENS}")])
    return ids


def _tree(rng: np.random.Generator, depth: int) -> ast.expr:
    if depth == 0:
        if rng.random() < VARIABLE_SHARE:
            return ast.Name(VARIABLES[int(rng.integers(len(VARIABLES)))])
        return ast.Constant(int(LITERALS[int(rng.integers(len(LITERALS)))]))
    deep, other = _tree(rng, depth - 1), _tree(rng, int(rng.integers(depth)))
    left, right = (deep, other) if rng.random() < 0.5 else (other, deep)
    op = list(OPERATORS.values())[int(rng.integers(len(OPERATORS)))]
    return ast.BinOp(left, op(), right)


def _fine(node: ast.expr) -> bool:
    if isinstance(node, ast.BinOp):
        return _has_variable(node) and _fine(node.left) and _fine(node.right)
    return True


def random_expression(rng: np.random.Generator, depth: int) -> str:
    """A random canonical expression of exactly `depth` (every operation with a variable in it)."""
    if depth not in DEPTHS:
        raise ValueError(f"depth is one of {DEPTHS}, not {depth!r}")
    while True:
        node = _tree(rng, depth)
        if _fine(node):
            return ast.unparse(node)


def is_held_out(text: str) -> bool:
    """Whether a canonical expression belongs to the held-out part (a hash of its text)."""
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) % 100 < HELD_OUT_PERCENT


def training_expression(rng: np.random.Generator, depth: int) -> str:
    """A random expression of `depth` that is not held out."""
    while True:
        text = random_expression(rng, depth)
        if not is_held_out(text):
            return text


def all_depth_one() -> list[str]:
    """Every expression of depth 1 (op, left, right), in a fixed order."""
    leaves = [ast.Name(v) for v in VARIABLES] + [ast.Constant(v) for v in LITERALS]
    found = []
    for op, left, right in product(OPERATORS.values(), leaves, leaves):
        node = ast.BinOp(left, op(), right)
        if _has_variable(node):
            found.append(ast.unparse(node))
    return found


def held_out_expressions(per_depth: int = 200, seed: int = 0) -> dict[int, list[str]]:
    """Held-out expressions by depth: all of depth 1 (there are few), up to `per_depth` distinct ones
    drawn for deeper levels (numpy default_rng([seed, 2027]))."""
    rng = np.random.default_rng([seed, 2027])
    chosen = {1: [t for t in all_depth_one() if is_held_out(t)][:per_depth]}
    for depth in DEPTHS[1:]:
        seen: dict[str, None] = {}
        tries = 0
        while len(seen) < per_depth and tries < 200 * per_depth:
            text = random_expression(rng, depth)
            tries += 1
            if is_held_out(text):
                seen.setdefault(text, None)
        chosen[depth] = list(seen)
    return chosen


__all__ = ["Expression", "parse_expression", "random_expression", "training_expression", "is_held_out",
           "held_out_expressions", "all_depth_one", "tokenize", "VARIABLES", "LITERALS", "DEPTHS", "TOKENS", "RESULT"]
