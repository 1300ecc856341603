"""The differentiable engine as a machine of the protocol, and its debugger: stepping, going back
and breakpoints through the messages the view sends (no browser), against a second engine driven
by plain code; values with gradients (against a hand derivation and finite differences); the soft
PC distribution; a SoftProgram's choices, and one trained by gradient descent, checked on the CPU."""
from __future__ import annotations

import pytest
import torch

import ncpu_nb
from ncpu_nb.differentiable.engine import DifferentiableEngine, SoftRun
from ncpu_nb.differentiable.soft_program import CHOICES, SoftProgram
from test_widgets import Browser, registers_of

FACTORIAL = "MOV R1, 1\nloop: MUL R1, R1, R0\nDEC R0\nJNZ loop\nHALT"
# With soft branches, a branch on a non-integer value splits the PC between both paths.
BRANCH = "CMP R0, 0\nJZ zero\nMOV R1, 10\nHALT\nzero: MOV R1, 20\nHALT"


def factorial(n=5.0, **options):
    return DifferentiableEngine(FACTORIAL, inputs={"R0": n}, **options)


def same_engine(state, engine):
    assert (state["cycles"], state["pc"], state["status"]) == (engine.cycles, str(engine.pc), engine.status)
    assert registers_of(state) == {k: v & 0xFFFF_FFFF for k, v in engine.registers.items()}


def panel(state, title):
    return next(p for p in state["panels"] if p["title"] == title)


def test_the_engine_is_a_machine_of_the_protocol():
    assert isinstance(factorial(), ncpu_nb.MachineProtocol)
    assert isinstance(DifferentiableEngine(SoftProgram(2)), ncpu_nb.MachineProtocol)
    engine = factorial()
    assert engine.memory_map() == [(0, 65536, "rw-")] and engine.read_memory(0, 4) == bytes(4)
    with pytest.raises(IndexError, match="outside data memory"):
        engine.watchpoints.add(65536)
    with pytest.raises(IndexError, match="outside data memory"):
        engine.read_memory(65534, 4)
    with pytest.raises(KeyError, match="R9"):
        engine.reset({"R9": 1})


def test_step_back_and_breakpoints_through_the_debugger():
    engine, reference = factorial(), factorial()
    ui = Browser(engine.debugger())
    state = ui.act("step", n=1)
    reference.step(1)
    same_engine(state, reference)
    assert state["trace"][-1]["changes"] == [["R1", "0", "1", 32]]
    state = ui.act("step", n=6)
    reference.step(6)
    same_engine(state, reference)
    state = ui.act("back", n=4)
    reference.reset()
    reference.step(3)
    same_engine(state, reference)
    assert [r["loc"] for r in state["listing"] if r["current"]] == ["3"]

    ui.message("toggle_breakpoint", key=hex(3))  # JNZ loop
    state = ui.act("run")  # starts on it: goes over it, to the next time round
    assert (state["status"], state["pc"], state["cycles"]) == ("breakpoint", "3", 6)
    ui.message("toggle_breakpoint", key=hex(3))
    state = ui.act("run")
    reference.run()
    same_engine(state, reference)
    assert state["status"] == "halted" and engine.registers["R1"] == 120 and state["pc"] == "5"
    assert [r["text"] for r in state["listing"] if r["current"]] == ["(halted)"]
    ui.act("run")
    assert ui.view.machine_state["message"] == "the program has halted: step back or reset"
    state = ui.act("reset")
    assert (state["cycles"], state["pc"], registers_of(state)["R0"]) == (0, "0", 5)


def test_memory_pages_show_what_the_program_stored():
    engine = DifferentiableEngine("MOV R0, 258\nSTR R0, [16]\nPUSH R0\nHALT")
    ui = Browser(engine.debugger())
    ui.act("run")
    content, data = ui.page(0)
    assert content["mapped"] and data[16:20] == bytes([2, 1, 0, 0]) == engine.read_memory(16, 4)


def test_gradient_of_a_product_by_hand_and_in_the_view():
    engine = DifferentiableEngine("MOV R1, 3\nMUL R2, R0, R1\nHALT", inputs={"R0": 5.0})
    assert engine.inputs["R0"].requires_grad and engine.inputs["R0"].is_leaf
    ui = Browser(engine.debugger())
    state = ui.act("run")
    assert engine.gradients()["R2"] == {"R0": 3.0} and engine.gradients()["R1"] == {"R0": 0.0}
    rows = {row[0]: row[1:] for row in panel(state, "Values and gradients")["rows"]}
    assert panel(state, "Values and gradients")["columns"] == ["register", "value", "∂/∂R0₀"]
    assert rows["R2"] == ["15", "3"] and rows["R0"] == ["5", "1"] and rows["R1"] == ["3", "0"]
    assert "Values and gradients" in ui.view.static_html()


def test_gradients_match_finite_differences():
    program = "MUL R2, R0, R1\nADD R3, R2, R0\nMUL R4, R3, R3\nHALT"

    def final(r0, r1):
        engine = DifferentiableEngine(program, inputs={"R0": r0, "R1": r1})
        engine.run()
        return engine

    r0, r1, h = 1.5, -2.25, 1e-6
    grads = final(r0, r1).gradients()
    for register in ("R2", "R3", "R4"):
        d0 = (final(r0 + h, r1).values()[register] - final(r0 - h, r1).values()[register]) / (2 * h)
        d1 = (final(r0, r1 + h).values()[register] - final(r0, r1 - h).values()[register]) / (2 * h)
        assert grads[register] == pytest.approx({"R0": d0, "R1": d1}, rel=1e-6, abs=1e-6)


def test_the_pc_distribution_spreads_on_a_soft_branch_and_sums_to_one():
    engine = DifferentiableEngine(BRANCH, inputs={"R0": 0.3}, soft_branches=True)
    ui = Browser(engine.debugger())
    for _ in range(3):
        state = ui.act("step")
        weights = [r["weight"] for r in state["listing"]]
        assert len(weights) == 7 and sum(weights) == pytest.approx(1.0, abs=1e-12)
        assert sum(engine.pc_distribution()) == pytest.approx(1.0, abs=1e-12)
    jumped = torch.sigmoid(torch.tensor(0.2, dtype=torch.float64)).item()  # ZF's surrogate at |R0| = 0.3
    assert {r["loc"]: r["weight"] for r in state["listing"] if r["weight"] > 0} == pytest.approx(
        {"3": 1 - jumped, "5": jumped})
    state = ui.act("run")
    assert state["status"] == "halted" and engine.pc_distribution()[-1] == pytest.approx(1.0)
    assert engine.values()["R1"] == pytest.approx(10 + 10 * jumped)
    assert engine.gradients()["R1"]["R0"] < 0  # a larger R0 is less likely zero: less of the 20 path
    exact = DifferentiableEngine(BRANCH, inputs={"R0": 0.3})
    exact.run()
    assert exact.values()["R1"] == 20.0  # without soft branches the forward pass is the CPU's


def test_soft_program_slot_probabilities_match_the_softmax():
    soft = SoftProgram(2, seed=3, scale=1.0)
    state = Browser(DifferentiableEngine(soft).debugger()).view.machine_state
    rows = panel(state, "Slot choices")["rows"]
    assert len(rows) == 2 * len(CHOICES)
    for slot, field, *cells in rows:
        p = torch.softmax(soft.logits[field][int(slot)].detach(), 0)
        top = torch.sort(p, descending=True).values[:3].tolist()
        assert [c["bar"] for c in cells] == pytest.approx(top)
    text, probability = soft.most_likely(0)
    assert dict(DifferentiableEngine(soft).disassemble(0, 3))[0] == f"{text}    p={probability:.2f}"


def test_a_trained_soft_program_adds_on_the_exact_cpu():
    examples = [(3, 5), (-2, 7), (10, 4), (6, -9), (1, 1), (-4, -3)]
    r0 = torch.tensor([float(a) for a, _ in examples], dtype=torch.float64)
    r1 = torch.tensor([float(b) for _, b in examples], dtype=torch.float64)
    soft = SoftProgram(1, seed=0)
    engine = DifferentiableEngine(soft, trace_depth=0)
    optimizer = torch.optim.Adam(soft.parameters(), lr=0.1)
    for _ in range(150):
        run = engine.run(inputs={"R0": r0, "R1": r1})
        loss = ((run["R2"] - (r0 + r1)) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert soft.argmax_source() == "ADD R2, R0, R1\nHALT"
    for a, b in examples + [(1000, -37)]:
        cpu = ncpu_nb.CPU(soft.argmax_source(), registers={"R0": a, "R1": b})
        cpu.run()
        assert cpu.registers["R2"] == a + b


def test_run_results_and_the_old_call():
    engine = factorial(max_steps=5)
    with pytest.raises(ncpu_nb.CycleBudgetExceeded):
        engine.run()
    run = engine.run(20, check=False)  # goes on from where the budget stopped it: 17 steps in all
    assert isinstance(run, SoftRun) and isinstance(run, ncpu_nb.RunResult)
    assert (run.stop, run.halted, run.pc, run.steps, engine.cycles) == ("halted", True, 5, 17 - 5, 17)
    assert run.halt_probability.tolist() == [1.0] and run.pc_distribution.shape == (1, 6)
    with pytest.warns(DeprecationWarning, match="inputs="):
        old = factorial().run({"R0": 3.0})
    assert old["R1"].item() == 6.0 and old.stop == "halted"
