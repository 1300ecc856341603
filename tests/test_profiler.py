"""The profiler: the engine's per-PC counts checked against the trace (an independent record of every
step), its sampled stacks against the call structure of a known program, and the syscall timeline."""
import pathlib
from collections import Counter

import pytest

from ncpu_nb import profile
from ncpu_nb.arm64.machine import Arm64Machine

ROOT = pathlib.Path(__file__).resolve().parent.parent
C = ROOT / "programs" / "arm64" / "c" / "bin"
GRADEBOOK = ["gradebook", "90", "120", "50", "100", "100", "100", "100", "100", "30"]


def test_counts_per_pc_are_the_traced_steps():
    traced = Arm64Machine.from_elf(C / "gradebook", GRADEBOOK, trace_depth=100_000)
    traced.run()
    expected = Counter(step.pc for step in traced.trace)
    expected[traced.pc - 4] += 1  # the exit_group svc: it retires, but the trace cannot hold it (the thread is gone)
    machine = Arm64Machine.from_elf(C / "gradebook", GRADEBOOK)
    prof = profile(machine)
    assert prof.counts == expected and prof.total == machine.instructions == traced.instructions
    assert machine.stdout == traced.stdout


@pytest.mark.parametrize("argv", [["sh", "-c", "seq 500 | sort -rn | head -3"], ["echo", "hi"]])
def test_profiling_counts_every_instruction_and_changes_nothing(argv):
    plain = Arm64Machine.busybox(*argv)
    plain.run()
    machine = Arm64Machine.busybox(*argv)
    prof = profile(machine)
    assert prof.total == machine.instructions == plain.instructions
    assert machine.stdout_bytes == plain.stdout_bytes
    names = [f.name for f in prof.functions()]
    assert all(name.startswith(("sub_", "0x")) for name in names)  # stripped: call targets name functions
    assert sum(f.instructions for f in prof.functions()) == prof.total
    assert all(0 <= f.inclusive <= 1 for f in prof.functions())


def test_sampled_stacks_follow_the_calls():
    machine = Arm64Machine.from_elf(C / "gradebook", GRADEBOOK)
    prof = profile(machine, period=1)  # every instruction sampled
    assert sum(n for _, n in prof.samples) == prof.total
    in_record = [(stack, n) for stack, n in prof.samples if prof.function(stack[-1]) == "record"]
    assert sum(n for _, n in in_record) == sum(n for pc, n in prof.counts.items() if prof.function(pc) == "record")
    # the caller of record is main, though glibc entered main by a tail call from __wrap_main
    assert all(prof.path(stack)[-2:] == ["main", "record"] for stack, _ in in_record)
    by_name = {f.name: f for f in prof.functions()}
    assert by_name["main"].inclusive > by_name["record"].inclusive > 0
    assert prof.instructions(1)[0][1] == max(prof.counts.values())


def test_the_flame_graph_and_the_views():
    machine = Arm64Machine.from_elf(C / "float_math")
    prof = profile(machine)
    fig = prof.flame()
    icicle = fig.data[0]
    assert icicle.values[list(icicle.ids).index("all")] == sum(n for _, n in prof.samples)
    assert "__printf_fp_l" in set(icicle.labels)
    page = prof._repr_html_()
    assert "__vfprintf_internal" in page and "with callees" in page


def test_the_syscall_log_places_each_call_in_the_run():
    machine = Arm64Machine.busybox("sh", "-c", "echo hi | wc -c")
    machine.run()
    log = machine.syscall_log()
    ats = [c.at for c in log]
    assert ats == sorted(ats) and 0 < ats[0] and ats[-1] <= machine.instructions
    writes = log.filter(name="write")
    assert writes and all(c.name == "write" for c in writes)
    assert {c.pid for c in log.filter(pid=log[0].pid)} == {log[0].pid}
    assert len(log.filter(failed=True)) == len(log.failed())
    fig = log.timeline()
    assert len(fig.data) == len({c.pid for c in log})


def test_bad_arguments():
    from ncpu_nb.ncpu.cpu import CPU

    with pytest.raises(TypeError, match="Arm64Machine"):
        profile(CPU("HALT"))
    with pytest.raises(ValueError, match="period"):
        profile(Arm64Machine.from_elf(C / "hello"), period=0)


def test_the_memory_map_measures_entropy_per_region():
    import random

    from ncpu_nb.arm64.memory_map import entropy

    assert entropy(bytes(4096)) == 0.0 and entropy(bytes(range(256)) * 16) == 8.0 and entropy(b"") == 0.0
    assert entropy(b"ab" * 100) == pytest.approx(1.0)
    machine = Arm64Machine.from_elf(C / "hello")
    machine.run()
    data = next(r for r in machine.memory_map() if r.perms == "rw-")
    machine.write_memory(data.start, random.Random(0).randbytes(8192))
    cells = machine.memory_map().entropy(data, cells=(data.end - data.start) // 4096)
    assert cells[0] > 7.9 and cells[1] > 7.9 and min(cells) == 0.0  # the random pages, and untouched zeros
    page = machine.memory_map()._repr_html_()
    assert page.count("<svg") == len(machine.memory_map()) and "bits/byte" in page
