"""Source lines of a program built with `-g`: the DWARF line table, read with pyelftools.

    lines = SourceLines.of(elf)          # None when the file has no line table
    lines.at(0x400654)                   # SourceLine('heap_bugs.c', 52), or None outside the table
    lines.text(SourceLine(...))          # the line itself, when the source file is beside the program
"""
from __future__ import annotations

import bisect
import io
from pathlib import Path
from typing import NamedTuple


class SourceLine(NamedTuple):
    file: str  # as the compiler was given it (e.g. 'heap_bugs.c'), or with its directory when not relative
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


class SourceLines:
    """Address -> SourceLine for the code the line table covers (the program's own C; not glibc's)."""

    def __init__(self, rows: list[tuple[int, SourceLine | None]], folder: Path | None):
        # Sorted (address, line) rows; a None line ends a sequence (the code after it has no line).
        self._addresses = [a for a, _ in rows]
        self._lines = [line for _, line in rows]
        self._folder = folder
        self._files: dict[str, list[str] | None] = {}

    @classmethod
    def of(cls, elf) -> "SourceLines | None":
        """The line table of an `ElfFile`, or None when it has none (no `-g`, or stripped)."""
        from elftools.elf.elffile import ELFFile

        parsed = ELFFile(io.BytesIO(elf.data))
        if not parsed.has_dwarf_info():
            return None
        dwarf = parsed.get_dwarf_info()
        rows: list[tuple[int, SourceLine | None]] = []
        for unit in dwarf.iter_CUs():
            program = dwarf.line_program_for_CU(unit)
            if program is None:
                continue
            names = _file_names(program)
            for entry in program.get_entries():
                state = entry.state
                if state is None:
                    continue
                rows.append((state.address, None if state.end_sequence else
                             SourceLine(names.get(state.file, "?"), state.line)))
        if not rows:
            return None
        rows.sort(key=lambda row: (row[0], row[1] is not None))  # a sequence's end before a start at it
        return cls(rows, Path(elf.path).parent if elf.path else None)

    def at(self, address: int) -> SourceLine | None:
        """The source line `address` belongs to (the last row at or before it), or None."""
        i = bisect.bisect_right(self._addresses, address) - 1
        return self._lines[i] if i >= 0 else None

    def text(self, where: SourceLine) -> str | None:
        """The text of a source line, read from the source beside the program (None if not there)."""
        if where.file not in self._files:
            path = Path(where.file) if Path(where.file).is_absolute() or self._folder is None \
                else self._folder / where.file
            for candidate in (path, path.parent.parent / path.name):  # beside bin/, or in bin/'s parent
                if candidate.is_file():
                    self._files[where.file] = candidate.read_text(errors="replace").splitlines()
                    break
            else:
                self._files[where.file] = None
        lines = self._files[where.file]
        return lines[where.line - 1].strip() if lines and 0 < where.line <= len(lines) else None


def _file_names(program) -> dict[int, str]:
    """File index -> name in one line program (DWARF 5 counts from 0, earlier versions from 1)."""
    header = program.header
    first = 0 if header.version >= 5 else 1
    names = {}
    for i, entry in enumerate(header.file_entry):
        name = entry.name.decode("utf-8", "replace") if isinstance(entry.name, bytes) else str(entry.name)
        names[first + i] = name
    return names
