"""What every view shares: its browser code, message dispatch, the static fallback, and following
the machine after each cell.

Views are anywidgets. Their ESM is `panels.js` (shared panel renderers) followed by the view's own
file, joined here rather than by a bundler; `widgets.css` styles them all with JupyterLab's theme
variables. Bulk data (memory pages, trace rows) is asked for by the browser with custom messages
`{"action": ..., "id": n, ...}` and answered with `{"kind": ..., "id": n, ...}`, binary parts as
buffers. A handler that fails answers `{"kind": "error", "id": n, "message": ...}`, shown in the view;
a request put off until the running cell ends answers `{"kind": "deferred", "id": n}`.
"""
from __future__ import annotations

import traceback
import weakref
from pathlib import Path

import anywidget
import traitlets

HERE = Path(__file__).parent


def browser_code(view_file: str) -> str:
    return (HERE / "panels.js").read_text() + "\n" + (HERE / view_file).read_text()


STYLE = (HERE / "widgets.css").read_text()


class MachineView(anywidget.AnyWidget):
    """Base of the views: dispatches browser messages to `on_<action>` methods and keeps a
    `text/html` snapshot (`static_html`) in the display bundle for exported notebooks."""

    _css = STYLE
    radix = traitlets.Unicode("hex").tag(sync=True)  # how values show: "hex" or "dec" (signed)

    anytime = frozenset()  # actions safe while a cell runs (they do not touch the machine)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._cell_running = False
        self._deferred: list[dict] = []
        self.on_msg(self._dispatch)
        self._follow_cells()

    # --- messages --------------------------------------------------------------------------------
    def _dispatch(self, _widget, content: dict, buffers) -> None:
        # JupyterLab (4.4+, with ipykernel 7+) sends widget messages to a kernel *subshell*, handled on
        # its own thread even while a cell runs. The cell may be using the machine, so requests wait
        # for the cell to end, as they would without subshells; only `anytime` actions (pause) go ahead.
        if self._cell_running and content.get("action") not in self.anytime:
            self._deferred.append(content)
            self.reply(content, {"kind": "deferred"})
            return
        self.handle(content)

    def handle(self, content: dict) -> None:
        action = content.get("action", "")
        handler = getattr(self, f"on_{action}", None)
        try:
            if handler is None:
                raise ValueError(f"unknown action {action!r}")
            handler(content)
        except Exception as error:  # shown in the view: the kernel's log is out of sight
            self.reply(content, {"kind": "error", "message": f"{action}: {error}",
                                 "detail": traceback.format_exc(limit=3)})

    def reply(self, request: dict, message: dict, buffers: list[bytes] | None = None) -> None:
        self.send({**message, "id": request.get("id")}, buffers)

    # --- following the notebook --------------------------------------------------------------------
    def before_cell(self) -> None:
        self._cell_running = True

    def after_cell(self) -> None:
        """A cell ended: handle what the view asked meanwhile, then show what the cell did."""
        self._cell_running = False
        deferred, self._deferred = self._deferred, []
        for content in deferred:
            self.handle(content)
        self.refresh()

    def _follow_cells(self) -> None:
        try:
            from IPython import get_ipython
        except ImportError:
            return
        shell = get_ipython()
        if shell is None:
            return
        ref = weakref.ref(self)

        def hook(method: str, event: str):
            def call(*_args):
                view = ref()
                if view is None or view.comm is None:  # closed or collected: stop following
                    shell.events.unregister(event, call)
                else:
                    getattr(view, method)()
            shell.events.register(event, call)

        hook("before_cell", "pre_run_cell")
        hook("after_cell", "post_run_cell")

    def refresh(self) -> None:
        """Re-read the machine (called after every cell)."""

    # --- static fallback -------------------------------------------------------------------------
    def static_html(self) -> str:
        """The view as plain HTML, for notebooks shown without a kernel; every view defines its own."""
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.static_html()
        return data, metadata

    def html(self):
        """The view as static HTML (no JavaScript), e.g. to keep a state in an exported notebook."""
        from IPython.display import HTML

        return HTML(self.static_html())
