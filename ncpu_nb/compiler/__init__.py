"""A subset of Python compiled to nCPU programs, and execution as a loss.

    compile_python(source, inputs=[...])   -> CompiledPython (program, listing, run, debugger)
    CodeToISAParser().parse_block(...)     -> the same, with `to_soft_program()` for the engine
    ExecutionLoss(...).compute_soft(...)   -> a differentiable loss of a compiled program's outputs
    LearnedCompiler.load().compile("a * b + c")  -> the same kind of result, written by a trained network

The subset and its semantics: `python_subset`; how names get registers: `scopes`, `register_roles`;
the code: `codegen`, `runtime`; the loss: `execution_loss` (imports torch, only when used). The
learned compiler (torch too, loaded on first use): its grammar and split `expression_corpus`, its network
`slot_model`, training and compiling `learned_compiler`, its scores `learned_report`, its shipped weights
`learned_shipped` (written by the command `learned_weights`), its benchmark `learned_bench`.
"""
from __future__ import annotations

from ncpu_nb.compiler.compiled import CompiledPython, compile_python

__all__ = ["compile_python", "CompiledPython", "LearnedCompiler"]


def __getattr__(name: str):
    if name == "LearnedCompiler":  # imports torch: only when asked
        from ncpu_nb.compiler.learned_compiler import LearnedCompiler

        return LearnedCompiler
    raise AttributeError(f"module 'ncpu_nb.compiler' has no attribute {name!r}")
