"""Programs in the classic nCPU dialect run unchanged: registers and cycle counts worked out by hand."""
import pytest

from ncpu_nb import CPU, assemble
from ncpu_nb.ncpu.reference_interpreter import run_reference

CASES = {
    "sum_1_to_10": ("""
        MOV R0, 0
        MOV R1, 1
        MOV R2, 11
        MOV R3, 1
    loop:
        ADD R0, R0, R1
        ADD R1, R1, R3
        CMP R1, R2
        JNZ loop
        HALT
    """, {"R0": 55, "R1": 11, "R2": 11, "R3": 1}, 4 + 10 * 4 + 1, {"ZF": True, "SF": False}),
    "fibonacci": ("""
        MOV R0, 0
        MOV R1, 1
        MOV R2, 10
    loop:
        ADD R3, R0, R1
        MOV R0, R1
        MOV R1, R3
        DEC R2
        JNZ loop
        HALT
    """, {"R0": 55, "R1": 89, "R2": 0, "R3": 89}, 3 + 10 * 5 + 1, {"ZF": True, "SF": False}),
    "mov_sets_flags": ("""
        MOV R0, 0
        JZ zero
        MOV R1, 1
        HALT
    zero:
        MOV R1, -2
        HALT
    """, {"R0": 0, "R1": -2}, 4, {"ZF": False, "SF": True}),
    "division": ("""
        MOV R0, -7
        MOV R1, 2
        DIV R2, R0, R1
        MOV R3, 0
        DIV R4, R0, R3
        HALT
    """, {"R2": -3, "R4": 0}, 6, {"ZF": True, "SF": False}),
    "shifts": ("""
        MOV R0, 1
        MOV R1, -5
        SHL R2, R0, R1     ; a negative amount clamps to 0
        MOV R3, -1
        SHR R4, R3, 28     ; logical: 0xFFFFFFFF >> 28
        SHL R5, R0, 4
        HALT
    """, {"R2": 1, "R4": 15, "R5": 16}, 7, {"ZF": False, "SF": False}),
    "numeric_targets_and_sign_jumps": ("""
        MOV R0, 3
        MOV R1, 5
        CMP R0, R1
        JS 6
        MOV R7, 99
        HALT
        JNS 4
        MOV R2, 7
        HALT
    """, {"R2": 7, "R7": 0}, 7, {"ZF": False, "SF": False}),  # MOV R2, 7 set the flags last
    "logic_and_counting": ("""
        MOV R0, 0xFF
        MOV R1, 0x0F
        AND R2, R0, R1
        OR R3, R0, R1
        XOR R4, R0, R1
        MUL R5, R1, R1
        SUB R6, R1, R0
        INC R7
        INC R7
        DEC R7
        NOP
        HALT
    """, {"R2": 0x0F, "R3": 0xFF, "R4": 0xF0, "R5": 225, "R6": -240, "R7": 1}, 12, {"ZF": False, "SF": False}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_classic_program(name):
    source, registers, cycles, flags = CASES[name]
    cpu = CPU(source)
    cpu.run()
    assert cpu.halted
    assert {r: cpu.registers[r] for r in registers} == registers
    assert cpu.cycles == cycles
    assert {f: cpu.flags[f] for f in flags} == flags
    ref = run_reference(assemble(source))
    assert ref.cycles == cycles and ref.halted
