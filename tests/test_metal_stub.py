"""`ncpu_nb/_metal.pyi` says what the Rust extension is: every class, method and constant it names exists,
with the parameters it gives them (names and order, as PyO3's text signatures have them), and every
public class and method of the extension is in it."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

from ncpu_nb import _metal

STUB = ast.parse((Path(_metal.__file__).parent / "_metal.pyi").read_text())


def stub_classes() -> dict[str, dict[str, ast.FunctionDef]]:
    return {node.name: {f.name: f for f in node.body if isinstance(f, ast.FunctionDef)}
            for node in STUB.body if isinstance(node, ast.ClassDef)}


def stub_parameters(function: ast.FunctionDef) -> list[str]:
    arguments = function.args
    return [a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs if a.arg not in ("self", "cls")]


def extension_parameters(function) -> list[str] | None:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # no text signature: nothing to compare
        return None
    return [p for p in signature.parameters if p not in ("self", "cls", "$self", "$cls")]


def public(names) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def stub_functions() -> dict[str, ast.FunctionDef]:
    return {node.name: node for node in STUB.body if isinstance(node, ast.FunctionDef)}


def test_every_class_and_method_the_stub_names_exists_with_its_parameters():
    wrong = []
    for name, node in stub_functions().items():
        found = extension_parameters(getattr(_metal, name)) if hasattr(_metal, name) else "absent"
        if found is not None and found != stub_parameters(node):
            wrong.append(f"{name}: the stub says {stub_parameters(node)}, the extension {found}")
    for name, methods in stub_classes().items():
        cls = getattr(_metal, name, None)
        if cls is None:
            wrong.append(f"class {name}: not in the extension")
            continue
        for method, node in methods.items():
            if method != "__init__" and not hasattr(cls, method):
                wrong.append(f"{name}.{method}: not in the extension")
                continue
            found = extension_parameters(cls if method == "__init__" else getattr(cls, method))
            if found is not None and found != stub_parameters(node):
                wrong.append(f"{name}.{method}: the stub says {stub_parameters(node)}, the extension {found}")
    assert wrong == []


def test_every_public_class_method_and_constant_of_the_extension_is_in_the_stub():
    classes = stub_classes()
    values = {t.id for node in STUB.body if isinstance(node, (ast.AnnAssign, ast.Assign))
              for t in ([node.target] if isinstance(node, ast.AnnAssign) else node.targets) if isinstance(t, ast.Name)}
    missing = [name for name in public(dir(_metal)) - set(classes) - set(stub_functions()) - values
               if not inspect.ismodule(getattr(_metal, name))]
    for name, methods in classes.items():
        cls = getattr(_metal, name, None)
        if cls is not None:
            missing += [f"{name}.{m}" for m in public(vars(cls)) - set(methods)
                        if callable(getattr(cls, m)) or isinstance(vars(cls)[m], property)]
    assert sorted(missing) == []
