"""Static HTML for `_repr_html_`: no JavaScript, so it survives nbconvert and static export.

Colours come from JupyterLab's theme variables (with light fallbacks), so views follow
light and dark themes.
"""
from __future__ import annotations

from html import escape

STYLE = (
    "<style>"
    ".ncpu-view{font-family:var(--jp-code-font-family,monospace);font-size:12px;"
    "color:var(--jp-content-font-color1,#111);}"
    ".ncpu-view table{border-collapse:collapse;margin:2px 0;}"
    # JupyterLab and nbconvert right-align output tables; these views are left-aligned text
    ".ncpu-view th,.ncpu-view td{padding:1px 8px;text-align:left!important;border:0;white-space:pre;}"
    ".ncpu-view th{color:var(--jp-content-font-color2,#555);font-weight:600;"
    "border-bottom:1px solid var(--jp-border-color2,#ddd);}"
    ".ncpu-view .num{text-align:right!important;}"
    ".ncpu-view .dim{color:var(--jp-content-font-color3,#888);}"
    ".ncpu-view .hl{background:var(--jp-warn-color3,#fff3c4);}"
    ".ncpu-view .cur{background:var(--jp-brand-color3,#d6e9ff);font-weight:600;}"
    ".ncpu-view .title{font-weight:600;margin:2px 0 4px;font-family:var(--jp-ui-font-family,sans-serif);}"
    ".ncpu-view .box{display:inline-block;vertical-align:top;margin-right:16px;}"
    "</style>"
)


def table(headers, rows, row_classes=None, numeric=()) -> str:
    """An HTML table; `rows` hold already-escaped cell strings."""
    head = "".join(f"<th class='num'>{escape(h)}</th>" if i in numeric else f"<th>{escape(h)}</th>"
                   for i, h in enumerate(headers))
    body = []
    for r, row in enumerate(rows):
        cls = (row_classes or {}).get(r, "")
        cells = "".join(f"<td class='num'>{c}</td>" if i in numeric else f"<td>{c}</td>" for i, c in enumerate(row))
        body.append(f"<tr class='{cls}'>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def view(title: str, *parts: str) -> str:
    return f"{STYLE}<div class='ncpu-view'><div class='title'>{escape(title)}</div>{''.join(parts)}</div>"


def box(*parts: str) -> str:
    return f"<div class='box'>{''.join(parts)}</div>"


class Table:
    """Rows of results: an HTML table in a notebook, aligned text in a terminal or `print`.

    Cells are plain values (escaped here); `numeric` columns align right; `notes` are lines under
    the table (totals, what a column means)."""

    def __init__(self, title: str, headers, rows, numeric=(), notes=()):
        self.title, self.headers, self.numeric = title, list(headers), tuple(numeric)
        self.rows = [[str(c) for c in row] for row in rows]
        self.notes = [str(n) for n in notes]

    def _repr_html_(self) -> str:
        rows = [[escape(c) for c in row] for row in self.rows]
        notes = "".join(f"<div class='dim'>{escape(n)}</div>" for n in self.notes)
        return view(self.title, table(self.headers, rows, numeric=self.numeric), notes)

    def __str__(self) -> str:
        widths = [max(len(str(h)), *(len(r[i]) for r in self.rows)) for i, h in enumerate(self.headers)]
        fmt = lambda row: "  ".join(c.rjust(w) if i in self.numeric else c.ljust(w)  # noqa: E731
                                    for i, (c, w) in enumerate(zip(row, widths))).rstrip()
        return "\n".join([self.title, fmt(self.headers), *map(fmt, self.rows), *([""] + self.notes if self.notes else [])])

    __repr__ = __str__
