"""Random programs of the compiled Python subset, for the differential test against Python.

Every program terminates: while loops carry a counter the body never assigns, ranges are short,
recursion goes down a bounded argument. Values may overflow 32 bits (the oracle wraps them, as the
machine does); divisions by zero, bad indices and negative shifts are rare but possible, so the
exceptions are checked too.
"""
from __future__ import annotations

import random

INTS = ("a", "b", "c", "d", "i", "j", "k")
LISTS = ("xs", "ys")
BINARY = ("+", "-", "*", "//", "%", "<<", ">>", "&", "|", "^")
COMPARE = ("<", "<=", ">", ">=", "==", "!=")


class ProgramGenerator:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.functions: list[tuple[str, int]] = []  # callable so far: (name, arity)
        self.lines: list[str] = []
        self.while_count = 0

    # --- expressions ------------------------------------------------------------------------------
    def constant(self) -> str:
        roll = self.r.random()
        if roll < 0.75:
            return str(self.r.randint(-9, 20))
        if roll < 0.9:
            return str(self.r.randint(-1000, 100000))
        return str(self.r.choice([2**31 - 1, -2**31, 2**31 + 5, 0xFFFFFFFF, 65536, 1 << 20]))

    def atom(self, ints, lists) -> str:
        roll = self.r.random()
        if roll < 0.45:
            return self.r.choice(ints)
        if roll < 0.7 or not lists:
            return self.constant()
        xs = self.r.choice(lists)
        roll = self.r.random()
        if roll < 0.3:
            return f"len({xs})"
        if roll < 0.94:
            return f"{xs}[{self.expr(ints, [], 1)} % len({xs})]"
        return f"{xs}[{self.r.choice(['-1', '0', '-1', '0', '-2', self.r.choice(ints)])}]"

    def expr(self, ints, lists, depth: int = 2) -> str:
        if depth <= 0 or self.r.random() < 0.25:
            return self.atom(ints, lists)
        roll = self.r.random()
        sub = lambda: self.expr(ints, lists, depth - 1)  # noqa: E731
        if roll < 0.5:
            op = self.r.choice(BINARY)
            left, right = sub(), sub()
            if op in ("//", "%") and self.r.random() < 0.85:
                right = self.r.choice([f"({right} | 1)", f"({right} % 7 + 1)", str(self.r.choice([3, -3, 2, 7, -1]))])
            if op == "<<":
                right = self.r.choice([f"({right} % 40)", f"({right} & 31)", str(self.r.randint(0, 35))])
            if op == ">>":
                right = self.r.choice([f"({right} & 63)", str(self.r.randint(0, 40))]) if self.r.random() < 0.95 \
                    else right
            return f"({left} {op} {right})"
        if roll < 0.6:
            return f"({self.r.choice(['-', '~', 'not '])}{sub()})"
        if roll < 0.72:
            ops = [self.r.choice(COMPARE) for _ in range(self.r.choice([1, 1, 1, 2]))]
            parts = [sub()]
            for op in ops:
                parts += [op, sub()]
            return "(" + " ".join(parts) + ")"
        if roll < 0.8:
            return f"({sub()} {self.r.choice(['and', 'or'])} {sub()})"
        if roll < 0.85:
            return f"({sub()} if {self.condition(ints, lists, depth - 1)} else {sub()})"
        if roll < 0.9:
            name = self.r.choice(["abs", "min", "max"])
            return f"abs({sub()})" if name == "abs" else f"{name}({sub()}, {sub()})"
        if self.functions and roll < 0.97:
            name, arity = self.r.choice(self.functions)
            return f"{name}({', '.join(sub() for _ in range(arity))})"
        return self.atom(ints, lists)

    def condition(self, ints, lists, depth: int = 1) -> str:
        if self.r.random() < 0.7:
            return f"{self.expr(ints, lists, depth)} {self.r.choice(COMPARE)} {self.expr(ints, lists, depth)}"
        return self.expr(ints, lists, depth + 1)

    # --- statements -------------------------------------------------------------------------------
    def emit(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def block(self, indent, ints, lists, assignable, depth, loop: bool, count: int | None = None) -> None:
        for _ in range(count or self.r.randint(1, 3)):
            self.statement(indent, ints, lists, assignable, depth, loop)

    def statement(self, indent, ints, lists, assignable, depth, loop) -> None:
        roll = self.r.random()
        e = lambda d=2: self.expr(ints, lists, d)  # noqa: E731
        if roll < 0.3 or depth >= 2:
            target = self.r.choice(assignable)
            if lists and self.r.random() < 0.25:
                xs = self.r.choice(lists)
                target = f"{xs}[{self.expr(ints, [], 1)} % len({xs})]"
            op = self.r.choice(["=", "=", "+=", "-=", "*=", "^=", "//="])
            value = e()
            if op == "//=":
                value = f"({value} | 1)"
            self.emit(indent, f"{target} {op} {value}")
            if loop and self.r.random() < 0.15:
                self.emit(indent, f"if {self.condition(ints, lists)}:")
                self.emit(indent + 1, self.r.choice(["break", "continue"]))
            return
        if roll < 0.4 and len(assignable) >= 2:
            x, y = self.r.sample(assignable, 2)
            self.emit(indent, f"{x}, {y} = {e(1)}, {e(1)}")
            return
        if roll < 0.6:
            self.emit(indent, f"if {self.condition(ints, lists)}:")
            self.block(indent + 1, ints, lists, assignable, depth + 1, loop)
            if self.r.random() < 0.4:
                self.emit(indent, f"elif {self.condition(ints, lists)}:")
                self.block(indent + 1, ints, lists, assignable, depth + 1, loop)
            if self.r.random() < 0.5:
                self.emit(indent, "else:")
                self.block(indent + 1, ints, lists, assignable, depth + 1, loop)
            return
        if roll < 0.8:
            targets = [v for v in assignable if v in ("i", "j", "k", "t", "u")] or assignable
            target = self.r.choice(targets)
            if lists and self.r.random() < 0.3:
                self.emit(indent, f"for {target} in {self.r.choice(lists)}:")
            else:
                kind = self.r.random()
                if kind < 0.4:
                    head = f"range({self.r.randint(0, 6)})"
                elif kind < 0.7:
                    head = f"range({e(1)} % 5, {e(1)} % 8)"
                elif kind < 0.85:
                    head = f"range({e(1)} % 9, {e(1)} % 9, {self.r.choice([-3, -2, -1, 2, 3])})"
                else:
                    head = f"range({e(1)} % 6, {e(1)} % 6, {self.r.choice(['1', '-1', '2', '-2'])} * ({e(0)} | 1) % 3)"
                self.emit(indent, f"for {target} in {head}:")
            inner = [v for v in assignable if v != target] + ([target] if self.r.random() < 0.2 else [])
            self.block(indent + 1, ints, lists, inner, depth + 1, True)
            if self.r.random() < 0.15:
                self.emit(indent, "else:")
                self.block(indent + 1, ints, lists, assignable, depth + 1, loop, 1)
            return
        if roll < 0.9:
            counter = f"w{self.while_count}"
            self.while_count += 1
            self.emit(indent, f"{counter} = 0")
            self.emit(indent, f"while {counter} < {self.r.randint(1, 6)} and {self.condition(ints, lists)}:")
            self.emit(indent + 1, f"{counter} += 1")
            self.block(indent + 1, ints + [counter], lists, assignable, depth + 1, True)
            return
        if roll < 0.95 and self.functions:
            name, arity = self.r.choice(self.functions)
            self.emit(indent, f"{self.r.choice(assignable)} = {name}({', '.join(e(1) for _ in range(arity))})")
            return
        self.emit(indent, f"assert {self.condition(ints, lists)} or {self.r.random() < 0.97}")

    # --- functions and the module -----------------------------------------------------------------
    def function(self, index: int) -> None:
        arity = self.r.randint(1, 3)
        params = ["p", "q", "s"][:arity]
        name = f"f{index}"
        self.emit(0, f"def {name}({', '.join(params)}):")
        writes_global = self.r.random() < 0.3
        if writes_global:
            self.emit(1, "global d")
        self.emit(1, f"t = {self.expr(params, [], 1)}")
        self.emit(1, "u = 0")
        local = params + ["t", "u"]
        self.block(1, local + ["a"], list(LISTS[:1]), local + (["d"] if writes_global else []), 1, False)
        self.emit(1, f"return {self.expr(local, list(LISTS[:1]), 2)}")
        self.functions.append((name, arity))

    def recursive(self, index: int) -> None:
        name = f"r{index}"
        self.emit(0, f"def {name}(n, acc):")
        self.emit(1, "if n <= 0:")
        self.emit(2, f"return {self.expr(['acc'], [], 1)}")
        if self.r.random() < 0.5:
            self.emit(1, f"return {name}(n - 1, {self.expr(['acc', 'n'], [], 1)}) {self.r.choice(['+', '-', '^'])} n")
        else:
            self.emit(1, f"return {name}(n - 1, acc) + {name}(n - 2, {self.expr(['acc', 'n'], [], 1)})")
        self.functions.append((f"{name}_call", 2))

    def program(self) -> str:
        self.lines = []
        for name in ("a", "b", "c", "d", "i", "j", "k"):
            self.emit(0, f"{name} = {self.constant()}")
        n = self.r.randint(1, 5)
        self.emit(0, f"xs = {self.r.choice([f'[{self.constant()}] * {n}', '[' + ', '.join(self.constant() for _ in range(n)) + ']'])}")
        self.emit(0, f"ys = [{', '.join(self.constant() for _ in range(self.r.randint(1, 4)))}]")
        for index in range(self.r.choice([0, 1, 1, 2])):
            self.function(index)
        if self.r.random() < 0.4:
            self.recursive(0)
        self.functions = [(n if not n.endswith("_call") else n[:-5], a) for n, a in self.functions]
        recursive = [f for f in self.functions if f[0].startswith("r")]
        plain = [f for f in self.functions if not f[0].startswith("r")]
        self.functions = plain
        self.block(0, list(INTS), list(LISTS), list(INTS), 0, False, self.r.randint(2, 6))
        for name, _ in recursive:
            self.emit(0, f"k = {name}({self.expr(list(INTS), [], 1)} % 7, {self.expr(list(INTS), [], 1)})")
        counters = [f"w{n} = 0" for n in range(self.while_count)]  # so Python has them even if never reached
        return "\n".join(counters + self.lines) + "\n"


def generate(seed: int) -> str:
    return ProgramGenerator(seed).program()
