"""Assembler: nCPU source text -> `Program`, reporting every error with line, column and caret.

Syntax (a superset of classic nCPU's text ISA):
  * one instruction per line, operands separated by commas (or, as classic nCPU allows, spaces);
    mnemonics, registers and labels in any case;
  * `; comment`, `# comment` and `// comment` (`#` directly before a number is an immediate);
  * `name:` labels, alone on a line or before an instruction or directive;
  * immediates: 42, -7, 0x2A, 0b101010, 'A' (a character), optionally written #42;
  * memory operands: [R1], [R1, 8], [R1 + 8], [R1 - 4], [0x40], [label], [label + 4];
  * directives: .text, .data [address], .word v, ...; .byte v, ...; .ascii "s"; .asciz "s";
    .zero n; .align n; .equ NAME, value.
Code labels name instruction indices (jump targets); data labels name byte addresses.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from ncpu_nb.errors import AssemblyError, Diagnostic
from ncpu_nb.ncpu.encoding import RANGES, Instruction, encode
from ncpu_nb.ncpu.float_format import BINARY32
from ncpu_nb.ncpu.program import Program
from ncpu_nb.ncpu.table import ALIASES, BY_MNEMONIC, MASK, REGISTERS, ZERO_REG

_NAME = re.compile(r"[A-Za-z_.$][\w.$]*")
_LABEL = re.compile(r"\s*([A-Za-z_.$][\w.$]*)\s*:")
_NUMBER = re.compile(r"#?\s*([+-]?)\s*(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*|'(?:\\.|[^'\\])')$")
_IMMEDIATE_HASH = re.compile(r"#[-+0-9']")
MAX_DIGITS = 66  # "0b" and 64 binary digits: no operand needs a longer literal
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"'}


class _OperandError(Exception):
    def __init__(self, message: str, offset: int = 0, length: int = 1, mismatch: bool = False):
        super().__init__(message)
        # mismatch: the operand is of another kind (a register where a number belongs, ...);
        # when several forms fail, an error that is not a mismatch explains more.
        self.offset, self.length, self.mismatch = offset, length, mismatch


@dataclass
class _Line:
    number: int
    text: str
    column: int  # 1-based column where body starts


class _Names(dict):
    """Labels or constants by name as written; `find` looks a name up in any case, like classic nCPU,
    through an index kept as names are added (a scan per lookup made big programs quadratic)."""

    def __init__(self):
        super().__init__()
        self._folded = {}

    def __setitem__(self, name: str, value) -> None:
        super().__setitem__(name, value)
        self._folded.setdefault(name.casefold(), value)

    def find(self, name: str):
        return self[name] if name in self else self._folded.get(name.casefold())


@dataclass
class _State:
    code: list = field(default_factory=list)  # (_Line, mnemonic, operands[(text, column)])
    data: bytearray = field(default_factory=bytearray)
    code_labels: _Names = field(default_factory=_Names)
    data_labels: _Names = field(default_factory=_Names)
    constants: _Names = field(default_factory=_Names)
    taken: set = field(default_factory=set)  # every label and constant name so far, case-folded
    diagnostics: list = field(default_factory=list)


def assemble(source: str, name: str = "<source>") -> Program:
    """Assemble `source` into a Program. Raises AssemblyError listing every problem found."""
    state = _State()
    data_items = _first_pass(source, state)
    _place_data(data_items, state)
    instructions, lines = [], []
    for line, mnemonic, operands in state.code:
        instr = _build(line, mnemonic, operands, state)
        if instr is not None:
            instructions.append(instr)
            lines.append(line.number)
    if state.diagnostics:
        raise AssemblyError(sorted(state.diagnostics, key=lambda d: (d.line, d.column)))
    literals: dict[int, int] = {}
    words = [encode(i, literals) for i in instructions]
    return Program(instructions=tuple(instructions), words=tuple(words), literals=tuple(literals),
                   data=bytes(state.data), code_labels=dict(state.code_labels),
                   data_labels=dict(state.data_labels), source=source, lines=tuple(lines), name=name)


def _defined(state: _State, name: str) -> bool:
    """Whether a label or constant of this name (in any case) exists already."""
    return name.casefold() in state.taken


def _error(state, line: _Line, column: int, message: str, length: int = 1):
    state.diagnostics.append(Diagnostic(line.number, column, message, line.text, length))


def _unquoted(text: str):
    """(index, character, bracket depth) of every character outside string and character literals."""
    quote, escaped, depth = None, False, 0
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        else:
            depth += (ch == "[") - (ch == "]")
            yield i, ch, depth


def _strip_comment(text: str) -> str:
    for i, ch, _ in _unquoted(text):
        if ch == ";" or text.startswith("//", i) or (ch == "#" and not _IMMEDIATE_HASH.match(text, i)):
            return text[:i]
    return text


def _split_operands(body: str, start: int) -> list[tuple[str, int]]:
    """Split at top-level commas, or at spaces when there is no comma (classic nCPU allows
    `ADD R0 R1 R2`); returns (operand text, 1-based column) pairs."""
    if not body.strip():
        return []
    for separator in ",", " ":
        cuts = [i for i, ch, depth in _unquoted(body) if ch == separator and depth <= 0]
        if cuts or separator == " ":
            break
    parts = []
    for begin, end in zip([-1, *cuts], [*cuts, len(body)]):
        piece = body[begin + 1:end]
        if piece.strip() or separator == ",":
            parts.append((piece.strip(), start + begin + 1 + len(piece) - len(piece.lstrip())))
    return parts


def _first_pass(source: str, state: _State):
    """Collect labels, constants, instructions and data directives (placed later)."""
    section, data_items = "text", []
    for number, text in enumerate(source.splitlines(), 1):
        text = text.replace("\t", " ")
        body = _strip_comment(text)
        column = 1
        while (m := _LABEL.match(body)) and not body[m.end():].startswith(":"):
            name = m.group(1)
            label_line = _Line(number, text, column)
            if name.upper() in REGISTERS or _defined(state, name):
                _error(state, label_line, column + m.start(1), f"label {name!r} is already defined"
                       if name.upper() not in REGISTERS else f"{name!r} is a register name", len(name))
            else:
                state.taken.add(name.casefold())
                if section == "text":
                    state.code_labels[name] = len(state.code)
                else:
                    data_items.append((name, label_line, None, []))
            column += m.end()
            body = body[m.end():]
        stripped = body.strip()
        if not stripped:
            continue
        column += len(body) - len(body.lstrip())
        line = _Line(number, text, column)
        word = stripped.split(None, 1)
        head, rest = word[0], (word[1] if len(word) > 1 else "")
        rest_column = column + len(stripped) - len(rest)
        operands = _split_operands(rest, rest_column)
        if head.startswith("."):
            directive = head.lower()
            if directive == ".text":
                section = "text"
            elif directive == ".data":
                section = "data"
                data_items.append((None, line, ".org", operands))
            elif directive == ".equ":
                _equ(state, line, operands)
            elif directive in (".word", ".byte", ".ascii", ".asciz", ".zero", ".space", ".align"):
                if section != "data":
                    _error(state, line, column, f"{directive} belongs in a .data section", len(head))
                else:
                    data_items.append((None, line, directive, operands))
            else:
                _error(state, line, column, f"unknown directive {head}", len(head))
        elif section == "data":
            _error(state, line, column, "instructions belong in the .text section (write .text first)", len(head))
        else:
            state.code.append((line, head, operands))
    return data_items


def _equ(state, line, operands):
    if len(operands) != 2 or not _NAME.fullmatch(operands[0][0]):
        _error(state, line, line.column, ".equ takes a name and a value: .equ NAME, 42", 4)
        return
    if _defined(state, operands[0][0]) or operands[0][0].upper() in REGISTERS:
        _error(state, line, operands[0][1], f"{operands[0][0]!r} is already defined", len(operands[0][0]))
        return
    try:
        state.constants[operands[0][0]] = _number(operands[1][0], state, allow_labels=False)
        state.taken.add(operands[0][0].casefold())
    except _OperandError as e:
        _error(state, line, operands[1][1] + e.offset, str(e), e.length)


# A program's data image is built in Python before any run: far past any machine's memory it would
# only exhaust the host's.
DATA_LIMIT = 16 << 20


def _place_data(items, state):
    """Lay out data directives: first every size and label address, then the bytes, so `.word`
    may name data labels defined later (pointer tables)."""
    placed, location = [], 0  # (line, directive, operands, location, blob or None)
    for name, line, directive, operands in items:
        if name is not None:
            state.data_labels[name] = location
            continue
        try:
            blob = None
            if directive == ".org":
                if operands:
                    location = _number(operands[0][0], state, allow_labels=False)
                continue
            if directive in (".ascii", ".asciz"):
                blob = b"".join(_string(text, column - line.column) for text, column in operands)
                blob += b"\0" if directive == ".asciz" else b""
            elif directive in (".zero", ".space"):
                n = _number(operands[0][0], state, allow_labels=False) if operands else 0
                if not 0 <= n <= DATA_LIMIT:
                    raise _OperandError(f"{directive} takes 0 to {DATA_LIMIT:,} bytes, not {n:,}",
                                        operands[0][1] - line.column, len(operands[0][0]))
                blob = bytes(n)
            elif directive == ".align":
                n = _number(operands[0][0], state, allow_labels=False) if operands else 4
                blob = bytes((-location) % max(n, 1))
            size = len(blob) if blob is not None else len(operands) * (4 if directive == ".word" else 1)
        except _OperandError as e:
            _error(state, line, line.column + e.offset, str(e), e.length)
            continue
        if location < 0:
            _error(state, line, line.column, "data address is negative")
            continue
        if location + size > DATA_LIMIT:
            _error(state, line, line.column, f"data would end at 0x{location + size:X}, past the {DATA_LIMIT >> 20} MiB "
                                             "a program's data may fill")
            continue
        placed.append((line, directive, operands, location, blob))
        location += size
    data = state.data
    for line, directive, operands, location, blob in placed:
        if blob is None:
            blob = _values(line, directive, operands, state)
            if blob is None:
                continue
        if len(data) < location + len(blob):
            data.extend(bytes(location + len(blob) - len(data)))
        data[location:location + len(blob)] = blob


def _values(line, directive, operands, state) -> bytes | None:
    """The bytes of a .word or .byte list (None after reporting an error)."""
    width, blob = (4 if directive == ".word" else 1), b""
    for text, column in operands:
        try:
            value = _number(text, state)
            if not -(1 << (8 * width - 1)) <= value < (1 << (8 * width)):
                raise _OperandError(f"{value} does not fit in {width * 8} bits", 0, len(text))
        except _OperandError as e:
            _error(state, line, column + e.offset, str(e), e.length)
            return None
        blob += (value & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
    return blob


def _string(text: str, column: int) -> bytes:
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise _OperandError('expected a string in double quotes, like "hello"', column, max(1, len(text)))
    out, i, body = [], 0, text[1:-1]
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            i += 1
            ch = _ESCAPES.get(body[i], body[i])
        out.append(ch)
        i += 1
    try:
        return "".join(out).encode("latin-1")
    except UnicodeEncodeError as exc:
        raise _OperandError("strings hold Latin-1 characters only", column, len(text)) from exc


def _integer(digits: str, text: str) -> int:
    """The value of a literal's digits, underscores removed (010 is ten)."""
    if len(digits) > MAX_DIGITS:  # Python would refuse (over 4,300 digits) or print an unreadable number
        raise _OperandError(f"number too long ({len(digits):,} characters; at most {MAX_DIGITS})", 0, len(text))
    try:
        return int(digits, 0) if digits[1:2].isalpha() else int(digits, 10)
    except ValueError:  # a prefix alone: 0x, 0b_
        raise _OperandError(f"expected digits after {digits[:2]}", 0, len(text)) from None


def _number(text: str, state: _State, allow_labels: bool = True) -> int:
    """An integer literal, an .equ constant or (when allowed) a data label address."""
    m = _NUMBER.match(text.strip())
    if m:
        sign, digits = m.groups()
        if digits.startswith("'"):
            inner = digits[1:-1]
            value = ord(_ESCAPES.get(inner[1], inner[1]) if inner.startswith("\\") else inner)
        else:
            value = _integer(digits.replace("_", ""), text)
        return -value if sign == "-" else value
    name = text.strip().lstrip("#").strip()
    if (value := state.constants.find(name)) is not None:
        return value
    if allow_labels and (value := state.data_labels.find(name)) is not None:
        return value
    if re.fullmatch(r"[Rr]\d+", name):
        raise _OperandError(f"no register {name.upper()}; registers are R0-R7 and SP", 0, len(text))
    if _NAME.fullmatch(name):
        if state.code_labels.find(name) is not None:
            raise _OperandError(f"{name!r} is a code label; only data labels and constants are numbers here",
                                0, len(text))
        raise _OperandError(f"undefined name {name!r}", 0, len(text))
    raise _OperandError(f"expected a number, got {text!r}", 0, max(1, len(text)))


_FLOAT = re.compile(r"#?\s*([+-]?)\s*(inf|nan|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)$", re.IGNORECASE)


def _float(text: str, state: _State) -> int:
    """A float operand's binary32 bits: a decimal number rounded to nearest even, inf, nan, or an .equ constant."""
    m = _FLOAT.match(text.strip())
    if not m:
        if (value := state.constants.find(text.strip().lstrip("#").strip())) is not None:
            return BINARY32.round(Fraction(value))
        raise _OperandError(f"expected a number (1.5, -2e-3, 7, inf, nan), got {text!r}", 0, max(1, len(text)))
    sign, digits = m.groups()
    if len(digits) > 2 * MAX_DIGITS:
        raise _OperandError(f"number too long ({len(digits):,} characters)", 0, len(text))
    if digits.lower() == "nan":
        return BINARY32.nan
    if digits.lower() == "inf":
        return BINARY32.infinity(sign == "-")
    value = Fraction(digits.replace("_", ""))
    return BINARY32.round(-value if sign == "-" else value, negative_zero=sign == "-")


def _register(text: str) -> int:
    name = text.strip().upper()
    if name in REGISTERS:
        return REGISTERS.index(name)
    raise _OperandError(f"expected a register (R0-R7 or SP), got {text!r}", 0, max(1, len(text)), True)


def _memory(text: str, state: _State) -> tuple[int, int]:
    if not (text.startswith("[") and text.endswith("]")):
        raise _OperandError(f"expected a memory operand like [R1, 4], got {text!r}", 0, max(1, len(text)), True)
    inner = text[1:-1]
    m = re.fullmatch(r"\s*([+-]?[^,+\-\s]+)\s*(?:([,+-])\s*(.+?))?\s*", inner)
    if not m:
        raise _OperandError(f"cannot read memory operand {text!r}", 0, len(text))
    head, sep, tail = m.groups()
    offset = 0
    if tail is not None:
        if tail.strip().upper() in REGISTERS:
            raise _OperandError(f"a memory operand adds a constant offset to one register; {tail.strip()} is a "
                                "register (compute the address with ADD first)", 1 + m.start(3), len(tail))
        try:
            offset = _number(tail, state)
        except _OperandError as e:
            e.offset += 1 + m.start(3)
            raise
        offset = -offset if sep == "-" else offset
    if head.upper() in REGISTERS:
        base = REGISTERS.index(head.upper())
    else:
        base, offset = ZERO_REG, _number(head, state) + offset
    _check_range(offset, "imm16", len(text), "memory offset")
    return base, offset


def _check_range(value: int, kind: str, length: int, what: str = "immediate"):
    low, high = RANGES[kind]
    if not low <= value <= high:
        raise _OperandError(f"{what} {value} is out of range ({low}..{high})", 0, length)


def _parse(kind: str, text: str, state: _State):
    if not text:
        raise _OperandError("missing operand")
    if kind == "reg":
        return _register(text)
    if kind == "mem":
        return _memory(text, state)
    if kind == "target":
        name = text.strip()
        if (index := state.code_labels.find(name)) is not None:
            return index
        if _NAME.fullmatch(name) and not name.upper() in REGISTERS:
            raise _OperandError(f"undefined label {name!r}", 0, len(name))
        value = _number(text, state, allow_labels=False)
        if not 0 <= value <= len(state.code):
            raise _OperandError(f"jump target {value} is outside the program (0..{len(state.code)})",
                                0, len(text))
        return value
    if kind == "float":
        return _float(text, state)
    if text.strip().upper() in REGISTERS:
        raise _OperandError(f"expected an immediate, got register {text.strip()}", 0, len(text), True)
    value = _number(text, state)
    _check_range(value, kind, len(text))
    return value


def _build(line: _Line, mnemonic: str, operands, state: _State) -> Instruction | None:
    name = ALIASES.get(mnemonic.upper(), mnemonic.upper())
    forms = BY_MNEMONIC.get(name)
    if forms is None:
        _error(state, line, line.column, f"unknown instruction {mnemonic!r}", len(mnemonic))
        return None
    candidates = [f for f in forms if len(f.operands) == len(operands)]
    if not candidates:
        shapes = " or ".join(f.signature for f in forms)
        _error(state, line, line.column,
               f"{name} takes {' or '.join(sorted({str(len(f.operands)) for f in forms}))} operand(s) "
               f"({shapes}), got {len(operands)}", len(mnemonic))
        return None
    best = None  # ((operands parsed before the error, not a mismatch), error, column)
    for form in candidates:
        values = []
        for (_, kind, _), (text, column) in zip(form.operands, operands):
            try:
                values.append(_parse(kind, text, state))
            except _OperandError as e:
                # later forms are wider (MOV imm20, then the literal pool): on a tie, the later error
                rank = (len(values), not e.mismatch)
                if best is None or rank >= best[0]:
                    best = (rank, e, column)
                break
        else:
            return Instruction(form, tuple(values))
    _, err, column = best
    _error(state, line, column + err.offset, str(err), err.length)
    return None
