"""The exercises of chapter 29: the gallery (a key-value store session, a pixel of /dev/fb0, the sorts' counts)."""
from __future__ import annotations

import re

from ncpu_nb.exercises.checker import Row, exercise, expect, integer, text


@exercise("29", "kv_session", "A kvstore session that sets three keys, deletes one, and ends with COUNT")
def _(answer):
    from ncpu_nb import gallery

    session = text(answer, "kvstore commands, one a line") + "\n"
    commands = [line.split()[0].upper() for line in session.splitlines() if line.split()]
    answers = gallery.run("kvstore", stdin=session).stdout.splitlines()
    rows = [Row("three SETs", commands.count("SET") >= 3, f"{commands.count('SET')} SET commands"),
            Row("a DEL", "DEL" in commands, "DEL key removes a key"),
            Row("ends with COUNT", bool(commands) and commands[-1] == "COUNT", "the last command is COUNT"),
            expect("the store's last answer", "2", answers[-1] if answers else "(nothing)", show=str)]
    if answers and answers[-1] == "3":
        rows.append(Row("deleted?", False, "DEL answers 1 when the key was there; check the key's spelling"))
    return rows


@exercise("29", "mandelbrot_pixel", "The colour 0xRRGGBB of pixel (x 156, y 100) in mandelbrot's first frame")
def _(answer):
    from ncpu_nb import gallery

    frame = gallery.run("mandelbrot", ["/dev/fb0", "1"]).frame
    at = (100 * frame.width + 156) * 4
    blue, green, red = frame.pixels[at:at + 3]
    colour = red << 16 | green << 8 | blue
    got = integer(answer, "a colour as a number, e.g. 0x336699")
    rows = [expect("colour", colour, got, show=lambda c: f"0x{c:06X}")]
    if got == blue << 16 | green << 8 | red:
        rows.append(Row("byte order", False, "a pixel's bytes are blue, green, red, unused: red is the third"))
    return rows


@exercise("29", "fewest_comparisons", "Which of the seven sorts made the fewest comparisons on the 2,000 numbers?")
def _(answer):
    from ncpu_nb import gallery

    counts = {name: int(comparisons) for name, comparisons, _moves in
              re.findall(r"^(\w+) +(\d+) +(\d+)$", gallery.run("sorts").stdout, re.MULTILINE)}
    best = min(counts, key=counts.get)
    got = text(answer, "an algorithm's name, as sorts prints it").lower()
    rows = [expect("fewest comparisons", best, got, show=str)]
    if got in counts and got != best:
        rows.append(Row(got, False, f"{counts[got]:,} comparisons; {best} made {counts[best]:,}"))
    return rows
