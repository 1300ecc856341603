"""The exercises of chapter 31: Debian's own programs on the machine (the loader a program names, a gawk
program run by Debian's gawk in the machine)."""
from __future__ import annotations

from ncpu_nb.exercises.checker import Row, exercise, expect, text

PACKAGES = ["coreutils", "grep", "sed", "gawk", "bash", "lua5.4"]  # what chapter 31 unpacks
SALES = "apples 3\npears 5\napples 4\nplums 1\n"


def _root():
    import os

    from ncpu_nb import rootfs

    return rootfs.cached(PACKAGES, setup=hasattr(os, "geteuid") and os.geteuid() == 0)


@exercise("31", "loader_path", "The dynamic loader Debian's ls names (its PT_INTERP), as a guest path")
def _(answer):
    from elftools.elf.elffile import ELFFile

    from ncpu_nb import rootfs

    root = _root()
    with open(root / rootfs.find_program(root, "ls").lstrip("/"), "rb") as f:
        interp = next(seg.get_interp_name() for seg in ELFFile(f).iter_segments() if seg["p_type"] == "PT_INTERP")
    got = text(answer, "a path such as /lib/...")
    rows = [expect("loader", interp, got, show=str)]
    if got.endswith("libc.so.6"):
        rows.append(Row("a library, not the loader", False, "libc.so.6 is loaded *by* the loader, which the "
                        "program names in its PT_INTERP header"))
    return rows


@exercise("31", "gawk_total", "A gawk program that prints the total of the second column of SALES")
def _(answer):
    from ncpu_nb import rootfs

    program = text(answer, "a gawk program, e.g. '{ ... } END { ... }'")
    machine = rootfs.machine(_root(), "gawk", program, stdin=SALES)
    machine.run(timeout=60)
    return [expect("gawk prints, in the machine", "13", machine.stdout.strip(), show=str),
            expect("exit status", 0, machine.exit_status)]
