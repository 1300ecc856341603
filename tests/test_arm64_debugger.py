"""The debugger on the AArch64 Linux machine, through the messages its view sends (no browser): a C
program stopped at `main` by a breakpoint and at a variable by a watchpoint, the SIMD registers on
demand, stepping back; runs that go untraced against a traced run (same state, same trace); and a
run of 10 M BusyBox instructions in the debugger against a plain untraced run."""
from __future__ import annotations

import struct
import time
from pathlib import Path

import ncpu_nb
from test_widgets import Browser, registers_of

FLOAT_MATH = Path(__file__).resolve().parents[1] / "programs" / "arm64" / "c" / "bin" / "float_math"


def test_breakpoint_on_main_watchpoint_simd_registers_and_back():
    machine = ncpu_nb.Arm64Machine.from_elf(FLOAT_MATH)
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


ASH_LOOP = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"  # far more than 10 M instructions


def state_of(machine):
    """Everything a run leaves: clock, registers, status, output, every mapped byte, the trace."""
    memory = [(r, machine.read_memory(r.start, r.end - r.start)) for r in machine.memory_map()]
    return (machine.cycles, machine.registers, machine.status, machine.stdout, machine.stderr, memory,
            list(machine.trace))


def test_a_run_goes_untraced_and_stops_where_a_traced_run_does_with_the_same_trace():
    dbg = ncpu_nb.Arm64Machine.busybox("sh", "-c", ASH_LOOP).debugger()
    machine = dbg.machine
    reference = ncpu_nb.Arm64Machine.busybox("sh", "-c", ASH_LOOP, trace_depth=64)  # the oracle: traced throughout
    dbg.step(5)
    reference.step(5)
    dbg.run(20)  # shorter than the trace: the steps before the run stay in it
    reference.run(20)
    assert state_of(machine) == state_of(reference) and len(machine.trace) == 25

    dbg.run(1_500_000)
    reference.run(1_500_000)
    assert machine.trace_depth == 64 and len(machine.trace) == 64
    assert state_of(machine) == state_of(reference)
    assert [row["cycle"] for row in dbg.machine_state["trace"]] == list(range(machine.cycles - 12, machine.cycles))

    loop = machine.trace[-30].pc  # inside the shell's loop: hit again and again
    machine.breakpoints.add(loop)
    reference.breakpoints.add(loop)
    for _ in range(3):  # each run stops at the next hit, breakpoint resumption included
        dbg.run()
        reference.run(check=False)
        assert machine.status == "breakpoint" and machine.pc == loop
        assert state_of(machine) == state_of(reference)
    machine.breakpoints.clear()
    reference.breakpoints.clear()

    dbg.run(wait=False)  # paused somewhere in the middle of a chunk
    time.sleep(0.2)
    dbg.pause()
    dbg.wait()
    reference.run(machine.cycles - reference.cycles)
    assert state_of(machine) == state_of(reference)

    dbg.step(3)  # steps trace as before
    reference.step(3)
    assert state_of(machine) == state_of(reference)
    dbg.back(10)  # and back re-executes from checkpoints taken while untraced
    assert machine.cycles == reference.cycles - 10 and machine.trace[-1].cycle == machine.cycles - 1
    assert machine.trace[-1] == reference.trace[-11]


def test_a_10m_instruction_busybox_run_in_the_debugger_costs_at_most_twice_a_plain_run():
    n = 10_000_000
    dbg = ncpu_nb.Arm64Machine.busybox("sh", "-c", ASH_LOOP).debugger()
    assert dbg.machine.trace_depth == 64

    def in_debugger():
        dbg.reset()
        dbg.run(n)

    # The same run without a widget has no trace (the debugger's run goes untraced, then rebuilds its last steps)
    runs = {"plain": lambda: ncpu_nb.Arm64Machine.busybox("sh", "-c", ASH_LOOP).run(n), "debugger": in_debugger}
    times = {name: [] for name in runs}
    for _ in range(3):  # the best of three, taken in turns: the machine is shared
        for name, run in runs.items():
            t0 = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - t0)
    plain, debugged = min(times["plain"]), min(times["debugger"])
    print(f"10 M instructions: plain {plain:.3f} s, in the debugger {debugged:.3f} s ({debugged / plain:.2f}x)")
    assert dbg.machine.cycles == n and len(dbg.machine.trace) == 64
    assert debugged <= 2 * plain + 0.05
