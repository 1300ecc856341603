"""Random text and random words: only typed errors, never another exception."""
import random
import string

from hypothesis import given, strategies as st

from ncpu_nb import AssemblyError, DecodeError, assemble
from ncpu_nb.ncpu.encoding import decode, encode

ASM_ALPHABET = string.ascii_letters + string.digits + " \t\n,;:[]+-#'\"._/\\x"


@given(st.text(alphabet=ASM_ALPHABET, max_size=200))
def test_random_text_gives_a_program_or_an_assembly_error(text):
    try:
        assemble(text)
    except AssemblyError as err:
        assert err.diagnostics and all(d.line >= 1 and d.column >= 1 for d in err.diagnostics)


@given(st.text(max_size=200))
def test_random_unicode_gives_a_program_or_an_assembly_error(text):
    try:
        assemble(text)
    except AssemblyError:
        pass


def _mutate(line: str, rng: random.Random) -> str:
    chars = list(line)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(chars) + 1)
        op = rng.randrange(3)
        if op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, rng.choice(ASM_ALPHABET))
        elif chars:
            chars[min(i, len(chars) - 1)] = rng.choice(ASM_ALPHABET)
    return "".join(chars)


def test_mutated_valid_programs_give_typed_errors():
    base = ["MOV R0, 10", "loop:", "ADD R1, R1, R0", "LDR R2, [R1, 4]", "STRB R2, [buf + 1]", "DEC R0",
            "JNZ loop", "CALL f", "HALT", "f: PUSH R1", "POP R1", "RET", ".data", "buf: .word 1, 2", '.asciz "x"']
    rng = random.Random(1234)
    for _ in range(3000):
        lines = [_mutate(l, rng) if rng.random() < 0.3 else l for l in base]
        try:
            assemble("\n".join(lines))
        except AssemblyError:
            pass


@given(st.integers(0, 2**32 - 1), st.lists(st.integers(0, 2**32 - 1), max_size=3, unique=True))
def test_random_words_decode_or_raise_decode_error(word, literals):
    try:
        instr = decode(word, literals)
    except DecodeError:
        return
    pool = {value: index for index, value in enumerate(literals)}  # a pool holds each value once
    assert encode(instr, pool) == word  # decoding is exact: re-encoding gives the same word


def test_non_words_raise_decode_error():
    for bad in (-1, 2**32):
        try:
            decode(bad)
        except DecodeError:
            continue
        raise AssertionError(bad)
