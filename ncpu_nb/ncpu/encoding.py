"""32-bit words <-> decoded instructions <-> micro-ops, all read off `table.FORMS`."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ncpu_nb.errors import DecodeError
from ncpu_nb.ncpu.float_format import BINARY32
from ncpu_nb.ncpu.table import (
    ALU_NAMES, BY_OPCODE, CONDITION_NAMES, FIELDS, KINDS, MASK, REGISTERS, ZERO_REG, Form, flags_written,
)

RANGES = {"imm16": (-(1 << 15), (1 << 15) - 1), "imm20": (-(1 << 19), (1 << 19) - 1),
          "lit": (-(1 << 31), MASK), "float": (0, MASK), "target": (0, (1 << 24) - 1)}


@dataclass(frozen=True)
class Instruction:
    """A decoded instruction: its form and operand values in table order.

    reg -> register index; imm16/imm20/lit -> int; float -> its binary32 bits; target -> instruction index;
    mem -> (base register index or ZERO_REG, signed offset).
    """

    form: Form
    values: tuple

    @property
    def mnemonic(self) -> str:
        return self.form.mnemonic

    def __repr__(self) -> str:
        return f"<Instruction {self.text()}>"

    def operand(self, name: str):
        for (n, _, _), v in zip(self.form.operands, self.values):
            if n == name:
                return v
        raise KeyError(name)

    def text(self, labels: dict[int, str] | None = None) -> str:
        """Canonical assembly text; jump targets use `labels` (index -> name) when given."""
        parts = [_operand_text(t, v, labels) for (_, t, _), v in zip(self.form.operands, self.values)]
        return f"{self.mnemonic} {', '.join(parts)}".strip()


def _operand_text(kind: str, value, labels) -> str:
    if kind == "reg":
        return REGISTERS[value]
    if kind == "target":
        return (labels or {}).get(value, str(value))
    if kind == "mem":
        base, offset = value
        if base == ZERO_REG:
            return f"[{offset}]"
        return f"[{REGISTERS[base]}]" if offset == 0 else f"[{REGISTERS[base]}, {offset}]"
    if kind == "lit":
        return f"0x{value & MASK:X}" if value & MASK > 0xFFFF else str(value)
    if kind == "float":
        return float_text(value)
    return str(value)


def float_text(bits: int) -> str:
    """The shortest decimal that reads back as these binary32 bits (canonical NaN: "nan")."""
    if BINARY32.is_nan(bits):
        return "nan"
    value = BINARY32.to_float(bits)
    if value in (float("inf"), float("-inf")):
        return str(value)
    for digits in range(1, 10):  # nine significant digits always suffice for binary32
        text = f"{value:.{digits}g}"
        if BINARY32.round(Fraction(text), negative_zero=text.startswith("-")) == bits:
            return text if any(c in text for c in ".en") else text + ".0"
    raise AssertionError(bits)


def _put(word: int, field: str, value: int) -> int:
    shift, width = FIELDS[field]
    return word | ((value & ((1 << width) - 1)) << shift)


def _get(word: int, field: str, signed: bool = False) -> int:
    shift, width = FIELDS[field]
    v = (word >> shift) & ((1 << width) - 1)
    return v - (1 << width) if signed and v >> (width - 1) else v


def encode(instr: Instruction, literals: dict[int, int]) -> int:
    """The instruction's 32-bit word. `literals` maps each value in the literal pool to its index
    there (a dict, so a big program finds its literals in constant time); new values join at the end."""
    word = instr.form.opcode << 24
    for (_, kind, field), value in zip(instr.form.operands, instr.values):
        if kind == "mem":
            base, offset = value
            word = _put(_put(word, field, base), "imm16", offset)
        elif kind in ("lit", "float"):
            word = _put(word, field, literals.setdefault(value & MASK, len(literals)))
        else:
            word = _put(word, field, value)
    return word


def _used_bits(form: Form) -> int:
    bits = 0xFF << 24
    for _, kind, field in form.operands:
        for f in (field, "imm16") if kind == "mem" else (field,):
            shift, width = FIELDS[f]
            bits |= ((1 << width) - 1) << shift
    return bits


def decode(word: int, literals: list[int] | tuple[int, ...] = ()) -> Instruction:
    """Decode one word. Raises DecodeError for an unknown opcode, a bad register field,
    set bits the form does not use, or a literal index outside the pool."""
    if not 0 <= word <= MASK:
        raise DecodeError(f"0x{word:X} is not a 32-bit word", word=word)
    form = BY_OPCODE.get(word >> 24)
    if form is None:
        raise DecodeError(f"unknown opcode 0x{word >> 24:02X}", word=word)
    if word & ~_used_bits(form) & MASK:
        raise DecodeError(f"{form.mnemonic}: reserved bits set", word=word)
    values = []
    for _, kind, field in form.operands:
        if kind == "reg":
            v = _get(word, field)
            if v >= len(REGISTERS):
                raise DecodeError(f"{form.mnemonic}: no register number {v}", word=word)
        elif kind == "mem":
            base = _get(word, field)
            if base >= len(REGISTERS) and base != ZERO_REG:
                raise DecodeError(f"{form.mnemonic}: no base register number {base}", word=word)
            v = (base, _get(word, "imm16", signed=True))
        elif kind in ("lit", "float"):
            index = _get(word, field)
            if index >= len(literals):
                raise DecodeError(f"{form.mnemonic}: literal #{index} is not in the pool", word=word)
            v = literals[index]
        else:
            v = _get(word, field, signed=kind in ("imm16", "imm20"))
        values.append(v)
    return Instruction(form, tuple(values))


# --- Micro-ops: the flat record every executor runs. One tuple of small integers:
# (kind, alu, dst, a, b, imm, flags, cond, width, target), registers as indices,
# NONE for "no register" and, for b, "use imm instead"; flags is 0 (none), 1 (ZF SF) or 2 (all four).
NONE = 255
MICRO_FIELDS = ("kind", "alu", "dst", "a", "b", "imm", "flags", "cond", "width", "target")


def lower(instr: Instruction) -> tuple[int, ...]:
    """The micro-op of one instruction (see MICRO_FIELDS)."""
    sem = instr.form.sem
    kinds = {n: k for n, k, _ in instr.form.operands}
    values = dict(zip((n for n, _, _ in instr.form.operands), instr.values))
    dst = values[sem.dst] if sem.dst else NONE
    a, imm = NONE, 0
    if sem.a is not None:
        if kinds[sem.a] == "mem":
            a, imm = values[sem.a]
        else:
            a = values[sem.a]
    b = NONE
    if isinstance(sem.b, int):
        imm = sem.b
    elif sem.b is not None:
        if kinds[sem.b] == "reg":
            b = values[sem.b]
        else:
            imm = values[sem.b]
    target = values.get("target", 0)
    return (KINDS.index(sem.kind), ALU_NAMES.index(sem.alu), dst, a, b, imm & MASK,
            len(flags_written(sem)) // 2, CONDITION_NAMES.index(sem.cond), sem.width, target)
