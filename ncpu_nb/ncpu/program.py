"""`Program`: an assembled nCPU program (words, literal pool, data image, labels, source map)."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ncpu_nb import html
from ncpu_nb.ncpu.encoding import Instruction, lower


@dataclass(frozen=True)
class Program:
    instructions: tuple[Instruction, ...]
    words: tuple[int, ...]
    literals: tuple[int, ...] = ()
    data: bytes = b""
    code_labels: dict | None = None
    data_labels: dict | None = None
    source: str = ""
    lines: tuple[int, ...] = ()  # source line of each instruction (1-based)
    name: str = "<program>"

    def __len__(self) -> int:
        return len(self.instructions)

    @property
    def micro_ops(self) -> list[tuple[int, ...]]:
        return [lower(i) for i in self.instructions]

    def label_at(self) -> dict[int, str]:
        """Instruction index -> first code label naming it."""
        out: dict[int, str] = {}
        for name, index in (self.code_labels or {}).items():
            out.setdefault(index, name)
        return out

    def source_line(self, index: int) -> str:
        if not self.source or not 0 <= index < len(self.lines):
            return ""
        return self.source.splitlines()[self.lines[index] - 1].strip()

    def listing(self, around: int | None = None, context: int | None = None) -> list[tuple]:
        """(index, label, word, disassembly, source line) rows, optionally a window around `around`."""
        labels = self.label_at()
        lo, hi = 0, len(self)
        if around is not None and context is not None:
            lo, hi = max(0, around - context), min(len(self), around + context + 1)
        return [(i, labels.get(i, ""), self.words[i], self.instructions[i].text(labels), self.source_line(i))
                for i in range(lo, hi)]

    def listing_html(self, current: int | None = None, context: int | None = None,
                     breakpoints: frozenset = frozenset()) -> str:
        rows, classes = [], {}
        for r, (i, label, word, text, src) in enumerate(self.listing(current, context)):
            mark = "●" if i in breakpoints else ""
            rows.append([mark, str(i), escape(label + ":" if label else ""), f"{word:08X}", escape(text),
                         f"<span class='dim'>{escape(src)}</span>"])
            if i == current:
                classes[r] = "cur"
        return html.table(["", "addr", "label", "encoding", "instruction", "source"], rows, classes, numeric=(1,))

    def _repr_html_(self) -> str:
        extra = f", {len(self.literals)} literals" if self.literals else ""
        extra += f", {len(self.data)} bytes of data" if self.data else ""
        return html.view(f"Program {self.name}: {len(self)} instructions{extra}", self.listing_html())

    def __repr__(self) -> str:
        return f"<Program {self.name}: {len(self)} instructions>"


def data_address(where, program: Program | None, memory_size: int) -> int:
    """A data address from an int or a data label of `program`, checked against the memory size."""
    if isinstance(where, str):
        labels = (program.data_labels or {}) if program is not None else {}
        if where not in labels:
            raise KeyError(f"no data label {where!r}")
        return labels[where]
    address = int(where)
    if not 0 <= address < memory_size:
        raise IndexError(f"address {address} is outside data memory ({memory_size} bytes)")
    return address
