"""The fuzzer: the engine's edge coverage and compare operands, the magic crash and hang found,
minimised and replayed exactly. `programs/arm64/c/magic.c` is the target (its outputs under qemu are
in expected/magic.*)."""
import json
import pathlib

import pytest

from ncpu_nb.arm64.machine import Arm64Machine
from ncpu_nb.debugging.fuzzer import Fuzzer, fuzz, replay, tokens

ROOT = pathlib.Path(__file__).resolve().parent.parent
C = ROOT / "programs" / "arm64" / "c"
MAGIC = C / "bin" / "magic"


def covered(data: bytes):
    """(edges reached, compared operands, machine) of one run of magic with coverage on."""
    machine = Arm64Machine.from_elf(MAGIC, interactive=True)
    machine.run(check=False)
    machine._engine.set_coverage(True)
    machine.write_stdin(data)
    machine.close_stdin()
    machine.run(check=False)
    edges = {i for i, count in enumerate(machine._engine.coverage()) if count}
    return edges, machine._engine.compares(), machine


def test_each_matched_byte_reaches_new_edges_and_shows_its_comparison():
    previous = covered(b"")[0]
    for prefix in (b"F", b"FU", b"FUZ"):
        edges, compares, machine = covered(prefix)
        assert edges - previous, prefix  # the branch of the next byte's check: an edge no shorter input took
        assert prefix[-1] in compares  # `cmp w1, #'U'` and so on: the dictionary's source
        assert machine.stdout == f"matched {len(prefix)} of 4\n"
        previous = edges


def test_coverage_does_not_change_a_run():
    runs = []
    for on in (False, True):
        machine = Arm64Machine.from_elf(MAGIC, stdin=b"FUZ")
        machine._engine.set_coverage(on)
        machine.run(check=False)
        runs.append((machine.instructions, machine.stdout_bytes, machine.exit_status))
        assert (machine._engine.coverage() is None) is not on
    assert runs[0] == runs[1]
    assert runs[0][1] == (C / "expected" / "magic.fuz.out").read_bytes()


def test_clearing_coverage_empties_the_map_and_the_compares():
    machine = covered(b"FU")[2]
    machine._engine.clear_coverage()
    assert not any(machine._engine.coverage()) and machine._engine.compares() == []


def test_tokens_keep_small_numbers_and_printable_words_not_addresses():
    assert tokens([ord("F"), 0x4A5A, 0x5A5A555A, 0x498F80]) == {b"F", b"ZJ", b"ZUZZ"}


@pytest.fixture(scope="module")
def campaign():
    """One deterministic campaign (one worker) to the first crash: seed 4 needs about 2,500 executions."""
    fuzzer = Fuzzer(MAGIC, workers=1, seed=4)
    return fuzzer, fuzzer.run(executions=20_000, stop_on_crash=True)


def test_the_magic_crash_is_found_within_20000_executions_and_minimised(campaign):
    fuzzer, report = campaign
    assert len(report.crashes) == 1 and report.executions <= 20_000
    crash = report.crashes[0]
    assert crash.input == b"FUZZ"
    symbol = fuzzer.workers[0].machine.elf.symbols["crash"]
    pc = int(crash.outcome.signature.split(" at ")[1], 16)
    assert crash.outcome.signature.startswith("SIGSEGV") and symbol.address <= pc < symbol.address + symbol.size
    assert "write of 0x10" in crash.outcome.detail


def test_the_hang_is_found_and_minimised(campaign):
    _, report = campaign
    assert [h.input for h in report.hangs] == [b"HA"]
    assert report.hangs[0].outcome.kind == "hang"


def test_findings_replay_exactly_from_memory_and_from_saved_reproducers(campaign, tmp_path):
    _, report = campaign
    for finding in report.crashes + report.hangs:
        assert finding.replay()[1] == finding.outcome  # same signature and instruction count
    saved = report.save(tmp_path)
    assert len(saved) == 2
    for path in saved:
        spec = json.loads(path.read_text())
        machine, outcome = replay(path)
        assert (outcome.signature, outcome.instructions) == (spec["outcome"], spec["instructions"])


def test_the_report_shows_its_coverage_curve(campaign):
    _, report = campaign
    page = report._repr_html_()
    assert "<svg" in page and "FUZZ" in page and "SIGSEGV" in page
    edges = [e for _, _, e in report.history]
    assert edges == sorted(edges) and edges[-1] == report.edges


def test_two_workers_share_one_corpus_and_stop_at_the_budget():
    report = fuzz(MAGIC, workers=2, executions=600, seed=1)
    assert 600 <= report.executions <= 602 and len(report.corpus) > 1


def test_arguments_can_be_fuzzed_instead_of_stdin():
    report = fuzz("busybox", ["busybox", "expr"], where="argv", seeds=[b"1 + 2"], executions=60, workers=1)
    assert report.executions == 60 and report.edges > 100 and not report.crashes


def test_bad_targets_and_options_are_clear_errors():
    with pytest.raises(ValueError, match="never waits for standard input"):
        Fuzzer(C / "bin" / "hello")
    with pytest.raises(ValueError, match="where must be one of"):
        Fuzzer(MAGIC, where="file")
    with pytest.raises(ValueError, match="executions=, seconds="):
        Fuzzer(MAGIC, workers=1).run()


def test_a_file_can_be_fuzzed_and_its_findings_replay():
    fuzzer = Fuzzer("busybox", ["busybox", "sh", "/tmp/script"], where="file:/tmp/script", workers=1,
                    seeds=[b"echo $((6 * 7))"], seed=3)
    report = fuzzer.run(executions=150)
    assert report.executions == 150 and len(report.corpus) > 5 and report.edges > 1000
    target = fuzzer.target
    machine = target.machine(b"echo $((6 * 7))")
    machine.run()
    assert machine.stdout == "42\n"


@pytest.mark.parametrize("script, kind, signature", [("exit 200", "ok", "exit 200"),
                                                     ("kill -TERM $$", "ok", "killed by signal 15"),
                                                     ("kill -SEGV $$", "crash", "SIGSEGV at")])
def test_an_exit_status_over_128_is_a_crash_only_when_a_crash_signal_killed_it(script, kind, signature):
    from ncpu_nb.debugging.fuzzer import _run_outcome

    outcome = _run_outcome(Arm64Machine.busybox("sh", "-c", script), 1_000_000)
    assert outcome.kind == kind and outcome.signature.startswith(signature)
