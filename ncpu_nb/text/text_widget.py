"""`TextMachineWidget`: the text machine in a notebook cell — an editable table of example pairs,
synthesize (with its progress), the summary and program, apply to new text, a fast/neural switch,
and the program opened in the debugger with the string in memory.

The logic is `TextMachine`'s; this class only turns browser messages into its calls and its state
into synced traits. Messages: {"action": "synthesize", "examples": [[in, out], ...]},
{"action": "apply", "text": ...}, {"action": "debugger", "text": ...}; the mode is the `mode` trait.
"""
from __future__ import annotations

from html import escape
from pathlib import Path

import traitlets

from ncpu_nb import html
from ncpu_nb.text.synthesize import TextResult
from ncpu_nb.views.base import HERE as VIEWS
from ncpu_nb.views.base import STYLE, MachineView

# The shared panel helpers (h, channel) first, then this view's own code: one module, no bundler.
BROWSER_CODE = (VIEWS / "panels.js").read_text() + "\n" + Path(__file__).with_name("text_widget.js").read_text()


def summary_state(result: TextResult | None) -> dict:
    """What the browser shows of a result (an empty dict before the first search)."""
    if result is None:
        return {}
    return {"solved": result.solved, "rows": [list(r) for r in result.summary_rows()],
            "program": result.program.source if result.solved else "", "transform": str(result.pipeline or ""),
            "size": result.size, "solver": result.solver or ""}


class TextMachineWidget(MachineView):
    """`ncpu_nb.text_machine()` or `TextMachine(...).widget()`. In code: `synthesize(pairs)`,
    `apply(text)`, `open_debugger(text)` do what the buttons do; `machine` is the `TextMachine`."""

    _esm = BROWSER_CODE
    _css = STYLE + Path(__file__).with_name("text_widget.css").read_text()
    examples = traitlets.List([]).tag(sync=True)  # [[input, output], ...] as last synthesized
    summary = traitlets.Dict({}).tag(sync=True)  # see summary_state
    applied = traitlets.List([]).tag(sync=True)  # [[text, result, mode], ...], newest last
    mode = traitlets.Unicode("fast").tag(sync=True)
    status = traitlets.Unicode("ready").tag(sync=True)  # ready, searching, solved or not solved
    progress = traitlets.Unicode("").tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)

    def __init__(self, machine):
        self.machine = machine  # the TextMachine it shows (it never makes one: the machine makes its views)
        self._debug_output = None
        found = self.machine.result
        super().__init__(examples=[list(p) for p in self.machine.examples], mode=self.machine.mode,
                         summary=summary_state(found),
                         status="ready" if found is None else "solved" if found.solved else "not solved")

    @traitlets.observe("mode")
    def _mode_changed(self, change) -> None:
        self.machine.mode = change["new"]

    # --- actions (browser messages and Python calls alike) ----------------------------------------
    def on_synthesize(self, content: dict) -> None:
        self.synthesize(content.get("examples", self.examples))
        self.reply(content, {"kind": "synthesized"})

    def on_apply(self, content: dict) -> None:
        self.reply(content, {"kind": "applied", "result": self.apply(str(content.get("text", "")))})

    def on_debugger(self, content: dict) -> None:
        self.open_debugger(str(content.get("text", "")))
        self.reply(content, {"kind": "debugger"})

    def synthesize(self, pairs) -> TextResult | None:
        """Replace the examples by `pairs` (blank rows skipped) and search."""
        rows = [(str(x), str(y)) for x, y in pairs if str(x) or str(y)]
        self.message = ""
        try:
            self.machine.clear()
            for x, y in rows:
                self.machine.add(x, y)
        except ValueError as exc:  # a bad example: say which, keep the table as typed
            self.status, self.message = "ready", str(exc)
            return None
        self.examples = [list(p) for p in rows]
        self.status, self.progress = "searching", "searching…"
        result = self.machine.synthesize(progress=self._progress)
        self.summary = summary_state(result)
        self.status = "solved" if result.solved else "not solved"
        self.progress = (f"{result.fits} fit{'s' if result.fits != 1 else ''}, checked on the exact CPU in "
                         f"{result.seconds:.2f} s" if result.solved else result.message)
        return result

    def _progress(self, info: dict) -> None:
        if info.get("solver") == "verify":
            self.progress = f"checking {info['checking']} on the exact CPU"
        elif info.get("solver") == "composition":
            self.progress = f"compositions: {info['tried']} of {info['of']} first stages, {info['found']} fits"
        else:
            self.progress = f"single transforms: {info.get('found', 0)} fit"

    def apply(self, text: str) -> str | None:
        self.message = ""
        try:
            out = self.machine.apply(text)
        except (ValueError, RuntimeError) as exc:
            self.message = str(exc)
            return None
        self.applied = [*self.applied, [text, out, self.machine.mode]][-20:]
        return out

    def open_debugger(self, text: str):
        """The program in the debugger with `text` in memory, shown under the widget (and returned)."""
        from IPython.display import clear_output, display

        dbg = self.machine.debugger(text)
        with self.debug_output:  # an Output widget shows what is displayed from a message handler
            clear_output()
            display(dbg)
        return dbg

    @property
    def debug_output(self):
        if self._debug_output is None:
            import ipywidgets

            self._debug_output = ipywidgets.Output()
        return self._debug_output

    def _ipython_display_(self) -> None:
        from IPython.display import display

        data, metadata = self._repr_mimebundle_()
        display(data, metadata=metadata, raw=True)
        display(self.debug_output)

    # --- static fallback --------------------------------------------------------------------------
    def static_html(self) -> str:
        parts = [html.table(["input", "output"], [[escape(x), escape(y)] for x, y in self.examples])]
        if self.summary:
            parts.append(html.table(["", ""], [[escape(k), escape(v)] for k, v in self.summary["rows"]]))
            if self.summary["program"]:
                parts.append(f"<pre>{escape(self.summary['program'])}</pre>")
        if self.applied:
            rows = [[escape(a) for a in row] for row in self.applied]
            parts.append(html.table(["applied to", "result", "mode"], rows))
        return html.view(f"Text machine ({self.mode} mode): {self.status}", *parts)
