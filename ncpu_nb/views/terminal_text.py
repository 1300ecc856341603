"""What a terminal's output says as plain text: the bytes a program wrote to a terminal, with the
terminal's control sequences applied line by line and then left out.

Programs on a tty end lines with "\\r\\n" and redraw a line in place (a shell's line editor moves
back with "\\b" or ESC [ n D, rewrites, and erases the rest with ESC [ K). `plain_text` keeps what
each line shows at the end: carriage return, backspace, cursor left/right and erase-to-end act on
the line, every other escape sequence (colours, modes, titles, full-screen cursor moves) is dropped.
"""
from __future__ import annotations

import re

# ESC [ params final | ESC ] ... BEL or ESC \ | ESC and one more character (charset, keypad modes)
SEQUENCE = re.compile(r"\x1b\[([0-9;?>=]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[()#][0-9A-Za-z]?|\x1b.?")
PIECES = re.compile(r"(\x1b\[[0-9;?>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[()#][0-9A-Za-z]?|\x1b.?|[\r\b])")


def plain_text(text: str) -> str:
    """`text` as written to a terminal, as the lines it leaves on screen ("\\n" between them)."""
    return "\n".join(_line(line) for line in text.split("\n"))


def _line(line: str) -> str:
    cells: list[str] = []
    at = 0
    for piece in PIECES.split(line):
        if not piece:
            continue
        if piece == "\r":
            at = 0
        elif piece == "\b":
            at = max(0, at - 1)
        elif piece.startswith("\x1b"):
            match = SEQUENCE.fullmatch(piece)
            params, final = (match.group(1) or "", match.group(2) or "") if match else ("", "")
            count = int(params) if params.isdigit() else 1
            if final == "K" and params in ("", "0"):
                del cells[at:]
            elif final == "D":
                at = max(0, at - count)
            elif final == "C":
                at += count
                cells.extend(" " * (at - len(cells)))
        else:
            for char in piece:
                if char < " " and char != "\t":  # bell and other controls show nothing
                    continue
                if at < len(cells):
                    cells[at] = char
                else:
                    cells.extend(" " * (at - len(cells)))
                    cells.append(char)
                at += 1
    return "".join(cells)
