"""The views' kernel side, driven through the same comm messages the browser sends (no browser):
every debugger action, memory pages as binary buffers, breakpoints, the radix, the standalone
views and the static fallbacks. Expected states come from a second machine run by plain code."""
from __future__ import annotations

import re
import time

import pytest

import ncpu_nb
from ncpu_nb.views import Debugger, MemoryView, RegisterView, TraceView
from ncpu_nb.views.wire import PAGE
from unicorn_machine import GENERAL, STACK, STACK_SIZE, UnicornMachine

SPIN = "MOV R1, 1\nloop:\n    ADD R0, R0, R1\n    JMP loop"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def sort_cpu(**options):
    return ncpu_nb.CPU(ncpu_nb.load_program("bubble_sort"), **options)


class Browser:
    """Sends what the browser sends and keeps what the kernel answers."""

    def __init__(self, view):
        self.view, self.replies = view, []
        view.send = lambda content, buffers=None: self.replies.append((content, buffers))
        self.ids = iter(range(1, 1_000_000))

    def message(self, action, **fields):
        self.view._handle_msg({"content": {"data": {"method": "custom", "content": {"action": action, "id": next(self.ids), **fields}}},
                               "buffers": []})

    def act(self, action, **fields):
        """An action, waited for (steps and runs happen on the worker thread)."""
        self.message(action, **fields)
        self.view.wait(10)
        return self.view.machine_state

    def sync(self, **state):  # a trait changed in the browser
        self.view._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}},
                               "buffers": []})

    def page(self, address):
        self.message("memory", address=format(address, "x"))
        content, buffers = self.replies[-1]
        assert content["kind"] == "page", content
        assert len(buffers) == 1 and isinstance(buffers[0], bytes) and len(buffers[0]) == PAGE
        return content, buffers[0]


def registers_of(state):
    return {name: int(value, 16) for group in state["groups"] for name, value, _ in group["registers"]}


def same_machine(state, cpu):
    assert state["cycles"] == cpu.cycles and state["pc"] == str(cpu.pc)
    assert registers_of(state) == {k: v & 0xFFFF_FFFF for k, v in cpu.registers.items()}


def test_step_and_step_n_match_plain_stepping():
    dbg, reference = Debugger(sort_cpu()), sort_cpu()
    ui = Browser(dbg)
    state = ui.act("step", n=1)
    reference.step(1)
    same_machine(state, reference)
    state = ui.act("step", n=1)
    reference.step(1)
    same_machine(state, reference)
    assert [n for n, _, changed in state["groups"][0]["registers"] if changed] == ["R4"]  # MOV R4, 10
    assert state["trace"][-1]["changes"] == [["R4", "0", "a", 32]] and state["trace"][-1]["loc"] == "1"
    assert [r["loc"] for r in state["listing"] if r["current"]] == ["2"]
    state = ui.act("step", n=100)
    reference.step(100)
    same_machine(state, reference)
    assert state["message"] == "100 instructions"
    ui.act("step", n=0)
    assert ui.replies[-1][0]["kind"] == "error" and "cannot step 0" in ui.replies[-1][0]["message"]


def test_back_any_distance_through_thinned_checkpoints():
    dbg = Debugger(sort_cpu(), checkpoints=4)  # few checkpoints: most of history is re-executed
    ui = Browser(dbg)
    for n in (3, 50, 7, 120, 1, 90):
        ui.act("step", n=n)
    assert len(dbg.history) <= 4
    for back, n in ((1, 1), (10, 10), (100, 100), (500, 0)):
        before = dbg.machine.cycles
        state = ui.act("back", n=n if back != 500 else 500)
        reference = sort_cpu()
        reference.step(max(0, before - (500 if back == 500 else n)))
        same_machine(state, reference)
        assert dbg.machine.read_memory(0, 64) == reference.read_memory(0, 64)
    assert state["cycles"] == 0 and "history starts at cycle 0" in state["message"]


def test_run_to_breakpoint_then_to_halt():
    dbg = Debugger(sort_cpu())
    ui = Browser(dbg)
    ui.message("toggle_breakpoint", key=hex(15))
    assert 15 in dbg.machine.breakpoints
    assert [r["bp"] for r in dbg.machine_state["listing"] if r["loc"] == "15"] == [True]
    state = ui.act("run")
    assert (state["status"], state["pc"]) == ("breakpoint", "15")
    assert state["message"].endswith("stopped at a breakpoint")
    state = ui.act("run")  # goes on over the breakpoint, to the next time it is reached
    assert (state["status"], state["pc"]) == ("breakpoint", "15") and state["cycles"] > 15
    ui.message("toggle_breakpoint", key=hex(15))
    assert 15 not in dbg.machine.breakpoints
    state = ui.act("run")
    reference = sort_cpu()
    reference.run()
    same_machine(state, reference)
    assert state["status"] == "halted"
    ui.act("run")
    assert dbg.machine_state["message"] == "the program has halted: step back or reset"


def test_run_leaves_the_kernel_free_updates_at_most_30_per_second_and_pauses():
    dbg = Debugger(ncpu_nb.CPU(SPIN))
    ui = Browser(dbg)
    updates = []
    dbg.observe(lambda change: updates.append(time.perf_counter()), "machine_state")
    t0 = time.perf_counter()
    ui.message("run")
    assert time.perf_counter() - t0 < 2  # the handler returned at once (2 s: a loaded machine is slow) and
    assert dbg.running  # the kernel is idle while it runs
    time.sleep(0.6)
    # While it runs, a memory request is served between chunks.
    ui.message("memory", address="0")
    deadline = time.monotonic() + 5
    while not any(c.get("kind") == "page" for c, _ in ui.replies) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert dbg.running and any(c.get("kind") == "page" for c, _ in ui.replies)
    ui.message("step", n=1)  # ignored while running
    ui.message("back", n=1)
    assert "pause before stepping back" in ui.replies[-1][0]["message"]
    ui.message("pause")
    dbg.wait(5)
    assert not dbg.running
    state = dbg.machine_state
    assert state["message"].endswith("paused") and state["cycles"] > 1000
    assert state["cycles"] == dbg.machine.cycles and registers_of(state)["R0"] == state["cycles"] // 2
    span = [t for t in updates if t - t0 <= 0.6]
    assert 3 <= len(span) <= 0.6 * 30 + 2, len(span)
    assert ui.act("back", n=1)["cycles"] == state["cycles"] - 1


def test_requests_wait_for_a_running_cell_but_pause_does_not():
    dbg = Debugger(ncpu_nb.CPU(SPIN))
    ui = Browser(dbg)
    dbg.run(wait=False)  # as a cell would: `dbg.run()`
    dbg.before_cell()
    ui.message("memory", address="0")
    ui.message("step", n=1)
    assert [c["kind"] for c, _ in ui.replies] == ["deferred", "deferred"]
    ui.message("pause")  # handled at once: the run stops although the cell has not ended
    dbg.wait(5)
    assert not dbg.running and dbg.machine_state["message"].endswith("paused")
    stopped = dbg.machine.cycles
    dbg.after_cell()  # the cell ended: the memory request and the step are handled now
    dbg.wait(5)
    assert ui.replies[-1][0]["kind"] == "page" and dbg.machine.cycles == stopped + 1


def test_a_fault_stops_a_run_and_says_where():
    dbg = Debugger(ncpu_nb.CPU("MOV R1, 70000\nLDR R0, [R1]\nHALT"))
    state = Browser(dbg).act("run")
    assert state["status"] == "fault" and state["message"] == "1 instruction, fault at 1 (LDR R0, [R1])"
    dbg.step()
    assert dbg.machine_state["message"] == "the machine stopped at a fault: step back or reset"
    dbg.back()
    assert (dbg.machine.status, dbg.machine.pc) == ("running", 0)


def test_reset_returns_to_the_start():
    dbg = Debugger(sort_cpu())
    ui = Browser(dbg)
    ui.act("step", n=40)
    state = ui.act("reset")
    same_machine(state, sort_cpu())
    assert state["oldest"] == 0 and state["trace"] == [] and state["message"] == "reset"


def test_memory_pages_are_binary_and_mark_changed_bytes():
    dbg = Debugger(sort_cpu())
    ui = Browser(dbg)
    page, data = ui.page(0)
    assert data == dbg.machine.read_memory(0, PAGE) and page["mapped"] == [[0, PAGE]] and page["changed"] == []
    ui.act("step", n=15)  # the first swap's first store: a[0] = 7
    page, data = ui.page(5)  # any address in the page
    assert page["address"] == "0" and data[:4] == (7).to_bytes(4, "little")
    assert page["changed"] == [0, 1, 2, 3]  # the word the last instruction wrote (only byte 0 differs)
    assert ui.page(0)[0]["changed"] == [0, 1, 2, 3]  # asked again at the same stop: the same answer
    ui.act("step", n=1)  # the second store: a[1] = 42
    assert ui.page(0)[0]["changed"] == [4, 5, 6, 7]
    ui.act("step", n=1)  # MOV R5, 1 stores nothing: nothing differs from the page as last seen
    assert ui.page(0)[0]["changed"] == []
    page, _ = ui.page(0xFFFF)
    assert page["address"] == "ff00" and page["mapped"] == [[0, PAGE]]
    page, data = ui.page(0x10000)  # past the end of data memory
    assert page["mapped"] == [] and data == bytes(PAGE)


def test_radix_and_static_fallback():
    dbg = Debugger(sort_cpu())
    ui = Browser(dbg)
    ui.act("step", n=2)
    data, _ = dbg._repr_mimebundle_()
    assert WIDGET_VIEW in data and "<script" not in data["text/html"]
    assert "0x00010000" in data["text/html"] and "MOV R4, 10" in data["text/html"]
    ui.sync(radix="dec")
    assert dbg.radix == "dec"
    html = dbg._repr_mimebundle_()[0]["text/html"]
    assert "65536" in html and "0x00010000" not in html
    assert "2a 00 00 00" in html  # the memory page shown: the array's first word, 42
    assert dbg.html().data == html  # the same snapshot, to keep a moment in an exported notebook


def test_refresh_follows_code_that_changed_the_machine():
    cpu = sort_cpu()
    dbg = Debugger(cpu)
    cpu.step(7)
    dbg.refresh()
    assert dbg.machine_state["cycles"] == 7 and dbg.history.oldest == 7


def test_only_machines_of_the_protocol():
    with pytest.raises(TypeError, match="does not implement the machine protocol"):
        Debugger(object())


def test_unknown_action_is_reported():
    ui = Browser(Debugger(sort_cpu()))
    ui.message("launch")
    assert ui.replies[-1][0] == {"kind": "error", "message": "launch: unknown action 'launch'",
                                 "detail": ui.replies[-1][0]["detail"], "id": 1}


def test_neural_mode_steps_and_goes_back_like_fast_mode():
    dbg, reference = Debugger(sort_cpu(mode="neural")), sort_cpu()
    ui = Browser(dbg)
    ui.act("step", n=12)
    state = ui.act("back", n=3)
    reference.step(9)
    same_machine(state, reference)


def test_a_64_bit_machine_with_simd_registers_and_a_sparse_address_space():
    machine = UnicornMachine()
    dbg = Debugger(machine)
    ui = Browser(dbg)
    state = ui.act("step", n=5)
    general, simd = state["groups"]
    assert general["bits"] == 64 and dict((n, v) for n, v, _ in general["registers"])["x1"] == "f" * 16
    assert state["pc"] == "0x400014" and not simd["open"] and simd["registers"] == []
    ui.sync(open_groups=["simd"])
    simd = dbg.machine_state["groups"][1]
    assert simd["open"] and simd["registers"][0] == ["v0", "1" + "0" * 15 + "1", True]  # both lanes 1; changed
    assert state["trace"][-2]["store"] == [format(STACK + STACK_SIZE - 8, "x"), 1]
    page, data = ui.page(STACK + STACK_SIZE - 8)
    assert page["address"] == format(STACK + STACK_SIZE - PAGE, "x") and data[-8] == 1
    assert ui.page(STACK + STACK_SIZE)[0]["mapped"] == []  # above the stack: unmapped
    ui.message("toggle_breakpoint", key="0x400010")
    state = ui.act("run")
    assert (state["status"], state["pc"]) == ("breakpoint", "0x400010")
    assert state["listing"][0]["loc"].startswith("0x") and machine.debug_layout().code_unit == 4
    state = ui.act("back", n=4)
    assert state["pc"] == "0x400010" and state["cycles"] == 4  # 8 at the breakpoint: one loop earlier
    ui.sync(radix="dec")
    assert "18446744073709551615" not in dbg.static_html() and ">-1<" in dbg.static_html()


def test_register_view_highlights_changes_between_refreshes():
    cpu = sort_cpu()
    view = RegisterView(cpu)
    assert view.machine_state["pc"] == "0"
    cpu.step(2)
    view.refresh()
    changed = [n for n, _, c in view.machine_state["groups"][0]["registers"] if c]
    assert changed == ["R4"] and "0x0000000a" in view.static_html()
    view.refresh()  # nothing new (a cell that left the machine alone): the highlight stays
    assert [n for n, _, c in view.machine_state["groups"][0]["registers"] if c] == ["R4"]


def test_memory_view_serves_pages_and_follows_the_machine():
    cpu = sort_cpu()
    view = MemoryView(cpu, address=0x20)
    ui = Browser(view)
    page, data = ui.page(0)
    assert data == cpu.read_memory(0, PAGE)
    cpu.run()
    view.refresh()
    page, data = ui.page(0)
    assert data[:4] == (-8).to_bytes(4, "little", signed=True) and 0 in page["changed"]
    assert re.search(r"f8</span> <span class='hl'>ff</span>", view.static_html())  # changed: highlighted
    view.refresh()  # a cell that left the machine alone: the highlights stay
    assert 0 in ui.page(0)[0]["changed"]


def test_trace_view_filters_pages_rows_and_exports():
    cpu = sort_cpu(trace_depth=1000)
    cpu.run()
    view = TraceView(cpu)
    ui = Browser(view)
    assert view.summary["total"] == len(cpu.trace) == cpu.cycles
    ui.sync(text="str")
    stores = [s for s in cpu.trace if s.instruction.startswith("STR")]
    assert view.summary["matching"] == len(stores) and all(s.memory_write for s in stores)
    ui.message("rows", offset=5, limit=3)
    reply = ui.replies[-1][0]
    assert [r["cycle"] for r in reply["rows"]] == [s.cycle for s in stores[5:8]]
    ui.sync(text="", register="R5", stores=False)
    assert all("R5" in s.changes for s in view.filter()) and view.summary["matching"] == len(view.filter())
    frame = view.to_dataframe()
    assert list(frame["cycle"]) == [s.cycle for s in view.filter()]
    assert "R5" in view.static_html()
    assert view.summary["registers"] == list(cpu.registers)  # the machine's order, from its layout
    assert set(TraceView(cpu.trace).summary["registers"]) == {n for s in cpu.trace for n in s.changes}


def test_a_run_in_the_debugger_costs_at_most_twice_a_plain_run():
    n = 10_000_000

    def best(run):  # the best of three: the machine is shared
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            run()
            times.append(time.perf_counter() - t0)
        return min(times)

    plain = best(lambda: ncpu_nb.CPU(SPIN).run(n, check=False))
    dbg = Debugger(ncpu_nb.CPU(SPIN))

    def in_debugger():
        dbg.reset()
        dbg.run(n)

    assert best(in_debugger) <= 2 * plain + 0.05
    assert dbg.machine.cycles == n


def test_highlights_show_what_a_whole_action_changed_though_shown_while_it_ran():
    machine = UnicornMachine()
    dbg = Debugger(machine)
    ui = Browser(dbg)
    ui.act("step", n=2)
    before = dict(machine.registers)
    shown = []
    dbg.observe(lambda change: shown.append(change), "machine_state")
    state = ui.act("step", n=400)  # long enough (stepped in Python) to be shown while it runs
    assert len(shown) >= 2
    changed = {name for name, _, flag in state["groups"][0]["registers"] if flag}
    assert changed == {name for name in GENERAL if machine.registers[name] != before[name]} == {"x0", "sp"}


def test_lanes_step_and_go_back_together():
    cpu = sort_cpu(lanes=3)
    dbg = Debugger(cpu)
    dbg.step(30)
    dbg.back(7)
    reference = sort_cpu()
    reference.step(23)
    assert list(cpu.lane_cycles()) == [23, 23, 23]
    assert all(cpu.lane_registers(lane) == reference.registers for lane in range(3))


def test_the_debugger_says_which_program_and_mode_and_goes_on_from_a_watchpoint():
    cpu = ncpu_nb.CPU("MOV R1, 16\nloop:\n    STR R0, [R1]\n    INC R0\n    JMP loop", mode="neural", lanes=2)
    cpu.watchpoints.add(16)
    dbg = Debugger(cpu)
    ui = Browser(dbg)
    assert dbg.machine_state["title"] == "4 instructions · neural mode · lane 0 of 2"
    state = ui.act("run")
    assert state["status"] == "watchpoint" and "write of 0x10" in state["message"]
    state = ui.act("step", n=1)  # goes on over the store it stopped before
    assert state["cycles"] == 2 and state["status"] == "running"
    assert "Debugger: 4 instructions · neural mode" in dbg.static_html()
