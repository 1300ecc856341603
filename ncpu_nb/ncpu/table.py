"""The nCPU instruction set, defined once.

Every instruction *form* (a mnemonic with one operand shape) is one row of `FORMS`:
its opcode byte, where its operands sit in the 32-bit word, and what it does, as a
`Semantics` record that every execution mode interprets the same way.
The assembler, disassembler, encoder/decoder, the reference interpreter, the fast
lane executor (Rust) and the neural and differentiable modes all read this table.

Machine model
  * registers R0-R7 and SP, 32 bits, two's complement, arithmetic wraps;
  * flags ZF (zero), SF (sign), CF (carry / borrow), OF (signed overflow);
  * instruction memory is a list of instructions indexed 0, 1, 2, ... (jump targets
    are indices, as in classic nCPU); data memory is a separate little-endian byte array;
  * the stack lives at the top of data memory and grows down; SP starts at its size;
  * every executed instruction takes one cycle, HALT included.

Word layout (bit 31 on the left):
  [31:24] opcode   [23:20] field A   [19:16] field B   [15:12] field C
  [15:0]  imm16 (signed)   [19:0] imm20 (signed, or a literal-pool index)   [23:0] target
"""
from __future__ import annotations

from dataclasses import dataclass

from ncpu_nb.ncpu.float_format import BINARY32, COMPARE_RESULTS

WORD_BITS = 32
MASK = 0xFFFF_FFFF

REGISTERS = ("R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "SP")
SP = REGISTERS.index("SP")
ZERO_REG = 15  # address base "none": reads as zero in memory operands
FLAGS = ("ZF", "SF", "CF", "OF")

# --- ALU operations: the reference semantics on Python integers (unsigned 32-bit values in, out).
# Each returns (result, carry, overflow). Flag-setting instructions (every ALU instruction, MOV
# included, as in classic nCPU) write ZF and SF from the result; only the arithmetic operations
# in CARRY_OPS also write CF and OF, the others leave them as they were.


def _signed(x: int) -> int:
    return x - (1 << 32) if x & 0x8000_0000 else x


def _add(a, b):
    total = a + b
    r = total & MASK
    overflow = ((a ^ r) & (b ^ r) & 0x8000_0000) != 0
    return r, int(total > MASK), int(overflow)


def _sub(a, b):
    r = (a - b) & MASK
    overflow = ((a ^ b) & (a ^ r) & 0x8000_0000) != 0
    return r, int(a < b), int(overflow)  # CF is the borrow, as on x86


def _div(a, b):
    sa, sb = _signed(a), _signed(b)
    if sb == 0:
        return 0, 0, 0  # x / 0 = 0 (classic nCPU)
    q = abs(sa) // abs(sb)
    return (q if (sa < 0) == (sb < 0) else -q) & MASK, 0, 0  # truncate toward zero


def _mod(a, b):
    sa, sb = _signed(a), _signed(b)
    q = _signed(_div(a, b)[0])
    return (sa - q * sb) & MASK, 0, 0  # a == (a / b) * b + a % b, so x % 0 = x


def _amount(b):
    return min(max(_signed(b), 0), 31)  # shift amounts clamp to 0..31


ALU_OPS = {  # "pass" forwards b (MOV); "not" and "neg" ignore b
    "pass": (lambda a, b: (b, 0, 0)),
    "add": _add,
    "sub": _sub,
    "mul": (lambda a, b: ((a * b) & MASK, 0, 0)),
    "div": _div,
    "mod": _mod,
    "and": (lambda a, b: (a & b, 0, 0)),
    "or": (lambda a, b: (a | b, 0, 0)),
    "xor": (lambda a, b: (a ^ b, 0, 0)),
    "shl": (lambda a, b: ((a << _amount(b)) & MASK, 0, 0)),
    "shr": (lambda a, b: (a >> _amount(b), 0, 0)),
    "sar": (lambda a, b: ((_signed(a) >> _amount(b)) & MASK, 0, 0)),
    "not": (lambda a, b: (~a & MASK, 0, 0)),
    "neg": (lambda a, b: _sub(0, a)),
    # binary32 on the same registers (their bits), exact IEEE 754 (see float_format.py)
    "fadd": (lambda a, b: (BINARY32.add(a, b), 0, 0)),
    "fsub": (lambda a, b: (BINARY32.sub(a, b), 0, 0)),
    "fmul": (lambda a, b: (BINARY32.mul(a, b), 0, 0)),
    "fdiv": (lambda a, b: (BINARY32.div(a, b), 0, 0)),
    "fsqrt": (lambda a, b: (BINARY32.sqrt(a), 0, 0)),
    "fcmp": (lambda a, b: COMPARE_RESULTS[BINARY32.compare(a, b)]),
    "itof": (lambda a, b: (BINARY32.from_int(a), 0, 0)),
    "ftoi": (lambda a, b: (BINARY32.to_int(a), 0, 0)),
    "fmov": (lambda a, b: (b, 0, 0)),  # MOV of a float constant: same bits, but the value is a float
}
ALU_NAMES = tuple(ALU_OPS)
FLOAT_OPS = frozenset(name for name in ALU_NAMES if name.startswith("f") or name == "itof")
INTEGER_OPS = tuple(name for name in ALU_NAMES if name not in FLOAT_OPS)
CARRY_OPS = frozenset({"add", "sub", "neg", "fcmp"})  # the operations that write CF and OF too


def flags_written(sem: "Semantics") -> tuple[str, ...]:
    """The flags an instruction writes."""
    if not sem.flags:
        return ()
    return ("ZF", "SF", "CF", "OF") if sem.alu in CARRY_OPS else ("ZF", "SF")


def alu(name: str, a: int, b: int) -> tuple[int, int, int]:
    """Reference ALU: (result, carry, overflow) of `name` on unsigned 32-bit a, b."""
    return ALU_OPS[name](a & MASK, b & MASK)


# --- Branch conditions over (ZF, SF, CF, OF).
CONDITIONS = {
    "al": lambda z, s, c, o: True,
    "z": lambda z, s, c, o: z,
    "nz": lambda z, s, c, o: not z,
    "s": lambda z, s, c, o: s,
    "ns": lambda z, s, c, o: not s,
    "c": lambda z, s, c, o: c,
    "nc": lambda z, s, c, o: not c,
    "o": lambda z, s, c, o: o,
    "no": lambda z, s, c, o: not o,
    "l": lambda z, s, c, o: s != o,
    "ge": lambda z, s, c, o: s == o,
    "g": lambda z, s, c, o: not z and s == o,
    "le": lambda z, s, c, o: z or s != o,
    "a": lambda z, s, c, o: not c and not z,
    "be": lambda z, s, c, o: c or z,
}
CONDITION_NAMES = tuple(CONDITIONS)

# --- What an instruction does.
KINDS = ("nop", "halt", "alu", "jump", "load", "store", "push", "pop", "call", "ret")


@dataclass(frozen=True)
class Semantics:
    """One instruction's dataflow, interpreted identically by every execution mode.

    kind  -- one of KINDS
    alu   -- ALU operation for kind "alu"
    dst   -- operand name written with the result (None: result discarded, e.g. CMP)
    a, b  -- operand names read as ALU inputs; `b` may be an int constant (INC uses 1)
    flags -- whether flags are written (which ones: `flags_written`)
    cond  -- branch condition for kind "jump"
    width -- bytes moved by load/store (1 or 4)
    """

    kind: str
    alu: str = "pass"
    dst: str | None = None
    a: str | None = None
    b: str | int | None = None
    flags: bool = False
    cond: str = "al"
    width: int = 4


# Operand types: how the assembler parses an operand and which field(s) hold it.
#   reg    a register (R0-R7, SP)            imm16 / imm20  signed immediate of that width
#   lit    any 32-bit value, kept in the program's literal pool; the field holds its index
#   float  a number rounded to binary32 (1.5, -2e-3, 7, inf, nan), its bits kept in the literal pool
#   target instruction index or code label   mem  [Rb], [Rb, off], [Rb + off], [addr], [label]
#          (a mem operand puts its base register in its field and its offset in imm16)
FIELDS = {"A": (20, 4), "B": (16, 4), "C": (12, 4), "imm16": (0, 16), "imm20": (0, 20), "target": (0, 24)}


@dataclass(frozen=True)
class Form:
    mnemonic: str
    opcode: int
    operands: tuple[tuple[str, str, str], ...]  # (name, type, field)
    sem: Semantics
    summary: str

    @property
    def signature(self) -> str:
        shapes = {"reg": "R", "imm16": "imm16", "imm20": "imm20", "lit": "imm32", "float": "float", "target": "label",
                  "mem": "[mem]"}
        return " ".join([self.mnemonic, ", ".join(shapes[t] for _, t, _ in self.operands)]).strip()


def _rrr(m, op, alu, summary):
    return Form(m, op, (("rd", "reg", "A"), ("rs", "reg", "B"), ("rt", "reg", "C")),
                Semantics("alu", alu, "rd", "rs", "rt", True), summary)


def _rri(m, op, alu, summary):
    return Form(m, op, (("rd", "reg", "A"), ("rs", "reg", "B"), ("imm", "imm16", "imm16")),
                Semantics("alu", alu, "rd", "rs", "imm", True), summary)


def _jump(m, op, cond, summary):
    return Form(m, op, (("target", "target", "target"),), Semantics("jump", cond=cond), summary)


_BINARY = [  # mnemonic, ALU op, summary
    ("ADD", "add", "Rd = Rs + Rt"),
    ("SUB", "sub", "Rd = Rs - Rt"),
    ("MUL", "mul", "Rd = Rs * Rt (low 32 bits)"),
    ("DIV", "div", "Rd = Rs / Rt, signed, truncated toward zero; x / 0 = 0"),
    ("MOD", "mod", "Rd = Rs % Rt, sign of Rs; x % 0 = x"),
    ("AND", "and", "Rd = Rs & Rt"),
    ("OR", "or", "Rd = Rs | Rt"),
    ("XOR", "xor", "Rd = Rs ^ Rt"),
    ("SHL", "shl", "Rd = Rs << Rt (amount clamped to 0..31)"),
    ("SHR", "shr", "Rd = Rs >> Rt, logical (amount clamped to 0..31)"),
    ("SAR", "sar", "Rd = Rs >> Rt, arithmetic (amount clamped to 0..31)"),
]

_JUMPS = [  # mnemonic, condition, summary
    ("JMP", "al", "jump"),
    ("JZ", "z", "jump if ZF (equal)"),
    ("JNZ", "nz", "jump if not ZF (not equal)"),
    ("JS", "s", "jump if SF (negative)"),
    ("JNS", "ns", "jump if not SF"),
    ("JC", "c", "jump if CF (unsigned below)"),
    ("JNC", "nc", "jump if not CF (unsigned above or equal)"),
    ("JO", "o", "jump if OF (signed overflow)"),
    ("JNO", "no", "jump if not OF"),
    ("JL", "l", "jump if signed less (SF != OF)"),
    ("JGE", "ge", "jump if signed greater or equal"),
    ("JG", "g", "jump if signed greater"),
    ("JLE", "le", "jump if signed less or equal"),
    ("JA", "a", "jump if unsigned above"),
    ("JBE", "be", "jump if unsigned below or equal"),
]

_FLOAT_BINARY = [  # binary32 in the registers' bits, rounded to nearest even; flags untouched
    ("FADD", "fadd", "Rd = Rs + Rt, binary32"),
    ("FSUB", "fsub", "Rd = Rs - Rt, binary32"),
    ("FMUL", "fmul", "Rd = Rs * Rt, binary32"),
    ("FDIV", "fdiv", "Rd = Rs / Rt, binary32"),
]

_FLOAT_UNARY = [
    ("FSQRT", "fsqrt", "Rd = sqrt(Rs), binary32"),
    ("ITOF", "itof", "Rd = Rs (signed integer) as the nearest binary32"),
    ("FTOI", "ftoi", "Rd = Rs (binary32) as a signed integer, truncated toward zero, saturated; NaN gives 0"),
]

FORMS: tuple[Form, ...] = (
    Form("NOP", 0x00, (), Semantics("nop"), "do nothing"),
    Form("HALT", 0x01, (), Semantics("halt"), "stop this lane (counts one cycle)"),
    Form("MOV", 0x02, (("rd", "reg", "A"), ("rs", "reg", "B")),
         Semantics("alu", "pass", "rd", None, "rs", True), "Rd = Rs"),
    Form("MOV", 0x03, (("rd", "reg", "A"), ("imm", "imm20", "imm20")),
         Semantics("alu", "pass", "rd", None, "imm", True), "Rd = imm"),
    Form("MOV", 0x04, (("rd", "reg", "A"), ("imm", "lit", "imm20")),
         Semantics("alu", "pass", "rd", None, "imm", True), "Rd = imm, a 32-bit value from the literal pool"),
    *[_rrr(m, 0x10 + i, alu, s) for i, (m, alu, s) in enumerate(_BINARY)],
    *[_rri(m, 0x30 + i, alu, s.replace("Rt", "imm")) for i, (m, alu, s) in enumerate(_BINARY)],
    Form("NOT", 0x40, (("rd", "reg", "A"), ("rs", "reg", "B")),
         Semantics("alu", "not", "rd", "rs", None, True), "Rd = ~Rs"),
    Form("NEG", 0x41, (("rd", "reg", "A"), ("rs", "reg", "B")),
         Semantics("alu", "neg", "rd", "rs", None, True), "Rd = -Rs"),
    Form("INC", 0x42, (("rd", "reg", "A"),), Semantics("alu", "add", "rd", "rd", 1, True), "Rd = Rd + 1"),
    Form("DEC", 0x43, (("rd", "reg", "A"),), Semantics("alu", "sub", "rd", "rd", 1, True), "Rd = Rd - 1"),
    Form("CMP", 0x44, (("rs", "reg", "A"), ("rt", "reg", "B")),
         Semantics("alu", "sub", None, "rs", "rt", True), "set flags from Rs - Rt"),
    Form("CMP", 0x45, (("rs", "reg", "A"), ("imm", "imm16", "imm16")),
         Semantics("alu", "sub", None, "rs", "imm", True), "set flags from Rs - imm"),
    Form("TEST", 0x46, (("rs", "reg", "A"), ("rt", "reg", "B")),
         Semantics("alu", "and", None, "rs", "rt", True), "set flags from Rs & Rt"),
    *[_jump(m, 0x50 + i, c, s) for i, (m, c, s) in enumerate(_JUMPS)],
    Form("LDR", 0x60, (("rd", "reg", "A"), ("addr", "mem", "B")),
         Semantics("load", dst="rd", a="addr", width=4), "Rd = 32-bit word at address"),
    Form("LDRB", 0x61, (("rd", "reg", "A"), ("addr", "mem", "B")),
         Semantics("load", dst="rd", a="addr", width=1), "Rd = byte at address (zero-extended)"),
    Form("STR", 0x62, (("rs", "reg", "A"), ("addr", "mem", "B")),
         Semantics("store", a="addr", b="rs", width=4), "32-bit word at address = Rs"),
    Form("STRB", 0x63, (("rs", "reg", "A"), ("addr", "mem", "B")),
         Semantics("store", a="addr", b="rs", width=1), "byte at address = low byte of Rs"),
    Form("PUSH", 0x70, (("rs", "reg", "A"),), Semantics("push", b="rs"), "SP -= 4; [SP] = Rs"),
    Form("POP", 0x71, (("rd", "reg", "A"),), Semantics("pop", dst="rd"), "Rd = [SP]; SP += 4"),
    Form("CALL", 0x72, (("target", "target", "target"),), Semantics("call"),
         "push the return index, then jump"),
    Form("RET", 0x73, (), Semantics("ret"), "pop the return index and jump to it"),
    *[Form(m, 0x80 + i, (("rd", "reg", "A"), ("rs", "reg", "B"), ("rt", "reg", "C")),
           Semantics("alu", alu, "rd", "rs", "rt"), s) for i, (m, alu, s) in enumerate(_FLOAT_BINARY)],
    *[Form(m, 0x84 + i, (("rd", "reg", "A"), ("rs", "reg", "B")), Semantics("alu", alu, "rd", "rs"), s)
      for i, (m, alu, s) in enumerate(_FLOAT_UNARY)],
    Form("FCMP", 0x87, (("rs", "reg", "A"), ("rt", "reg", "B")),
         Semantics("alu", "fcmp", None, "rs", "rt", True),
         "set flags from comparing floats Rs, Rt: JZ equal, JS less, JG greater, JO unordered (a NaN)"),
    Form("FMOV", 0x88, (("rd", "reg", "A"), ("imm", "float", "imm20")),
         Semantics("alu", "fmov", "rd", None, "imm"), "Rd = the binary32 bits of a number"),
)

# Alternative spellings accepted by the assembler (the disassembler prints the canonical name).
ALIASES = {"JE": "JZ", "JNE": "JNZ", "JB": "JC", "JAE": "JNC", "JNAE": "JC", "JNB": "JNC", "HLT": "HALT"}

BY_OPCODE = {f.opcode: f for f in FORMS}
BY_MNEMONIC: dict[str, tuple[Form, ...]] = {}
for _f in FORMS:
    BY_MNEMONIC[_f.mnemonic] = BY_MNEMONIC.get(_f.mnemonic, ()) + (_f,)
assert len(BY_OPCODE) == len(FORMS), "opcodes must be unique"
