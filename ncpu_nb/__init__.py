"""ncpu_nb: a Jupyter-native toolkit for neural computers.

    import ncpu_nb
    cpu = ncpu_nb.CPU("MOV R0, 6\\nMOV R1, 7\\nMUL R2, R0, R1\\nHALT")
    cpu.run()
    cpu.registers["R2"]   # 42
"""
from __future__ import annotations

import importlib

from ncpu_nb import _moved  # noqa: F401  (old module names keep working)
from ncpu_nb.errors import (AssemblyError, CompiledRuntimeError, CompileError, CycleBudgetExceeded, DecodeError,
                            ExecutionError, NcpuError, UnsupportedInstruction, WeightsError)

__version__ = "0.1.0"

# Every other name loads on first use, so `import ncpu_nb` stays light (no numpy, no torch, not even
# dataclasses or typing) and a command such as `ncpu-nb busybox` imports only what it runs.
_LAZY = {
    **dict.fromkeys(["Bar", "Breakpoints", "DebugExtras", "Frame", "MachineProtocol", "Panel", "RunResult", "Snapshot", "Trace",
                     "TraceStep", "Watchpoint", "Watchpoints", "Batched", "Editable", "Symbolic", "Instrumented",
                     "AccessTracing", "Observed", "Hosted"],
                    "ncpu_nb.protocol"),
    **dict.fromkeys(["program_manifest", "program_source"], "ncpu_nb.resources"),
    **dict.fromkeys(["CPU", "CpuRun", "Program", "assemble", "disassemble"], "ncpu_nb.ncpu"),
    "ISAReference": "ncpu_nb.ncpu.isa_reference",
    **dict.fromkeys(["Arm64Machine", "Arm64Run", "BusyboxResult", "ElfError", "ElfFile", "Limits", "MachineError",
                     "MachineTimeout", "MountError", "Session", "busybox"], "ncpu_nb.arm64"),
    **dict.fromkeys(["cc", "CcResult", "CCompileError"], "ncpu_nb.arm64.cc"),
    "DifferentiableEngine": "ncpu_nb.differentiable.engine", "SoftProgram": "ncpu_nb.differentiable.soft_program",
    "ProgramOptimizer": "ncpu_nb.differentiable.optimizer",
    "plot_gradient_flow": "ncpu_nb.differentiable.gradient_flow",
    "ISADiscovery": "ncpu_nb.differentiable.isa_discovery",
    "Synthesizer": "ncpu_nb.synthesis.synthesizer", "SynthesisSpec": "ncpu_nb.synthesis.spec",
    **dict.fromkeys(["compile_python", "CompiledPython"], "ncpu_nb.compiler.compiled"),
    **dict.fromkeys(["CodeToISAParser", "ExecutionLoss"], "ncpu_nb.compiler.execution_loss"),
    "LearnedCompiler": "ncpu_nb.compiler.learned_compiler",
    **dict.fromkeys(["inject_ncpu_coprocessor", "CoprocessorConfig"], "ncpu_nb.coprocessor.alu_coprocessor"),
    **dict.fromkeys(["diff_runs", "RunDiff"], "ncpu_nb.debugging.run_diff"),
    **dict.fromkeys(["constant_time", "ConstantTimeReport"], "ncpu_nb.debugging.constant_time"),
    **dict.fromkeys(["origin", "Origin"], "ncpu_nb.debugging.origin"),
    **dict.fromkeys(["sanitize", "SanitizerReport"], "ncpu_nb.debugging.sanitizer"),
    **dict.fromkeys(["fuzz", "Fuzzer", "FuzzReport", "fuzz_campaign", "CampaignReport"], "ncpu_nb.debugging.fuzzer"),
    "profile": "ncpu_nb.debugging.profiler",
    "forth": "ncpu_nb.muxleq.forth",
}
_SUBPACKAGES = ("ncpu", "differentiable", "synthesis", "arm64", "views", "coursework", "protocol", "text", "compiler",
                "coprocessor", "debugging", "muxleq")
_RENAMED = {"Machine": "Arm64Machine"}  # old public names, kept for one release

__all__ = ["MachineProtocol", "RunResult", "Snapshot", "Breakpoints", "Watchpoints", "Watchpoint", "Trace", "TraceStep",
           "DebugExtras", "Panel", "Bar", "Frame",
           "NcpuError", "AssemblyError", "CompileError", "CompiledRuntimeError", "DecodeError", "ExecutionError", "CycleBudgetExceeded", "UnsupportedInstruction", "WeightsError",
           "isa_reference", "list_programs", "load_program", "coursework", "verify", "busybox_terminal", "discover",
           "text_machine", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # once loaded, a plain attribute
        return value
    if name in _SUBPACKAGES:
        return importlib.import_module(f"ncpu_nb.{name}")
    if name in _RENAMED:
        import warnings

        warnings.warn(f"ncpu_nb.{name} is now ncpu_nb.{_RENAMED[name]}", DeprecationWarning, stacklevel=2)
        return __getattr__(_RENAMED[name])
    raise AttributeError(f"module 'ncpu_nb' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | set(_SUBPACKAGES))


def verify(full: bool = False, progress: bool = True, device: str = "cpu", **options):
    """Check the neural ALU: every trained cell on its whole domain, every operation against fast mode.
    Returns a report (a table in a notebook); `report.exact` is True only if nothing mismatched.
    `options`: ops, random_pairs, seed, ray (see `ncpu_nb.verification.verify`)."""
    from ncpu_nb.verification import verify as run_verification  # imports torch: only when asked

    return run_verification(full=full, progress=progress, device=device, **options)


def isa_reference() -> ISAReference:
    """The instruction set as a table (HTML in a notebook, text in a terminal), generated from its definition."""
    from ncpu_nb.ncpu.isa_reference import ISAReference

    return ISAReference()


def list_programs() -> dict:
    """The catalogue of bundled nCPU programs: name -> description, category, expected results."""
    from ncpu_nb.resources import program_manifest

    return program_manifest()


def load_program(name: str) -> Program:
    """A bundled nCPU program, assembled, e.g. load_program("fibonacci")."""
    from ncpu_nb.ncpu import assemble
    from ncpu_nb.resources import program_source

    return assemble(program_source(name), name=name)


def busybox_terminal(mounts=(), cwd: str = "/", env=None, deterministic: bool = False):
    """BusyBox `sh` on the AArch64 machine, on a tty of its own, as a live terminal emulator in the
    notebook, e.g. busybox_terminal(mounts=["data:/data"]). See `ncpu_nb.views.BusyboxTerminal`."""
    from ncpu_nb.views.terminal import BusyboxTerminal  # imports anywidget: only when asked

    return BusyboxTerminal(mounts=mounts, cwd=cwd, env=env, deterministic=deterministic)


def discover(preset: str | None = None, examples=(), *, time_limit: float = 30.0):
    """Programs from examples, live in the notebook: an editable table of examples (or a preset such as
    "fib"), synthesize with live progress, the summary, tests, the debugger. The logic is
    `ncpu_nb.discovery.Discovery` (the view's `.discovery`). See `ncpu_nb.views.DiscoverView`."""
    from ncpu_nb.discovery import Discovery
    from ncpu_nb.views.discover import DiscoverView  # imports anywidget: only when asked

    found = Discovery(examples, time_limit=time_limit)
    if preset is not None:
        found.preset(preset)
    return DiscoverView(found)


def text_machine(examples=(), mode: str = "fast"):
    """The text machine as a widget: example pairs in (e.g. [("hello", "khoor")]), a transform found as
    an nCPU program, applied to new text in fast or neural mode. See `ncpu_nb.text.TextMachine`."""
    from ncpu_nb.text.text_machine import TextMachine  # imports anywidget (in the widget): only when asked

    machine = TextMachine(examples, mode=mode)
    if machine.examples:
        machine.synthesize()  # so the cell shows its answer at once
    return machine.widget()


def load_ipython_extension(ipython) -> None:
    """`%load_ext ncpu_nb`: the %busybox and %%busybox magics, %%c and %%ncpu_python."""
    from ncpu_nb.magics import load_ipython_extension as load

    load(ipython)
