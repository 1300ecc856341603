"""The nCPU instruction set: one table, and the assembler, disassembler and codec derived from it."""
from ncpu_nb.isa.assembler import assemble
from ncpu_nb.isa.disassembler import disassemble
from ncpu_nb.isa.encoding import Instruction, decode, encode
from ncpu_nb.isa.program import Program
from ncpu_nb.isa.reference import run_reference
from ncpu_nb.isa.table import FORMS, REGISTERS

__all__ = ["assemble", "disassemble", "decode", "encode", "Instruction", "Program", "run_reference",
           "FORMS", "REGISTERS"]
