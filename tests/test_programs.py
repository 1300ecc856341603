"""Every bundled program reaches its recorded final state, in fast mode and in the reference interpreter."""
import pytest

import ncpu_nb
from ncpu_nb import CPU
from ncpu_nb.ncpu.reference_interpreter import run_reference

MANIFEST = ncpu_nb.list_programs()


def test_the_catalogue_is_worth_teaching():
    assert len(MANIFEST) >= 30
    assert sum(e["dialect"] == "classic" for e in MANIFEST.values()) >= 5
    for required in ("fibonacci", "gcd", "factorial", "primes_sieve", "bubble_sort", "binary_search", "popcount",
                     "multiply_by_shifts", "string_length"):
        assert required in MANIFEST


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_program_reaches_expected_state(name):
    entry = MANIFEST[name]
    program = ncpu_nb.load_program(name)
    if entry["dialect"] == "classic":
        classic = {"NOP", "HALT", "MOV", "ADD", "SUB", "MUL", "DIV", "AND", "OR", "XOR", "SHL", "SHR", "INC", "DEC",
                   "CMP", "JMP", "JZ", "JNZ", "JS", "JNS"}
        assert {i.mnemonic for i in program.instructions} <= classic
    cpu = CPU(program)
    cpu.run()
    final = entry["final"]
    assert cpu.halted
    assert cpu.registers == final["registers"]
    assert cpu.flags == final["flags"]
    assert cpu.cycles == final["cycles"]
    for register, value in entry["expect"].get("registers", {}).items():
        assert cpu.registers[register] == value, register
    for region in entry["expect"].get("memory", []):
        if "words" in region:
            got = [cpu.read_word(region["address"] + 4 * i) for i in range(len(region["words"]))]
            assert got == region["words"]
        else:
            assert list(cpu.read_memory(region["address"], len(region["bytes"]))) == region["bytes"]
    ref = run_reference(program)
    assert ref.cycles == final["cycles"] and ref.halted


def test_all_programs_together_as_lanes_match_one_by_one():
    names = sorted(MANIFEST)
    cpu = CPU([ncpu_nb.load_program(n) for n in names], trace_depth=0)
    cpu.run()
    for lane, name in enumerate(names):
        assert cpu.lane_registers(lane) == MANIFEST[name]["final"]["registers"], name
        assert cpu.lane_cycles()[lane] == MANIFEST[name]["final"]["cycles"], name
