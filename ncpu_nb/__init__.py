"""ncpu_nb: a Jupyter-native toolkit for neural computers.

    import ncpu_nb
    cpu = ncpu_nb.CPU("MOV R0, 6\\nMOV R1, 7\\nMUL R2, R0, R1\\nHALT")
    cpu.run()
    cpu.registers["R2"]   # 42
"""
from ncpu_nb.cpu import CPU, RunResult, Snapshot
from ncpu_nb.errors import AssemblyError, CycleBudgetExceeded, DecodeError, ExecutionError, NcpuError
from ncpu_nb.isa import Program, assemble, disassemble
from ncpu_nb.protocol import Machine, Trace, TraceStep

__version__ = "0.1.0"
__all__ = ["CPU", "RunResult", "Snapshot", "Program", "assemble", "disassemble", "Machine", "Trace", "TraceStep",
           "NcpuError", "AssemblyError", "DecodeError", "ExecutionError", "CycleBudgetExceeded"]
