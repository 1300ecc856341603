"""The grader's guard around test cells: a submission's answer cells cannot change a check's verdict
by changing the checker (`Checks.assert_passed = lambda self: None`, a replaced `check`, a rebound
helper of the assignment).

`course.grade` adds `GuardTestCells` to nbgrader's autograde steps. In the grader's copy of each
submission (never in the student version) it puts a cell first that imports the kit modules the
set-up cells use and records the state of every ncpu_nb module and class (their attributes, and the
code of their functions) before any student code runs; a cell after each of the instructor's set-up
cells that remembers what that cell defined; and one before each graded test cell that puts that
state back and binds the set-up names again. So the test cell runs the checker as shipped, on the
student's answers (objects keep their identity: an answer's Program is still a Program).

This guards the verdict against the student's Python changing the kit's objects; it is no sandbox.
As in any nbgrader setup, student code runs with the grader's rights: it can reach Python's import
machinery, the kernel and the files (gradebook.db included). Grade untrusted work in a sandbox.
"""
from __future__ import annotations

import ast
import importlib
import sys
import types

from nbconvert.preprocessors import Preprocessor
from nbformat.v4 import new_code_cell
from traitlets import Bool

KIT = "ncpu_nb"
FUNCTION_STATE = ("__code__", "__defaults__", "__kwdefaults__")
_modules: dict[str, tuple[types.ModuleType, dict]] = {}  # name -> (module, its attributes)
_classes: list[tuple[type, dict]] = []  # (class, its attributes)
_functions: list[tuple[types.FunctionType, tuple]] = []  # (function, its code, defaults, keyword defaults)
_setup: dict[str, object] = {}  # the set-up cells' names and values


def _is_kit(name: str) -> bool:
    return name == KIT or name.startswith(KIT + ".")


def _record_function(value) -> None:
    """A function's code and defaults (also those inside a property, staticmethod or classmethod)."""
    if isinstance(value, property):
        inner = [value.fget, value.fset, value.fdel]
    elif isinstance(value, (staticmethod, classmethod)):
        inner = [value.__func__]
    else:
        inner = [value]
    for function in inner:
        if isinstance(function, types.FunctionType):
            _functions.append((function, tuple(getattr(function, a) for a in FUNCTION_STATE)))


def start(modules: list[str]) -> None:
    """First, before any student code: import `modules` (the kit's, that the set-up cells import)
    and record the state of every ncpu_nb module loaded then, its classes and functions."""
    for name in modules:
        importlib.import_module(name)
    for name, module in [(n, m) for n, m in sys.modules.items() if _is_kit(n) and m is not None]:
        _modules[name] = (module, dict(vars(module)))
        for value in vars(module).values():
            _record_function(value)
            if isinstance(value, type) and value.__module__ == name:
                _classes.append((value, dict(vars(value))))
                for member in vars(value).values():
                    _record_function(member)


def remember(namespace: dict, names: list[str]) -> None:
    """After an instructor's set-up cell ran: the values its names have now."""
    _setup.update({name: namespace[name] for name in names if name in namespace})


def restore(namespace: dict) -> None:
    """Before a graded test cell: the kit's modules, classes and functions as `start` found them,
    and the set-up names bound again."""
    for name, (module, attributes) in _modules.items():
        sys.modules[name] = module
        vars(module).clear()
        vars(module).update(attributes)
    for cls, attributes in _classes:
        for key in set(vars(cls)) - set(attributes):
            delattr(cls, key)
        for key, value in attributes.items():
            if key not in ("__dict__", "__weakref__") and vars(cls).get(key) is not value:
                setattr(cls, key, value)
    for function, state in _functions:
        for attribute, value in zip(FUNCTION_STATE, state):
            setattr(function, attribute, value)
    namespace.update(_setup)


def _parsed(source: str) -> list[ast.stmt]:
    try:
        return ast.parse(source).body
    except SyntaxError:  # IPython syntax (a magic): nothing to read
        return []


def _kit_imports(source: str) -> list[str]:
    """The ncpu_nb modules a cell imports at its top level."""
    names = []
    for statement in _parsed(source):
        if isinstance(statement, ast.Import):
            names += [a.name for a in statement.names if _is_kit(a.name)]
        elif isinstance(statement, ast.ImportFrom) and statement.module and _is_kit(statement.module):
            names.append(statement.module)
    return names


def _bound_names(source: str) -> list[str]:
    """The names a cell binds at its top level (assignments, imports, definitions)."""
    names = []
    for statement in _parsed(source):
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(statement.name)
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            names += [a.asname or a.name.split(".")[0] for a in statement.names if a.name != "*"]
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With)):
            names += [node.id for node in ast.walk(statement)
                      if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)]
    return names


class GuardTestCells(Preprocessor):
    """An nbgrader autograde step (after its sanitizing ones): the start, remember and restore cells."""

    enabled = Bool(True)  # nbconvert's preprocessors are off unless enabled; nbgrader's are on

    def preprocess(self, nb, resources):
        setup = [c for c in nb.cells if c.cell_type == "code" and self._is_setup(c.metadata.get("nbgrader", {}))]
        modules = sorted({name for cell in setup for name in _kit_imports(cell.source)})
        cells = [new_code_cell(f"__import__({__name__!r}, fromlist=['start']).start({modules!r})")]
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            code = cell.cell_type == "code"
            if code and meta.get("grade"):
                cells.append(new_code_cell(f"__import__({__name__!r}, fromlist=['restore']).restore(globals())"))
            cells.append(cell)
            if code and self._is_setup(meta):
                names = _bound_names(cell.source)
                cells.append(new_code_cell(f"__import__({__name__!r}, fromlist=['remember'])"
                                           f".remember(globals(), {names!r})"))
        nb.cells = cells
        return nb, resources

    @staticmethod
    def _is_setup(meta: dict) -> bool:
        """An instructor's read-only cell that is neither graded nor an answer."""
        return bool(meta.get("locked")) and not meta.get("grade") and not meta.get("solution")
