"""Every tool on every engine, through the protocol and its capabilities only (ncpu_nb.protocol): an engine
gets a tool when it has what the tool needs, and otherwise a TypeError that names what it lacks. The
Unicorn machine (tests/unicorn_machine.py) is an engine the tools' code has never heard of: what it gets,
a new engine gets with no edit to the tools. (The fuzzer builds its own machines from a program, so it
is tested per kind of program, in test_fuzzer*.py.)"""
from __future__ import annotations

import pytest
from unicorn_machine import UnicornMachine

import ncpu_nb
from ncpu_nb import constant_time, diff_runs, origin, profile, sanitize
from ncpu_nb.resources import data_dir

HELLO = data_dir("programs") / "arm64" / "c" / "bin" / "hello"
COUNTER = "MOV R1, 16\nloop:\n    LDR R0, [R1]\n    INC R0\n    STR R0, [R1]\n    CMP R0, 3\n    JL loop\n    HALT"
ENGINES = {
    "cpu fast": lambda: ncpu_nb.CPU(COUNTER),
    "cpu neural": lambda: ncpu_nb.CPU(COUNTER, mode="neural"),
    "arm64": lambda: ncpu_nb.Arm64Machine.from_elf(HELLO),
    "differentiable": lambda: ncpu_nb.DifferentiableEngine("MOV R1, 1\nloop: MUL R1, R1, R0\nDEC R0\nJNZ loop\nHALT",
                                                           inputs={"R0": 4.0}),
    "unicorn": UnicornMachine,
}
# What each engine gets beyond the tools every machine gets (the debugger, run diff, constant time).
ORIGIN = {"cpu fast", "cpu neural", "arm64"}  # an nCPU program's micro-ops, or an AArch64 Linux guest
PROCESS_TOOLS = {"arm64"}  # profile and sanitize: the engine's instruments and an ELF's symbols
REGISTER = {"cpu fast": "R0", "cpu neural": "R0", "arm64": "x0", "differentiable": "R1", "unicorn": "x0"}
INPUT = {**REGISTER, "differentiable": "R0"}  # a register the run reads (the loop's count)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_every_machine_gets_the_run_diff_and_the_constant_time_check(name):
    make = ENGINES[name]
    same = diff_runs(make(), make(), max_steps=40)
    assert same.identical and same.steps_a and len(same.steps_a) == len(same.steps_b)
    edited = make()
    edited.set_register(INPUT[name], 5)
    different = diff_runs(make(), edited, max_steps=40)
    assert not different.identical
    report = constant_time(lambda secret: make(), ["a", "b", "c"], max_steps=40)  # the secret is not used
    assert report.constant and report.leak is None and len(set(report.steps)) == 1


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_origin_slices_where_the_engine_says_what_each_step_read(name):
    machine = ENGINES[name]()
    if name not in ORIGIN:
        with pytest.raises(TypeError, match="origin slices"):
            origin(machine, REGISTER[name], max_steps=40)
        return
    sliced = origin(machine, REGISTER[name], max_steps=200_000)
    assert sliced.target == REGISTER[name] and sliced.value == machine.registers[REGISTER[name]]
    assert sliced.steps or sliced.inputs


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_profiler_and_the_sanitizer_need_instruments_and_a_process(name):
    if name not in PROCESS_TOOLS:
        for tool, missing in ((profile, "Instrumented, Hosted"), (sanitize, "Instrumented, Hosted, AccessTracing")):
            with pytest.raises(TypeError, match=f"{tool.__name__} needs .*capabilities {missing}"):
                tool(ENGINES[name](), max_steps=40)
        return
    profiled = profile(ENGINES[name]())
    assert profiled.total > 0 and profiled.functions()[0].name
    machine = ENGINES[name]()
    assert sanitize(machine).clean and machine.stdout == "Hello, world!\n"
