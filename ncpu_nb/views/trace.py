"""`TraceView`: the trace of a finished run, filterable, a window of rows at a time.

Filtering happens in the kernel (`filter`), so a long trace never travels whole: the view asks for
rows with a `rows` message. `to_dataframe()` gives the filtered steps to pandas."""
from __future__ import annotations

import traitlets

from ncpu_nb import html
from ncpu_nb.protocol import DebugLayout, MachineProtocol, RegisterGroup, Trace, TraceStep
from ncpu_nb.views import static, wire
from ncpu_nb.views.base import MachineView, browser_code

ROWS = 200  # rows per request, and in the static snapshot


class TraceView(MachineView):
    """`TraceView(cpu)` or `TraceView(trace, layout)`: filter by instruction text, by a register
    changed, or to memory writes.

    layout   register widths and how code locations print (`machine.debug_layout()`,
             taken from the machine when given one); by default `trace.width` bits and decimal PCs
    """

    _esm = browser_code("trace_view.js")
    anytime = frozenset({"rows"})  # a finished trace: no machine involved
    text = traitlets.Unicode("").tag(sync=True)  # instruction text contains this (any case)
    register = traitlets.Unicode("").tag(sync=True)  # the step changed this register
    stores = traitlets.Bool(False).tag(sync=True)  # only steps that wrote memory
    summary = traitlets.Dict().tag(sync=True)  # total, matching, registers; `generation` bumps on each change

    def __init__(self, trace: Trace | MachineProtocol, layout: DebugLayout | None = None, **filters):
        if not isinstance(trace, Trace):
            trace, layout = trace.trace, layout or trace.debug_layout()
        self.trace = trace
        names = tuple(dict.fromkeys(name for step in trace for name in step.changes))
        self.debug_layout = layout or DebugLayout((RegisterGroup("registers", names, trace.width),))
        self._bits = wire.register_bits(self.debug_layout)
        self._generation = 0
        super().__init__(**filters)
        self._update()

    def filter(self, text: str | None = None, register: str | None = None, stores: bool | None = None) -> list[TraceStep]:
        """Steps matching the filters (the view's own when not given)."""
        text = (self.text if text is None else text).strip().lower()
        register = self.register if register is None else register
        stores = self.stores if stores is None else stores
        return [s for s in self.trace
                if (not text or text in s.instruction.lower()) and (not register or register in s.changes)
                and (not stores or s.memory_write is not None)]

    @traitlets.observe("text", "register", "stores")
    def _filters_changed(self, _change) -> None:
        self._update()

    def _update(self) -> None:
        self._generation += 1
        self.summary = {"generation": self._generation, "total": len(self.trace), "matching": len(self.filter()),
                        "registers": [n for g in self.debug_layout.register_groups for n in g.names]}

    def rows(self, offset: int = 0, limit: int = ROWS) -> list[dict]:
        return [wire.trace_step(s, self.debug_layout, self._bits) for s in self.filter()[offset:offset + limit]]

    def on_rows(self, content: dict) -> None:
        offset = int(content.get("offset", 0))
        self.reply(content, {"kind": "rows", "offset": offset, "generation": self._generation,
                             "rows": self.rows(offset, int(content.get("limit", ROWS)))})

    def to_dataframe(self):
        """The filtered steps as a pandas DataFrame (pandas must be installed)."""
        return Trace(self.filter(), self.trace.width).to_dataframe()

    def static_html(self) -> str:
        rows, matching = self.rows(), self.summary["matching"]
        more = f"<div class='dim'>… and {matching - len(rows):,} more</div>" if matching > len(rows) else ""
        filters = ", ".join(f for f in (self.text and f"text “{self.text}”", self.register and f"changes {self.register}",
                                        self.stores and "memory writes") if f)
        title = f"Trace: {matching:,} of {len(self.trace):,} steps" + (f" ({filters})" if filters else "")
        return html.view(title, static.trace(rows, self.radix), more)
