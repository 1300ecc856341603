"""The float unit: assembly of float literals, the rational oracle against numpy, fast and neural mode
against the reference interpreter on random float programs, FCMP's flags, and the verifier."""
import numpy as np
import pytest

from ncpu_nb import CPU, assemble
from ncpu_nb.errors import AssemblyError
from ncpu_nb.float_verification import (
    FLOAT_CHECKED, float_operation, mismatches, numpy_result, oracle_result, random_pairs, special_values,
)
from ncpu_nb.ncpu.disassembler import disassemble
from ncpu_nb.ncpu.float_format import BINARY32, FloatFormat
from ncpu_nb.ncpu.reference_interpreter import run_reference
from ncpu_nb.ncpu.table import FLOAT_OPS, FORMS

from randprog import random_program_text, random_register_values


def f32(bits: int) -> float:
    return BINARY32.to_float(bits & 0xFFFFFFFF)


@pytest.mark.parametrize("text, bits", [
    ("1.5", 0x3FC00000), ("-0.0", 0x80000000), ("0", 0), ("7", 0x40E00000), ("0.1", 0x3DCCCCCD),
    ("1e-45", 1), ("1.4e-45", 1), ("3.4028235e38", 0x7F7FFFFF), ("1e39", 0x7F800000), ("-inf", 0xFF800000),
    ("nan", 0x7FC00000), ("16777217", 0x4B800000), ("#2.5E+1", 0x41C80000), (".5", 0x3F000000),
])
def test_float_literals_round_to_nearest_even(text, bits):
    program = assemble(f"FMOV R1, {text}\nHALT")
    assert program.literals[0] == bits
    again = assemble("\n".join(disassemble(program.words, program.literals)))
    assert again.literals == program.literals


def test_every_finite_float_literal_reads_back_from_its_text():
    rng = np.random.default_rng(3)
    words = [int(w) for w in rng.integers(0, 2**32, 3000, dtype=np.uint64) if not BINARY32.is_nan(int(w))]
    source = "\n".join(f"FMOV R1, {disassemble([0x88000000], [w])[0].split(', ')[1]}" for w in words)
    assert list(assemble(source).literals) == list(dict.fromkeys(words))


@pytest.mark.parametrize("source, message, column", [
    ("FMOV R1, 0x10", "expected a number", 10),
    ("FMOV R1, R2", "expected a number", 10),
    ("FADD R1, R2, 1.5", "expected a register", 14),
    ("FSQRT R1", "takes 2 operand", 1),
])
def test_bad_float_operands_are_located(source, message, column):
    with pytest.raises(AssemblyError, match=message) as info:
        assemble(source)
    assert info.value.diagnostics[0].column == column


def test_the_rational_oracle_equals_numpy_float32_and_float16():
    rng = np.random.default_rng(5)
    for fmt, dtype, bits in ((BINARY32, np.float32, 32), (FloatFormat(5, 10), np.float16, 16)):
        s = special_values(fmt)
        a, b = random_pairs(rng, 600, bits)
        a, b = np.concatenate([np.repeat(s, len(s)), a]), np.concatenate([np.tile(s, len(s)), b])
        for op in ("fadd", "fsub", "fmul", "fdiv", "fsqrt", "fcmp"):
            assert mismatches(op, oracle_result(fmt, op, a, b), numpy_result(op, a, b, dtype), fmt) == (0, 0), op


def test_a_wrong_result_is_counted_with_its_ulp_distance():
    a = np.array([0x3F800000, 0x40000000, 0x7FC00000], dtype=np.uint32)
    right = numpy_result("fadd", a, a)
    wrong = (right[0] + np.array([0, 3, 5], dtype=np.uint32), right[1])  # a NaN stays a NaN: no mismatch
    assert mismatches("fadd", wrong, right, BINARY32) == (1, 3)
    negative = np.array([0x80000001], dtype=np.uint32), np.zeros(1, np.uint8)
    positive = np.array([0x00000001], dtype=np.uint32), np.zeros(1, np.uint8)
    assert mismatches("fmul", negative, positive, BINARY32) == (1, 2)  # -min to +min: two steps, via zero


FLOAT_FORMS = tuple(f for f in FORMS if f.sem.alu in FLOAT_OPS or f.sem.kind in ("jump", "halt")
                    or f.mnemonic in ("MOV", "ADD", "XOR"))


def test_random_float_programs_run_the_same_in_the_reference_fast_and_neural_mode():
    rng = np.random.default_rng(11)
    programs = [random_program_text(rng, 64, max_length=20, forms=FLOAT_FORMS) for _ in range(60)]
    registers = random_register_values(rng, len(programs))
    for mode in ("fast", "neural"):
        cpu = CPU([assemble(p) for p in programs], mode=mode, memory_size=64)
        cpu.set_registers(**registers)
        cpu.run(200, check=False)
        for lane, text in enumerate(programs):
            start = {r: v[lane] for r, v in registers.items()}
            ref = run_reference(assemble(text), max_cycles=200, memory_size=64, registers=start)
            got = cpu.registers_array()[lane].astype(np.int64) & 0xFFFFFFFF
            assert [int(v) for v in got] == ref.registers, f"{mode} lane {lane}:\n{text}"
            assert cpu.flags_array()[lane] == sum(ref.flags[f] << i for i, f in enumerate(("ZF", "SF", "CF", "OF")))


@pytest.mark.parametrize("a, b, taken", [
    (1.0, 2.0, {"JZ": 0, "JS": 1, "JC": 1, "JG": 0, "JGE": 0, "JL": 1, "JLE": 1, "JO": 0, "JA": 0}),
    (2.0, 2.0, {"JZ": 1, "JS": 0, "JC": 0, "JG": 0, "JGE": 1, "JL": 0, "JLE": 1, "JO": 0, "JA": 0}),
    (-0.0, 0.0, {"JZ": 1, "JS": 0, "JC": 0, "JG": 0, "JGE": 1, "JL": 0, "JLE": 1, "JO": 0, "JA": 0}),
    (3.0, 2.0, {"JZ": 0, "JS": 0, "JC": 0, "JG": 1, "JGE": 1, "JL": 0, "JLE": 0, "JO": 0, "JA": 1}),
    ("nan", 2.0, {"JZ": 0, "JS": 0, "JC": 0, "JG": 0, "JGE": 0, "JL": 1, "JLE": 1, "JO": 1, "JA": 1}),
])
def test_fcmp_sets_the_flags_the_integer_branches_read(a, b, taken):
    for jump, expected in taken.items():
        source = f"FMOV R1, {a}\nFMOV R2, {b}\nFCMP R1, R2\n{jump} 5\nMOV R0, 1\nHALT"
        for mode in ("fast", "neural"):
            cpu = CPU(source, mode=mode)
            cpu.run()
            assert cpu.registers["R0"] == 1 - expected, (jump, mode)


def test_newton_square_root_on_the_cpu_in_both_modes():
    source = """
        FMOV R1, 2.0          ; x
        FMOV R2, 1.0          ; y
        FMOV R3, 0.5
        MOV R4, 4
    step:
        FDIV R5, R1, R2
        FADD R5, R5, R2
        FMUL R2, R5, R3
        DEC R4
        JNZ step
        HALT
    """
    for mode in ("fast", "neural"):
        cpu = CPU(source, mode=mode)
        cpu.run()
        assert f32(cpu.registers["R2"]) == np.float32(np.sqrt(np.float32(2.0)))


def test_the_verifier_finds_every_float_operation_exact_on_a_short_run():
    for op in FLOAT_CHECKED:
        checks = float_operation(("float", op, False, 0, 20_000))
        assert all(c.exact for c in checks), [c for c in checks if not c.exact]
        names = {c.what for c in checks}
        assert {f"{op} fast random", f"{op} wired random", f"{op} neural random", f"{op} wired e4m3"} <= names


def test_registers_read_and_write_as_floats_per_lane():
    cpu = CPU("FADD R2, R0, R1\nHALT", lanes=3)
    cpu.set_floats(R0=[1.5, -2, 1e-45], R1=0.25)
    cpu.run()
    assert [cpu.lane_floats(lane)["R2"] for lane in range(3)] == [1.75, -1.75, 0.25]
    assert cpu.floats["R0"] == 1.5 and cpu.registers["R0"] == 0x3FC00000
    cpu.set_floats(lane=1, R3=0.1)
    assert cpu.lane_registers(1)["R3"] == 0x3DCCCCCD and cpu.lane_registers(0)["R3"] == 0
