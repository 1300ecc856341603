"""`ncpu_nb.origin`: the dynamic backward slice of an nCPU run, checked by re-execution: changing any
start value the slice does not reach, while the run takes the same path and touches the same
addresses, never changes the value; and on a hand-made program, the exact chain."""
import numpy as np
import pytest

import ncpu_nb
from ncpu_nb import CPU, assemble
from ncpu_nb.ncpu.table import REGISTERS

from randprog import INTEGER_FORMS, random_program_text, random_register_values

MEMORY = 256
CHAIN = """
.data
table: .word 10, 20, 30, 40
.text
    MOV R2, 2
    SHL R3, R2, 2
    LDR R4, [R3 + table]    ; table[2] = 30
    ADD R5, R4, R0          ; + the input
    MUL R6, R5, 3
    PUSH R6
    MOV R6, 0
    POP R1
    STR R1, [R2 + 100]
    XOR R7, R1, R1          ; 0, whatever R1 is: still made from R1
    HALT
"""


def started(source, **registers):
    cpu = CPU(source, memory_size=MEMORY)
    cpu.set_registers(**registers)
    return cpu


def test_a_value_through_a_table_load_the_stack_and_a_store():
    o = ncpu_nb.origin(started(CHAIN, R0=5), "R1")
    assert o.value == 105 and [s.step for s in o.steps] == [7, 5, 4, 3, 2]
    assert [(s.instruction, s.produced, s.value) for s in o.steps] == [
        ("POP R1", "R1", 105), ("PUSH R6", "mem[0xfc..0xff]", 105), ("MUL R6, R5, 3", "R6", 105),
        ("ADD R5, R4, R0", "R5", 35), ("LDR R4, [R3]", "R4", 30)]
    assert [(i.what, i.value) for i in o.inputs] == [("R0", 5), ("mem[0x8..0xb]", 30)]
    assert o.steps[-1].address == ["R3"] and o.steps[0].address == ["SP"]  # named, not followed
    stored = ncpu_nb.origin(started(CHAIN, R0=5), (102, 4))
    assert stored.value == 105 and stored.steps[0].instruction == "STR R1, [R2, 100]"
    zero = ncpu_nb.origin(started(CHAIN, R0=5), "r7")  # a write of the value it held is still a write
    assert zero.value == 0 and zero.steps[0].instruction == "XOR R7, R1, R1"
    early = ncpu_nb.origin(started(CHAIN, R0=5), "R5", at=3)
    assert early.steps == [] and [i.what for i in early.inputs] == ["R5"]
    assert "Where R1 came from" in o._repr_html_() and "<script" not in o._repr_html_()


def _observed(cpu):
    return [(s.pc, s.next_pc, s.accesses) for s in cpu.trace]


def _run(program, registers, memory_edit=None):
    cpu = CPU(program, memory_size=MEMORY, trace_depth=301)
    cpu.set_registers(**registers)
    if memory_edit is not None:
        cpu.write_memory(memory_edit[0], bytes([memory_edit[1]]))
    cpu.run(300, check=False)
    return cpu


def test_start_values_outside_the_slice_never_change_the_value_on_random_programs():
    rng = np.random.default_rng(3)
    checked = reached = 0
    for _ in range(60):
        program = assemble(random_program_text(rng, MEMORY, max_length=20, forms=INTEGER_FORMS))
        registers = {r: v[0] for r, v in random_register_values(rng, 1).items()}
        base = _run(program, registers)
        for target in REGISTERS[:8]:
            o = ncpu_nb.origin(started(program, **registers), target, max_steps=300)
            assert o.value == base.registers[target]
            inputs = {i.what for i in o.inputs}
            input_bytes = set()
            for i in o.inputs:
                if i.what.startswith("mem"):
                    lo, _, hi = i.what[4:-1].partition("..")
                    input_bytes |= set(range(int(lo, 16), int(hi or lo, 16) + 1))
            for other in REGISTERS[:8]:
                if other in inputs:
                    continue
                changed = dict(registers, **{other: int(rng.integers(-(1 << 31), 1 << 31))})
                again = _run(program, changed)
                if _observed(again) == _observed(base):  # same path, same addresses: a pure data question
                    assert again.registers[target] == base.registers[target], (target, other)
                    checked += 1
            byte = int(rng.integers(0, MEMORY))
            if byte not in input_bytes:
                again = _run(program, registers, (byte, int(rng.integers(0, 256))))
                if _observed(again) == _observed(base):
                    assert again.registers[target] == base.registers[target], (target, byte)
                    checked += 1
            reached += bool(o.steps)
    assert checked > 1500 and reached > 60  # perturbations tried; targets some step made


def test_origin_refuses_what_it_cannot_slice():
    with pytest.raises(ValueError, match="no register"):
        ncpu_nb.origin(started(CHAIN), "R9")
    with pytest.raises(ValueError, match="outside data memory"):
        ncpu_nb.origin(started(CHAIN), (MEMORY - 2, 4))
    with pytest.raises(ValueError, match="outside the run"):
        ncpu_nb.origin(started(CHAIN), "R1", at=99)
    with pytest.raises(TypeError, match="not DifferentiableEngine"):
        ncpu_nb.origin(ncpu_nb.DifferentiableEngine("HALT"), "R0")


def test_on_the_arm64_machine_printed_digits_go_back_to_the_read_that_brought_the_input_in():
    """`echo $((x * 7 + 3))` after `read x` with 5 on stdin prints 38: the slice of those bytes runs
    through the multiplication and the addition to the byte `read` put in memory, and to the script."""
    machine = ncpu_nb.Arm64Machine.busybox("sh", "-c", "read x; echo $((x * 7 + 3))", stdin="5\n")
    o = ncpu_nb.origin(machine, "stdout", addresses=True)
    assert machine.stdout == "38\n" and o.value == int.from_bytes(b"38\n", "little") and not o.truncated
    read = [i for i in o.inputs if "read(0," in i.note]
    assert len(read) == 1 and read[0].value == ord("5")
    made = {(s.instruction.split()[0], s.value) for s in o.steps}
    assert ("mul", 35) in made and ("add", 38) in made  # 5 * 7, then + 3
    assert all(o.steps[k].step > o.steps[k + 1].step for k in range(len(o.steps) - 1))
    # data only: the digits are copied out of a constant table, picked by an index that is not followed
    data_only = ncpu_nb.origin(ncpu_nb.Arm64Machine.busybox("sh", "-c", "read x; echo $((x * 7 + 3))", stdin="5\n"),
                               "stdout")
    assert not any("read(" in i.note for i in data_only.inputs) and len(data_only.steps) < len(o.steps)
    assert any("x4" in s.address for s in data_only.steps)  # the digit, as a table index
    assert "read(0," in o._repr_html_()
