"""Where an AArch64 run spends its instructions: per function and per instruction, and a flame graph.

    prof = ncpu_nb.profile(Arm64Machine.busybox("sh", "-c", "seq 2000 | sort -n | tail -1"))
    prof                      # the functions with most instructions, and the hottest instructions
    prof.functions()          # [FunctionCount(name, instructions, share, inclusive), …]
    prof.flame()              # a plotly icicle: call paths, each as wide as the samples under it

The engine counts every instruction's PC exactly (`set_profile`), and every `period` instructions
samples the call stack it keeps from BL/BLR and RET, per thread, as return addresses (each lies in the
function that made the call, so tail calls do not misname frames). Self counts per function are exact
(the PC counts, grouped by function); inclusive counts and the flame graph come from the samples.

Functions are named from the ELF's symbol table. A stripped program (Debian's BusyBox) has none: then
every address some BL/BLR called is a function entry, named `sub_<address>`, and an instruction belongs
to the nearest entry at or below it.
"""
from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass
from html import escape

from ncpu_nb import html
from ncpu_nb.protocol import Hosted, Instrumented, needs

PERIOD = 97  # instructions between stack samples (prime, so loops don't beat against it)
SHOWN = 20


@dataclass(frozen=True)
class FunctionCount:
    name: str
    instructions: int  # executed in the function itself (exact)
    share: float  # of all instructions
    inclusive: float  # estimated share with its callees (from the samples)


class Profile:
    """The profile of one run (see the module doc)."""

    def __init__(self, machine, counts: list[tuple[int, int]], samples: list[tuple[list[int], int]],
                 entries: list[int], period: int):
        self.title, self.period = machine.title, period
        self.counts = dict(counts)
        self.samples = [(tuple(stack), n) for stack, n in samples]
        self.total = sum(self.counts.values())
        symbols = sorted((s.address, s.address + max(s.size, 4), s.name) for s in machine.elf.symbols.values()
                         if s.kind == "function")
        if not symbols:  # stripped: every call target is an entry
            symbols = [(e, (entries + [1 << 64])[i + 1], f"sub_{e:x}") for i, e in enumerate(entries)]
        self._symbols, self._starts = symbols, [s[0] for s in symbols]
        self._instruction_at = machine.instruction_at

    def function(self, pc: int) -> str:
        i = bisect.bisect_right(self._starts, pc) - 1
        return self._symbols[i][2] if i >= 0 and pc < self._symbols[i][1] else f"0x{pc:x}"

    def functions(self) -> list[FunctionCount]:
        """Every function that ran, most instructions first."""
        own = Counter()
        for pc, n in self.counts.items():
            own[self.function(pc)] += n
        sampled = sum(n for _, n in self.samples) or 1
        inclusive = Counter()
        for stack, n in self.samples:
            for name in set(self.path(stack)):
                inclusive[name] += n
        return [FunctionCount(name, n, n / self.total, inclusive[name] / sampled) for name, n in own.most_common()]

    def path(self, stack: tuple[int, ...]) -> list[str]:
        """The functions of a sampled stack, outermost first: the callers (from return addresses), then
        the function of the PC."""
        return [self.function(address) for address in stack]

    def instructions(self, n: int = SHOWN) -> list[tuple[int, int, str, str]]:
        """The `n` hottest instructions: (pc, times executed, function, disassembly)."""
        hottest = sorted(self.counts.items(), key=lambda kv: -kv[1])[:n]
        return [(pc, count, self.function(pc), self._instruction_at(pc)) for pc, count in hottest]

    def flame(self, max_depth: int = 24):
        """A flame graph of the sampled stacks as a plotly icicle (click a frame to zoom in)."""
        import plotly.graph_objects as go

        weight = Counter()
        for stack, n in self.samples:
            names = self.path(stack[-max_depth:])
            path = "all"
            weight[path] += n
            for name in names:
                path += ";" + name
                weight[path] += n
        ids = list(weight)
        fig = go.Figure(go.Icicle(ids=ids, labels=[i.rsplit(";", 1)[-1] for i in ids],
                                  parents=["" if i == "all" else i.rsplit(";", 1)[0] for i in ids],
                                  values=[weight[i] for i in ids], branchvalues="total", tiling={"orientation": "v"},
                                  hovertemplate="%{label}<br>%{value} samples (%{percentRoot:.1%})<extra></extra>"))
        fig.update_layout(title=f"Flame graph of {self.title} (a sample every {self.period} instructions)",
                          height=520, margin={"t": 40, "l": 8, "r": 8, "b": 8})
        return fig

    def summary(self) -> list[str]:
        lines = [f"{self.total:,} instructions, {len(self.counts):,} distinct PCs, "
                 f"{sum(n for _, n in self.samples):,} stack samples"]
        for f in self.functions()[:10]:
            lines.append(f"  {f.share:6.1%} self {f.inclusive:6.1%} with callees  {f.name}")
        return lines

    def __repr__(self) -> str:
        return "\n".join(self.summary())

    def _repr_html_(self) -> str:
        functions = [[escape(f.name), f"{f.instructions:,}", f"{f.share:.1%}", f"{f.inclusive:.1%}"]
                     for f in self.functions()[:SHOWN]]
        hot = [[f"0x{pc:x}", f"{n:,}", escape(name), f"<code>{escape(text)}</code>"]
               for pc, n, name, text in self.instructions()]
        return html.view(f"Profile of {escape(self.title)}", f"<div>{escape(self.summary()[0])}</div>",
                         html.table(["function", "instructions", "self", "with callees (sampled)"], functions,
                                    numeric=(1, 2, 3)),
                         html.table(["pc", "executed", "function", "instruction"], hot, numeric=(1,)))


def profile(machine, *, max_steps: int | None = None, period: int = PERIOD) -> Profile:
    """Run an `Arm64Machine` from where it is to its end (or `max_steps` instructions) with the
    engine's profiler on, and return where the instructions went. The machine is left where it stopped."""
    needs(machine, "profile", Instrumented, Hosted)
    if period < 1:
        raise ValueError("period must be at least 1")
    machine.set_profile(period)
    try:
        machine.run(max_steps, check=False)
        counts, samples, entries = machine.profile_counts()
    finally:
        machine.set_profile(0)
    return Profile(machine, counts, samples, entries, period)



