"""The nCPU engine: the teaching ISA (one table, and the assembler, disassembler, codec and reference
interpreter derived from it) and `CPU`, run in fast mode (the exact integer ALU in the Rust core) or
neural mode (`neural_mode`: the trained cells of `neural_cells`, wired by `neural_alu`)."""
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.cpu import CPU, CpuRun
from ncpu_nb.ncpu.disassembler import disassemble
from ncpu_nb.ncpu.encoding import Instruction, decode, encode
from ncpu_nb.ncpu.program import Program
from ncpu_nb.ncpu.reference_interpreter import run_reference
from ncpu_nb.ncpu.table import FORMS, REGISTERS

__all__ = ["CPU", "CpuRun", "assemble", "disassemble", "decode", "encode", "Instruction", "Program",
           "run_reference", "FORMS", "REGISTERS"]
