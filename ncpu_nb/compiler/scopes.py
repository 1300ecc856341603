"""Names, scopes, types and homes: what the code generator needs to know before it emits anything.

Python's rule: a name assigned anywhere in a function is local to it (unless declared `global`);
other names read there are the module's. Each variable gets a *type*, int or list (a list value is
the address of its first element), found by a fixpoint over assignments, calls and returns, and a
*home*: one of the callee-saved registers R0-R3 (the most used variables, uses in loops weighing
more) or a word of memory (module variables at fixed addresses, function locals in the frame).
Module variables that a function reads or declares `global` live in memory, so every function
sees one copy. Loops get hidden variables (a range's counter and bound, a list iterator's index).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ncpu_nb.compiler.python_subset import BUILTINS, Problems
from ncpu_nb.compiler.register_roles import GLOBALS_START, HOMES, Home

INT, LIST = "int", "list"


@dataclass
class Variable:
    name: str
    type: str | None = None
    weight: float = 0.0
    order: int = 0
    hidden: bool = False
    home: Home | None = None
    param_index: int | None = None


@dataclass
class Scope:
    """The module (name '<module>') or one function."""

    name: str
    node: ast.AST
    params: list = field(default_factory=list)
    variables: dict = field(default_factory=dict)  # name -> Variable (its own: locals, or module variables)
    declared_global: set = field(default_factory=set)
    returns: str | None = None
    label: str = ""
    saved: tuple = ()  # registers a function saves and restores (its register homes)
    frame_words: int = 0  # memory locals below the saved registers

    @property
    def is_module(self) -> bool:
        return self.name == "<module>"

    def variable(self, name: str, order: int) -> Variable:
        if name not in self.variables:
            self.variables[name] = Variable(name, order=order)
        return self.variables[name]


def _literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
                                              and isinstance(node.operand, ast.Constant))


class Analysis:
    """Scopes, hidden loop variables, types and homes of one module (see the module docstring)."""

    def __init__(self, tree: ast.Module, arg_names: list[str], problems: Problems):
        self.problems = problems
        self.module = Scope("<module>", tree)
        self.functions: dict[str, Scope] = {}
        self.hidden: dict[int, dict[str, Variable]] = {}  # id(For node) -> its hidden variables
        self.counter = 0
        self.globals_in_functions: set[str] = set()
        self.arg_names = list(arg_names)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                if node.name in self.functions:
                    problems.add(node, f"function {node.name!r} is defined twice")
                elif node.name in BUILTINS:
                    problems.add(node, f"{node.name!r} is a built-in here; choose another name")
                self.functions[node.name] = Scope(node.name, node, params=[a.arg for a in node.args.args])
        for name in self.arg_names:
            if name in self.functions:
                problems.add(tree, f"input {name!r} is also a function's name")
            self.module.variable(name, self._next()).weight += 1
        self._collect(self.module, [n for n in tree.body if not isinstance(n, ast.FunctionDef)])
        for scope in self.functions.values():
            for index, param in enumerate(scope.params):
                variable = scope.variable(param, self._next())
                variable.param_index = index
            for node in ast.walk(scope.node):
                if isinstance(node, ast.Global):
                    scope.declared_global.update(node.names)
            for name in scope.declared_global & set(scope.params):
                problems.add(scope.node, f"{name!r} is a parameter and declared global")
            self._collect(scope, scope.node.body)
        self._check_names()
        self._infer_types()
        self._place()

    def _next(self) -> int:
        self.counter += 1
        return self.counter

    # --- names ------------------------------------------------------------------------------------------
    def scope_of(self, scope: Scope, name: str) -> Scope | None:
        """The scope whose variable `name` is, read from `scope` (None: not a variable)."""
        if name in scope.variables and not (scope.is_module or name in scope.declared_global):
            return scope
        if name in self.module.variables:
            return self.module
        return None

    def lookup(self, scope: Scope, name: str) -> Variable | None:
        found = self.scope_of(scope, name)
        return found.variables[name] if found else None

    def _assigned(self, scope: Scope, name: str, node: ast.AST, weight: float) -> None:
        if name in self.functions or name in BUILTINS:
            self.problems.add(node, f"{name!r} names a {'function' if name in self.functions else 'built-in'}; "
                                    "choose another variable name")
            return
        if not scope.is_module and name in scope.declared_global:
            self.globals_in_functions.add(name)
            self.module.variable(name, self._next()).weight += weight
        else:
            scope.variable(name, self._next()).weight += weight

    def _collect(self, scope: Scope, body: list, depth: int = 0) -> None:
        """Every name a scope assigns (its variables), hidden loop variables, and use weights."""
        weight = 8.0 ** min(depth, 4)
        for node in body:
            for sub in ast.walk(node) if not isinstance(node, (ast.For, ast.While, ast.If)) else [node]:
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    self._assigned(scope, sub.id, sub, weight)
            if isinstance(node, ast.For):
                self._assigned(scope, node.target.id, node.target, weight) if isinstance(node.target, ast.Name) \
                    else None
                over_range = isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name) \
                    and node.iter.func.id == "range" and self.lookup(scope, "range") is None
                args = node.iter.args if over_range else []
                dynamic_step = len(args) == 3 and not _literal(args[2])
                names = (("cur", "stop") + (("step",) if dynamic_step else ())) if over_range else ("list", "index")
                hidden = {}
                for part in names:
                    variable = scope.variable(f".{part}{len(self.hidden)}", self._next())
                    variable.hidden, variable.type, variable.weight = True, INT, weight * 8
                    hidden[part] = variable
                self.hidden[id(node)] = hidden
                self._collect(scope, node.body, depth + 1)
                self._collect(scope, node.orelse, depth)
            elif isinstance(node, ast.While):
                self._collect(scope, node.body, depth + 1)
                self._collect(scope, node.orelse, depth)
            elif isinstance(node, ast.If):
                self._collect(scope, node.body, depth)
                self._collect(scope, node.orelse, depth)
            if not isinstance(node, (ast.For, ast.While, ast.If)):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                        self._read_weight(scope, sub.id, weight)
            else:
                for sub in ast.walk(node.iter if isinstance(node, ast.For) else node.test):
                    if isinstance(sub, ast.Name):
                        self._read_weight(scope, sub.id, weight * (8 if isinstance(node, ast.While) else 1))

    def _read_weight(self, scope: Scope, name: str, weight: float) -> None:
        variable = self.lookup(scope, name)
        if variable is not None:
            variable.weight += weight

    def _check_names(self) -> None:
        for scope in [self.module, *self.functions.values()]:
            body = scope.node.body if not scope.is_module else [n for n in scope.node.body
                                                                 if not isinstance(n, ast.FunctionDef)]
            for node in body:
                for sub in ast.walk(node):
                    if not (isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load)):
                        continue
                    if self.lookup(scope, sub.id) is not None:
                        if not scope.is_module and self.scope_of(scope, sub.id) is self.module:
                            self.globals_in_functions.add(sub.id)
                    elif sub.id in self.functions or sub.id in BUILTINS:
                        pass  # checked where it is called (a function is not a value)
                    else:
                        self.problems.add(sub, f"name {sub.id!r} is not defined")

    # --- types ------------------------------------------------------------------------------------------
    def expression_type(self, scope: Scope, node: ast.expr) -> str | None:
        if isinstance(node, ast.List):
            return LIST
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and (
                isinstance(node.left, ast.List) or isinstance(node.right, ast.List)):
            return LIST
        if isinstance(node, ast.Name):
            variable = self.lookup(scope, node.id)
            return variable.type if variable else None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.functions:
            return self.functions[node.func.id].returns
        if isinstance(node, ast.IfExp):
            return self.expression_type(scope, node.body) or self.expression_type(scope, node.orelse)
        if isinstance(node, ast.BoolOp):
            return next((t for t in (self.expression_type(scope, v) for v in node.values) if t), None)
        return INT

    def _join(self, variable: Variable, kind: str | None, node: ast.AST, what: str) -> bool:
        if kind is None or variable.type == kind:
            return False
        if variable.type is None:
            variable.type = kind
            return True
        self.problems.add(node, f"{what} {variable.name!r} holds {'a list' if kind == LIST else 'an int'} here "
                                f"and {'a list' if variable.type == LIST else 'an int'} elsewhere; "
                                "a variable keeps one type")
        return False

    def _infer_types(self) -> None:
        for _ in range(50):
            changed = False
            for scope in [self.module, *self.functions.values()]:
                body = scope.node.body if not scope.is_module else [n for n in scope.node.body
                                                                     if not isinstance(n, ast.FunctionDef)]
                for top in body:
                    for node in ast.walk(top):
                        changed |= self._types_of(scope, node)
            if not changed:
                break
        if self.problems.found:
            return
        for scope in [self.module, *self.functions.values()]:
            scope.returns = scope.returns or INT
            for variable in scope.variables.values():
                variable.type = variable.type or INT

    def _types_of(self, scope: Scope, node: ast.AST) -> bool:
        changed = False
        if isinstance(node, ast.Assign):
            values = node.value.elts if isinstance(node.value, ast.Tuple) else None
            for target in node.targets:
                pairs = zip(target.elts, values) if isinstance(target, ast.Tuple) and values else [(target, node.value)]
                for t, v in pairs:
                    if isinstance(t, ast.Name) and (variable := self.lookup(scope, t.id)):
                        changed |= self._join(variable, self.expression_type(scope, v), t, "variable")
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name) \
                and node.value is not None and (variable := self.lookup(scope, node.target.id)):
            kind = self.expression_type(scope, node.value) if isinstance(node, ast.AnnAssign) else INT
            changed |= self._join(variable, kind, node.target, "variable")
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name) \
                and (variable := self.lookup(scope, node.target.id)):
            changed |= self._join(variable, INT, node.target, "variable")
            hidden = self.hidden.get(id(node), {})
            if "list" in hidden:
                hidden["list"].type = LIST
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.functions:
            callee = self.functions[node.func.id]
            for param, arg in zip(callee.params, node.args):
                changed |= self._join(callee.variables[param], self.expression_type(scope, arg), arg, "parameter")
        elif isinstance(node, ast.Return) and not scope.is_module and node.value is not None:
            kind = self.expression_type(scope, node.value)
            if kind is not None and scope.returns is None:
                scope.returns, changed = kind, True
            elif kind is not None and kind != scope.returns:
                self.problems.add(node, f"{scope.name} returns an int in one place and a list in another")
        return changed

    # --- homes ------------------------------------------------------------------------------------------
    def _place(self) -> None:
        module_vars = list(self.module.variables.values())
        shared = [v for v in module_vars if v.name in self.globals_in_functions]
        private = [v for v in module_vars if v.name not in self.globals_in_functions]
        in_registers = self._most_used(private)
        address = GLOBALS_START
        for variable in module_vars:
            if variable in in_registers:
                continue
            variable.home, address = Home("global", address), address + 4
        self._assign_registers(in_registers)
        self.globals_end = address
        del shared
        for scope in self.functions.values():
            variables = list(scope.variables.values())
            chosen = self._most_used(variables)
            self._assign_registers(chosen)
            scope.saved = tuple(sorted(v.home.register for v in chosen))
            n = len(scope.params)
            for variable in variables:
                if variable in chosen:
                    continue
                if variable.param_index is not None:  # the argument's own slot: [R7 + 8 + 4 (n - 1 - i)]
                    variable.home = Home("frame", 8 + 4 * (n - 1 - variable.param_index))
                else:
                    scope.frame_words += 1
                    variable.home = Home("frame", -4 * (len(scope.saved) + scope.frame_words))

    @staticmethod
    def _most_used(variables: list[Variable]) -> list[Variable]:
        ranked = sorted(variables, key=lambda v: (-v.weight, v.order))
        return ranked[:len(HOMES)]

    @staticmethod
    def _assign_registers(chosen: list[Variable]) -> None:
        for register, variable in zip(HOMES, sorted(chosen, key=lambda v: v.order)):
            variable.home = Home("register", register=register)
