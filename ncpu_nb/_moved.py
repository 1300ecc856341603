"""Old module names, kept importable for one release: `import ncpu_nb.isa.assembler` still works, gives
the module under its new name (`ncpu_nb.ncpu.assembler`) and warns once with a DeprecationWarning.

The package was regrouped by engine (ncpu/, differentiable/, synthesis/, arm64/, views/). A finder
placed first on `sys.meta_path` answers only the old names below and hands back the one module object
already imported under the new name, so no module is ever loaded twice.
"""
from __future__ import annotations

import importlib
import sys
import warnings

MOVED = {
    "ncpu_nb.isa": "ncpu_nb.ncpu", "ncpu_nb.cpu": "ncpu_nb.ncpu", "ncpu_nb.alu": "ncpu_nb.ncpu",
    "ncpu_nb.isa.table": "ncpu_nb.ncpu.table", "ncpu_nb.isa.encoding": "ncpu_nb.ncpu.encoding",
    "ncpu_nb.isa.assembler": "ncpu_nb.ncpu.assembler", "ncpu_nb.isa.disassembler": "ncpu_nb.ncpu.disassembler",
    "ncpu_nb.isa.program": "ncpu_nb.ncpu.program", "ncpu_nb.isa.reference": "ncpu_nb.ncpu.reference_interpreter",
    "ncpu_nb.isa.reference_table": "ncpu_nb.ncpu.isa_reference", "ncpu_nb.cpu.cpu": "ncpu_nb.ncpu.cpu",
    "ncpu_nb.cpu.neural": "ncpu_nb.ncpu.neural_mode", "ncpu_nb.alu.cells": "ncpu_nb.ncpu.neural_cells",
    "ncpu_nb.alu.neural_alu": "ncpu_nb.ncpu.neural_alu",
    "ncpu_nb.diff": "ncpu_nb.differentiable", "ncpu_nb.diff.engine": "ncpu_nb.differentiable.engine",
    "ncpu_nb.diff.alu": "ncpu_nb.differentiable.soft_alu", "ncpu_nb.diff.optimizer": "ncpu_nb.differentiable.optimizer",
    "ncpu_nb.diff.gradflow": "ncpu_nb.differentiable.gradient_flow", "ncpu_nb.diff.spec": "ncpu_nb.synthesis.spec",
    "ncpu_nb.diff.synthesis": "ncpu_nb.synthesis.synthesizer",
    "ncpu_nb.diff.gradient_search": "ncpu_nb.synthesis.gradient_search",
    "ncpu_nb.diff.sketches": "ncpu_nb.synthesis.sketches", "ncpu_nb.diff.enumerate": "ncpu_nb.synthesis.enumeration",
    "ncpu_nb.diff.emit": "ncpu_nb.synthesis.emit", "ncpu_nb.diff.verify": "ncpu_nb.ncpu.exact_check",
    "ncpu_nb.diff.bench": "ncpu_nb.synthesis.synth_bench",
    "ncpu_nb.machine": "ncpu_nb.arm64", "ncpu_nb.machine.machine": "ncpu_nb.arm64.machine",
    "ncpu_nb.machine.busybox": "ncpu_nb.arm64.busybox", "ncpu_nb.machine.elf": "ncpu_nb.arm64.elf",
    "ncpu_nb.machine.errors": "ncpu_nb.arm64.machine_errors", "ncpu_nb.machine.limits": "ncpu_nb.arm64.limits",
    "ncpu_nb.machine.mounts": "ncpu_nb.arm64.mounts", "ncpu_nb.machine.syscalls": "ncpu_nb.arm64.syscall_log",
    "ncpu_nb.machine.bench": "ncpu_nb.arm64.machine_bench", "ncpu_nb.machine.magics": "ncpu_nb.magics",
    "ncpu_nb.conformance.busybox": "ncpu_nb.arm64.conformance.busybox_suite",
}
MOVED_PACKAGES = {"ncpu_nb.widgets": "ncpu_nb.views", "ncpu_nb.conformance": "ncpu_nb.arm64.conformance"}


def new_name(old: str) -> str | None:
    if old in MOVED:
        return MOVED[old]
    for package, new in MOVED_PACKAGES.items():
        if old == package or old.startswith(package + "."):
            return new + old[len(package):]
    return None


class _Alias:  # a loader (importlib.abc is not imported: it costs a command-line start ~20 ms)
    def __init__(self, new: str):
        self.new = new

    def create_module(self, spec):
        warnings.warn(f"{spec.name} is now {self.new}", DeprecationWarning, stacklevel=2)
        return importlib.import_module(self.new)

    def exec_module(self, module) -> None:
        pass  # already executed under its new name


class _MovedFinder:  # a meta path finder
    def find_spec(self, fullname, path=None, target=None):
        new = new_name(fullname)
        if new is None:
            return None
        import importlib.util

        if importlib.util.find_spec(new) is None:
            return None
        return importlib.util.spec_from_loader(fullname, _Alias(new))

    def invalidate_caches(self) -> None:
        pass


if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _MovedFinder())
