"""The memory sanitizer: each planted defect of heap_bugs.c found at its source line, clean programs clean.

The oracle for a defect's place is the C source itself (the line holding the defective code, found by its
text); the runs themselves must stay the oracle's (qemu's stdout and exit status, recorded in expected/).
"""
import json
import pathlib

import pytest

from ncpu_nb import sanitize
from ncpu_nb.arm64.machine import Arm64Machine

ROOT = pathlib.Path(__file__).resolve().parent.parent
C = ROOT / "programs" / "arm64" / "c"
SOURCE = (C / "heap_bugs.c").read_text().splitlines()
CASES = json.loads((ROOT / "programs" / "arm64" / "busybox" / "cases.json").read_text())


def line_of(code: str, nth: int = 1) -> int:
    """The source line (1-based) of the nth line containing `code`."""
    found = [i + 1 for i, text in enumerate(SOURCE) if code in text]
    return found[nth - 1]


def run(mode: str):
    machine = Arm64Machine.from_elf(C / "bin" / "heap_bugs", ["heap_bugs", mode])
    report = sanitize(machine)
    expected = C / "expected" / f"heap_bugs.{mode}"
    assert machine.stdout_bytes == pathlib.Path(f"{expected}.out").read_bytes()
    assert machine.exit_status == int(pathlib.Path(f"{expected}.status").read_text())
    return report


TABLE, RECORD = "int *table = malloc(5 * sizeof *table);", "struct record *r = malloc(sizeof *r);"
# mode -> (kind, the defective code and which occurrence of it, the block's allocation and which), or None
DEFECTS = {
    "overflow": ("heap overflow", ("table[i] = 7;", 1), (TABLE, 1)),
    "uninit": ("read of uninitialised memory", ("total += table[i];", 1), (TABLE, 2)),
    "use-after-free": ("use after free", ("return r->score;", 1), (RECORD, 1)),
    "double-free": ("double free", ("free(r);", 3), (RECORD, 1)),
    "unmapped": ("use after munmap", ("return ((volatile int *)page)[0];", 1), None),
}


@pytest.mark.parametrize("mode", list(DEFECTS))
def test_each_planted_defect_is_found_at_its_line(mode):
    kind, code, allocation = DEFECTS[mode]
    report = run(mode)
    assert [f.kind for f in report.findings] == [kind], report
    assert report.of_kind(kind) == report.findings
    finding = report.findings[0]
    assert finding.line.file == "heap_bugs.c" and finding.line.line == line_of(*code), report
    assert finding.backtrace[0].startswith(f"0x{finding.pc:x}")
    assert any("main" in frame for frame in finding.backtrace)  # the shadow stack reaches main
    if allocation is not None:
        site = finding.block.allocated_at[0]
        assert report_line(site) == line_of(*allocation)
    assert kind in report._repr_html_() and f"heap_bugs.c:{finding.line.line}" in report._repr_html_()


def report_line(pc: int) -> int:
    from ncpu_nb.arm64.elf import ElfFile
    from ncpu_nb.arm64.source_lines import SourceLines

    return SourceLines.of(ElfFile.read(C / "bin" / "heap_bugs")).at(pc).line


def test_use_after_free_names_where_the_block_was_freed():
    finding = run("use-after-free").findings[0]
    assert report_line(finding.block.freed_at[0]) == line_of("free(r);", 1)
    assert "freed at" in finding.detail and "offset 16" in finding.detail


def test_a_clean_run_reports_nothing():
    assert run("clean").clean


C_RUNS = {  # the C test programs, run as tests/test_linux_machine.py runs them
    "hello": [], "argv_env": ["one", "two words", "", "last"], "file_io": [], "fork_pipe_wait": [], "signals": [],
    "float_math": [], "threads": [], "gradebook": ["90", "120", "50", "100", "100", "100", "100", "100", "30"],
}


@pytest.mark.parametrize("name", list(C_RUNS))
def test_the_c_test_programs_are_clean(name):
    env = ["ARM64_TEST_VAR=hello_world", "ARM64_TEST_EMPTY=", "LANG=C"] if name == "argv_env" else []
    machine = Arm64Machine.from_elf(C / "bin" / name, [name, *C_RUNS[name]], env)
    report = sanitize(machine)
    assert report.clean, report
    assert machine.stdout_bytes == (C / "expected" / f"{name}.out").read_bytes()
    if name == "threads":
        assert any("thread" in note for note in report.notes)


QUICK_CASES = ["echo", "wc", "sort", "sh_pipeline", "sh_heredoc", "sh_for", "tac", "fold"]


@pytest.mark.parametrize("name", QUICK_CASES)
def test_busybox_cases_run_clean_and_unchanged(name):
    """Stripped BusyBox: only faults are checked, across fork and exec; output stays qemu's."""
    case = next(c for c in CASES if c["name"] == name)
    machine = Arm64Machine.busybox(*case["argv"], stdin=case.get("stdin"), env=["PATH=/bin:/usr/bin"])
    report = sanitize(machine)
    assert report.clean, report
    expected = ROOT / "programs" / "arm64" / "busybox" / "expected" / name
    assert machine.stdout_bytes == expected.with_suffix(".out").read_bytes()
    assert any("stripped" in note for note in report.notes)


def test_the_machine_is_left_with_its_trace_settings():
    machine = Arm64Machine.from_elf(C / "bin" / "heap_bugs", ["heap_bugs", "clean"])
    machine.trace_depth = 16
    sanitize(machine)
    assert machine.trace_depth == 16 and machine.trace_accesses is False and len(machine.trace) == 16


def test_bad_arguments():
    from ncpu_nb.ncpu.cpu import CPU

    with pytest.raises(TypeError, match="Arm64Machine"):
        sanitize(CPU("HALT"))
    with pytest.raises(ValueError, match="not a kind of finding"):
        sanitize(Arm64Machine.from_elf(C / "bin" / "hello")).of_kind("leak")
    with pytest.raises(ValueError, match="max_steps"):
        sanitize(Arm64Machine.from_elf(C / "bin" / "hello"), max_steps=0)


def test_the_command_line_reports_and_sets_the_status():
    import subprocess
    import sys

    def sanitize_cli(*args, stdin=b""):
        return subprocess.run([sys.executable, "-m", "ncpu_nb", "sanitize", *args], input=stdin,
                              capture_output=True, cwd=ROOT)

    found = sanitize_cli(str(C / "bin" / "heap_bugs"), "overflow")
    assert found.returncode == 1 and found.stdout == b"overflow: 35\n"
    assert f"heap_bugs.c:{line_of('table[i] = 7;')}" in found.stderr.decode()
    clean = sanitize_cli("--stdin", "-", "busybox", "wc", "-l", stdin=b"a\nb\n")
    assert clean.returncode == 0 and clean.stdout.split() == [b"2"] and b"no memory errors" in clean.stderr
