"""Random nCPU programs for property tests: every form, random operands, jumps anywhere."""
from hypothesis import strategies as st

from ncpu_nb.ncpu.encoding import RANGES, Instruction
from ncpu_nb.ncpu.table import FORMS, REGISTERS, ZERO_REG

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
