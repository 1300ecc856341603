"""Assembler and disassembler: syntax, directives, round trips, and errors that say where."""
import time

import pytest

from ncpu_nb import AssemblyError, assemble, disassemble
from ncpu_nb.ncpu.encoding import Instruction, decode, encode
from ncpu_nb.ncpu.table import FORMS


def test_classic_syntax_assembles():
    program = assemble("""
    ; classic nCPU: labels alone on a line, ; comments, three-register ALU ops
        MOV R0, 10
        MOV R1, R0
    top:
        SHL R2, R1, 3       ; immediate shift
        SHR R3, R1, R0      # register shift amount, and a # comment
        CMP R0, R1
        JZ top
        JMP 0
        HALT
    """)
    assert [i.mnemonic for i in program.instructions] == ["MOV", "MOV", "SHL", "SHR", "CMP", "JZ", "JMP", "HALT"]
    assert program.code_labels == {"top": 2}
    assert program.instructions[5].operand("target") == 2


def test_space_separated_operands_and_case_insensitive_labels():
    a = assemble("add r0 r1 r2\nLoop:\njnz LOOP\nhalt")
    b = assemble("ADD R0, R1, R2\nloop:\nJNZ loop\nHALT")
    assert a.words == b.words


def test_immediate_spellings():
    program = assemble("MOV R0, 42\nMOV R1, -7\nMOV R2, 0x2A\nMOV R3, 0b101010\nMOV R4, #42\nMOV R5, 'A'\n"
                       "MOV R6, 0xFFFFFFFF\nMOV R7, -2147483648")
    assert [i.values[1] for i in program.instructions] == [42, -7, 42, 42, 42, 65, 0xFFFFFFFF, -2147483648]
    assert program.literals == (0xFFFFFFFF, 0x80000000)  # too wide for imm20: in the literal pool


def test_data_directives_and_labels():
    program = assemble("""
    .equ N, 3
    .data
    nums: .word 1, -2, N
    msg:  .asciz "hi\\n"
    .align 4
    buf:  .zero 4
    .text
        MOV R0, nums
        LDR R1, [R0, 4]
        LDRB R2, [msg + 1]
        STR R1, [buf]
        HALT
    """)
    assert program.data_labels == {"nums": 0, "msg": 12, "buf": 16}
    assert program.data[:16] == (b"\x01\0\0\0" + (2**32 - 2).to_bytes(4, "little") + b"\x03\0\0\0hi\n\0")
    assert program.instructions[2].operand("addr") == (15, 13)


def test_escapes_in_strings_and_character_literals():
    program = assemble('.data\ns: .asciz "a\\\\", "q\\"; x"\n.text\nMOV R0, \'\\\\\'  ; backslash\nMOV R1, \';\'')
    assert program.data == b"a\\q\"; x\0"
    assert [i.values[1] for i in program.instructions] == [ord("\\"), ord(";")]


def test_word_lists_may_name_data_labels_defined_later():
    program = assemble(".data\ntable: .word first, second\nfirst: .word 1\nsecond: .word 2\n.text\nHALT")
    assert program.data[:8] == (8).to_bytes(4, "little") + (12).to_bytes(4, "little")


def test_a_constant_may_not_shadow_a_label():
    err = errors_of(".equ BUF, 5\n.data\nbuf: .word 0\n.text\nHALT\nloop:\n.equ LOOP, 1")
    assert [d.line for d in err.diagnostics] == [3, 7]


def test_label_on_the_same_line_as_an_instruction():
    program = assemble("start: MOV R0, 1\n  JMP start")
    assert program.code_labels == {"start": 0}


def test_every_form_round_trips_through_text_and_words():
    for form in FORMS:
        values = []
        for _, kind, _ in form.operands:
            values.append({"reg": 3, "imm16": -5, "imm20": 70000, "lit": 0xDEADBEEF, "float": 0xC0490FDB, "target": 1,
                           "mem": (2, -8)}[kind])
        instr = Instruction(form, tuple(values))
        text = instr.text()
        pool = {}
        word = encode(instr, pool)
        literals = tuple(pool)
        assert decode(word, literals) == instr, text
        assert disassemble([word], literals) == [text]
        # jump targets need instructions to point at
        padded = "target" in [k for _, k, _ in form.operands]
        reassembled = assemble(f"NOP\n{text}\nNOP" if padded else text)
        assert reassembled.instructions[int(padded)] == instr


def errors_of(source):
    with pytest.raises(AssemblyError) as info:
        assemble(source)
    return info.value


def test_unknown_mnemonic_reports_line_column_and_caret():
    err = errors_of("MOV R0, 1\n   FROB R1, R2\nHALT")
    (d,) = err.diagnostics
    assert (d.line, d.column) == (2, 4)
    assert "unknown instruction 'FROB'" in d.message
    assert "   FROB R1, R2\n       ^^^^" in str(err)


def test_all_errors_are_listed_not_just_the_first():
    err = errors_of("""
        MOV R9, 1
        ADD R0, R1
        JMP nowhere
        ADD R0, R1, 70000
        MOV R0, 0x100000000
        LDR R0, [R1, 40000]
        HALT
    """)
    messages = [(d.line, d.message) for d in err.diagnostics]
    assert len(messages) == 6, messages
    assert "expected a register" in messages[0][1] and "'R9'" in messages[0][1]
    assert "takes 3 operand(s)" in messages[1][1]
    assert "undefined label 'nowhere'" in messages[2][1]
    assert "70000 is out of range (-32768..32767)" in messages[3][1]
    assert "4294967296 is out of range" in messages[4][1]
    assert "memory offset 40000 is out of range" in messages[5][1]
    assert err.line == 2  # the first error's position is on the exception itself
    assert "6 errors" in str(err)


def test_error_columns_point_at_the_operand():
    d = errors_of("  ADD R0, R1, bogus").diagnostics[0]
    assert d.column == 15 and d.length == 5
    assert str(d).splitlines()[-1] == "    " + " " * 14 + "^^^^^"


def test_duplicate_labels_and_register_names_as_labels_are_errors():
    err = errors_of("a:\nNOP\nA:\nHALT\nR1:\nHALT")
    assert [d.line for d in err.diagnostics] == [3, 5]


def test_jump_target_beyond_the_program_is_an_error():
    assert "outside the program" in errors_of("JMP 5\nHALT").diagnostics[0].message


def test_messages_name_the_real_problem():
    d = errors_of("SUB R3, R0, R9").diagnostics[0]
    assert "no register R9" in d.message and d.column == 13
    d = errors_of("LDR R3, [R0 + R1]").diagnostics[0]
    assert "R1 is a register" in d.message and d.column == 15 and d.length == 2
    d = errors_of("MOV R4, 100000000000").diagnostics[0]
    assert "(-2147483648..4294967295)" in d.message and d.length == 12  # MOV's widest form


def test_a_huge_literal_is_an_assembly_error_with_line_and_column():
    for source, line, column in (("MOV R0, " + "9" * 5000, 1, 9), ("NOP\n  MOV R0, 0x" + "f" * 5000, 2, 11),
                                 (".data\n.word " + "1" * 5000, 2, 7)):
        d = errors_of(source).diagnostics[0]
        assert (d.line, d.column) == (line, column) and "number too long" in d.message
    assert "expected digits after 0x" in errors_of("MOV R0, 0x_").diagnostics[0].message


def test_data_past_the_data_limit_is_an_assembly_error_not_a_host_allocation():
    for source, line, column, words in ((".data\n  .zero 99999999999", 2, 9, ".zero takes 0 to"),
                                        (".data\n.space -5", 2, 8, ".space takes 0 to"),
                                        (".data\n.zero 16777000\nend: .zero 1000", 3, 6, "past the 16 MiB")):
        d = errors_of(source + "\n.text\nHALT").diagnostics[0]
        assert (d.line, d.column) == (line, column) and words in d.message, d


def _seconds_to_assemble(source: str) -> float:
    start = time.perf_counter()
    assemble(source)
    return time.perf_counter() - start


def test_assembly_time_grows_linearly_with_labelled_lines():
    def program(n):  # a label on every line, jumps to labels, and a new literal-pool value per line
        return "".join(f"l{i}: MOV R1, {0x100000 + i}\nJMP L{i + 1}\n" for i in range(n)) + f"l{n}: HALT\n"

    small, large = program(5_000), program(20_000)  # 10 k and 40 k lines
    # Linear is 4x and quadratic 16x; the best of three of each keeps a loaded machine's noise (8.2x seen
    # in CI, best of two) well below the quadratic.
    ratio = min(_seconds_to_assemble(large) for _ in range(3)) / min(_seconds_to_assemble(small) for _ in range(3))
    assert ratio < 10, f"4x the lines took {ratio:.1f}x the time"


def test_instructions_print_as_assembly():
    assert repr(assemble("ADD R0, R1, 5").instructions[0]) == "<Instruction ADD R0, R1, 5>"
