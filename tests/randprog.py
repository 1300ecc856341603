"""Random nCPU programs for property tests: every form, random operands, jumps anywhere."""
import numpy as np
from hypothesis import strategies as st

from ncpu_nb.ncpu.encoding import RANGES, Instruction
from ncpu_nb.ncpu.table import FLOAT_OPS, FORMS, REGISTERS, ZERO_REG

INTEGER_FORMS = tuple(f for f in FORMS if f.sem.alu not in FLOAT_OPS)

EDGE = [0, 1, -1, 2, 31, 32, 33, -32, 0x7FFFFFFF, -0x80000000, 0xFFFF, 0x8000, 255, 256, 4, -4]


def values(kind: str, length: int, memory_size: int):
    if kind == "reg":
        return st.integers(0, len(REGISTERS) - 1)
    if kind == "target":
        return st.integers(0, length)
    if kind == "mem":
        base = st.sampled_from(list(range(len(REGISTERS))) + [ZERO_REG])
        offsets = [v for v in EDGE if -(1 << 15) <= v < (1 << 15)]
        return st.tuples(base, st.one_of(st.integers(-8, memory_size + 8), st.sampled_from(offsets)))
    low, high = RANGES[kind]
    return st.one_of(st.integers(low, high), st.sampled_from([v for v in EDGE if low <= v <= high]))


@st.composite
def instruction(draw, length: int, memory_size: int):
    form = draw(st.sampled_from(FORMS))
    return Instruction(form, tuple(draw(values(kind, length, memory_size)) for _, kind, _ in form.operands))


@st.composite
def program_text(draw, memory_size: int = 256, max_length: int = 24):
    length = draw(st.integers(1, max_length))
    instrs = [draw(instruction(length, memory_size)) for _ in range(length)]
    return "\n".join(i.text() for i in instrs)


def register_values():
    return st.fixed_dictionaries({r: st.one_of(st.integers(-(1 << 31), (1 << 32) - 1), st.sampled_from(EDGE))
                                  for r in REGISTERS[:8]})


# The same programs drawn with a seeded numpy generator: for differential runs of thousands of programs
# at once (many lanes in one machine), where hypothesis would draw and shrink one example at a time.
def _random_value(rng, kind: str, length: int, memory_size: int):
    if kind == "reg":
        return int(rng.integers(0, len(REGISTERS)))
    if kind == "target":
        return int(rng.integers(0, length + 1))
    if kind == "mem":
        base = int(rng.choice(list(range(len(REGISTERS))) + [ZERO_REG]))
        offsets = [v for v in EDGE if -(1 << 15) <= v < (1 << 15)]
        offset = int(rng.integers(-8, memory_size + 9)) if rng.random() < 0.5 else int(rng.choice(offsets))
        return base, offset
    low, high = RANGES[kind]
    edges = [v for v in EDGE if low <= v <= high]
    return int(rng.integers(low, high + 1)) if rng.random() < 0.5 else int(rng.choice(edges))


def random_program_text(rng, memory_size: int = 256, max_length: int = 24, forms=FORMS) -> str:
    """One program as `program_text` draws them: every form (or those of `forms`), random operands,
    jumps anywhere."""
    length = int(rng.integers(1, max_length + 1))
    instrs = []
    for _ in range(length):
        form = forms[int(rng.integers(0, len(forms)))]
        instrs.append(Instruction(form, tuple(_random_value(rng, kind, length, memory_size)
                                              for _, kind, _ in form.operands)))
    return "\n".join(i.text() for i in instrs)


def random_register_values(rng, n: int) -> dict:
    """R0-R7 for `n` lanes: per register a list of n values, half of them edge cases."""
    out = {}
    for r in REGISTERS[:8]:
        wide = rng.integers(-(1 << 31), 1 << 32, n)
        edges = rng.choice(EDGE, n)
        out[r] = [int(v) for v in np.where(rng.random(n) < 0.5, wide, edges)]
    return out
