"""The package's shape, checked: grouped by engine, no import loops at module level, views imported by
engines only lazily (from `.debugger()`), every file name said once, and no room over 900 lines."""
from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "ncpu_nb"
ENGINES = ("ncpu", "differentiable", "synthesis", "arm64")


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def module_level_imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The ncpu_nb modules a file imports when it is imported (imports inside functions are lazy)."""
    imported = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ncpu_nb"):
            for alias in node.names:
                if alias.name == "_metal":  # the Rust extension
                    continue
                full = f"{node.module}.{alias.name}"
                imported.add(full if full in known else node.module)
        elif isinstance(node, ast.Import):
            imported |= {a.name for a in node.names if a.name in known}
    return imported


def test_no_import_loops_at_module_level():
    known = modules()
    graph = {name: module_level_imports(path, known) & set(known) for name, path in known.items()}
    loops = []

    def visit(name, path):
        for nxt in graph[name]:
            if nxt in path:
                loops.append(path[path.index(nxt):] + [nxt])
            elif nxt not in done:
                visit(nxt, path + [nxt])
        done.add(name)

    done: set[str] = set()
    for name in graph:
        if name not in done:
            visit(name, [name])
    assert loops == []


def test_engines_import_views_only_lazily():
    known = modules()
    for name, path in known.items():
        if name.split(".")[1:2] and name.split(".")[1] in ENGINES:
            assert not any(m.startswith("ncpu_nb.views") for m in module_level_imports(path, known)), name


def test_every_file_name_is_said_once():
    names = Counter(p.name for p in PACKAGE.rglob("*.py") if p.name != "__init__.py")
    assert [n for n, count in names.items() if count > 1] == []


def test_no_room_over_900_lines_without_a_reason():
    long = [p for p in PACKAGE.rglob("*.py") if len(p.read_text().splitlines()) > 900
            and "900 lines" not in p.read_text()[:2000]]
    assert long == []


# Jupyter's display protocol: public by convention, though spelled with an underscore.
DISPLAY_PROTOCOL = {"_repr_html_", "_repr_mimebundle_", "_repr_png_", "_repr_svg_"}


def private_reaches(path: Path) -> list[str]:
    """`x._name` where x is another object (not self, cls or super()) and _name is not Jupyter's display
    protocol: a reach into something's private state."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")):
            continue
        owner = node.value
        own = (isinstance(owner, ast.Name) and owner.id in ("self", "cls")) or (
            isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super")
        if not own and node.attr not in DISPLAY_PROTOCOL and not (isinstance(owner, ast.Name) and owner.id == "_metal"):
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {ast.unparse(node)}")
    return found


def in_tools_and_views(check) -> list[str]:
    """What `check` finds in each file of debugging/ and views/ (the code that must know only the protocol)."""
    return [f for folder in ("debugging", "views") for path in sorted((PACKAGE / folder).rglob("*.py"))
            for f in check(path)]


def test_the_tools_and_views_reach_nothing_private_of_an_engine():
    assert in_tools_and_views(private_reaches) == []


ENGINE_CLASSES = {"CPU", "Arm64Machine", "DifferentiableEngine", "UnicornMachine"}


def engine_tests(path: Path) -> list[str]:
    """`isinstance(x, C)` with C an engine class: a tool or view that dispatches on the engine rather than
    on what it can do (the capabilities of ncpu_nb.protocol). Building an engine (a tool that runs a
    program it was given as text) is not dispatch and is allowed."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            classes = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            named = {c.id if isinstance(c, ast.Name) else getattr(c, "attr", "") for c in classes}
            if named & ENGINE_CLASSES:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_tools_and_views_test_capabilities_never_an_engine_class():
    assert in_tools_and_views(engine_tests) == []
