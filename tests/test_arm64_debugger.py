"""The debugger on the AArch64 Linux machine, through the messages its view sends (no browser): a C
program stopped at `main` by a breakpoint and at a variable by a watchpoint, the SIMD registers on
demand, stepping back; and a run of 10 M BusyBox instructions in the debugger against a plain run."""
from __future__ import annotations

import struct
import time
from pathlib import Path

import ncpu_nb
from test_widgets import Browser, registers_of

FLOAT_MATH = Path(__file__).resolve().parents[1] / "programs" / "arm64" / "c" / "bin" / "float_math"


def test_breakpoint_on_main_watchpoint_simd_registers_and_back():
    machine = ncpu_nb.Machine.from_elf(FLOAT_MATH)
    main = machine.elf.symbols["main"].address
    vd_a = machine.elf.symbols["vd_a"].address
    machine.breakpoints.add("main")
    dbg = machine.debugger()
    ui = Browser(dbg)
    state = ui.act("run")
    assert (state["status"], state["pc"]) == ("breakpoint", f"0x{main:x}")
    assert any(row["label"] == "main" and row["current"] for row in state["listing"])
    general, flags, simd = state["groups"]
    assert (general["bits"], simd["bits"], simd["open"], simd["registers"]) == (64, 128, False, [])
    assert state["trace"][-1]["loc"] == state["pc"] or state["trace"][-1]["cycle"] == state["cycles"] - 1

    machine.watchpoints.add("vd_a", 8, read=True)  # the first load of 0.1
    state = ui.act("run")
    assert state["status"] == "watchpoint" and f"read of 0x{vd_a:x}" in state["message"]
    stopped_at = int(state["pc"], 16)
    assert "ldr d" in dict(machine.disassemble(stopped_at, 1))[stopped_at]  # stopped before the load
    ui.sync(open_groups=["simd"])  # open before the step: highlights compare with what was shown
    state = ui.act("step")
    simd = dbg.machine_state["groups"][2]
    loaded = [int(value, 16) for name, value, changed in simd["registers"] if changed]
    assert struct.pack("<d", 0.1) in [v.to_bytes(16, "little")[:8] for v in loaded]  # the load changed a d reg
    assert registers_of(dbg.machine_state)["v0"] == machine.get_register("v0")

    dbg.refresh()  # as after a cell: nothing changed the machine, so the history stays
    state = ui.act("back", n=1)
    assert state["pc"] == f"0x{stopped_at:x}" and state["cycles"] == machine.cycles
    machine.watchpoints.clear()
    state = ui.act("run")
    assert state["status"] == "exited" and machine.exit_status == 0
    assert "check" in machine.stdout


def test_a_10m_instruction_busybox_run_in_the_debugger_costs_at_most_twice_a_plain_run():
    script = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"  # far more than 10 M instructions
    n = 10_000_000

    def best(run):  # the best of two: the machine is shared
        times = []
        for _ in range(2):
            t0 = time.perf_counter()
            run()
            times.append(time.perf_counter() - t0)
        return min(times)

    # The same machine as the debugger's: tracing the last 64 instructions (the engine's cost, not the view's)
    plain = best(lambda: ncpu_nb.Machine.busybox("sh", "-c", script, trace_depth=64).run(n))
    dbg = ncpu_nb.Machine.busybox("sh", "-c", script).debugger()
    assert dbg.machine.trace_depth == 64

    def in_debugger():
        dbg.reset()
        dbg.run(n)

    debugged = best(in_debugger)
    print(f"10 M instructions: plain {plain:.3f} s, in the debugger {debugged:.3f} s ({debugged / plain:.2f}x)")
    assert dbg.machine.cycles == n
    assert debugged <= 2 * plain + 0.05
