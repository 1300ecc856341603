"""The debugger's controls beyond step and run, driven as the browser drives them: step over, step out
and run to cursor (checked against plain runs to the same place), the call stack (checked against a
shadow stack kept from the calls and returns actually executed), registers and memory typed in (and
undone by stepping back), watchpoints from the view, the history scrubber (exact: every cycle it lands
on matches a machine stepped there), the lane picker, the nCPU editor, and C source lines."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
import torch

import ncpu_nb
from cpu_load import errors_waiting_while, loaded_cpu
from test_widgets import Browser, registers_of

C = Path(__file__).resolve().parents[1] / "programs" / "arm64" / "c"
PROGRAMS_WITH_CALLS = ["recursive_factorial", "recursive_fibonacci", "gcd", "binary_search", "string_compare",
                       "int_to_string"]


def factorial():
    return ncpu_nb.CPU(ncpu_nb.load_program("recursive_factorial"))


def state_of(machine):
    return machine.cycles, machine.pc, dict(machine.registers), machine.status


def reference_at(make, cycles):
    """A fresh machine stepped to `cycles`: what any exact move in time must land on."""
    machine = make()
    while machine.cycles < cycles and machine.step(cycles - machine.cycles):
        pass
    return machine


# --- step over, step out, run to cursor ------------------------------------------------------------------

def test_step_over_runs_a_call_to_its_return_and_matches_a_plain_run_there():
    cpu = factorial()
    ui = Browser(cpu.debugger())
    ui.act("step", n=1)  # MOV R1, 10; the PC is on CALL fact
    assert cpu.program.instructions[cpu.pc].mnemonic == "CALL"
    state = ui.act("step_over")
    assert cpu.pc == 2 and "stepped over the call" in state["message"]
    reference = factorial()
    reference.breakpoints.add(2)
    reference.run(check=False)
    assert state_of(cpu)[:3] == state_of(reference)[:3] and cpu.registers["R0"] == 3628800
    assert not cpu.breakpoints  # the debugger's own breakpoint is gone


def test_step_over_an_ordinary_instruction_is_one_step_and_a_breakpoint_inside_the_call_stops_it():
    cpu = factorial()
    ui = Browser(cpu.debugger())
    assert ui.act("step_over")["cycles"] == 1
    cpu.breakpoints.add(7)  # the base case's RET, deep inside the recursion
    state = ui.act("step_over")
    assert (cpu.pc, state["status"]) == (7, "breakpoint") and cpu.breakpoints == {7}


def test_step_over_a_recursive_call_waits_for_its_own_return_not_a_deeper_ones():
    cpu = factorial()
    ui = Browser(cpu.debugger())
    cpu.breakpoints.add(9)  # CALL fact inside fact: the return index 10 is also every deeper call's
    ui.act("run")
    ui.act("run")  # the second level of the recursion
    cpu.breakpoints.clear()
    depth = len(cpu.call_stack())
    sp = cpu.registers["SP"]
    ui.act("step_over")
    assert cpu.pc == 10 and cpu.registers["SP"] == sp and len(cpu.call_stack()) == depth


@pytest.mark.parametrize("depth", [1, 3, 8])
def test_step_out_returns_to_the_caller_one_frame_up(depth):
    cpu = factorial()
    ui = Browser(cpu.debugger())
    cpu.breakpoints.add(3)  # fact's entry
    for _ in range(depth):
        ui.act("run")
    cpu.breakpoints.clear()
    before = cpu.call_stack()
    assert len(before) == depth + 1
    state = ui.act("step_out")
    assert cpu.pc == before[0].returns_to and "returned from fact" in state["message"]
    assert len(cpu.call_stack()) == depth and cpu.registers["SP"] == before[0].stack


def test_step_out_of_the_outermost_frame_says_so():
    cpu = factorial()
    ui = Browser(cpu.debugger())
    state = ui.act("step_out")
    assert state["cycles"] == 0 and "outermost" in state["message"]


def test_run_to_cursor_stops_at_the_row_like_a_breakpoint_and_leaves_none_behind():
    cpu = factorial()
    ui = Browser(cpu.debugger())
    state = ui.act("run_to", key=hex(7))
    reference = factorial()
    reference.breakpoints.add(7)
    reference.run(check=False)
    assert state_of(cpu)[:3] == state_of(reference)[:3] and state["message"].endswith("reached 7")
    assert not cpu.breakpoints and not any(row["bp"] for row in state["listing"])


def test_arm64_step_over_a_bl_and_run_to_a_function():
    machine = ncpu_nb.Arm64Machine.from_elf(C / "bin" / "heap_bugs", ["heap_bugs", "clean"])
    dbg = machine.debugger()
    dbg.run_to("main")
    assert machine.pc == machine.elf.symbols["main"].address
    while machine.return_address(machine.pc) is None:
        dbg.step()
    call, sp = machine.pc, machine.registers["sp"]
    dbg.step_over()
    assert machine.pc == call + 4 and machine.registers["sp"] == sp
    assert "stepped over the call" in dbg.machine_state["message"]


# --- the call stack -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", PROGRAMS_WITH_CALLS)
def test_ncpu_call_stack_matches_a_shadow_stack_at_every_step(name):
    cpu = ncpu_nb.CPU(ncpu_nb.load_program(name))
    shadow = []  # return indices of the calls executed and not yet returned from
    for _ in range(5000):
        frames = cpu.call_stack()
        assert [f.returns_to for f in frames[:-1]] == shadow[::-1], (cpu.pc, frames)
        assert frames[-1].returns_to is None and frames[0].location == cpu.pc
        mnemonic = cpu.program.instructions[cpu.pc].mnemonic if cpu.pc < len(cpu.program) else ""
        if cpu.status != "running" or cpu.step() == 0:
            break
        if mnemonic == "CALL":
            shadow.append(frames[0].location + 1)
        elif mnemonic == "RET":
            shadow.pop()
    assert cpu.status == "halted"


def test_arm64_call_stack_matches_a_shadow_stack_in_the_programs_own_code():
    """Through main, clean, make_table (and malloc), sum and free of heap_bugs, built -O0: at every
    instruction of the program's own functions the frame-pointer walk gives the return addresses of the
    calls the machine actually made (a BL pushes the next address, a RET pops)."""
    machine = ncpu_nb.Arm64Machine.from_elf(C / "bin" / "heap_bugs", ["heap_bugs", "clean"])
    machine.breakpoints.add("main")
    machine.run(check=False)
    machine.breakpoints.clear()
    shadow, checked, depths = [], 0, set()
    while machine.status in ("running", "breakpoint"):
        pc = machine.pc
        if machine.source_at(pc) is not None:  # the program's own code (its DWARF line table covers it)
            frames = machine.call_stack()
            assert [f.returns_to for f in frames[:len(shadow)]] == shadow[::-1], hex(pc)
            assert frames[len(shadow)].function == "main", hex(pc)
            checked += 1
            depths.add(len(shadow))
        mnemonic = dict(machine.disassemble(pc, 1))[pc].split(" ", 1)[0]
        machine.step()
        if mnemonic in ("bl", "blr"):
            shadow.append(pc + 4)
        elif mnemonic == "ret":
            if not shadow:
                break  # main returned
            assert machine.pc == shadow.pop()
    assert checked > 200 and depths == {0, 1, 2}


def test_the_debugger_shows_the_stack_with_functions_and_source_lines():
    machine = ncpu_nb.Arm64Machine.from_elf(C / "bin" / "heap_bugs", ["heap_bugs", "clean"])
    ui = Browser(machine.debugger())
    state = ui.act("run_to", key=hex(machine.elf.symbols["sum"].address))
    functions = [f["function"] for f in state["frames"]]
    assert functions[:3] == ["sum", "clean", "main"] and "__libc_start_call_main" in functions
    assert state["frames"][1]["source"].startswith("heap_bugs.c:")
    assert "sum" in ui.view.static_html() and "heap_bugs.c:" in ui.view.static_html()


# --- C source lines ---------------------------------------------------------------------------------------

def test_listing_rows_carry_the_c_line_each_new_line_begins_with():
    from ncpu_nb.arm64.source_lines import SourceLines

    machine = ncpu_nb.Arm64Machine.from_elf(C / "bin" / "heap_bugs", ["heap_bugs", "clean"])
    lines = SourceLines.of(machine.elf)
    text = (C / "heap_bugs.c").read_text().splitlines()
    ui = Browser(machine.debugger())
    state = ui.act("run_to", key=hex(machine.elf.symbols["make_table"].address))
    shown = [(int(row["key"], 16), row["source"]) for row in state["listing"] if row["source"]]
    assert len(shown) >= 3
    for address, (where, line_text) in shown:
        expected = lines.at(address)
        assert where == str(expected) and line_text == text[expected.line - 1].strip()
    assert "int *table = malloc(n * sizeof *table);" in [t for _, (_, t) in shown]


# --- editing registers and memory --------------------------------------------------------------------------

def test_a_typed_register_is_part_of_history_stepping_back_past_it_undoes_it():
    cpu = ncpu_nb.CPU(ncpu_nb.load_program("bubble_sort"))
    ui = Browser(cpu.debugger())
    ui.act("step", n=5)
    before = dict(cpu.registers)
    state = ui.act("set_register", name="R7", value="-3")
    assert cpu.registers["R7"] == -3 and registers_of(state)["R7"] == 0xFFFF_FFFD and state["message"] == "R7 = -3"
    ui.act("step", n=4)
    after = state_of(cpu)
    ui.act("back", n=4)
    assert cpu.registers["R7"] == -3 and cpu.cycles == 5  # back to just after the edit
    ui.act("step", n=4)
    assert state_of(cpu) == after  # re-execution goes the same way
    ui.act("back", n=5)
    ui.act("step", n=1)
    assert cpu.cycles == 5 and cpu.registers == before  # the edit is undone and forgotten


def test_an_edit_is_made_again_when_stepping_back_re_executes_past_it():
    cpu = ncpu_nb.CPU(ncpu_nb.load_program("bubble_sort"))
    ui = Browser(cpu.debugger(checkpoints=2))  # few checkpoints: the one holding the edit is thinned away
    ui.act("step", n=3)
    ui.act("set_register", name="R6", value="0x1234")
    for _ in range(8):
        ui.act("step", n=1)
    assert 3 not in [cycles for cycles, _ in ui.view.history._points]
    ui.act("back", n=4)  # restores cycle 0 and re-executes, making the edit again at cycle 3
    reference = ncpu_nb.CPU(ncpu_nb.load_program("bubble_sort"))
    reference.step(3)
    reference.set_register("R6", 0x1234)
    reference.step(4)
    assert state_of(cpu) == state_of(reference)


def test_typed_memory_bytes_show_changed_and_step_back_restores_them():
    machine = ncpu_nb.Arm64Machine.from_elf(C / "bin" / "hello")
    ui = Browser(machine.debugger())
    ui.act("step", n=3)
    sp = machine.registers["sp"]
    old = machine.read_memory(sp, 4)
    state = ui.act("write_memory", address=format(sp, "x"), bytes="de ad be ef")
    assert machine.read_memory(sp, 4) == bytes.fromhex("deadbeef") and "4 bytes written" in state["message"]
    content, _ = ui.page(sp)
    offset = sp - int(content["address"], 16)
    assert set(range(offset, offset + 4)) <= set(content["changed"])
    ui.act("step", n=1)
    ui.act("back", n=2)
    assert machine.read_memory(sp, 4) == old


def test_bad_typed_values_are_errors_in_the_view_and_change_nothing():
    cpu = factorial()
    ui = Browser(cpu.debugger())
    ui.message("set_register", name="R1", value="ten")
    assert ui.replies[-1][0]["kind"] == "error" and "not a number" in ui.replies[-1][0]["message"]
    ui.message("set_register", name="R1", value="2.5")
    assert ui.replies[-1][0]["kind"] == "error" and "32-bit integer" in ui.replies[-1][0]["message"]
    ui.message("write_memory", address="10", bytes="zz")
    assert ui.replies[-1][0]["kind"] == "error" and "not hex bytes" in ui.replies[-1][0]["message"]
    assert cpu.registers["R1"] == 0 and cpu.read_memory(16, 1) == b"\0"


def test_the_differentiable_engine_takes_typed_values_too():
    engine = ncpu_nb.DifferentiableEngine("MOV R1, 1\nloop: MUL R1, R1, R0\nDEC R0\nJNZ loop\nHALT", inputs={"R0": 4.0})
    ui = Browser(engine.debugger())
    ui.act("set_register", name="R0", value="3")
    ui.act("write_memory", address="14", bytes="07")  # hex, as the view sends addresses
    ui.act("run")
    assert engine.registers["R1"] == 6 and engine.read_memory(20, 1) == b"\x07"


# --- watchpoints from the view -------------------------------------------------------------------------------

def test_a_watchpoint_set_in_the_view_stops_a_run_and_is_removed_there():
    cpu = ncpu_nb.CPU(ncpu_nb.load_program("bubble_sort"))
    ui = Browser(cpu.debugger())
    state = ui.act("watch", where="0", size="4", access="w")
    assert state["watchpoints"] == [["0", 4, "w"]]
    state = ui.act("run")
    assert state["status"] == "watchpoint" and "write" in state["message"]
    state = ui.act("unwatch", address="0", size=4)
    assert state["watchpoints"] == [] and not cpu.watchpoints
    assert ui.act("run")["status"] == "halted"


def test_an_arm64_watchpoint_on_a_symbol():
    machine = ncpu_nb.Arm64Machine.from_elf(C / "bin" / "hello")
    ui = Browser(machine.debugger())
    symbol = machine.elf.symbols["__libc_argv"]  # glibc stores argv there before main
    state = ui.act("watch", where="__libc_argv", size="8", access="w")
    assert state["watchpoints"] == [[format(symbol.address, "x"), 8, "w"]]
    assert ui.act("run")["status"] == "watchpoint"


# --- the scrubber ----------------------------------------------------------------------------------------

def test_the_scrubber_lands_exactly_on_every_cycle_back_and_forward():
    make = lambda: ncpu_nb.CPU(ncpu_nb.load_program("bubble_sort"))  # noqa: E731
    cpu = make()
    ui = Browser(cpu.debugger(checkpoints=4))
    cpu.watchpoints.add(4)  # a watchpoint on the way must not stop the scrubber short
    ui.act("run")
    ui.act("run")
    cpu.watchpoints.clear()
    ui.act("step", n=150)
    furthest = cpu.cycles
    assert ui.view.machine_state["furthest"] == furthest
    for target in (0, 37, furthest, 1, furthest - 1, 99, furthest):
        state = ui.act("goto", cycle=target)
        assert state_of(cpu)[:3] == state_of(reference_at(make, target))[:3], target
        assert state["cycles"] == target and state["furthest"] == furthest
    assert ui.act("goto", cycle=furthest + 1000)["cycles"] == furthest  # no further than recorded


def test_arm64_scrub_back_and_forward():
    make = lambda: ncpu_nb.Arm64Machine.from_elf(C / "bin" / "hello")  # noqa: E731
    machine = make()
    ui = Browser(machine.debugger())
    ui.act("step", n=3000)
    for target in (10, 2999, 1500, 3000):
        ui.act("goto", cycle=target)
        assert machine.registers == reference_at(make, target).registers


# --- lanes ----------------------------------------------------------------------------------------------

FACTORIAL_OF_R1 = "MOV R0, 1\nloop: MUL R0, R0, R1\nDEC R1\nJNZ loop\nHALT"


def test_the_lane_picker_shows_each_lane_and_keeps_history_while_lanes_run_alike():
    cpu = ncpu_nb.CPU(FACTORIAL_OF_R1, lanes=4, registers={"R1": [3, 4, 5, 6]})
    ui = Browser(cpu.debugger())
    ui.act("step", n=5)
    state = ui.act("lane", lane=2)
    assert (state["lane"], state["lanes"], state["title"].endswith("lane 2 of 4")) == (2, 4, True)
    assert registers_of(state) == {k: v & 0xFFFF_FFFF for k, v in cpu.lane_registers(2).items()}
    assert ui.act("back", n=2)["cycles"] == 3  # lanes in step: the history still holds
    ui.act("run")
    assert cpu.registers["R0"] == 120 and ui.view.machine_state["lane_states"] == "4 halted"
    state = ui.act("lane", lane=3)  # lane 3 ran 3 instructions longer: history starts afresh
    assert cpu.registers["R0"] == 720 and state["oldest"] == state["cycles"] == cpu.cycles
    ui.message("lane", lane=4)
    assert ui.replies[-1][0]["kind"] == "error" and "no lane 4" in ui.replies[-1][0]["message"]


def test_a_run_goes_on_until_every_lane_stops_not_just_the_shown_one():
    """Lane 0 halts after 5 steps, the others run 3,000: the run's first chunks are a few steps each,
    so it must not end when lane 0 halts (it did, leaving '3 running, 1 halted' and a run refused)."""
    cpu = ncpu_nb.CPU(FACTORIAL_OF_R1, lanes=4, registers={"R1": [1, 1000, 1000, 1000]})
    ui = Browser(cpu.debugger())
    state = ui.act("run")
    assert (state["status"], state["lane_states"]) == ("halted", "4 halted")
    assert cpu.lane_counts()["halted"] == 4 and cpu.lane_registers(3)["R1"] == 0


def test_stepping_lanes_on_after_the_shown_lane_halted():
    cpu = ncpu_nb.CPU(FACTORIAL_OF_R1, lanes=2, registers={"R1": [1, 3]})
    ui = Browser(cpu.debugger())
    assert ui.act("step", n=5)["lane_states"] == "1 running, 1 halted"
    assert ui.act("step", n=1)["lane_states"] == "1 running, 1 halted"  # lane 1 took one more step
    assert ui.act("run")["lane_states"] == "2 halted" and cpu.lane_registers(1)["R0"] == 6


def test_batched_runs_end_with_every_lane_halted_under_load():
    with loaded_cpu():
        for _ in range(200):
            cpu = ncpu_nb.CPU(FACTORIAL_OF_R1, lanes=4, registers={"R1": [3, 4, 5, 6]})
            dbg = cpu.debugger()
            dbg.run()
            assert dbg.machine_state["lane_states"] == "4 halted"


def test_typed_memory_goes_to_the_shown_lane_only():
    cpu = ncpu_nb.CPU(ncpu_nb.load_program("bubble_sort"), lanes=3)
    ui = Browser(cpu.debugger())
    ui.act("lane", lane=1)
    ui.act("write_memory", address="0", bytes="ff")
    assert [cpu.read_memory(0, 1, lane=k) for k in range(3)] == [cpu.read_memory(0, 1, lane=0), b"\xff",
                                                                  cpu.read_memory(0, 1, lane=2)]
    assert cpu.read_memory(0, 1, lane=0) != b"\xff"


def test_the_lane_picker_shows_each_lane_of_the_differentiable_engine():
    """The differentiable engine is batched too: each lane's registers, gradients and memory, as a
    one-lane engine (or the CPU) on that lane's input has them."""
    engine = ncpu_nb.DifferentiableEngine(FACTORIAL_OF_R1, inputs={"R1": torch.tensor([3.0, 4.0, 5.0, 6.0],
                                                                                   requires_grad=True)})
    assert isinstance(engine, ncpu_nb.Batched) and engine.lanes == 4
    ui = Browser(engine.debugger())
    ui.act("step", n=5)
    state = ui.act("lane", lane=2)
    assert (state["lane"], state["lanes"], state["title"].endswith("lane 2 of 4")) == (2, 4, True)
    cpu = ncpu_nb.CPU(FACTORIAL_OF_R1, registers={"R1": 5})
    cpu.step(5)
    assert registers_of(state) == {k: v & 0xFFFF_FFFF for k, v in cpu.registers.items()}
    state = ui.act("run")
    assert engine.registers["R0"] == 120 and state["lane_states"] == "4 halted" and engine.trace[-1].lane == 2
    alone = ncpu_nb.DifferentiableEngine(FACTORIAL_OF_R1, inputs={"R1": torch.tensor(5.0, requires_grad=True)})
    alone.run()
    assert engine.gradients()["R0"]["R1"] == alone.gradients()["R0"]["R1"] != 0
    ui.act("write_memory", address="0", bytes="ff")
    assert [engine.read_memory(0, 1, lane=k) for k in range(4)] == [b"\0", b"\0", b"\xff", b"\0"]
    ui.act("set_register", name="R2", value="7")
    ui.message("lane", lane=4)
    assert ui.replies[-1][0]["kind"] == "error" and "no lane 4" in ui.replies[-1][0]["message"]
    typed = []
    for k in range(4):
        assert ui.act("lane", lane=k)["lane"] == k
        typed.append(engine.registers["R2"])
    assert typed == [0, 0, 7, 0]


# --- the nCPU editor ----------------------------------------------------------------------------------------

def test_the_editor_reassembles_in_place_and_breakpoints_follow_their_lines():
    cpu = factorial()
    ui = Browser(cpu.debugger())
    source = ui.view.machine_state["editor"]["source"]
    assert source == cpu.program.source
    ret = source.splitlines().index("    MUL R0, R0, R1          ; n! = n * (n - 1)!") + 1
    cpu.breakpoints.add(cpu.program.lines.index(ret))
    edited = source.replace("    MOV R1, 10\n", "    MOV R1, 5\n    NOP\n")
    state = ui.act("assemble", source=edited)
    assert "1 breakpoint kept" in state["message"] and state["editor"]["error"] is None
    assert [cpu.program.lines[i] for i in cpu.breakpoints] == [ret + 1]  # moved down with its line
    ui.act("run")
    assert cpu.pc in cpu.breakpoints and cpu.program.instructions[cpu.pc].mnemonic == "MUL"
    cpu.breakpoints.clear()
    ui.act("run")
    assert cpu.registers["R0"] == 120


def test_the_editor_reports_where_the_source_is_wrong_and_keeps_the_program():
    cpu = factorial()
    ui = Browser(cpu.debugger())
    program = cpu.program
    state = ui.act("assemble", source=program.source.replace("CALL fact\n", "CALL nowhere\n", 1))
    error = state["editor"]["error"]
    line = program.source.splitlines().index("    CALL nowhere".replace("nowhere", "fact")) + 1
    assert (error["line"], error["column"]) == (line, 10) and "nowhere" in state["message"]
    assert cpu.program is program
    assert ui.view.machine_state["editor"]["source"] == program.source


def test_machines_without_an_editor_have_none():
    machine = ncpu_nb.Arm64Machine.from_elf(C / "bin" / "hello")
    assert Browser(machine.debugger()).view.machine_state["editor"] is None


def test_wait_never_joins_a_worker_that_is_not_started_yet():
    """The debugger's worker is published only once started, as the terminal's: a cell waiting on one
    thread while steps start workers on another never joins an unstarted thread."""
    dbg = ncpu_nb.CPU("loop: INC R0\nJMP loop").debugger()

    def stepper():
        for _ in range(300):
            dbg.step()

    errors = errors_waiting_while(stepper, lambda: dbg.wait(10))
    assert errors == [] and dbg.machine.cycles == 300
