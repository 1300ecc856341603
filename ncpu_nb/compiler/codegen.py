"""Python AST -> nCPU assembly, one instruction per record, each with its Python line.

Expressions are evaluated into a register the caller owns (`expr(node, dst)`); a right operand is
a register home, a 16-bit immediate or a temporary (R4, R5), and when both temporaries are taken
the left value waits on the stack (PUSH, evaluate, POP). Conditions compile to CMP and a
conditional jump; their value (0/1) only where it is used as a number. `and`/`or` give one of
their operands, as Python's do. `//` and `%` floor as Python's (DIV/MOD truncate: a remainder
whose sign differs from the divisor's is corrected), `<<` by 32 or more gives 0, and a negative
shift, a zero divisor or an index out of range stops the program as the Python exception.
Calls: the caller saves its live temporaries, pushes the arguments, CALLs and pops them; the
callee keeps a frame at R7 (see `register_roles`), returns its value in R4.
"""
from __future__ import annotations

import ast
from contextlib import contextmanager
from dataclasses import dataclass

from ncpu_nb.compiler.python_subset import BINARY, BUILTINS, COMPARE, Problems
from ncpu_nb.compiler.register_roles import FP, GLOBALS_START, HEAP_TOP, RESULT, SCRATCH, TEMPS, TempPool
from ncpu_nb.compiler.runtime import FAIL, NEWLIST, STACK_MARGIN, routine_lines
from ncpu_nb.compiler.scopes import INT, LIST, Analysis, Scope

JUMP = {"eq": "JZ", "ne": "JNZ", "lt": "JL", "le": "JLE", "gt": "JG", "ge": "JGE"}
MAX_STACK_WORDS = (1 << 15) // 4 - 8  # words a frame, a call's arguments or a tuple may hold: 16-bit SP/FP offsets
WINDOW = 4096  # words a long list literal is stored through one base address (offsets hold 16 bits)
NEGATE = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "le": "gt", "gt": "le"}
IMM16 = (-(1 << 15), (1 << 15) - 1)


def wrap32(value: int) -> int:
    value &= 0xFFFF_FFFF
    return value - (1 << 32) if value & 0x8000_0000 else value


@dataclass
class Item:
    """One line of the output: an instruction (`text`) or a label; `line` is its Python line
    (0: the compiled runtime); `constant` the Python literal (line, column, value) an instruction's
    immediate came from."""

    text: str
    line: int
    label: bool = False
    constant: tuple | None = None


@dataclass
class Site:
    """A place a runtime error can stop the program: Python's exception, its message, the node."""

    kind: str
    message: str
    line: int
    column: int
    length: int


class Operand(str):
    """An operand's text, and the Python literal it is (for the constant map), if any."""

    constant: tuple | None = None


class CodeGen:
    def __init__(self, analysis: Analysis, problems: Problems, tree: ast.Module):
        self.a, self.problems, self.tree = analysis, problems, tree
        self.items: list[Item] = []
        self.sites: list[Site] = []
        self.temps = TempPool()
        self.loops: list[tuple[str, str]] = []
        self.scope: Scope = analysis.module
        self.line, self.count, self.uses_lists = 1, 0, False
        self.function_labels = self._function_labels()

    # --- output -----------------------------------------------------------------------------------------
    def ins(self, text: str, constant: tuple | None = None) -> None:
        self.items.append(Item(text, self.line, constant=constant))

    def label(self, name: str) -> None:
        self.items.append(Item(name, self.line, label=True))

    def new_label(self, what: str) -> str:
        self.count += 1
        return f".{what}{self.count}"

    def site(self, kind: str, message: str, node: ast.AST) -> str:
        """The label of a new runtime-error exit for `node`."""
        at = Problems.__new__(Problems)
        at.lines, at.found = self.problems.lines, []
        at.add(node, message)
        d = at.found[0]
        self.sites.append(Site(kind, message, d.line, d.column, d.length))
        return f".err{len(self.sites)}"

    def _function_labels(self) -> dict[str, str]:
        labels, taken = {}, {f"r{i}" for i in range(8)} | {"sp"}
        for name in self.a.functions:
            label = name if name.casefold() not in taken else f"{name}.{len(labels)}"
            taken.add(label.casefold())
            labels[name] = label
        return labels

    # --- the whole module -------------------------------------------------------------------------------
    def generate(self) -> list[Item]:
        for node in self.tree.body:
            if not isinstance(node, ast.FunctionDef):
                self.statement(node)
        self.line = 0
        self.ins("HALT")
        for name, scope in self.a.functions.items():
            self.function(scope)
        self.line = 0
        if self.uses_lists:
            for text, is_label in routine_lines(NEWLIST):
                (self.label if is_label else self.ins)(text)
        for number, site in enumerate(self.sites, 1):
            self.line = site.line
            self.label(f".err{number}")
            self.ins(f"MOV {SCRATCH}, {number}")
            self.ins("JMP .fail")
        if self.sites:
            self.line = 0
            for text, is_label in routine_lines(FAIL):
                (self.label if is_label else self.ins)(text)
        return self.items

    def data_section(self) -> str:
        words = (self.a.globals_end - GLOBALS_START) // 4
        lines = [".data", f".word {self.a.globals_end}", ".word 0"]
        return "\n".join(lines + ([f".zero {4 * words}"] if words else []))

    def function(self, scope: Scope) -> None:
        self.scope, node = scope, scope.node
        self.line = node.lineno
        self.label(self.function_labels[scope.name])
        self.ins(f"PUSH {FP}")
        self.ins(f"MOV {FP}, SP")
        for register in scope.saved:
            self.ins(f"PUSH {register}")
        self.fits(node, len(scope.params) + len(scope.saved) + scope.frame_words, f"the frame of {scope.name}()")
        if scope.frame_words:
            self.ins(f"SUB SP, SP, {4 * scope.frame_words}")
        self.ins(f"LDR {SCRATCH}, [{HEAP_TOP}]")
        self.ins(f"ADD {SCRATCH}, {SCRATCH}, {STACK_MARGIN}")
        self.ins(f"CMP SP, {SCRATCH}")
        self.ins(f"JL {self.site('RecursionError', 'the stack met the heap: recursion too deep', node)}")
        n = len(scope.params)
        zeroed = False
        for variable in scope.variables.values():
            home = variable.home
            if variable.param_index is not None:
                if home.kind == "register":
                    self.ins(f"LDR {home.register}, [{FP}, {8 + 4 * (n - 1 - variable.param_index)}]")
            elif home.kind == "register":
                self.ins(f"MOV {home.register}, 0")
            else:
                if not zeroed:
                    self.ins(f"MOV {SCRATCH}, 0")
                    zeroed = True
                self.ins(f"STR {SCRATCH}, {home.operand}")
        for statement in node.body:
            self.statement(statement)
        self.line = node.lineno
        self.ins(f"MOV {RESULT}, 0")
        self.label(f".ret_{self.function_labels[scope.name]}")
        for k, register in enumerate(scope.saved):
            self.ins(f"LDR {register}, [{FP}, {-4 * (k + 1)}]")
        self.ins(f"MOV SP, {FP}")
        self.ins(f"POP {FP}")
        self.ins("RET")
        self.scope = self.a.module

    # --- registers --------------------------------------------------------------------------------------
    @contextmanager
    def fresh(self, register: str | None = None):
        """A temporary of our own (at statement level both are free)."""
        if register is not None:
            self.temps.free.remove(register)
            taken = register
        else:
            taken = self.temps.take()
        if taken is None:
            raise AssertionError("no free temporary")  # statement level always has both
        try:
            yield taken
        finally:
            self.temps.give(taken)

    @contextmanager
    def borrow(self, exclude: set):
        """A register for a short sequence: a free temporary, or one saved with PUSH and restored with
        POP (so nothing in between may jump out, except to a runtime-error exit)."""
        taken = self.temps.take()
        if taken is not None:
            try:
                yield taken
            finally:
                self.temps.give(taken)
            return
        register = next(r for r in (*TEMPS, SCRATCH) if r not in exclude)
        self.ins(f"PUSH {register}")
        yield register
        self.ins(f"POP {register}")

    def constant(self, node: ast.expr) -> int | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return wrap32(int(node.value))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
                and isinstance(node.operand.value, int):
            return wrap32(-int(node.operand.value))
        return None

    def origin(self, node: ast.expr) -> tuple | None:
        """(line, column, value) of a literal in the source (None for one the compiler made up)."""
        if getattr(node, "synthetic", False):
            return None
        return (node.lineno, node.col_offset + 1, self.constant(node))

    def register_home(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            variable = self.a.lookup(self.scope, node.id)
            if variable is not None and variable.home.kind == "register":
                return variable.home.register
        return None

    @contextmanager
    def operand(self, node: ast.expr, dst: str, immediate: bool = True):
        """The right operand of an instruction whose left value is in `dst`: an immediate, a register
        home, or a register evaluated into (left waiting on the stack when no temporary is free)."""
        value = self.constant(node)
        if value is not None and immediate and IMM16[0] <= value <= IMM16[1]:
            op = Operand(str(value))
            op.constant = self.origin(node)
            yield op
            return
        home = self.register_home(node)
        if home is not None and home != dst:
            yield Operand(home)
            return
        with self.owned(node, dst) as register:
            yield Operand(register)

    @contextmanager
    def owned(self, node: ast.expr, dst: str):
        """`node` evaluated into a register we may change, `dst` kept."""
        taken = self.temps.take()
        if taken is not None:
            try:
                self.expr(node, taken)
                yield taken
            finally:
                self.temps.give(taken)
            return
        self.ins(f"PUSH {dst}")
        self.expr(node, dst)
        self.ins(f"MOV {SCRATCH}, {dst}")
        self.ins(f"POP {dst}")
        yield SCRATCH

    # --- statements -------------------------------------------------------------------------------------
    def statement(self, node: ast.stmt) -> None:
        self.line = node.lineno
        assert len(self.temps.free) == len(TEMPS), "temporaries leaked"
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is None:
            return  # reported by the subset check
        method(node)

    def s_Pass(self, node) -> None:
        pass

    def s_Global(self, node) -> None:
        pass

    def s_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Call):
            with self.fresh() as t:
                self.expr(node.value, t)

    def s_Assign(self, node: ast.Assign) -> None:
        if isinstance(node.value, ast.Tuple):
            values = node.value.elts
            self.fits(node.value, len(values), "a tuple")
            with self.fresh(RESULT) as t:
                for value in values:
                    self.expr(value, t)
                    self.ins(f"PUSH {t}")
                for target in node.targets:
                    if not isinstance(target, ast.Tuple):
                        continue
                    for k, element in enumerate(target.elts):
                        self.ins(f"LDR {t}, [SP, {4 * (len(values) - 1 - k)}]")
                        self.store(element, t)
                self.ins(f"ADD SP, SP, {4 * len(values)}")
            return
        target = node.targets[0]
        if len(node.targets) == 1 and isinstance(target, ast.Name):
            home = self.register_home(target)
            reads = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            if home is not None and target.id not in reads:
                self.expr(node.value, home)  # straight into its home
                return
        with self.fresh() as t:
            self.expr(node.value, t)
            for target in node.targets:
                self.store(target, t)

    def s_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.s_Assign(ast.copy_location(ast.Assign(targets=[node.target], value=node.value), node))

    def store(self, target: ast.expr, register: str) -> None:
        """Assign the value in `register` (ours: it may be used) to a name or a list element."""
        if isinstance(target, ast.Name):
            variable = self.a.lookup(self.scope, target.id)
            if variable is None:
                return
            if variable.home.kind == "register":
                if variable.home.register != register:
                    self.ins(f"MOV {variable.home.register}, {register}")
            else:
                self.ins(f"STR {register}, {variable.home.operand}")
            return
        if isinstance(target, ast.Subscript):
            self.ins(f"PUSH {register}")
            self.element_address(target, register)
            self.ins(f"POP {SCRATCH}")
            self.ins(f"STR {SCRATCH}, [{register}]")

    def s_AugAssign(self, node: ast.AugAssign) -> None:
        target = node.target
        if isinstance(target, ast.Subscript):
            with self.fresh() as address, self.fresh() as value:
                self.element_address(target, address)
                self.ins(f"LDR {value}, [{address}]")
                self.apply(node.op, value, node.value, node)
                self.ins(f"STR {value}, [{address}]")
            return
        variable = self.a.lookup(self.scope, target.id)
        if variable is None:
            return
        self.check_int(target)
        home = variable.home
        simple = self.constant(node.value) is not None or self.register_home(node.value) is not None
        if home.kind == "register" and simple and BINARY[type(node.op)] in ("ADD", "SUB", "MUL", "AND", "OR", "XOR"):
            self.apply(node.op, home.register, node.value, node)
            return
        with self.fresh() as t:
            self.expr(target, t)
            self.apply(node.op, t, node.value, node)
            self.store(target, t)

    def s_If(self, node: ast.If) -> None:
        end = self.new_label("endif")
        other = self.new_label("else") if node.orelse else end
        self.branch(node.test, other, False)
        for statement in node.body:
            self.statement(statement)
        if node.orelse:
            self.line = node.lineno
            self.ins(f"JMP {end}")
            self.label(other)
            for statement in node.orelse:
                self.statement(statement)
        self.label(end)

    def s_While(self, node: ast.While) -> None:
        top, other, end = self.new_label("while"), self.new_label("wend"), self.new_label("wdone")
        self.label(top)
        self.branch(node.test, other, False)
        self.loop_body(node, top, end)
        self.line = node.lineno
        self.ins(f"JMP {top}")
        self.label(other)
        for statement in node.orelse:
            self.statement(statement)
        self.label(end)

    def loop_body(self, node, next_label: str, end: str) -> None:
        self.loops.append((next_label, end))
        for statement in node.body:
            self.statement(statement)
        self.loops.pop()

    def s_Break(self, node) -> None:
        if not self.loops:
            self.problems.add(node, "break outside a loop")
            return
        self.ins(f"JMP {self.loops[-1][1]}")

    def s_Continue(self, node) -> None:
        if not self.loops:
            self.problems.add(node, "continue outside a loop")
            return
        self.ins(f"JMP {self.loops[-1][0]}")

    def s_For(self, node: ast.For) -> None:
        hidden = self.a.hidden[id(node)]

        def name(part: str, store: bool = False) -> ast.Name:
            return ast.copy_location(ast.Name(hidden[part].name, ast.Store() if store else ast.Load()), node)

        def run(statement: ast.stmt) -> None:
            self.statement(ast.fix_missing_locations(ast.copy_location(statement, node)))

        def literal(value: int) -> ast.Constant:
            made = ast.copy_location(ast.Constant(value), node)
            made.synthetic = True
            return made

        def compare(left, op, right):
            return ast.copy_location(ast.Compare(left, [op], [right]), node)

        top, step_label, other, end = (self.new_label(w) for w in ("for", "fnext", "fend", "fdone"))
        if "cur" in hidden:
            args = node.iter.args
            if not 1 <= len(args) <= 3:
                self.problems.add(node.iter, f"range takes 1 to 3 arguments, not {len(args)}")
                return
            start, stop, step = (literal(0), args[0], None) if len(args) == 1 else \
                (args[0], args[1], args[2] if len(args) == 3 else None)
            for arg in args:
                self.check_int(arg)
            run(ast.Assign([name("cur", True)], start))
            run(ast.Assign([name("stop", True)], stop))
            fixed = 1 if step is None else self.constant(step)
            if fixed == 0:
                self.ins(f"JMP {self.site('ValueError', 'range() arg 3 must not be zero', step)}")
            if fixed is None:
                run(ast.Assign([name("step", True)], step))
                with self.fresh() as t:
                    self.expr(name("step"), t)
                    self.ins(f"CMP {t}, 0")
                    self.ins(f"JZ {self.site('ValueError', 'range() arg 3 must not be zero', step)}")
                zero = literal(0)
                test = ast.copy_location(ast.BoolOp(ast.Or(), [
                    ast.BoolOp(ast.And(), [compare(name("step"), ast.Gt(), zero),
                                           compare(name("cur"), ast.Lt(), name("stop"))]),
                    ast.BoolOp(ast.And(), [compare(name("step"), ast.Lt(), zero),
                                           compare(name("cur"), ast.Gt(), name("stop"))])]), node)
                ast.fix_missing_locations(test)
                increment = name("step")
            else:
                test = compare(name("cur"), ast.Lt() if fixed > 0 else ast.Gt(), name("stop"))
                increment = literal(fixed) if step is None else step
            self.label(top)
            self.line = node.lineno
            self.branch(test, other, False)
            run(ast.Assign([node.target], name("cur")))
            self.loop_body(node, step_label, end)
            self.line = node.lineno
            self.label(step_label)
            run(ast.AugAssign(name("cur", True), ast.Add(), increment))
        else:
            if self.a.expression_type(self.scope, node.iter) != LIST:
                self.problems.add(node.iter, "a for loop runs over range(...) or a list")
                return
            run(ast.Assign([name("list", True)], node.iter))
            run(ast.Assign([name("index", True)], literal(0)))
            self.label(top)
            self.line = node.lineno
            length = ast.copy_location(ast.Call(ast.Name("len", ast.Load()), [name("list")], []), node)
            self.branch(ast.fix_missing_locations(compare(name("index"), ast.Lt(), length)), other, False)
            run(ast.Assign([node.target], ast.Subscript(name("list"), name("index"), ast.Load())))
            self.loop_body(node, step_label, end)
            self.line = node.lineno
            self.label(step_label)
            run(ast.AugAssign(name("index", True), ast.Add(), literal(1)))
        self.ins(f"JMP {top}")
        self.label(other)
        for statement in node.orelse:
            self.statement(statement)
        self.label(end)

    def s_Return(self, node: ast.Return) -> None:
        if self.scope.is_module:
            return  # reported by the subset check
        with self.fresh(RESULT) as t:
            if node.value is None:
                self.ins(f"MOV {t}, 0")
            else:
                self.expr(node.value, t)
        self.ins(f"JMP .ret_{self.function_labels[self.scope.name]}")

    def s_Assert(self, node: ast.Assert) -> None:
        self.branch(node.test, self.site("AssertionError", "assertion failed", node), False)

    # --- conditions -------------------------------------------------------------------------------------
    def branch(self, node: ast.expr, label: str, when: bool, register: str | None = None) -> None:
        """Jump to `label` if the truth of `node` is `when`, else fall through. `register` (ours) is
        where values are computed; without it a free temporary."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.branch(node.operand, label, not when, register)
            return
        if isinstance(node, ast.BoolOp):
            deciding = isinstance(node.op, ast.And) != when  # and-false / or-true: any operand decides
            if deciding:
                for value in node.values:
                    self.branch(value, label, when, register)
            else:
                skip = self.new_label("skip")
                for value in node.values[:-1]:
                    self.branch(value, skip, not when, register)
                self.branch(node.values[-1], label, when, register)
                self.label(skip)
            return
        value = self.constant(node)
        if value is not None:
            if bool(value) == when:
                self.ins(f"JMP {label}")
            return
        if register is None:
            with self.fresh() as t:
                self.branch(node, label, when, t)
            return
        if isinstance(node, ast.Compare):
            self.compare(node, label, when, register)
            return
        self.expr(node, register)
        self.ins(f"CMP {register}, 0")
        self.ins(f"{'JNZ' if when else 'JZ'} {label}")

    def compare(self, node: ast.Compare, label: str, when: bool, register: str) -> None:
        for operand in [node.left, *node.comparators]:
            self.check_int(operand)
        self.expr(node.left, register)
        fail = label if not when else self.new_label("skip")
        for k, (op, right) in enumerate(zip(node.ops, node.comparators)):
            kind = COMPARE[type(op)]
            last = k == len(node.ops) - 1
            with self.operand(right, register) as b:
                self.ins(f"CMP {register}, {b}", b.constant)
                if last:
                    self.ins(f"{JUMP[kind if when else NEGATE[kind]]} {label}")
                else:
                    self.ins(f"{JUMP[NEGATE[kind]]} {fail}")
                    self.ins(f"MOV {register}, {b}", b.constant)
        if when and len(node.ops) > 1:
            self.label(fail)

    # --- expressions ------------------------------------------------------------------------------------
    def check_int(self, node: ast.expr) -> None:
        if self.a.expression_type(self.scope, node) == LIST:
            self.problems.add(node, "a list where an integer belongs")

    def expr(self, node: ast.expr, dst: str) -> None:
        method = getattr(self, "e_" + type(node).__name__, None)
        if method is not None:
            method(node, dst)

    def e_Constant(self, node: ast.Constant, dst: str) -> None:
        value = self.constant(node)
        if value is not None:
            self.ins(f"MOV {dst}, {value}", self.origin(node))

    def e_Name(self, node: ast.Name, dst: str) -> None:
        variable = self.a.lookup(self.scope, node.id)
        if variable is None:
            if node.id in self.a.functions or node.id in BUILTINS:
                self.problems.add(node, f"{node.id!r} is a function: call it")
            return
        home = variable.home
        if home.kind == "register":
            if home.register != dst:
                self.ins(f"MOV {dst}, {home.register}")
        else:
            self.ins(f"LDR {dst}, {home.operand}")

    def e_UnaryOp(self, node: ast.UnaryOp, dst: str) -> None:
        value = self.constant(node)
        if value is not None:
            self.ins(f"MOV {dst}, {value}", self.origin(node))
            return
        if isinstance(node.op, ast.Not):
            self.truth_value(node, dst)
            return
        self.check_int(node.operand)
        self.expr(node.operand, dst)
        if isinstance(node.op, ast.USub):
            self.ins(f"NEG {dst}, {dst}")
        elif isinstance(node.op, ast.Invert):
            self.ins(f"NOT {dst}, {dst}")

    def truth_value(self, node: ast.expr, dst: str) -> None:
        """0 or 1: a comparison's or `not`'s value as a number."""
        false, end = self.new_label("false"), self.new_label("bool")
        self.branch(node, false, False, dst)
        self.ins(f"MOV {dst}, 1")
        self.ins(f"JMP {end}")
        self.label(false)
        self.ins(f"MOV {dst}, 0")
        self.label(end)

    def e_Compare(self, node: ast.Compare, dst: str) -> None:
        self.truth_value(node, dst)

    def e_BoolOp(self, node: ast.BoolOp, dst: str) -> None:
        end = self.new_label("bool")
        for value in node.values[:-1]:
            self.expr(value, dst)
            self.ins(f"CMP {dst}, 0")
            self.ins(f"{'JZ' if isinstance(node.op, ast.And) else 'JNZ'} {end}")
        self.expr(node.values[-1], dst)
        self.label(end)

    def e_IfExp(self, node: ast.IfExp, dst: str) -> None:
        other, end = self.new_label("else"), self.new_label("ifx")
        self.branch(node.test, other, False, dst)
        self.expr(node.body, dst)
        self.ins(f"JMP {end}")
        self.label(other)
        self.expr(node.orelse, dst)
        self.label(end)

    def e_BinOp(self, node: ast.BinOp, dst: str) -> None:
        if isinstance(node.op, ast.Mult) and (isinstance(node.left, ast.List) or isinstance(node.right, ast.List)):
            self.repeated_list(node, dst)
            return
        self.check_int(node.left)
        self.check_int(node.right)
        left = self.register_home(node.left)
        kind = BINARY.get(type(node.op))
        if left is not None and kind in ("ADD", "SUB", "MUL", "AND", "OR", "XOR"):
            with self.operand(node.right, dst) as b:  # OP dst, home, b: no copy of the left operand first
                self.ins(f"{kind} {dst}, {left}, {b}", b.constant)
            return
        self.expr(node.left, dst)
        self.apply(node.op, dst, node.right, node)

    def apply(self, op: ast.operator, dst: str, right: ast.expr, node: ast.AST) -> None:
        """dst = dst OP right, with Python's semantics on 32-bit integers."""
        kind = BINARY.get(type(op))
        if kind is None:
            return  # reported by the subset check
        self.check_int(right)
        if kind in ("//", "%"):
            self.floor_division(kind, dst, right, node)
        elif kind in ("<<", ">>"):
            self.shift(kind, dst, right, node)
        else:
            with self.operand(right, dst) as b:
                self.ins(f"{kind} {dst}, {dst}, {b}", b.constant)

    def floor_division(self, kind: str, dst: str, right: ast.expr, node: ast.AST) -> None:
        divisor = self.constant(right)
        if divisor == 0:  # Python raises when (and only if) the line runs: so does the program
            self.ins(f"JMP {self.site('ZeroDivisionError', 'integer division or modulo by zero', node)}")
            return
        with self.operand(right, dst) as b:
            if divisor is None:
                self.ins(f"CMP {b}, 0")
                self.ins(f"JZ {self.site('ZeroDivisionError', 'integer division or modulo by zero', node)}")
            done = self.new_label("floor")
            if kind == "//":
                with self.borrow({dst, b}) as r:
                    self.ins(f"MOD {r}, {dst}, {b}", b.constant)
                    self.ins(f"DIV {dst}, {dst}, {b}", b.constant)
                    self.ins(f"CMP {r}, 0")
                    self.ins(f"JZ {done}")
                    if divisor is None:
                        self.ins(f"XOR {r}, {r}, {b}")
                        self.ins(f"JNS {done}")
                    else:
                        self.ins(f"{'JNS' if divisor > 0 else 'JS'} {done}")
                    self.ins(f"SUB {dst}, {dst}, 1")
                    self.label(done)
                return
            if divisor is not None:
                self.ins(f"MOD {dst}, {dst}, {b}", b.constant)
                self.ins(f"CMP {dst}, 0")
                self.ins(f"JZ {done}")
                self.ins(f"{'JNS' if divisor > 0 else 'JS'} {done}")
                self.ins(f"ADD {dst}, {dst}, {b}", b.constant)
                self.label(done)
                return
            with self.borrow({dst, b}) as s:
                self.ins(f"MOD {dst}, {dst}, {b}")
                self.ins(f"CMP {dst}, 0")
                self.ins(f"JZ {done}")
                self.ins(f"XOR {s}, {dst}, {b}")
                self.ins(f"JNS {done}")
                self.ins(f"ADD {dst}, {dst}, {b}")
                self.label(done)

    def shift(self, kind: str, dst: str, right: ast.expr, node: ast.AST) -> None:
        amount = self.constant(right)
        mnemonic = "SHL" if kind == "<<" else "SAR"
        if amount is not None:
            if amount < 0:
                self.ins(f"JMP {self.site('ValueError', 'negative shift count', node)}")
            elif amount >= 32:
                self.ins(f"MOV {dst}, 0" if kind == "<<" else f"SAR {dst}, {dst}, 31", self.origin(right))
            else:
                self.ins(f"{mnemonic} {dst}, {dst}, {amount}", self.origin(right))
            return
        with self.operand(right, dst) as b:
            self.ins(f"CMP {b}, 0")
            self.ins(f"JL {self.site('ValueError', 'negative shift count', node)}")
            if kind == ">>":
                self.ins(f"SAR {dst}, {dst}, {b}")  # SAR clamps the amount at 31, as Python's >> saturates
                return
            big, done = self.new_label("shl"), self.new_label("shlok")
            self.ins(f"CMP {b}, 31")
            self.ins(f"JG {big}")
            self.ins(f"SHL {dst}, {dst}, {b}")
            self.ins(f"JMP {done}")
            self.label(big)
            self.ins(f"MOV {dst}, 0")
            self.label(done)

    def fits(self, node: ast.AST, words: int, what: str) -> None:
        """Report `what` when its `words` on the stack are more than a 16-bit offset reaches."""
        if words > MAX_STACK_WORDS:
            self.problems.add(node, f"{what} takes {words:,} words of stack, more than the {MAX_STACK_WORDS:,} "
                                    "its 16-bit offsets reach: use a list")

    # --- calls ------------------------------------------------------------------------------------------
    def call_sequence(self, dst: str, pushes, label: str, arguments: int) -> None:
        """Save live temporaries, run `pushes` (each leaves one word on the stack), CALL, drop the
        arguments, result into dst, restore."""
        saved = [t for t in self.temps.in_use() if t != dst]
        for register in saved:
            self.ins(f"PUSH {register}")
        for push in pushes:
            push()
        self.ins(f"CALL {label}")
        if arguments:
            self.ins(f"ADD SP, SP, {4 * arguments}")
        if dst != RESULT:
            self.ins(f"MOV {dst}, {RESULT}")
        return saved

    def restore(self, saved: list) -> None:
        for register in reversed(saved):
            self.ins(f"POP {register}")

    def e_Call(self, node: ast.Call, dst: str) -> None:
        if not isinstance(node.func, ast.Name):
            return
        name, args = node.func.id, node.args
        if self.a.lookup(self.scope, name) is not None:
            self.problems.add(node.func, f"{name!r} is a variable, not a function")
            return
        if name in self.a.functions:
            callee = self.a.functions[name]
            if len(args) != len(callee.params):
                self.problems.add(node, f"{name}() takes {len(callee.params)} argument"
                                        f"{'s' if len(callee.params) != 1 else ''}, got {len(args)}")
                return
            if self.scope.is_module and callee.node.lineno > node.lineno:
                self.problems.add(node.func, f"{name} is called before its def runs (NameError in Python)")

            self.fits(node, len(args), f"a call of {name}()")

            def push(arg):
                return lambda: (self.expr(arg, dst), self.ins(f"PUSH {dst}"))
            self.restore(self.call_sequence(dst, [push(a) for a in args], self.function_labels[name], len(args)))
            return
        if name not in BUILTINS:
            self.problems.add(node.func, f"name {name!r} is not defined")
            return
        if name == "range":
            self.problems.add(node, "range(...) belongs in a for loop")
            return
        count = {"len": (1, 1), "abs": (1, 1), "min": (2, 99), "max": (2, 99)}[name]
        if not count[0] <= len(args) <= count[1]:
            self.problems.add(node, f"{name}() takes {count[0]}{'' if count[0] == count[1] else ' or more'} "
                                    f"argument{'s' if count[0] > 1 else ''} here, got {len(args)}")
            return
        if name == "len":
            if self.a.expression_type(self.scope, args[0]) != LIST:
                self.problems.add(args[0], "len() takes a list")
                return
            self.expr(args[0], dst)
            self.ins(f"LDR {dst}, [{dst}, -4]")
            return
        for arg in args:
            self.check_int(arg)
        self.expr(args[0], dst)
        done = self.new_label(name)
        if name == "abs":
            self.ins(f"CMP {dst}, 0")
            self.ins(f"JGE {done}")
            self.ins(f"NEG {dst}, {dst}")
            self.label(done)
            return
        for arg in args[1:]:
            keep = self.new_label(name)
            with self.operand(arg, dst) as b:
                self.ins(f"CMP {dst}, {b}", b.constant)
                self.ins(f"{'JLE' if name == 'min' else 'JGE'} {keep}")
                self.ins(f"MOV {dst}, {b}", b.constant)
            self.label(keep)

    # --- lists ------------------------------------------------------------------------------------------
    def new_list(self, dst: str, pushes, extra: int, node: ast.AST) -> list:
        """Call the allocator after `pushes` (fill value, then length); returns the registers saved."""
        self.uses_lists = True
        saved = self.call_sequence(dst, pushes, ".newlist", 2)
        self.ins(f"CMP {dst}, 0")
        self.ins(f"JZ {self.site('MemoryError', 'the heap is full (lists take data memory)', node)}")
        return saved

    def e_List(self, node: ast.List, dst: str) -> None:
        n = len(node.elts)
        for element in node.elts:  # Python evaluates the elements first; they wait on the stack
            self.check_int(element)
            self.expr(element, dst)
            self.ins(f"PUSH {dst}")
        pushes = [lambda: (self.ins(f"MOV {dst}, 0"), self.ins(f"PUSH {dst}")),
                  lambda: (self.ins(f"MOV {dst}, {n}"), self.ins(f"PUSH {dst}"))]
        self.restore(self.new_list(dst, pushes, 0, node))
        # The last element is on top: pop each into place from the end. A memory offset holds 16 bits,
        # so for a long list dst points WINDOW words at a time further in, and back at the start by the end.
        base = (n - 1) // WINDOW * WINDOW if n else 0
        for _ in range(base // WINDOW):
            self.ins(f"ADD {dst}, {dst}, {4 * WINDOW}")
        for k in reversed(range(n)):
            if k < base:
                self.ins(f"SUB {dst}, {dst}, {4 * WINDOW}")
                base -= WINDOW
            self.ins(f"POP {SCRATCH}")
            self.ins(f"STR {SCRATCH}, [{dst}, {4 * (k - base)}]")

    def repeated_list(self, node: ast.BinOp, dst: str) -> None:
        """[e] * n and n * [e]: n copies of e (none when n <= 0)."""
        list_first = isinstance(node.left, ast.List)
        single, count = (node.left, node.right) if list_first else (node.right, node.left)
        if len(single.elts) != 1:
            self.problems.add(node, "only a one-element list repeats: [e] * n")
            return
        self.check_int(single.elts[0])
        self.check_int(count)
        first, second = (single.elts[0], count) if list_first else (count, single.elts[0])
        pushes = [lambda: (self.expr(first, dst), self.ins(f"PUSH {dst}")),
                  lambda: (self.expr(second, dst), self.ins(f"PUSH {dst}"))]
        if not list_first:  # Python evaluates n first: swap the two words into (fill, n)
            pushes.append(lambda: (self.ins(f"LDR {SCRATCH}, [SP]"), self.ins(f"LDR {dst}, [SP, 4]"),
                                   self.ins(f"STR {SCRATCH}, [SP, 4]"), self.ins(f"STR {dst}, [SP]")))
        self.restore(self.new_list(dst, pushes, 0, node))

    def element_address(self, node: ast.Subscript, dst: str) -> None:
        """dst = the address of xs[i], checked against the length (negative i counts from the end)."""
        if self.a.expression_type(self.scope, node.value) != LIST:
            self.problems.add(node.value, "only lists can be indexed")
            return
        self.check_int(node.slice)
        self.expr(node.value, dst)
        error = self.site("IndexError", "list index out of range", node)
        index = self.constant(node.slice)
        if index is not None and 0 <= index <= IMM16[1] // 4:
            with self.borrow({dst}) as n:
                self.ins(f"LDR {n}, [{dst}, -4]")
                self.ins(f"CMP {n}, {index}", self.origin(node.slice))
                self.ins(f"JLE {error}")
            if index:
                self.ins(f"ADD {dst}, {dst}, {4 * index}")
            return
        with self.owned(node.slice, dst) as i, self.borrow({dst, i}) as n:
            ok = self.new_label("index")
            self.ins(f"LDR {n}, [{dst}, -4]")
            self.ins(f"CMP {i}, 0")
            self.ins(f"JGE {ok}")
            self.ins(f"ADD {i}, {i}, {n}")
            self.ins(f"CMP {i}, 0")
            self.ins(f"JL {error}")
            self.label(ok)
            self.ins(f"CMP {i}, {n}")
            self.ins(f"JGE {error}")
            self.ins(f"SHL {i}, {i}, 2")
            self.ins(f"ADD {dst}, {dst}, {i}")

    def e_Subscript(self, node: ast.Subscript, dst: str) -> None:
        self.element_address(node, dst)
        self.ins(f"LDR {dst}, [{dst}]")


__all__ = ["CodeGen", "Item", "Site", "INT", "LIST", "wrap32"]
