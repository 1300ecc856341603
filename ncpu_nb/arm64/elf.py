"""A small reader of ELF64 executables: the header, the segments a loader maps, sections and symbols.

The machine's own loader is in Rust; this one is for looking (chapter 19) and for naming code
locations (breakpoints on `main` when the file keeps its symbol table).
"""
from __future__ import annotations

import bisect

import os
import stat
import struct
from dataclasses import dataclass
from functools import cached_property
from html import escape
from pathlib import Path

from ncpu_nb import html
from ncpu_nb.arm64.machine_errors import ElfError

HEADER = struct.Struct("<16sHHIQQQIHHHHHH")
PROGRAM_HEADER = struct.Struct("<IIQQQQQQ")
SECTION_HEADER = struct.Struct("<IIQQQQIIQQ")
SYMBOL = struct.Struct("<IBBHQQ")

EM_AARCH64 = 183
MACHINES = {3: "x86", 40: "ARM (32-bit)", 62: "x86-64", 183: "AArch64", 243: "RISC-V"}
FILE_TYPES = {1: "REL (relocatable object)", 2: "EXEC (executable)", 3: "DYN (position-independent)", 4: "CORE"}
SEGMENT_TYPES = {0: "NULL", 1: "LOAD", 2: "DYNAMIC", 3: "INTERP", 4: "NOTE", 6: "PHDR", 7: "TLS",
                 0x6474E550: "GNU_EH_FRAME", 0x6474E551: "GNU_STACK", 0x6474E552: "GNU_RELRO",
                 0x6474E553: "GNU_PROPERTY"}
SHT_SYMTAB, SHT_NOBITS = 2, 8
SYMBOL_KINDS = {1: "object", 2: "function", 6: "tls"}
MAX_ELF_SIZE = 256 << 20  # bytes; BusyBox is 1.8 MB


def read_elf(path) -> bytes:
    """The bytes of a host file, or an ElfError saying why it cannot be read: also a file that is not
    a regular one (/dev/zero never ends) or is larger than MAX_ELF_SIZE, refused before reading."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ElfError("not a regular file", str(path))
        if info.st_size > MAX_ELF_SIZE:
            raise ElfError(f"{info.st_size:,} bytes, more than the {MAX_ELF_SIZE >> 20} MiB an executable may have",
                           str(path))
        return Path(path).read_bytes()
    except OSError as exc:
        raise ElfError(f"cannot read: {exc.strerror}", str(path)) from exc


def _perms(flags: int) -> str:  # p_flags: X=1, W=2, R=4
    return ("r" if flags & 4 else "-") + ("w" if flags & 2 else "-") + ("x" if flags & 1 else "-")


@dataclass(frozen=True)
class Segment:
    """One program header: what the loader maps (LOAD) or is told (TLS, GNU_STACK, …)."""

    type: str
    perms: str
    offset: int  # in the file
    vaddr: int  # in the process
    filesz: int
    memsz: int  # memsz > filesz: the rest is zero-filled (.bss)
    align: int


@dataclass(frozen=True)
class Section:
    name: str
    type: int
    address: int
    offset: int
    size: int
    link: int  # for a symbol table: the section holding its names


@dataclass(frozen=True)
class Symbol:
    name: str
    address: int
    size: int
    kind: str  # function, object or tls


class ElfFile:
    """An ELF64 little-endian AArch64 executable, checked as it is read (ElfError says what and where)."""

    def __init__(self, data: bytes, path: str | None = None):
        self.data, self.path = data, path
        if len(self.data) < HEADER.size:
            self._fail(f"{len(self.data)} bytes is too short for an ELF header ({HEADER.size} bytes)")
        (ident, e_type, machine, _version, self.entry, phoff, shoff, _flags, _ehsize, phentsize, phnum,
         shentsize, shnum, shstrndx) = HEADER.unpack_from(self.data)
        if ident[:4] != b"\x7fELF":
            self._fail(f"not an ELF file (starts with {ident[:4]!r}, not b'\\x7fELF')")
        if ident[4] != 2:
            self._fail(f"not a 64-bit ELF file (EI_CLASS={ident[4]}; 1 is 32-bit); the machine runs 64-bit programs")
        if ident[5] != 1:
            self._fail(f"not a little-endian ELF file (EI_DATA={ident[5]}; 2 is big-endian), as AArch64 Linux "
                       "programs are")
        if machine != EM_AARCH64:
            self._fail(f"built for {MACHINES.get(machine, f'machine {machine}')} (e_machine={machine}), not AArch64")
        if e_type not in (2, 3):
            self._fail(f"not an executable: e_type={e_type} ({FILE_TYPES.get(e_type, 'unknown')})")
        self.file_type = FILE_TYPES[e_type]
        self.machine = MACHINES[machine]
        self.segments = [self._segment(phoff + i * phentsize, i) for i in self._table(phoff, phentsize, phnum,
                                                                                      PROGRAM_HEADER, "program")]
        self._section_table = (shoff, shentsize, shnum, shstrndx)
        if not any(s.type == "LOAD" for s in self.segments):
            self._fail("no LOAD segment: nothing to map into memory")

    @classmethod
    def read(cls, path) -> "ElfFile":
        return cls(read_elf(path), str(path))

    def _fail(self, message: str):
        raise ElfError(message, self.path)

    def _table(self, offset: int, entsize: int, count: int, layout: struct.Struct, what: str) -> range:
        if count and entsize != layout.size:
            self._fail(f"{what} header entries are {entsize} bytes, expected {layout.size}")
        if offset + entsize * count > len(self.data):
            self._fail(f"the {what} header table (offset 0x{offset:x}, {count} entries) runs past the end "
                       f"of the file ({len(self.data)} bytes)")
        return range(count)

    def _segment(self, at: int, index: int) -> Segment:
        p_type, flags, offset, vaddr, _paddr, filesz, memsz, align = PROGRAM_HEADER.unpack_from(self.data, at)
        if p_type == 1 and offset + filesz > len(self.data):
            self._fail(f"segment {index} (LOAD at 0x{vaddr:x}) has file bytes 0x{offset:x}..0x{offset + filesz:x} "
                       f"past the end of the file ({len(self.data)} bytes)")
        if filesz > memsz:
            self._fail(f"segment {index} has more file bytes ({filesz}) than memory bytes ({memsz})")
        return Segment(SEGMENT_TYPES.get(p_type, f"0x{p_type:x}"), _perms(flags), offset, vaddr, filesz, memsz, align)

    @cached_property
    def sections(self) -> list[Section]:
        shoff, entsize, count, names_index = self._section_table
        raw = [SECTION_HEADER.unpack_from(self.data, shoff + i * entsize)
               for i in self._table(shoff, entsize, count, SECTION_HEADER, "section")]
        for i, (_n, s_type, _f, _a, offset, size, *_rest) in enumerate(raw):
            if s_type != SHT_NOBITS and offset + size > len(self.data):
                self._fail(f"section {i} (offset 0x{offset:x}, {size} bytes) runs past the end of the file")
        names = raw[names_index][4] if 0 < names_index < len(raw) else None
        return [Section(self._string(names, n) if names is not None else "", s_type, addr, offset, size, link)
                for n, s_type, _flags, addr, offset, size, link, *_rest in raw]

    def _string(self, table: int, index: int) -> str:
        end = self.data.find(b"\0", table + index)
        return self.data[table + index:end if end >= 0 else len(self.data)].decode("utf-8", "replace")

    @cached_property
    def symbols(self) -> dict[str, Symbol]:
        """Functions, objects and thread-locals of the symbol table by name (empty if stripped)."""
        symbols = {}
        for index, table in enumerate(self.sections):
            if table.type != SHT_SYMTAB:
                continue
            if not 0 < table.link < len(self.sections):
                self._fail(f"symbol table (section {index}) names string table {table.link}, which does not exist")
            strings = self.sections[table.link].offset
            for at in range(table.offset, table.offset + table.size - SYMBOL.size + 1, SYMBOL.size):
                name, info, _other, shndx, value, size = SYMBOL.unpack_from(self.data, at)
                kind = SYMBOL_KINDS.get(info & 0xF)
                if kind and shndx and name:
                    symbols.setdefault(self._string(strings, name), Symbol(self._string(strings, name), value,
                                                                           size, kind))
        return symbols

    # --- questions ---------------------------------------------------------------------------------
    @property
    def stripped(self) -> bool:
        """True when the file has no symbol table (Debian's BusyBox, for one)."""
        return not self.symbols

    def address_of(self, name: str) -> int:
        """The address of a function or object symbol, e.g. address_of("main")."""
        if name not in self.symbols:
            why = ("the file is stripped (no symbol table); use an address"
                   if self.stripped else f"no symbol {name!r} in its symbol table")
            raise KeyError(f"{self.path or 'ELF file'}: {why}")
        return self.symbols[name].address

    @cached_property
    def _functions(self) -> tuple[list[int], list[tuple[int, int, int, str]]]:
        """Function symbols as (start, end, order in the table, name), sorted, and their starts."""
        rows = sorted((s.address, s.address + max(s.size, 1), order, s.name)
                      for order, s in enumerate(self.symbols.values()) if s.kind == "function")
        return [row[0] for row in rows], rows

    def function_at(self, address: int) -> tuple[str, int] | None:
        """(name, start) of the function symbol containing `address`, by binary search (aliases that
        share a start: the later in the table, as `symbol_at` picks)."""
        starts, rows = self._functions
        i = bisect.bisect_right(starts, address)
        found = [row for row in rows[max(0, i - 8):i] if row[0] <= address < row[1]]
        if not found:
            return None
        _, _, _, name = max(found, key=lambda row: row[2])
        return name, next(row[0] for row in found if row[3] == name)

    def symbol_at(self, address: int) -> str | None:
        """The function containing `address`, as 'name' or 'name+0x10'."""
        best = None
        for s in self.symbols.values():
            if s.kind == "function" and s.address <= address < s.address + max(s.size, 1):
                best = s
        if best is None:
            return None
        return best.name if address == best.address else f"{best.name}+0x{address - best.address:x}"

    def __repr__(self) -> str:
        name = Path(self.path).name if self.path else "ELF"
        return (f"<ElfFile {name}: {self.machine} {self.file_type.split()[0]}, entry 0x{self.entry:x}, "
                f"{len(self.segments)} segments, {len(self.sections)} sections, {len(self.symbols)} symbols>")

    def _repr_html_(self) -> str:
        head = [["file", escape(self.path or "-")], ["size", f"{len(self.data):,} bytes"],
                ["machine", self.machine], ["type", escape(self.file_type)], ["entry", f"0x{self.entry:x}"],
                ["symbols", f"{len(self.symbols):,}" if self.symbols else "none (stripped)"]]
        rows = [[s.type, s.perms, f"0x{s.offset:x}", f"0x{s.vaddr:x}", f"{s.filesz:,}", f"{s.memsz:,}",
                 f"0x{s.align:x}"] for s in self.segments]
        return html.view("ELF executable", html.box(html.table(["", ""], head)),
                         html.box(html.table(["segment", "perms", "offset", "vaddr", "file bytes", "memory bytes",
                                              "align"], rows, numeric=(4, 5))))
