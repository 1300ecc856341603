"""`DiscoverView`: programs from examples in the notebook — an editable table of examples (or a
preset), *synthesize* with live progress (which solver runs, gradient descent's restarts and best
loss as it falls, a *stop* button), the summary, *test* on new inputs, *open in debugger* and
*save as .asm*. The logic is `ncpu_nb.discovery.Discovery`; this is its face.

The search runs on a worker thread, as the debugger's runs do, so the kernel stays free to hear
*stop* (handled at once, even while a cell runs: it only sets a flag the search polls)."""
from __future__ import annotations

import threading
import time
from html import escape

import traitlets

from ncpu_nb import html
from ncpu_nb.discovery import PRESETS, Discovery
from ncpu_nb.discovery.discovery import instruction_count
from ncpu_nb.discovery.examples import format_values, parse_values
from ncpu_nb.views.base import MachineView, browser_code

FRAME = 0.1  # seconds: the most often a running search updates the view
MAX_POINTS = 200  # loss points kept for the plot (older ones are thinned)


class DiscoverView(MachineView):
    """`ncpu_nb.discover()` or `DiscoverView(Discovery(...))`."""

    _esm = browser_code("discover.js")
    anytime = frozenset({"stop"})
    rows = traitlets.List().tag(sync=True)  # [[inputs text, outputs text, held out?], ...]
    presets = traitlets.List().tag(sync=True)  # [[name, description], ...]
    status = traitlets.Dict().tag(sync=True)  # phase, method, restarts, seconds, message
    losses = traitlets.List().tag(sync=True)  # gradient descent's best loss, as it falls
    summary = traitlets.Dict().tag(sync=True)  # Summary.as_dict() of the program found ({} before)
    tests = traitlets.List().tag(sync=True)  # [[inputs text, outputs text], ...]
    debugger_ref = traitlets.Unicode("").tag(sync=True)  # "anywidget:<model id>" of the debugger opened

    def __init__(self, discovery: Discovery | None = None):
        self.discovery = discovery or Discovery()
        self._worker: threading.Thread | None = None
        self._debugger = None  # kept alive while shown
        super().__init__()
        self.presets = [[p.name, p.description] for p in PRESETS.values()]
        self._show_examples()
        self.status = {"phase": "idle", "message": self.discovery.description}

    # --- state ------------------------------------------------------------------------------------
    def _show_examples(self) -> None:
        d = self.discovery
        self.rows = [[format_values(i), format_values(o), False] for i, o in d.examples] + \
                    [[format_values(i), format_values(o), True] for i, o in d.held_out]

    def _take_rows(self, rows) -> None:
        """The table as the browser has it, read into the discovery (errors name the row and column).
        Edited examples are no longer the preset's: its name and description go."""
        d = self.discovery
        examples, held_out = [], []
        for n, row in enumerate(rows, 1):
            inputs_text, outputs_text = str(row[0]).strip(), str(row[1]).strip()
            if not inputs_text and not outputs_text:
                continue  # an empty row of the table
            pair = (parse_values(inputs_text, f"row {n}, inputs: "), parse_values(outputs_text, f"row {n}, outputs: "))
            (held_out if len(row) > 2 and row[2] else examples).append(pair)
        if (examples, held_out) == (d.examples, d.held_out):
            return
        d.clear()
        d.name = "discovery"
        for pair in examples:
            d.add(*pair)
        for pair in held_out:
            d.add(*pair, held_out=True)

    # --- actions ------------------------------------------------------------------------------------
    def on_preset(self, content: dict) -> None:
        self.discovery.preset(content.get("name", ""))
        self.summary, self.tests, self.losses = {}, [], []
        self._show_examples()
        self.status = {"phase": "idle", "message": self.discovery.description}
        self.reply(content, {"kind": "ok"})

    def on_synthesize(self, content: dict) -> None:
        self.synthesize(content.get("rows"), wait=False)
        self.reply(content, {"kind": "ok"})

    def synthesize(self, rows=None, *, wait: bool = True) -> "DiscoverView":
        """What the *synthesize* button does (from code): search on the worker thread; `wait` for it."""
        if self._worker is not None:
            raise RuntimeError("a search is already running")
        if rows is not None:
            self._take_rows(rows)
            self._show_examples()
        self.discovery.spec()  # no examples, or malformed ones: say so now, not on the worker
        self.summary, self.tests, self.losses = {}, [], []
        self.status = {"phase": "running", "method": "", "restarts": 0, "seconds": 0.0, "message": "searching"}
        self._worker = threading.Thread(target=self._search, name="ncpu-discover", daemon=True)
        self._worker.start()
        if wait:
            self.wait()
        return self

    def on_stop(self, content: dict) -> None:
        self.discovery.stop()
        self.reply(content, {"kind": "ok"})

    def on_test(self, content: dict) -> None:
        self.test(parse_values(str(content.get("inputs", "")), "test: "))
        self.reply(content, {"kind": "ok"})

    def test(self, inputs) -> list[int]:
        """What the *test* button does: the program's outputs for `inputs`, also listed in the view."""
        outputs = self.discovery.test(inputs)
        self.tests = self.tests + [[format_values(inputs), format_values(outputs)]]
        return outputs

    def on_debugger(self, content: dict) -> None:
        text = str(content.get("inputs", "")).strip()
        self._debugger = self.discovery.debugger(parse_values(text, "inputs: ") if text else None)
        self.debugger_ref = f"anywidget:{self._debugger.model_id}"
        self.reply(content, {"kind": "ok"})

    def on_save(self, content: dict) -> None:
        path = self.discovery.save(str(content.get("path", "")).strip() or f"{self.discovery.name}.asm")
        self.status = {**self.status, "message": f"saved {path}"}
        self.reply(content, {"kind": "ok"})

    # --- the search ---------------------------------------------------------------------------------
    def _search(self) -> None:
        start, shown = time.perf_counter(), 0.0
        live = {"method": "", "restarts": 0}
        losses: list[float] = []

        def progress(info):
            nonlocal shown
            live["method"] = info.get("method", live["method"])
            if "loss" in info:
                live["restarts"] = info.get("restarts", live["restarts"])
                losses.append(round(float(info["loss"]), 5))
                if len(losses) > MAX_POINTS:
                    del losses[::2]
            now = time.perf_counter()
            if now - shown >= FRAME or info.get("starting"):
                shown = now
                self.losses = list(losses)
                self.status = {"phase": "running", **live, "seconds": round(now - start, 2),
                               "message": f"running {live['method']}"}

        try:
            result = self.discovery.synthesize(progress)
            self.losses = list(losses)
            if result.program is None:
                phase = "stopped" if result.stopped else "failed"
                message = "stopped: nothing found yet" if result.stopped else \
                    f"no program found in {result.seconds:.1f} s"
            else:
                self.summary = self.discovery.summary().as_dict()
                phase = "done" if result.solved else "unsolved"
                message = (f"found by {result.method} in {result.seconds:.2f} s" if result.solved else
                           f"found by {result.method}, but it fails held-out examples")
            self.status = {"phase": phase, **live, "method": result.method or live["method"],
                           "seconds": round(result.seconds, 2), "message": message}
        except Exception as error:  # shown in the view: the kernel's log is out of sight
            self.status = {"phase": "error", **live, "message": f"synthesize: {error}"}
        finally:
            self._worker = None

    def wait(self, timeout: float | None = None) -> None:
        """Block until the search ends. Ctrl-C (interrupting the kernel) stops it."""
        worker = self._worker
        if worker is None:
            return
        try:
            worker.join(timeout)
        except KeyboardInterrupt:
            self.discovery.stop()
            worker.join()

    # --- static fallback ------------------------------------------------------------------------------
    def static_html(self) -> str:
        rows = [[escape(r[0]), escape(r[1]), "held out" if r[2] else ""] for r in self.rows]
        parts = [html.box(html.table(["inputs", "outputs", ""], rows)),
                 html.box(f"<p>{escape(self.status.get('message', ''))}</p>")]
        if self.summary:
            s = self.summary
            facts = [["found by", escape(s["solver"])], ["size", f"{instruction_count(s['size'])} (+ HALT)"],
                     ["gradient descent alone", "found it" if s["gradient_found"] else "did not find it"],
                     ["held-out", f"{s['held_out'][0]} / {s['held_out'][1]}"],
                     ["cycles per example", ", ".join(map(str, s["cycles"]))]]
            parts.append(html.box(html.table(["", ""], facts), f"<pre>{escape(s['program'])}</pre>"))
        if self.tests:
            parts.append(html.box(html.table(["test inputs", "outputs"], [[escape(a), escape(b)] for a, b in self.tests])))
        return html.view("Programs from examples", *parts)
