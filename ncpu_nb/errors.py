"""Typed errors. Each says where: line and column for source, PC and instruction for execution."""
from __future__ import annotations



class NcpuError(Exception):
    """Base class of every error ncpu_nb raises on purpose."""


class SourceErrors(NcpuError):
    """Every problem found in a source (not just the first), each with line, column and caret."""

    source = "source"

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0]
        self.line, self.column, self.source_line = first.line, first.column, first.source_line
        count = len(self.diagnostics)
        head = f"{count} error{'s' if count > 1 else ''} in {self.source}"
        super().__init__(head + ":\n" + "\n".join(str(d) for d in self.diagnostics))


class AssemblyError(SourceErrors):
    """Every problem found in an assembly source file, each with line, column and caret."""

    source = "assembly source"


class CompileError(SourceErrors):
    """Every construct outside the compiled Python subset (not just the first), each with line, column
    and caret (`ncpu_nb.compile_python`)."""

    source = "Python source"


class ExpressionError(SourceErrors):
    """Source outside the learned compiler's grammar (`ncpu_nb.compiler.LearnedCompiler`): every
    problem with line, column and caret."""

    source = "expression for the learned compiler"


class CompiledRuntimeError(NcpuError):
    """A compiled Python program stopped where Python would raise: `kind` names Python's exception
    (ZeroDivisionError, IndexError, ValueError, AssertionError, MemoryError, RecursionError), with the
    Python line and column of the operation."""

    def __init__(self, kind: str, message: str, line: int, column: int, source_line: str, length: int = 1):
        self.kind, self.line, self.column, self.source_line = kind, line, column, source_line
        caret = " " * (column - 1) + "^" * max(1, length)
        super().__init__(f"{kind}: {message} (line {line}, column {column})\n    {source_line}\n    {caret}")


class DecodeError(NcpuError):
    """A 32-bit word that is not a valid nCPU instruction."""

    def __init__(self, message: str, word: int | None = None):
        self.word = word
        super().__init__(message if word is None else f"{message} (word 0x{word & 0xFFFFFFFF:08X})")


class ExecutionError(NcpuError):
    """A lane stopped on a fault: a memory access out of range or a jump outside the program."""

    def __init__(self, message: str, pc: int, instruction: str, lane: int = 0):
        self.pc, self.instruction, self.lane = pc, instruction, lane
        where = f"lane {lane}, " if lane else ""
        super().__init__(f"{message}; {where}PC={pc}: {instruction}")


class UnsupportedInstruction(NcpuError):
    """An instruction the chosen execution mode does not run, or one the differentiable engine cannot
    relax where it stands (e.g. an integer operation on the bits of a register that holds a float);
    with its PC and text where there is one."""

    def __init__(self, message: str, pc: int | None = None, instruction: str | None = None):
        self.pc, self.instruction = pc, instruction
        super().__init__(message if pc is None else f"{message}; PC={pc}: {instruction}")


class WeightsError(NcpuError):
    """Trained weights that cannot be used: a file missing, malformed, not the one its manifest
    records (tampered or stale), wrong on its input domain, or named outside its weights folder."""


class CycleBudgetExceeded(NcpuError):
    """`run` reached its cycle budget before every lane halted."""

    def __init__(self, budget: int, pc: int, instruction: str, running: int = 1):
        self.budget, self.pc, self.instruction, self.running = budget, pc, instruction, running
        lanes = f" ({running} lanes still running)" if running > 1 else ""
        super().__init__(
            f"no HALT within the cycle budget of {budget:,} cycles{lanes}; stopped at PC={pc}: {instruction}. "
            "Raise max_cycles if the program needs longer, or look for an endless loop."
        )


def _define_diagnostic():
    # Defined on first use: `dataclasses` costs a command-line start ~10 ms, and only assembling needs it.
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Diagnostic:
        """One problem in assembly source: 1-based line and column, the message, the source line."""

        line: int
        column: int
        message: str
        source_line: str
        length: int = 1

        def __str__(self) -> str:
            caret = " " * (self.column - 1) + "^" * max(1, self.length)
            return f"line {self.line}, column {self.column}: {self.message}\n    {self.source_line}\n    {caret}"

    Diagnostic.__module__, Diagnostic.__qualname__ = __name__, "Diagnostic"
    return Diagnostic


def __getattr__(name: str):
    if name == "Diagnostic":
        globals()["Diagnostic"] = value = _define_diagnostic()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
