"""Assembly text for one ALU operation, with the mnemonic looked up in the ISA table.

Searches think in ALU operations over registers and constants (`add`, R0, 7); this turns each
choice into the instruction form the table defines for it (ADD Rd, Rs, Rt or ADD Rd, Rs, imm)."""
from __future__ import annotations

from ncpu_nb.ncpu.table import FORMS

# ALU operation -> mnemonic, for register-register forms and register-immediate forms.
_REG_FORMS, _IMM_FORMS = {}, {}
for _f in FORMS:
    shape = tuple(t for _, t, _ in _f.operands)
    if _f.sem.kind == "alu" and _f.sem.dst and shape in (("reg", "reg", "reg"), ("reg", "reg")):
        _REG_FORMS.setdefault(_f.sem.alu, _f.mnemonic)
    if _f.sem.kind == "alu" and _f.sem.dst and shape in (("reg", "reg", "imm16"), ("reg", "imm20")):
        _IMM_FORMS.setdefault(_f.sem.alu, _f.mnemonic)

BINARY = ("add", "sub", "mul", "div", "mod", "and", "or", "xor", "shl", "shr", "sar")
UNARY = ("neg", "not")


def instruction(op: str, dst: str, a: str | None, b: str | int | None) -> str:
    """`op` in BINARY (dst = a op b), UNARY (dst = op a) or 'pass' (dst = b); b may be a constant."""
    if op == "pass":
        return f"{(_IMM_FORMS if isinstance(b, int) else _REG_FORMS)[op]} {dst}, {b}"
    if op in UNARY:
        return f"{_REG_FORMS[op]} {dst}, {a}"
    return f"{(_IMM_FORMS if isinstance(b, int) else _REG_FORMS)[op]} {dst}, {a}, {b}"


assert set(BINARY + UNARY) | {"pass"} <= set(_REG_FORMS) and set(BINARY) | {"pass"} <= set(_IMM_FORMS)
