"""Specs beyond registers: sequences, arrays in memory, their validation, and the exact check of memory."""
from __future__ import annotations

import pytest

from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.exact_check import passing
from ncpu_nb.synthesis.spec import ARRAY_BASE, OUTPUT_BASE, SpecError, SynthesisSpec


def test_sequence_next_term_pairs_previous_terms_with_the_next_and_holds_out_the_last():
    spec = SynthesisSpec.from_sequence([1, 1, 2, 3, 5, 8, 13, 21], order=2, held_out=2)
    assert (spec.inputs, spec.outputs) == (["R0", "R1"], ["R2"])
    assert spec.examples[0] == ({"R0": 1, "R1": 1}, {"R2": 2})
    assert spec.examples[-1] == ({"R0": 3, "R1": 5}, {"R2": 8})
    assert spec.held_out == [({"R0": 5, "R1": 8}, {"R2": 13}), ({"R0": 8, "R1": 13}, {"R2": 21})]


def test_sequence_nth_term_maps_the_index_to_the_term():
    spec = SynthesisSpec.from_sequence([0, 1, 4, 9, 16, 25], mode="nth", first_index=0, held_out=1)
    assert spec.examples[3] == ({"R0": 3}, {"R1": 9})
    assert spec.held_out == [({"R0": 5}, {"R1": 25})]


@pytest.mark.parametrize("call, message", [
    (lambda: SynthesisSpec.from_sequence([1, 2]), "give at least"),
    (lambda: SynthesisSpec.from_sequence([1, "2", 3, 4, 5]), "list of integers"),
    (lambda: SynthesisSpec.from_sequence([1, 2, 3, 4, 5], mode="prev"), "neither 'next'"),
    (lambda: SynthesisSpec.from_sequence([1, 2, 3, 4, 5, 6], order=7), "order"),
    (lambda: SynthesisSpec.from_sequence([1, 2, 1 << 40, 4, 5]), r"sequence\[2\]: 1099511627776 is not a 32-bit"),
])
def test_bad_sequences_say_what_is_wrong(call, message):
    with pytest.raises(SpecError, match=message):
        call()


def test_arrays_place_the_array_and_its_length_in_registers():
    spec = SynthesisSpec.from_arrays([([3, 1, 4], 8), ([], 0)], held_out=[([2, 2], 4)])
    assert spec.uses_memory and not spec.output_memory
    assert spec.examples[0] == ({"R0": ARRAY_BASE, "R1": 3, "memory": {ARRAY_BASE: (3, 1, 4)}}, {"R2": 8})
    out = SynthesisSpec.from_arrays([([3, 1], [1, 3])], output="array")
    assert out.output_memory and out.examples[0][1] == {"memory": {OUTPUT_BASE: (1, 3)}}


@pytest.mark.parametrize("memory, message", [
    ({"x": [1]}, "not an integer"),
    ({"2": [1]}, "not a multiple of the width 4"),
    ({"256": [1, "a"]}, "list of integers"),
    ({"65000": [1, 2]}, "pass the end of data memory"),
    ({"256": [1, 2], "260": [5]}, "overlap at address 260"),
    ({}, "maps an address"),
])
def test_bad_memory_in_examples_is_a_spec_error(memory, message):
    data = {"inputs": ["R0"], "outputs": ["R1"], "examples": [[{"R0": 0, "memory": memory}, {"R1": 0}]]}
    with pytest.raises(SpecError, match=message):
        SynthesisSpec.from_dict(data)


def test_byte_width_bounds_values_and_memory_expectations_must_be_consistent():
    with pytest.raises(SpecError, match="does not fit in 1 byte"):
        SynthesisSpec.from_dict({"inputs": ["R0"], "outputs": ["R1"], "memory_width": 1,
                                 "examples": [[{"R0": 0, "memory": {"256": [300]}}, {"R1": 0}]]})
    with pytest.raises(SpecError, match="every example must expect memory, or none"):
        SynthesisSpec.from_dict({"inputs": ["R0"], "outputs": [], "examples": [
            [{"R0": 0}, {"memory": {"256": [1]}}], [{"R0": 0}, {}]]})
    with pytest.raises(SpecError, match="memory_width"):
        SynthesisSpec.from_dict({"inputs": ["R0"], "outputs": ["R1"], "memory_width": 2,
                                 "examples": [[{"R0": 0}, {"R1": 0}]]})
    with pytest.raises(SpecError, match="gradient_seconds"):
        SynthesisSpec.from_dict({"inputs": ["R0"], "outputs": ["R1"], "gradient_seconds": 0,
                                 "examples": [[{"R0": 0}, {"R1": 0}]]})


def test_the_exact_check_reads_memory_outputs_byte_for_byte():
    spec = SynthesisSpec.from_arrays([([3, 1, 4], [4, 1, 3]), ([7, -2], [-2, 7])], output="array", in_place=True)
    reverse = assemble("MOV R2, R0\nSUB R3, R1, 1\nSHL R3, R3, 2\nADD R3, R3, R2\ntop:\nCMP R2, R3\nJGE end\n"
                       "LDR R4, [R2]\nLDR R5, [R3]\nSTR R5, [R2]\nSTR R4, [R3]\nADD R2, R2, 4\nSUB R3, R3, 4\n"
                       "JMP top\nend:\nHALT")
    assert passing(reverse, spec.examples).all()
    assert not passing(assemble("HALT"), spec.examples).any()  # the registers alone do not decide
    bytes_spec = SynthesisSpec.from_arrays([([200, 1], [1, 200])], output="array", in_place=True, width=1)
    swap_bytes = assemble("LDRB R2, [R0]\nLDRB R3, [R0, 1]\nSTRB R3, [R0]\nSTRB R2, [R0, 1]\nHALT")
    assert passing(swap_bytes, bytes_spec.examples, width=1).all()
    assert not passing(swap_bytes, bytes_spec.examples, width=4).all()  # read as words, the bytes differ


def test_strings_are_bytes_in_memory_and_the_synthesizer_reaches_loops_over_them():
    from ncpu_nb.synthesis.synthesizer import Synthesizer

    spec = SynthesisSpec.from_strings([("hi", "ih"), ("abc", "cba")], held_out=[("stressed", "desserts")])
    assert spec.examples[0] == ({"R0": ARRAY_BASE, "R1": 2, "memory": {ARRAY_BASE: (104, 105)}},
                                {"memory": {OUTPUT_BASE: (105, 104, 0)}})
    found = Synthesizer().synthesize(spec)
    assert found.solved and found.held_out == (1, 1) and "LDRB" in found.program.source
    length = SynthesisSpec.from_strings([("hello", 5), ("", 0), ("a b", 3)], held_out=[("longer text", 11)],
                                        output="R2")
    assert Synthesizer().synthesize(length).solved
    for bad, message in ((["just text"], "expected \\(text, result\\)"), ([("a\0b", 1)], "zero byte"),
                         ([("π", 1)], "outside one byte"), ([(3, 1)], "expected text")):
        with pytest.raises(SpecError, match=message):
            SynthesisSpec.from_strings(bad, output="R2")
