"""Examples as people type them: "1, 1 = 2" is R0 = 1, R1 = 1 in, the first output register = 2 out.

Inputs sit in R0, R1, …; outputs in the registers after the last input (one input and one output:
R0 -> R1; two inputs and one output: R0, R1 -> R2). Values are integers (decimal, 0x hex, 0b binary)."""
from __future__ import annotations

from ncpu_nb.errors import NcpuError


class ExampleError(NcpuError):
    """An example that cannot be read; the message says where (which example and column)."""


def parse_values(text: str, where: str = "", offset: int = 0) -> list[int]:
    """Comma-separated integers; `offset` is the column of text[0] in what the user typed (1-based: 1)."""
    values, column = [], offset or 1
    for part in text.split(","):
        word = part.strip()
        at = column + (len(part) - len(part.lstrip()))
        if not word:
            raise ExampleError(f"{where}column {at}: expected an integer, found nothing")
        try:
            values.append(int(word, 0))
        except ValueError:
            raise ExampleError(f"{where}column {at}: {word!r} is not an integer") from None
        if not -(1 << 31) <= values[-1] < (1 << 32):
            raise ExampleError(f"{where}column {at}: {word} does not fit in 32 bits")
        column += len(part) + 1
    return values


def parse_example(text: str, where: str = "") -> tuple[list[int], list[int]]:
    """'1,1=2' -> ([1, 1], [2]). `where` prefixes messages ('--example 2: ')."""
    left, sep, right = text.partition("=")
    if not sep:
        raise ExampleError(f"{where}expected INPUTS=OUTPUTS such as 1,1=2, got {text!r}")
    if "=" in right:
        raise ExampleError(f"{where}column {len(left) + 2 + right.index('=')}: a second '='")
    return parse_values(left, where, 1), parse_values(right, where, len(left) + 2)


def format_values(values) -> str:
    return ", ".join(str(v) for v in values)
