"""The ISA reference table, generated from `table.FORMS` (so documentation cannot drift)."""
from __future__ import annotations

from html import escape

from ncpu_nb import html
from ncpu_nb.ncpu.table import ALIASES, FORMS, Form, flags_written


def _flags(form: Form) -> str:
    return " ".join(flags_written(form.sem))


def _encoding(form: Form) -> str:
    fields = ", ".join(f"{name}:{field}" for name, _, field in form.operands)
    return f"{form.opcode:02X}" + (f" ({fields})" if fields else "")


class ISAReference:
    """Every instruction form: syntax, opcode and operand fields, effect, flags written."""

    rows = [(f.signature, _encoding(f), f.summary, _flags(f)) for f in FORMS]
    headers = ("syntax", "opcode (fields)", "effect", "flags")

    def markdown(self) -> str:
        lines = ["| " + " | ".join(self.headers) + " |", "|" + "---|" * len(self.headers)]
        lines += ["| " + " | ".join((f"`{r[0]}`",) + r[1:]) + " |" for r in self.rows]
        aliases = ", ".join(f"{a} = {m}" for a, m in sorted(ALIASES.items()))
        return "\n".join(lines) + f"\n\nAliases: {aliases}."

    def __str__(self) -> str:
        widths = [max(len(h), *(len(r[i]) for r in self.rows)) for i, h in enumerate(self.headers)]
        fmt = "  ".join(f"{{:<{w}}}" for w in widths)
        return "\n".join([fmt.format(*self.headers)] + [fmt.format(*r) for r in self.rows])

    def _repr_html_(self) -> str:
        rows = [[escape(c) for c in r] for r in self.rows]
        aliases = ", ".join(f"{a} = {m}" for a, m in sorted(ALIASES.items()))
        return html.view(f"nCPU ISA: {len(self.rows)} instruction forms",
                         html.table(self.headers, rows), f"<div class='dim'>Aliases: {escape(aliases)}</div>")
