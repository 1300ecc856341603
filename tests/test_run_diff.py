"""ncpu_nb.diff_runs: two runs compared step by step, on the nCPU and on the AArch64 machine."""
import pytest

import ncpu_nb
from ncpu_nb import Arm64Machine, CPU
from ncpu_nb.resources import data_dir

BRANCHY = """
    MOV R1, 0
    MOV R2, 5
loop:
    ADD R1, R1, R2
    DEC R2
    JNZ loop
    CMP R1, R0          ; R1 is 15 here, at step 2 + 5 * 3 = 17
    JL small
    MOV R3, 1
    JMP done
small:
    MOV R3, 2
done:
    MUL R4, R1, R3
    HALT
"""


def cpu(source: str, **registers) -> CPU:
    machine = CPU(source)
    machine.set_registers(**registers)
    return machine


def test_a_branch_decided_otherwise_is_found_where_it_is_and_the_paths_meet_at_the_join():
    diff = ncpu_nb.diff_runs(cpu(BRANCHY, R0=10), cpu(BRANCHY, R0=20))
    assert (diff.divergence.step, diff.divergence.kind) == (17, "flags")  # CMP 15, 10 vs CMP 15, 20
    assert (diff.branch.step, diff.branch.kind) == (18, "control flow")
    assert (diff.branch.a.next_pc, diff.branch.b.next_pc) == (7, 9)
    assert (diff.rejoin.step_a, diff.rejoin.step_b, diff.rejoin.pc) == (21, 20, 10)
    assert diff.where(diff.rejoin.pc) == "done"
    assert diff.registers_differ == ["R0", "R3", "R4"]
    assert not diff.identical
    assert "control flow parts at step 18" in repr(diff)


def test_identical_runs_and_different_programs():
    same = ncpu_nb.diff_runs(cpu(BRANCHY, R0=10), cpu(BRANCHY, R0=10))
    assert same.identical and same.divergence is None and same.rows() == []
    other = ncpu_nb.diff_runs(cpu(BRANCHY, R0=10), cpu(BRANCHY.replace("MOV R2, 5", "MOV R2, 6"), R0=10))
    assert (other.divergence.step, other.divergence.kind) == (1, "instruction")


def test_a_run_that_stops_early_is_a_length_divergence():
    loop = "loop:\nDEC R0\nJNZ loop\nHALT"
    diff = ncpu_nb.diff_runs(cpu(loop, R0=3), cpu(loop, R0=3), max_steps=5)
    assert diff.identical
    diff = ncpu_nb.diff_runs(cpu(loop, R0=2), cpu(loop, R0=3))
    assert (diff.divergence.step, diff.divergence.kind) == (0, "values")
    assert (diff.branch.step, diff.branch.kind) == (3, "control flow")  # the second JNZ falls through in run a


def test_two_arm64_runs_part_at_the_first_load_of_the_differing_argument():
    program = data_dir("programs") / "arm64" / "c" / "bin" / "argv_env"
    a = Arm64Machine.from_elf(program, ["argv_env", "hello"])
    b = Arm64Machine.from_elf(program, ["argv_env", "hellO"])
    diff = ncpu_nb.diff_runs(a, b)
    d = diff.divergence
    assert d.kind == "values" and d.a.pc == d.b.pc
    differing = [(new, d.b.changes[r][1]) for r, (_, new) in d.a.changes.items() if d.b.changes[r][1] != new]
    (value_a, value_b), = differing  # one register got the loaded bytes: 'o' in one run, 'O' in the other
    flipped = value_a ^ value_b
    assert flipped == 0x20 << (8 * ((flipped.bit_length() - 1) // 8))
    assert all(x.pc == y.pc for x, y in zip(diff.steps_a[:d.step], diff.steps_b[:d.step]))
    assert diff.output_differs and diff.syscall_divergence is None  # the same calls; only the bytes written differ
    assert "Two runs compared" in diff._repr_html_()


def test_busybox_runs_that_exit_differently():
    diff = ncpu_nb.diff_runs(Arm64Machine.busybox("sh", "-c", "test 3 -gt 2 && echo yes"),
                             Arm64Machine.busybox("sh", "-c", "test 1 -gt 2 && echo yes"))
    assert "exited" in diff.outcome_a and "exited" in diff.outcome_b
    assert diff.branch.kind == "control flow" and diff.rejoin is not None
    index, call_a, call_b = diff.syscall_divergence
    assert (call_a.name, call_b.name) == ("write", "exit_group")
    rows = diff.rows()
    assert rows and any(x is not None and y is not None and x.pc != y.pc for _, x, y in rows)


def test_max_steps_must_be_positive():
    with pytest.raises(ValueError):
        ncpu_nb.diff_runs(cpu(BRANCHY), cpu(BRANCHY), max_steps=0)
