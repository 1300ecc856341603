"""`TextMachine`, the session every face drives: examples, errors that say what is wrong, apply in
both modes, saving the program, the debugger with the string in memory."""
from __future__ import annotations

import pytest

from ncpu_nb.ncpu import CPU
from ncpu_nb.text.execute import TextInputError, result
from ncpu_nb.text.memory_layout import INPUT
from ncpu_nb.text.text_machine import PRESETS, TextMachine


def test_the_transcript_hello_khoor_world_zruog():
    machine = TextMachine([("hello", "khoor")])
    summary = machine.synthesize()
    assert summary.solved and machine.apply("world") == "zruog"
    assert summary.size == len(summary.program) and summary.cycles_per_char > 5


def test_neural_switch_gives_the_same_text():
    machine = TextMachine([("hello", "khoor")])
    machine.synthesize()
    machine.mode = "neural"
    assert machine.apply("Hi xyz") == machine.apply("Hi xyz", mode="fast") == "Kl abc"


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_is_solved(name):
    machine = TextMachine()
    machine.load_preset(name)
    assert machine.synthesize().solved


def test_bad_input_says_what_is_wrong():
    machine = TextMachine()
    with pytest.raises(TextInputError, match="example input 'snow☃'"):
        machine.add("snow☃", "x")
    with pytest.raises(TextInputError, match="NUL"):
        machine.add("a\0b", "x")
    with pytest.raises(TextInputError, match="at most 2047"):
        machine.add("a" * 5000, "b")
    machine.add("ab", "bc")
    with pytest.raises(TextInputError, match="already maps to a different output"):
        machine.add("ab", "cd")
    with pytest.raises(RuntimeError, match="nothing synthesized yet"):
        machine.apply("x")
    with pytest.raises(ValueError, match="unknown mode 'slow'"):
        machine.mode = "slow"
    with pytest.raises(KeyError, match="no preset"):
        machine.load_preset("enigma")


def test_an_unsolved_machine_refuses_to_apply():
    machine = TextMachine([("abc", "cab"), ("hello", "ohell")])  # a rotation: not in the DSL
    assert not machine.synthesize().solved
    with pytest.raises(RuntimeError, match="no program"):
        machine.apply("x")


def test_adding_an_example_forgets_the_old_program():
    machine = TextMachine([("hello", "hello")])
    machine.synthesize()
    machine.add("abc", "ABC")
    assert machine.result is None


def test_saved_program_runs_on_a_plain_cpu(tmp_path):
    machine = TextMachine([("stressed", "desserts")])
    machine.synthesize()
    path = machine.save(tmp_path / "reverse.asm")
    cpu = CPU(path.read_text(), memory_size=0x10000)
    cpu.write_memory(INPUT, b"drawer\0")
    cpu.run()
    assert result(cpu) == b"reward"


def test_debugger_opens_with_the_string_in_memory():
    pytest.importorskip("anywidget")
    machine = TextMachine([("hello", "khoor")])
    machine.synthesize()
    dbg = machine.debugger("world")
    assert dbg.machine.read_memory(INPUT, 6) == b"world\0"
    assert int(dbg.memory_address, 16) == INPUT
    dbg.run()
    assert dbg.machine.halted and result(dbg.machine) == b"zruog"
