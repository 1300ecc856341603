"""The fuzzer on the nCPU: per-lane edge coverage counted by the executor, inputs run as lanes, the
planted crash and hang of programs/ncpu/magic_word.asm found, minimised and replayed exactly."""
import json

import numpy as np
import pytest

import ncpu_nb
from ncpu_nb import CPU, _metal
from ncpu_nb.debugging.fuzzer import Fuzzer, fuzz, replay

MAGIC_WORD = ncpu_nb.load_program("magic_word")
STORE = next(i for i, ins in enumerate(MAGIC_WORD.instructions) if ins.mnemonic == "STR")  # the planted bug


def slot(source: int, target: int) -> int:
    """Where the executor counts the edge source -> target (its hash, by hand)."""
    mix, mask = 0x9E37_79B9_7F4A_7C15, (1 << 64) - 1
    return (((source * mix & mask) ^ target) * mix & mask) >> 48 & (_metal.NCPU_COVERAGE_SLOTS - 1)


def hits(cpu: CPU, lane: int) -> dict[int, int]:
    row = cpu.coverage()[lane]
    return {int(i): int(row[i]) for i in np.flatnonzero(row)}


def test_one_branch_counts_its_taken_and_its_fallen_through_edge():
    cpu = CPU("CMP R0, 0\nJZ zero\nMOV R1, 1\nzero:\nHALT", lanes=2, registers={"R0": [0, 5]})
    cpu.set_coverage(True)
    cpu.run()
    assert hits(cpu, 0) == {slot(1, 3): 1}  # R0 = 0: the jump taken
    assert hits(cpu, 1) == {slot(1, 2): 1}  # R0 = 5: not taken, on to MOV


def test_a_loop_counts_its_back_edge_per_pass_and_calls_and_returns_count_too():
    cpu = CPU("CALL f\nHALT\nf:\nloop:\nDEC R0\nJNZ loop\nRET", registers={"R0": 3})
    cpu.set_coverage(True)
    cpu.run()
    assert hits(cpu, 0) == {slot(0, 2): 1, slot(3, 2): 2, slot(3, 4): 1, slot(4, 1): 1}
    cpu.reset()  # loading or resetting a lane empties its map
    assert not cpu.coverage().any()


def test_coverage_is_off_by_default_and_does_not_change_a_run():
    runs = []
    for on in (False, True):
        cpu = CPU(MAGIC_WORD, lanes=3)
        for lane, text in enumerate((b"BUG", b"B", b"x")):
            cpu.write_memory(0, text, lane)
        if on:
            cpu.set_coverage(True)
        else:
            assert cpu.coverage() is None
        cpu.run()
        runs.append((cpu.registers_array().tolist(), cpu.lane_cycles().tolist()))
    assert runs[0] == runs[1]


def test_a_snapshot_restores_the_maps_and_keeps_coverage_on_or_off():
    cpu = CPU(MAGIC_WORD)
    before = cpu.snapshot()  # taken with coverage off
    cpu.set_coverage(True)
    cpu.write_memory(0, b"BU")
    cpu.run()
    after, reached = cpu.snapshot(), hits(cpu, 0)
    cpu.restore(before)
    assert not cpu.coverage().any()  # still on, and empty as it was then
    cpu.restore(after)
    assert hits(cpu, 0) == reached


@pytest.fixture(scope="module")
def campaign():
    """256 lanes a batch, seed 0: the crash takes about 20,000 executions."""
    fuzzer = Fuzzer(MAGIC_WORD, where="memory:input", lanes=256, seed=0)
    return fuzzer, fuzzer.run(executions=60_000, stop_on_crash=True)


def test_the_planted_crash_and_hang_are_found_within_60000_executions_and_minimised(campaign):
    fuzzer, report = campaign
    assert fuzzer.target.size == 8 and fuzzer.corpus[0] == b"hello"  # the label's bytes; its data the seed
    assert report.executions <= 60_000 and len(report.crashes) == 1
    crash = report.crashes[0]
    assert crash.input == b"BUG!" and crash.execution <= 60_000
    assert crash.outcome.signature == f"memory fault at {STORE}"
    assert "0xFFFFF is outside data memory" in crash.outcome.detail
    assert [h.input for h in report.hangs] == [b"HA"]
    assert report.hangs[0].outcome.instructions == 10_000  # the default nCPU budget


def test_one_lane_and_many_lanes_find_the_same_with_the_same_seed(campaign):
    _, many = campaign
    one = fuzz(MAGIC_WORD, where="memory:input", lanes=1, seed=0, executions=60_000, stop_on_crash=True)
    assert [(f.outcome, f.input) for f in one.crashes + one.hangs] == \
           [(f.outcome, f.input) for f in many.crashes + many.hangs]


def test_findings_replay_to_the_same_fault_from_memory_and_from_saved_reproducers(campaign, tmp_path):
    _, report = campaign
    for finding in report.crashes + report.hangs:
        assert finding.replay()[1] == finding.outcome  # same signature, detail and step count
    cpu, outcome = report.crashes[0].replay()
    assert (cpu.status, cpu.pc, cpu.read_memory(0, 4)) == ("fault", STORE, b"BUG!")
    assert cpu.trace[-1].pc == STORE - 1  # the replay traces, for the debugger
    saved = report.save(tmp_path)
    assert len(saved) == 2
    for path in saved:
        spec = json.loads(path.read_text())
        assert spec["engine"] == "ncpu" and spec["where"] == "memory:input"
        _, outcome = replay(path)
        assert (outcome.signature, outcome.instructions) == (spec["outcome"], spec["instructions"])


def test_the_report_is_the_same_object_with_its_page(campaign):
    _, report = campaign
    page = report._repr_html_()
    assert "<svg" in page and "magic_word" in page and "BUG!" in page and "memory fault" in page


def test_registers_can_be_fuzzed_and_a_bad_return_is_a_jump_fault():
    # R0's low byte 7: a return to R0 itself, past the program's end (a jump fault)
    source = "AND R2, R0, 0xFF\nCMP R2, 7\nJNZ done\nPUSH R0\nRET\ndone:\nHALT"
    report = fuzz(CPU(source), where="registers", size=8, lanes=64, seed=1, executions=20_000,
                  stop_on_crash=True)
    crash = report.crashes[0]
    assert (crash.outcome.signature, crash.input) == ("jump fault at 4", b"\x07")
    assert crash.outcome.detail == "jump to 7, outside the program (RET)"
    cpu, outcome = crash.replay()
    assert outcome == crash.outcome and cpu.registers["R0"] == 7


def test_bad_ncpu_targets_are_clear_errors():
    with pytest.raises(ValueError, match="memory:ADDRESS"):
        Fuzzer(MAGIC_WORD, where="stdin")
    with pytest.raises(ValueError, match="do not fit"):
        Fuzzer(MAGIC_WORD, where="memory:65530", size=8)
    with pytest.raises(ValueError, match="give size="):
        Fuzzer(MAGIC_WORD, where="memory:0x10")
    with pytest.raises(ValueError, match="multiple of 4"):
        Fuzzer(MAGIC_WORD, where="registers", size=6)
