"""The text machine's nCPU programs against the DSL's Python reference (differential, fast mode), and
neural mode against fast mode on a found program."""
from __future__ import annotations

import random

import pytest

from ncpu_nb.text import assembly
from ncpu_nb.text.char_classes import CLASSES
from ncpu_nb.text.execute import run_many, text_cpu, result
from ncpu_nb.text.transform_search import enumerable
from ncpu_nb.text.transforms import Pipeline, Transform

# Transforms whose parameters are never enumerated, with values of each kind.
INFERRED_ONLY = [Transform("vigenere", (3, 1, 4)), Transform("vigenere", (0, 25)), Transform("replace", ("vowels", 42)),
                 Transform("replace", ("punctuation", 32)), Transform("replace", ("consonants", 35)),
                 Transform("add", 3), Transform("add", 200), Transform("xor", 32), Transform("copy")]
EVERY_TRANSFORM = enumerable() + INFERRED_ONLY


def random_strings(seed: int, count: int = 24) -> list[bytes]:
    rng = random.Random(seed)
    printable = [bytes(rng.randrange(32, 127) for _ in range(rng.randrange(0, 40))) for _ in range(count)]
    any_byte = [bytes(rng.randrange(1, 256) for _ in range(rng.randrange(0, 40))) for _ in range(count // 2)]
    runs = [bytes(c for c in rng.choices(b"aab zZ9", k=12) for _ in range(rng.randrange(1, 13))) for _ in range(4)]
    return printable + any_byte + runs + [bytes(range(1, 256)), b"a" * 123, b""]


def reference(pipeline: Pipeline, data: bytes) -> bytes:
    return pipeline.apply(data).split(b"\0", 1)[0]  # a NUL byte made by byte arithmetic ends the string in memory


@pytest.mark.parametrize("transform", EVERY_TRANSFORM, ids=str)
def test_every_transform_program_equals_its_reference(transform):
    pipeline = Pipeline((transform,))
    strings = random_strings(hash(str(transform)) & 0xFFFF)
    outputs, _ = run_many(assembly.program(pipeline), strings)
    for data, out in zip(strings, outputs):
        assert out == reference(pipeline, data), (transform, data)


def test_two_stage_programs_equal_their_reference():
    rng = random.Random(7)
    firsts, seconds = EVERY_TRANSFORM, enumerable() + INFERRED_ONLY[:4]
    strings = random_strings(11, 8)
    for _ in range(40):
        pipeline = Pipeline((rng.choice(firsts), rng.choice(seconds)))
        outputs, _ = run_many(assembly.program(pipeline), strings)
        assert outputs == [reference(pipeline, s) for s in strings], pipeline


def test_class_membership_as_compiled_matches_the_byte_sets():
    every_byte = bytes(range(1, 256))
    for name, members in CLASSES.items():
        removed = run_many(assembly.program(Pipeline((Transform("remove", name),))), [every_byte])[0][0]
        assert set(every_byte) - set(removed) == members, name


def test_the_program_loops_over_bytes_in_memory():
    program = assembly.program(Pipeline((Transform("caesar", 3),)))
    mnemonics = [i.text().split()[0] for i in program.instructions]
    assert "LDRB" in mnemonics and "STRB" in mnemonics
    cpu = text_cpu(program, b"hello")
    cpu.run()
    assert result(cpu) == b"khoor" and cpu.registers["R0"] == 5  # R0: the result's length
    assert cpu.cycles > 5 * 10  # a loop: every byte costs instructions


def test_neural_mode_gives_what_fast_mode_gives():
    pipeline = Pipeline((Transform("vigenere", (3, 1)), Transform("reverse")))
    strings = [b"Hi, xyz!", b"Zz"]
    program = assembly.program(pipeline)
    fast, fast_steps = run_many(program, strings, mode="fast")
    neural, neural_steps = run_many(program, strings, mode="neural")
    assert neural == fast == [reference(pipeline, s) for s in strings]
    assert neural_steps == fast_steps
