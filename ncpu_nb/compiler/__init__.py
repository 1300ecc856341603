"""A subset of Python compiled to nCPU programs, and execution as a loss.

    compile_python(source, inputs=[...])   -> CompiledPython (program, listing, run, debugger)
    CodeToISAParser().parse_block(...)     -> the same, with `to_soft_program()` for the engine
    ExecutionLoss(...).compute_soft(...)   -> a differentiable loss of a compiled program's outputs

The subset and its semantics: `python_subset`; how names get registers: `scopes`, `register_roles`;
the code: `codegen`, `runtime`; the loss: `execution_loss` (imports torch, only when used).
"""
from __future__ import annotations

from ncpu_nb.compiler.compiled import CompiledPython, compile_python

__all__ = ["compile_python", "CompiledPython"]
