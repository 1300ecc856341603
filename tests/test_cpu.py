"""The CPU object: the machine protocol, budgets, faults, breakpoints, snapshots, trace, lanes."""
import numpy as np
import pytest

from ncpu_nb import CPU, CycleBudgetExceeded, ExecutionError, MachineProtocol, assemble
from ncpu_nb.ncpu.reference_interpreter import run_reference

SUM = """
    MOV R1, 0
loop:
    ADD R1, R1, R0
    DEC R0
    JNZ loop
    HALT
"""


def test_cpu_implements_the_machine_protocol():
    assert isinstance(CPU(SUM), MachineProtocol)


def test_run_to_halt_counts_every_instruction_including_halt():
    cpu = CPU(SUM, registers={"R0": 10})
    result = cpu.run()
    assert cpu.registers["R1"] == 55 and cpu.halted
    assert result.steps == cpu.cycles == 1 + 10 * 3 + 1
    assert cpu.pc == 4  # the PC stays on HALT


def test_running_off_the_end_halts_without_a_cycle():
    cpu = CPU("MOV R0, 1\nMOV R1, 2")
    cpu.run()
    assert cpu.halted and cpu.cycles == 2 and cpu.pc == 2


def test_cycle_budget_raises_a_clear_error_and_keeps_the_state():
    cpu = CPU("top:\nINC R0\nJMP top")
    with pytest.raises(CycleBudgetExceeded) as info:
        cpu.run(max_steps=1001)
    assert "1,001 cycles" in str(info.value) and "PC=" in str(info.value)
    assert cpu.cycles == 1001 and cpu.registers["R0"] == 501
    cpu.run(max_steps=1, check=False)  # it can go on
    assert cpu.cycles == 1002


def test_memory_fault_names_the_pc_and_instruction_and_loses_nothing():
    cpu = CPU("MOV R0, 7\nMOV R1, 60000\nLDR R2, [R1, 8000]\nHALT", memory_size=65536)
    with pytest.raises(ExecutionError) as info:
        cpu.run()
    err = info.value
    assert err.pc == 2 and err.instruction == "LDR R2, [R1, 8000]"
    assert "0x109A0" in str(err)  # 60000 + 8000
    assert cpu.status == "fault" and cpu.registers["R0"] == 7 and cpu.cycles == 2


def test_return_outside_the_program_is_a_fault():
    cpu = CPU("MOV R0, 99\nPUSH R0\nRET")
    with pytest.raises(ExecutionError, match="jump to 99"):
        cpu.run()
    assert cpu.registers["SP"] == 65532  # the faulting RET changed nothing


def test_step_executes_one_instruction_and_ignores_breakpoints():
    cpu = CPU(SUM, registers={"R0": 3})
    cpu.breakpoints.add(1)
    assert cpu.step() == 1 and cpu.pc == 1
    assert cpu.step(2) == 2 and cpu.pc == 3


def test_breakpoints_stop_before_the_instruction_and_resume_over_it():
    cpu = CPU(SUM, registers={"R0": 3})
    cpu.breakpoints.add("loop")
    assert "loop" in cpu.breakpoints and 1 in cpu.breakpoints
    cpu.run()
    assert cpu.status == "breakpoint" and cpu.pc == 1 and cpu.cycles == 1
    cpu.run()
    assert cpu.pc == 1 and cpu.cycles == 4 and cpu.registers["R1"] == 3
    cpu.breakpoints.discard("loop")
    cpu.run()
    assert cpu.halted and cpu.registers["R1"] == 6


def test_breakpoint_survives_reset_and_toggle():
    cpu = CPU(SUM, registers={"R0": 2})
    assert cpu.breakpoints.toggle(3) is True
    cpu.reset()
    cpu.run()
    assert cpu.pc == 3
    assert cpu.breakpoints.toggle(3) is False
    cpu.run()
    assert cpu.halted


def test_snapshot_and_restore_go_back_in_time():
    cpu = CPU(SUM, registers={"R0": 5})
    cpu.step(4)
    snap = cpu.snapshot()
    before = (cpu.registers, cpu.flags, cpu.pc, cpu.cycles, cpu.read_memory(0, 64))
    cpu.write_memory(0, b"junk")
    cpu.run()
    assert cpu.halted
    cpu.restore(snap)
    assert (cpu.registers, cpu.flags, cpu.pc, cpu.cycles, cpu.read_memory(0, 64)) == before
    assert [s.cycle for s in cpu.trace] == [0, 1, 2, 3]  # the trace keeps only what came before


def test_trace_records_register_changes_and_flags():
    cpu = CPU("MOV R0, 1\nSUB R0, R0, R0\nPUSH R0\nHALT")
    cpu.run()
    steps = list(cpu.trace)
    assert [s.instruction for s in steps] == ["MOV R0, 1", "SUB R0, R0, R0", "PUSH R0", "HALT"]
    assert steps[0].changes == {"R0": (0, 1)}
    assert steps[1].changes == {"R0": (1, 0)} and steps[1].flags_after == "Z"
    assert steps[2].changes == {"SP": (65536, 65532)} and steps[2].memory_write == (65532, 4)
    assert "R0: 0x00000001 → 0x00000000" in cpu.trace._repr_html_()


def test_trace_depth_is_a_ring():
    cpu = CPU(SUM, registers={"R0": 100}, trace_depth=5)
    cpu.run()
    assert [s.cycle for s in cpu.trace] == list(range(cpu.cycles - 5, cpu.cycles))


def test_reset_restores_data_and_load_time_registers():
    cpu = CPU(".data\nv: .word 5\n.text\nLDR R1, [v]\nADD R1, R1, R0\nSTR R1, [v]\nHALT", registers={"R0": 2})
    cpu.run()
    assert cpu.read_word(0) == 7
    cpu.reset()
    assert cpu.read_word(0) == 5 and cpu.registers["R0"] == 2 and cpu.cycles == 0


def test_lanes_equal_the_same_runs_one_at_a_time():
    sources = [SUM, "MOV R1, 3\nMUL R2, R0, R1\nHALT", "loop:\nSHR R0, R0, 1\nINC R3\nCMP R0, R4\nJNZ loop\nHALT"]
    inputs = [7, -12, 1 << 20, 4, 99, 2**31 - 1]
    programs = [sources[i % 3] for i in range(len(inputs))]
    batch = CPU(programs, registers={"R0": inputs})
    batch.run()
    for lane, (source, r0) in enumerate(zip(programs, inputs)):
        single = CPU(source, registers={"R0": r0})
        single.run()
        assert batch.lane_registers(lane) == single.registers
        assert batch.lane_flags(lane) == single.flags
        assert batch.lane_cycles()[lane] == single.cycles


def test_one_program_in_many_lanes_with_per_lane_inputs():
    cpu = CPU(SUM, lanes=1000, memory_size=64, trace_depth=0)
    cpu.set_registers(R0=np.arange(1, 1001))
    cpu.run()
    sums = cpu.registers_array()[:, 1]
    assert (sums == np.arange(1, 1001) * np.arange(2, 1002) // 2).all()
    assert cpu.lane_status() == ["halted"] * 1000


def test_fast_mode_matches_reference_on_memory_and_calls():
    source = """
    .data
    arr: .word 5, -3, 9, 0
    .text
        MOV R0, arr
        MOV R1, 4
        CALL sum
        HALT
    sum:                ; R2 = sum of R1 words at R0
        PUSH R0
        MOV R2, 0
    next:
        LDR R3, [R0]
        ADD R2, R2, R3
        ADD R0, R0, 4
        DEC R1
        JNZ next
        POP R0
        RET
    """
    program = assemble(source)
    cpu = CPU(program)
    cpu.run()
    ref = run_reference(program)
    assert cpu.registers["R2"] == 11
    assert [v & 0xFFFFFFFF for v in cpu.registers.values()] == ref.registers
    assert cpu.cycles == ref.cycles


def test_reprs_show_registers_flags_and_listing():
    cpu = CPU(SUM, registers={"R0": 2})
    cpu.step(2)
    page = cpu._repr_html_()
    assert "R0" in page and "ZF" in page and "ADD R1, R1, R0" in page and "<script" not in page
    assert "cur" in page  # the current instruction is highlighted
    assert "HALT" in assemble(SUM)._repr_html_()
    assert "steps / s" in cpu.run()._repr_html_()


def test_disassemble_around_the_pc():
    cpu = CPU(SUM)
    assert cpu.disassemble(0, 3) == [(0, "MOV R1, 0"), (1, "ADD R1, R1, R0"), (2, "DEC R0")]
    cpu.step()
    assert cpu.disassemble(n=1) == [(1, "ADD R1, R1, R0")]


def test_unknown_mode_and_register_are_clear_errors():
    with pytest.raises(ValueError, match="unknown mode 'turbo'"):
        CPU(mode="turbo")
    with pytest.raises(KeyError, match="R9"):
        CPU(SUM).set_registers(R9=1)


def test_a_cpu_without_a_program_is_halted_and_harmless():
    cpu = CPU()
    cpu.reset()
    assert cpu.run().stop == "halted" and cpu.step() == 0
    assert cpu.disassemble() == [] and "no program loaded" in cpu._repr_html_()


@pytest.mark.parametrize("mode", ["fast", "neural"])
def test_ctrl_c_stops_an_endless_run_promptly_and_keeps_the_state(mode):
    import signal
    import subprocess
    import sys
    import time

    script = ("import ncpu_nb, sys\n"
              f"cpu = ncpu_nb.CPU('top:\\nINC R0\\nJMP top', mode='{mode}')\n"
              "cpu.step()\nprint('ready', flush=True)\n"
              "try:\n    cpu.run(max_steps=10**12)\n"
              "except KeyboardInterrupt:\n    print('interrupted', cpu.registers['R0'] > 0, cpu.status, flush=True)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.3)
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert out.strip() == "interrupted True running"
    assert time.perf_counter() - sent < 5  # generous: this checks it stops at all, not how fast


def test_coursework_grades_every_case_and_reports_failures():
    from ncpu_nb.coursework import check, random_cases

    good = "CMP R0, R1\nJL b\nMOV R2, R0\nHALT\nb:\nMOV R2, R1\nHALT"
    cases = random_cases(lambda R0, R1: {"R2": max(R0, R1)}, ["R0", "R1"], n=40, seed=3)
    report = check(good, cases)
    assert report.score == 1.0 and report.passed == 40
    report.assert_passed()
    wrong = check("MOV R2, R0\nHALT", cases)
    assert 0 < wrong.score < 1
    with pytest.raises(AssertionError, match="cases failed"):
        wrong.assert_passed()
    broken = check("MOV R2, R9", cases)
    assert broken.score == 0 and "does not assemble" in broken._repr_html_()
    with pytest.raises(AssertionError, match="no register R9"):
        broken.assert_passed()
    with pytest.raises(ValueError):
        check(good, [])
