"""Static HTML of the panels (no JavaScript), from the same wire data the browser gets: the
`text/html` snapshot that exported notebooks and nbconvert show in place of a live view."""
from __future__ import annotations

from html import escape

from ncpu_nb import html
from ncpu_nb.views.wire import PAGE


def value_text(hex_text: str, bits: int, radix: str) -> str:
    value = int(hex_text, 16)
    if radix == "dec":
        return str(value - (1 << bits) if value >> (bits - 1) & 1 else value)
    return "0x" + hex_text.rjust(bits // 4, "0")


def registers(groups: list, radix: str) -> str:
    rows, classes = [], {}
    for group in groups:
        for name, hex_text, changed in group["registers"]:
            if changed:
                classes[len(rows)] = "hl"
            rows.append([escape(name), value_text(hex_text, group["bits"], radix)])
    return html.table(["register", "hex" if radix == "hex" else "decimal"], rows, classes, numeric=(1,))


def flags(flag_rows: list) -> str:
    return html.table(["flag", ""], [[escape(n), "1" if on else "0"] for n, on, _ in flag_rows],
                      {i: "hl" for i, (_, _, changed) in enumerate(flag_rows) if changed})


def bar(fraction: float, text: str) -> str:
    """A probability as text with a bar of block characters (no CSS needed)."""
    return f"{escape(text)} {'█' * round(fraction * 10)}"


def listing(rows: list) -> str:
    """The listing; a row that begins a new source line comes under that line (e.g. 'hello.c:12  puts(…);')."""
    body, classes, soft = [], {}, bool(rows) and rows[0]["weight"] is not None
    for r in rows:
        if r.get("source"):
            body.append(["", "", "", escape(f"{r['source'][0]}  {r['source'][1]}")] + ([""] if soft else []))
        if r["current"]:
            classes[len(body)] = "cur"
        body.append(["●" if r["bp"] else "", escape(r["loc"]), escape(r["label"] + ":" if r["label"] else ""),
                     escape(r["text"])] + ([bar(r["weight"], f"{r['weight']:.3f}")] if soft else []))
    headers = ["", "pc", "label", "instruction"] + (["P(pc)"] if soft else [])  # a soft PC: each row's probability
    return html.table(headers, body, classes, numeric=(1,))


def frames(rows: list) -> str:
    if not rows:
        return ""
    return html.table(["#", "function", "at", "source"], [[str(i), escape(f["function"] or "?"), escape(f["loc"]),
                                                           escape(f["source"])] for i, f in enumerate(rows)])


def watchpoints(rows: list) -> str:
    if not rows:
        return ""
    return html.table(["watchpoint", "bytes", "on"], [[f"0x{a}", str(size), access] for a, size, access in rows])


def panel(p: dict) -> str:
    """One of a machine's own tables (`wire.panels`), under its title."""
    rows = [[bar(c["bar"], c["text"]) if isinstance(c, dict) else escape(c) for c in row] for row in p["rows"]]
    return f"<div class='dim'>{escape(p['title'])}</div>" + html.table(p["columns"], rows)


def change_text(row: dict, radix: str) -> str:
    parts = [f"{name}: {value_text(old, bits, radix)} → {value_text(new, bits, radix)}"
             for name, old, new, bits in row["changes"]]
    if row["flags"]:
        parts.append(f"flags: {row['flags'][0] or '-'} → {row['flags'][1] or '-'}")
    if row["store"]:
        parts.append(f"mem[0x{row['store'][0]}] ({row['store'][1]} bytes)")
    return ", ".join(parts)


def trace(rows: list, radix: str) -> str:
    if not rows:
        return "<div class='dim'>no steps yet</div>"
    body = [[str(r["cycle"]), escape(r["loc"]), escape(r["text"]), escape(change_text(r, radix))] for r in rows]
    return html.table(["cycle", "pc", "instruction", "changes"], body, numeric=(0, 1))


def memory(page_message: dict, data: bytes, address_digits: int) -> str:
    """A hex + ASCII dump of one page; unmapped bytes as '--', changed bytes highlighted."""
    base = int(page_message["address"], 16)
    mapped = [False] * PAGE
    for start, end in page_message["mapped"]:
        mapped[start:end] = [True] * (end - start)
    changed = set(page_message["changed"])
    rows = []
    for row in range(0, PAGE, 16):
        cells, text = [], []
        for i in range(row, row + 16):
            if not mapped[i]:
                cells.append("--")
                text.append(" ")
                continue
            byte = f"{data[i]:02x}"
            cells.append(f"<span class='hl'>{byte}</span>" if i in changed else byte)
            text.append(escape(chr(data[i]) if 32 <= data[i] < 127 else "."))
        rows.append([f"{base + row:0{address_digits}x}", " ".join(cells), "".join(text)])
    return html.table(["address", "bytes", "ascii"], rows)
