"""One protocol, really implemented: the nCPU in both modes and the AArch64 machine pass
`isinstance(x, MachineProtocol)`, share one RunResult, Snapshot, Breakpoints and Watchpoints type,
take one budget name, and old names still work with a DeprecationWarning."""
from __future__ import annotations

import importlib
import warnings

import pytest

import ncpu_nb
from ncpu_nb.resources import data_dir

HELLO = data_dir("programs") / "arm64" / "c" / "bin" / "hello"
COUNTER = "MOV R1, 16\nloop:\n    LDR R0, [R1]\n    INC R0\n    STR R0, [R1]\n    CMP R0, 3\n    JL loop\n    HALT"


def engines():
    return {"cpu fast": ncpu_nb.CPU(COUNTER), "cpu neural": ncpu_nb.CPU(COUNTER, mode="neural"),
            "arm64": ncpu_nb.Arm64Machine.from_elf(HELLO), "differentiable": ncpu_nb.DifferentiableEngine(COUNTER)}


@pytest.mark.parametrize("name", ["cpu fast", "cpu neural", "arm64"])
def test_every_engine_implements_the_protocol_with_the_shared_types(name):
    m = engines()[name]
    assert isinstance(m, ncpu_nb.MachineProtocol)
    assert type(m.breakpoints) is ncpu_nb.Breakpoints and type(m.watchpoints) is ncpu_nb.Watchpoints
    snapshot = m.snapshot()
    assert isinstance(snapshot, ncpu_nb.Snapshot) and snapshot.cycles == m.cycles == 0
    result = m.run(max_steps=5, check=False)
    assert isinstance(result, ncpu_nb.RunResult) and result.stop == "budget" and result.steps == m.cycles == 5
    m.restore(snapshot)
    assert m.cycles == 0 and m.status == "running" and m.stop_detail == ""
    assert m.memory_map() and m.debug_layout().register_groups and m.trace_depth >= 0


@pytest.mark.parametrize("name", ["cpu fast", "cpu neural"])
def test_ncpu_watchpoints_stop_before_the_access_and_go_on_over_it(name):
    cpu = engines()[name]
    cpu.watchpoints.add(16)  # writes by default, on every engine
    assert list(cpu.watchpoints) == [ncpu_nb.Watchpoint(16, 4, False, True)]
    stops = []
    while (result := cpu.run(check=False)).stop == "watchpoint":
        stops.append((cpu.pc, result.detail, cpu.read_word(16)))
    assert result.halted and stops == [(3, "write of 0x10", 0), (3, "write of 0x10", 1), (3, "write of 0x10", 2)]
    cpu.reset()
    cpu.watchpoints.clear()
    cpu.watchpoints.add(18, 1, read=True, write=False)  # a 4-byte load covering byte 18
    assert cpu.step(10) == 1 and cpu.status == "watchpoint" and cpu.stop_detail == "read of 0x10"
    assert cpu.step(1) == 1 and cpu.pc == 2  # the load runs; a step goes on over the stop
    with pytest.raises(ValueError, match="reads, writes or both"):
        cpu.watchpoints.add(16, read=False, write=False)
    with pytest.raises(IndexError, match="outside data memory"):
        cpu.watchpoints.add(1 << 20)


def test_arm64_watchpoints_default_to_writes_too():
    m = ncpu_nb.Arm64Machine.from_elf(HELLO)
    m.watchpoints.add("main")
    assert list(m.watchpoints) == [ncpu_nb.Watchpoint(m.elf.address_of("main"), 8, False, True)]


def test_the_old_budget_names_warn_and_still_work():
    cpu = ncpu_nb.CPU(COUNTER)
    with pytest.warns(DeprecationWarning, match="max_steps"):
        assert cpu.run(max_cycles=2, check=False).steps == 2
    with pytest.warns(DeprecationWarning, match="steps"):
        assert cpu.run(max_steps=1, check=False).cycles == 1
    with pytest.warns(DeprecationWarning, match="max_steps"):
        assert ncpu_nb.CPU(COUNTER, max_cycles=7).max_steps == 7
    m = ncpu_nb.Arm64Machine.from_elf(HELLO)
    with pytest.warns(DeprecationWarning, match="max_steps"):
        assert m.run(max_instructions=3).steps == 3
    with pytest.raises(TypeError, match="not both"), pytest.warns(DeprecationWarning):
        m.run(3, max_instructions=3)


@pytest.mark.parametrize("old, new", [("ncpu_nb.isa.assembler", "ncpu_nb.ncpu.assembler"),
                                      ("ncpu_nb.cpu", "ncpu_nb.ncpu"), ("ncpu_nb.alu.cells", "ncpu_nb.ncpu.neural_cells"),
                                      ("ncpu_nb.diff.verify", "ncpu_nb.ncpu.exact_check"),
                                      ("ncpu_nb.machine.machine", "ncpu_nb.arm64.machine"),
                                      ("ncpu_nb.widgets.debugger", "ncpu_nb.views.debugger"),
                                      ("ncpu_nb.conformance.busybox", "ncpu_nb.arm64.conformance.busybox_suite")])
def test_old_module_names_give_the_same_module_with_a_warning(old, new):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert importlib.import_module(old) is importlib.import_module(new)
    assert f"{old} is now {new}" in [str(w.message) for w in caught if w.category is DeprecationWarning]


def test_old_class_names_warn():
    with pytest.warns(DeprecationWarning, match="Arm64Machine"):
        assert ncpu_nb.Machine is ncpu_nb.Arm64Machine
    with pytest.warns(DeprecationWarning, match="Snapshot"):
        from ncpu_nb.arm64 import MachineSnapshot
    assert MachineSnapshot is ncpu_nb.Snapshot


# What each engine offers beyond the protocol (ncpu_nb.protocol's capabilities); the tools test these, never a class.
CAPABILITIES = {"cpu fast": {"Batched", "Editable"}, "cpu neural": {"Batched", "Editable"},
                "arm64": {"Symbolic", "Instrumented", "AccessTracing", "Observed", "Hosted"}, "differentiable": {"Batched"}}


@pytest.mark.parametrize("name", sorted(CAPABILITIES))
def test_each_engine_offers_exactly_the_capabilities_it_claims(name):
    m = engines()[name]
    offered = {c for c in ("Batched", "Editable", "Symbolic", "Instrumented", "AccessTracing", "Observed", "Hosted")
               if isinstance(m, getattr(ncpu_nb, c))}
    assert offered == CAPABILITIES[name]


def test_the_instruments_count_a_run_of_the_arm64_machine():
    m = ncpu_nb.Arm64Machine.from_elf(HELLO)
    m.set_coverage(True)
    m.set_profile(100)
    m.trace_depth = 8
    m.run()
    assert sum(m.coverage()) > 0 and isinstance(m.compares(), list)
    counts, samples, entries = m.profile_counts()
    assert sum(n for _, n in counts) == m.instructions and samples and entries
    ring = m.trace_entries()
    assert len(ring) == 8 and [step.pc for step in m.trace] == [entry[0] for entry in ring]
    assert m.instruction_at(ring[-1][0]) == m.trace[-1].instruction
    m.set_profile(0)
    assert m.profile_counts() is None
    with pytest.raises(TypeError, match="period"):
        m.set_profile(1.5)
    with pytest.raises(ValueError, match="period"):
        m.set_profile(2**70)
    with pytest.raises(ValueError, match="pc"):
        m.instruction_at(2**64)
