"""What every view shares: its browser code, message dispatch, the static fallback, and following
the machine after each cell.

Views are anywidgets. Their ESM is `panels.js` (shared panel renderers) followed by the view's own
file, joined here rather than by a bundler; `widgets.css` styles them all with JupyterLab's theme
variables. Bulk data (memory pages, trace rows) is asked for by the browser with custom messages
`{"action": ..., "id": n, ...}` and answered with `{"kind": ..., "id": n, ...}`, binary parts as
buffers. A handler that fails answers `{"kind": "error", "id": n, "message": ...}`, shown in the view.
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

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.on_msg(self._dispatch)
        self._follow_cells()

    # --- messages --------------------------------------------------------------------------------
    def _dispatch(self, _widget, content: dict, buffers) -> None:
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

    # --- following the machine ---------------------------------------------------------------------
    def _follow_cells(self) -> None:
        """Refresh after every cell, so the view shows what code in the notebook did to the machine."""
        try:
            from IPython import get_ipython
        except ImportError:
            return
        shell = get_ipython()
        if shell is None:
            return
        ref = weakref.ref(self)

        def after_cell(_result=None):
            view = ref()
            if view is None or view.comm is None:
                shell.events.unregister("post_run_cell", after_cell)
            else:
                view.refresh()

        shell.events.register("post_run_cell", after_cell)

    def refresh(self) -> None:
        """Re-read the machine (called after every cell)."""

    # --- static fallback -------------------------------------------------------------------------
    def static_html(self) -> str:
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs):
        data, metadata = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.static_html()
        return data, metadata

    def html(self):
        """The view as static HTML (no JavaScript), e.g. to keep a state in an exported notebook."""
        from IPython.display import HTML

        return HTML(self.static_html())
