"""A backward slice as the origin tools report it, on either machine (`origin.py` for the nCPU,
`arm64_origin.py` for AArch64): the steps that produced a value, the inputs they reach, and its table."""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from html import escape

from ncpu_nb import html


@dataclass(frozen=True)
class Source:
    """One input a step read: a register or the bytes at an address, and the step that wrote it
    (None: it was so at the start of the run)."""

    what: str  # "R2" or "mem[0x40..0x43]"
    value: int
    writer: int | None
    note: str = ""  # for an input that is not a start value: the system call that brought it in


@dataclass
class SliceStep:
    step: int
    pc: int
    instruction: str
    produced: str  # what this step wrote that the slice needs
    value: int | None  # None where a row joins several outputs
    sources: list[Source] = field(default_factory=list)
    address: list[str] = field(default_factory=list)  # registers that chose an address (not followed)


def merged(steps: dict[tuple[int, str], SliceStep]) -> list[SliceStep]:
    """One row per step, newest first: a step reached for several of its outputs (the bytes of one
    store, asked for one by one) lists them together, with their sources and address registers."""
    rows: dict[int, SliceStep] = {}
    for (i, _), s in sorted(steps.items()):
        row = rows.get(i)
        if row is None:
            rows[i] = SliceStep(s.step, s.pc, s.instruction, s.produced, s.value, list(s.sources), list(s.address))
            continue
        row.produced = _join(row.produced, s.produced)
        row.value = None
        row.sources += [src for src in s.sources if src not in row.sources]
        row.address += [a for a in s.address if a not in row.address]
    return [rows[i] for i in sorted(rows, reverse=True)]


def _join(a: str, b: str) -> str:
    """Two outputs as one text; adjacent byte ranges become one range."""
    def span(text):
        lo, _, hi = text[4:-1].partition("..")
        return int(lo, 16), int(hi or lo, 16)

    if a.startswith("mem[") and b.startswith("mem[") and ", " not in a:
        (a0, a1), (b0, b1) = span(a), span(b)
        if b0 <= a1 + 1 and a0 <= b1 + 1:
            lo, hi = min(a0, b0), max(a1, b1)
            return f"mem[0x{lo:x}..0x{hi:x}]"
    return f"{a}, {b}"


class Origin:
    """The slice (see the module doc): `steps` newest first, `inputs` the start-of-run values it reaches."""

    def __init__(self, target: str, value: int, at: int, steps: list[SliceStep], inputs: list[Source],
                 labels: dict[int, str], hex_pc: bool = False, truncated: bool = False):
        self.target, self.value, self.at = target, value, at
        self.steps, self.inputs, self.truncated = steps, inputs, truncated
        self._labels, self._hex = sorted(labels.items()), hex_pc

    def _where(self, pc: int) -> str:
        i = bisect.bisect_right(self._labels, (pc, "\uffff")) - 1
        if i < 0:
            return f"0x{pc:x}" if self._hex else str(pc)
        start, name = self._labels[i]
        return name if pc == start else f"{name}+{f'0x{pc - start:x}' if self._hex else pc - start}"

    @staticmethod
    def _input(src: Source) -> str:
        value = shown_value(src.what, src.value)
        return f"{src.what} = {value} from {src.note}" if src.note else f"{src.what} = {value} at the start"

    def summary(self) -> list[str]:
        lines = [f"{self.target} = {shown_value(self.target, self.value)} before step {self.at:,}: "
                 f"{len(self.steps)} step(s) made it, from {len(self.inputs)} input(s)"
                 + (f" (stopped after {len(self.steps)} steps)" if self.truncated else "")]
        for s in self.steps:
            came = ", ".join(f"{src.what} (step {src.writer})" if src.writer is not None else f"{src.what} (start)"
                             for src in s.sources) or "a constant"
            shown = s.produced if s.value is None else f"{s.produced} = {shown_value(s.produced, s.value)}"
            lines.append(f"  step {s.step:>5}  {self._where(s.pc):>10}  {s.instruction:<24} {shown}  <- {came}")
        lines += [f"  input: {self._input(src)}" for src in self.inputs]
        return lines

    def __repr__(self) -> str:
        return "\n".join(self.summary())

    def _repr_html_(self) -> str:
        rows = []
        for s in self.steps:
            came = ", ".join(escape(src.what) + (f" <span class='dim'>← step {src.writer}</span>" if src.writer is not None
                                                 else " <span class='dim'>(start)</span>") for src in s.sources)
            rows.append([f"{s.step:,}", escape(self._where(s.pc)), f"<code>{escape(s.instruction)}</code>",
                         escape(s.produced if s.value is None else f"{s.produced} = {shown_value(s.produced, s.value)}"),
                         came or "<span class='dim'>a constant</span>",
                         escape(", ".join(s.address))])
        rows += [["input", "", "", escape(f"{src.what} = {shown_value(src.what, src.value)}"),
                  f"<span class='dim'>{escape(src.note or 'the start')}</span>", ""] for src in self.inputs]
        head = (f"<div><b>{escape(self.target)}</b> = {escape(shown_value(self.target, self.value))} before step {self.at:,}: "
                f"{len(self.steps)} step(s), {len(self.inputs)} input(s)</div>")
        table = html.table(["step", "where", "instruction", "wrote", "from", "address from"], rows,
                           row_classes={i: "hl" for i in range(min(1, len(rows)))}, numeric=(0,))
        return html.view(f"Where {self.target} came from", head, table)


def shown_value(what: str, value: int) -> str:
    """A value as text: a number for a register or a memory range of a number's width (1, 2, 4 or 8
    bytes), the bytes themselves for any other range (text, a vector)."""
    if what.startswith("mem[") and ".." in what:
        lo, hi = (int(x, 16) for x in what[4:-1].split(".."))
        if hi - lo + 1 not in (1, 2, 4, 8):
            return repr((value % (1 << 8 * (hi - lo + 1))).to_bytes(hi - lo + 1, "little"))
    return str(value)
