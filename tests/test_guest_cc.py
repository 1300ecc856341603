"""TinyCC as a guest: C compiled inside the machine and run there (`ncpu_nb.cc`) prints what the same source
prints built by aarch64-linux-gnu-gcc and run under qemu-aarch64: tests/c/*.c run against both today, and
programs/arm64/c's programs against the output qemu recorded for the gcc builds (c/expected/)."""
import shutil
import subprocess
from pathlib import Path

import pytest

from ncpu_nb.arm64.cc import CCompileError, cc, diagnostics, tcc_root
from ncpu_nb.resources import data_dir

TESTS = Path(__file__).parent / "c"
C = data_dir("programs") / "arm64" / "c"
GCC = "aarch64-linux-gnu-gcc"
needs_oracle = pytest.mark.skipif(shutil.which(GCC) is None or shutil.which("qemu-aarch64") is None,
                                  reason=f"{GCC} or qemu-aarch64 is not installed")

# arguments and stdin of the tests/c programs that take any
RUNS = {"t16_stdin_wc": ([], b"one two\nthree  four five\n\nsix\n"),
        "t17_argv": (["10", "0x20", "-7", "abc"], b""),
        "t33_char_io": ([], b"Hello, World!\nabc XYZ\n"),
        "t34_scanf": ([], b"temps 4\n1.5 2.25\n-3 10.125\n")}
SMALL = sorted(p.stem for p in TESTS.glob("*.c"))

# programs/arm64/c: argv, stdin, the expected/ file (as c/expected/RUNS.md runs them)
BUNDLED = {
    "hello": ([], b"", "hello"), "argv_env": (["one", "two words", "", "last"], b"", "argv_env"),
    "file_io": ([], b"", "file_io"), "fork_pipe_wait": ([], b"", "fork_pipe_wait"), "signals": ([], b"", "signals"),
    "gradebook": (["90", "120", "50", "100", "100", "100", "100", "100", "30"], b"", "gradebook"),
    "heap_bugs": (["clean"], b"", "heap_bugs.clean"), "magic": ([], b"FUZ", "magic.fuz"),
    "secret_compare": (["constant"], b"open sesame 2024", "secret_compare.constant-right"),
    "primes": ([], b"", "primes"), "nqueens": ([], b"", "nqueens"), "sorts": ([], b"", "sorts"),
    "squeeze": (["-x"], b"", "squeeze"), "kvstore": ([], "input", "kvstore"), "lisp": ([], "input", "lisp"),
    "calc": ([], "input", "calc"), "sudoku": ([], "input", "sudoku"),
}
ARGV_ENV = ["ARM64_TEST_VAR=hello_world", "ARM64_TEST_EMPTY=", "LANG=C"]


def shell_status(returncode: int) -> int:
    return 128 - returncode if returncode < 0 else returncode  # killed by signal N: 128 + N, as the machine says


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("gcc")


@needs_oracle
@pytest.mark.parametrize("name", SMALL)
def test_tcc_on_the_machine_prints_what_gcc_and_qemu_print(name, scratch):
    args, stdin = RUNS.get(name, ([], b""))
    exe = scratch / name
    subprocess.run([GCC, "-static", "-O2", "-w", "-o", exe, TESTS / f"{name}.c", "-lm"], check=True)
    qemu = subprocess.run(["qemu-aarch64", "-cpu", "cortex-a53", exe, *args], input=stdin, capture_output=True,
                          cwd=scratch, timeout=60, check=False)
    ours = cc(TESTS / f"{name}.c", args, stdin, timeout=60)
    assert (ours.stdout_bytes, ours.exit_code) == (qemu.stdout, shell_status(qemu.returncode))


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_tcc_builds_of_the_bundled_programs_print_what_the_gcc_builds_printed_under_qemu(name):
    args, stdin, expected = BUNDLED[name]
    if stdin == "input":
        stdin = (C / "input" / f"{name}.in").read_bytes()
    ours = cc(C / f"{name}.c", args, stdin, env=ARGV_ENV if name == "argv_env" else None, timeout=60)
    assert ours.stdout_bytes == (C / "expected" / f"{expected}.out").read_bytes()
    assert ours.exit_code == int((C / "expected" / f"{expected}.status").read_text())


def test_a_compile_error_names_the_file_and_line_as_tcc_prints_them():
    with pytest.raises(CCompileError) as caught:
        cc("#include <stdio.h>\n\nint main(void) {\n    return undeclared_name;\n}\n")
    error = caught.value
    assert error.line == 4 and error.exit_code != 0
    assert [(d.file, d.line, d.severity) for d in error.diagnostics] == [("main.c", 4, "error")]
    assert "undeclared_name" in error.diagnostics[0].message
    assert "main.c:4: error:" in str(error)


def test_a_program_gets_args_stdin_and_its_exit_status_and_the_compile_is_measured():
    source = ('#include <stdio.h>\nint main(int argc, char **argv) {\n  int c; long n = 0;\n'
              '  while ((c = getchar()) != EOF) n += c;\n  printf("%s %d %ld\\n", argv[1], argc, n);\n  return 9;\n}\n')
    result = cc(source, ["first", "second"], "AB")
    assert (result.stdout, result.exit_code) == ("first 3 131\n", 9)
    assert result.command == "./main first second"
    assert result.compile_instructions > 1_000_000 and result.compile_seconds > 0
    assert result.elf[:4] == b"\x7fELF" and result.instructions > 0


def test_warnings_are_kept_and_flags_reach_tcc():
    result = cc('#include <stdio.h>\nint main(void) { printf("%d\\n", N); return 0; }\n', flags=["-DN=41+1"])
    assert result.stdout == "42\n"
    warned = cc("int f(void) { return 1; }\nint main(void) { int *p = f(); return p != 0; }\n")
    assert warned.warnings and {(d.file, d.line) for d in warned.warnings} == {("main.c", 2)}
    assert diagnostics("a.c:7: error: x\nIn file included from b.c:1:\n") == diagnostics("a.c:7: error: x\n")


def test_what_this_tcc_does_not_compile_is_reported_not_miscompiled():
    """Thread-local storage and __int128 are outside TinyCC's AArch64 port (so is glibc: see tcc/PROVENANCE.md)."""
    for source in ("__thread int t; int main(void) { return t; }\n",
                   "int main(void) { __int128 x = 1; return (int)x; }\n"):
        with pytest.raises(CCompileError):
            cc(source)


def test_the_c_cell_magic_compiles_and_runs_the_cell(capsys):
    from IPython.core.interactiveshell import InteractiveShell

    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "ncpu_nb")
    result = ip.run_cell_magic("c", "--stdin xyz --flags '-DK=3' one",
                               '#include <stdio.h>\nint main(int c, char **v) {\n'
                               '  printf("%s %d %c\\n", v[1], K, getchar());\n  return 0;\n}\n')
    assert result.stdout == "one 3 x\n" and result.ok
    assert ip.run_cell_magic("c", "", "int main(void) { return nope; }\n") is None
    assert "main.c:1: error: 'nope' undeclared" in capsys.readouterr().err


def test_the_guest_compiler_folder_is_complete():
    root = tcc_root()
    for name in ("bin/tcc", "lib/tcc/libtcc1.a", "lib/tcc/include/stddef.h", "sysroot/include/stdio.h",
                 "sysroot/lib/crt1.o", "sysroot/lib/libc.a"):
        assert (root / name).is_file(), name


def test_tcc_builds_itself_on_the_machine_and_the_result_rebuilds_itself_byte_for_byte(tmp_path):
    """Stage 2: the bundled tcc (built by gcc) compiles tcc's source inside the machine; stage 3: that tcc
    compiles it again, to the same bytes; and stage 2 compiles every tests/c program to the bundled tcc's bytes."""
    from ncpu_nb.arm64.cc import compile_c
    from ncpu_nb.arm64.tcc_selfhost import build_tcc, unpack_source

    src = unpack_source(tmp_path)
    stage2 = build_tcc(src, output="tcc2")
    stage3 = build_tcc(src, tcc=stage2, output="tcc3")
    assert stage2.read_bytes() == stage3.read_bytes()
    for name in SMALL:
        ours, _, _ = compile_c(TESTS / f"{name}.c", tcc=stage2)
        assert ours == compile_c(TESTS / f"{name}.c")[0], name
