"""Bad arguments to the machine protocol's calls are typed errors that name the argument, the same on
every engine that has the call: nothing is masked, cut, or taken as an endless budget."""
from __future__ import annotations

import math

import pytest

import ncpu_nb
from ncpu_nb.resources import data_dir

HELLO = data_dir("programs") / "arm64" / "c" / "bin" / "hello"
COUNT = "MOV R0, 3\nloop:\n    DEC R0\n    CMP R0, 0\n    JNE loop\n    HALT"


def machines():
    return {"cpu": ncpu_nb.CPU(COUNT), "arm64": ncpu_nb.Arm64Machine.from_elf(HELLO),
            "differentiable": ncpu_nb.DifferentiableEngine(COUNT)}


ENGINES = ["cpu", "arm64", "differentiable"]
REGISTER = {"cpu": ("R0", 32), "arm64": ("x0", 64), "differentiable": ("R0", 32)}


@pytest.mark.parametrize("name", ["cpu", "arm64"])
def test_a_register_value_too_wide_for_the_register_is_refused_not_masked(name):
    m = machines()[name]
    register, bits = REGISTER[name]
    with pytest.raises(ValueError, match=f"{register} holds a {bits}-bit integer"):
        m.set_register(register, 2 ** 200)
    with pytest.raises(ValueError, match=register):
        m.set_register(register, 1 << bits)
    with pytest.raises(ValueError, match=register):
        m.set_register(register, -(1 << (bits - 1)) - 1)
    with pytest.raises(TypeError, match=register):
        m.set_register(register, True)
    m.set_register(register, -1)  # two's complement is still the way to give a negative value
    assert m.registers[register] in (-1, (1 << bits) - 1)
    m.set_register(register, (1 << bits) - 1)


def test_a_soft_register_takes_a_number():
    engine = ncpu_nb.DifferentiableEngine(COUNT)
    for bad in ("5", None, True):
        with pytest.raises(TypeError, match="R0 holds a number"):
            engine.set_register("R0", bad)
    engine.set_register("R0", 7.0)
    assert engine.registers["R0"] == 7


def test_a_per_lane_register_value_too_wide_is_refused_too():
    cpu = ncpu_nb.CPU(COUNT, lanes=2)
    with pytest.raises(ValueError, match="R1 holds a 32-bit integer"):
        cpu.set_registers(R1=[1, 2 ** 40])


@pytest.mark.parametrize("name,bits", [("cpu", 32), ("arm64", 64)])
def test_a_pc_outside_the_code_location_range_is_refused(name, bits):
    m = machines()[name]
    for bad in (1 << bits, 2 ** 64, -1):
        with pytest.raises(ValueError, match="pc is a code location"):
            m.pc = bad
    with pytest.raises(TypeError, match="pc is a code location"):
        m.pc = 1.5


@pytest.mark.parametrize("name", ENGINES)
def test_a_register_named_by_something_other_than_a_string_is_a_type_error(name):
    with pytest.raises(TypeError, match="a register is named by a string"):
        machines()[name].set_register(123, 1)


@pytest.mark.parametrize("name", ENGINES)
def test_restore_takes_a_snapshot(name):
    m = machines()[name]
    for restore in (m.restore, m.restore_keeping_trace):
        with pytest.raises(TypeError, match="restore takes a Snapshot"):
            restore(None)


@pytest.mark.parametrize("name", ENGINES)
def test_negative_or_non_integer_step_counts_are_refused(name):
    m = machines()[name]
    with pytest.raises(ValueError, match="max_steps is a number of steps, zero or more, not -1"):
        m.run(max_steps=-1)
    with pytest.raises(TypeError, match="max_steps is a number of steps"):
        m.run(max_steps=math.nan)
    with pytest.raises(TypeError, match="max_steps is a number of steps"):
        m.run(max_steps=True)
    with pytest.raises(ValueError, match="n is a number of steps, zero or more, not -1"):
        m.step(-1)
    with pytest.raises(TypeError, match="n is a number of steps"):
        m.step(2.5)
    assert m.cycles == 0


@pytest.mark.parametrize("name,old", [("cpu", "max_cycles"), ("arm64", "max_instructions")])
def test_the_old_budget_names_are_checked_under_their_own_name(name, old):
    m = machines()[name]
    with pytest.raises(TypeError, match=f"{old} is a number of steps"):
        m.run(**{old: math.nan})
    with pytest.raises(ValueError, match=f"{old} is a number of steps"):
        m.run(**{old: -5})


def test_constructor_budgets_are_checked():
    with pytest.raises(TypeError, match="max_cycles is a number of steps"):
        ncpu_nb.CPU(COUNT, max_cycles=math.nan)
    with pytest.raises(ValueError, match="max_steps is a number of steps"):
        ncpu_nb.DifferentiableEngine(COUNT, max_steps=-1)
