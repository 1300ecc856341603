"""The exercises of chapter 30: compiling C inside the machine (a program's output, an error's line,
the compile's cost against the run's)."""
from __future__ import annotations

from ncpu_nb.exercises.checker import Row, exercise, expect, integer, text

BROKEN = """#include <stdio.h>

int square(int x) {
    return x * x;
}

int main(void) {
    int total = 0;
    for (int i = 1; i <= 10; i++)
        total += square(i)
    printf("%d\\n", total);
    return 0;
}
"""


@exercise("30", "triangle_program", "A C program that prints the sum 1 + 2 + ... + 100, compiled and run in the machine")
def _(answer):
    from ncpu_nb.arm64.cc import CCompileError, cc

    source = text(answer, "C source text")
    try:
        run = cc(source, timeout=60)
    except CCompileError as exc:
        return [Row("compiles", False, f"tcc in the machine says: {exc.diagnostics[0] if exc.diagnostics else exc}")]
    rows = [Row("compiles", True, f"{run.compile_instructions:,} instructions of tcc"),
            expect("prints", "5050", run.stdout.strip(), show=str),
            expect("exit status", 0, run.exit_code)]
    if run.stdout.strip() == "4950":
        rows.append(Row("off by one", False, "1 + 2 + … + 99 is 4950: the loop stops one short"))
    return rows


@exercise("30", "error_line", "On which line does tcc, in the machine, report the error in BROKEN?")
def _(answer):
    from ncpu_nb.arm64.cc import CCompileError, cc

    try:
        cc(BROKEN)
        line = None
    except CCompileError as exc:
        line = exc.line
    got = integer(answer, "a line number")
    rows = [expect("line", line, got)]
    if got == 10:
        rows.append(Row("where the ; is missing", False, "the statement on line 10 lacks its `;`, but tcc only "
                        "notices at the next token, on the line after"))
    return rows


@exercise("30", "compile_share", "About how many times more instructions did compiling hello.c take than running it?")
def _(answer):
    from ncpu_nb.arm64.cc import cc
    from ncpu_nb.resources import data_dir

    run = cc(data_dir("programs") / "arm64" / "c" / "hello.c")
    ratio = run.compile_instructions / run.instructions
    got = integer(answer, "a whole number, the ratio rounded")
    close = got > 0 and 0.8 <= got / ratio <= 1.25
    return [Row("ratio", close, f"compiling took {run.compile_instructions:,} instructions, running "
                f"{run.instructions:,}: {ratio:,.0f}× (within 20 % is right)")]
