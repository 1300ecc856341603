"""The debugger widget drives each of the three engines — the nCPU, the AArch64 machine and the
differentiable engine — through the same protocol calls: step, back, a breakpoint and run, and a
memory page."""
from __future__ import annotations

from pathlib import Path

import pytest

import ncpu_nb
from test_widgets import Browser, registers_of

HELLO = Path(__file__).resolve().parents[1] / "programs" / "arm64" / "c" / "bin" / "hello"


def ncpu():
    return ncpu_nb.CPU(ncpu_nb.load_program("bubble_sort")), 15


def arm64():
    machine = ncpu_nb.Arm64Machine.from_elf(HELLO)
    return machine, machine.elf.symbols["main"].address


def differentiable():
    return ncpu_nb.DifferentiableEngine("MOV R1, 1\nloop: MUL R1, R1, R0\nDEC R0\nJNZ loop\nHALT",
                                        inputs={"R0": 4.0}), 3


@pytest.mark.parametrize("engine", [ncpu, arm64, differentiable])
def test_the_debugger_drives_every_engine_through_the_protocol(engine):
    machine, breakpoint_at = engine()
    ui = Browser(machine.debugger())
    first = ui.act("step", n=1)
    assert first["cycles"] == 1
    assert ui.act("step", n=2)["cycles"] == 3
    back = ui.act("back", n=2)
    assert (back["cycles"], back["pc"], registers_of(back)) == (1, first["pc"], registers_of(first))

    ui.message("toggle_breakpoint", key=hex(breakpoint_at))
    assert breakpoint_at in machine.breakpoints
    state = ui.act("run")
    assert (state["status"], machine.pc) == ("breakpoint", breakpoint_at)
    assert [row["bp"] for row in state["listing"] if row["current"]] == [True]

    regions = machine.memory_map()
    content, data = ui.page(regions[0][0] if regions else 0)
    assert bool(content["mapped"]) == bool(regions)
    if regions:
        start = int(content["address"], 16) + content["mapped"][0][0]
        assert data[content["mapped"][0][0]:content["mapped"][0][0] + 16] == machine.read_memory(start, 16)
