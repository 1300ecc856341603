"""The ncpu-nb command line: JSON output, initial registers, errors without tracebacks."""
import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ncpu_nb.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent

SUM = "MOV R1, 0\nloop:\nADD R1, R1, R0\nDEC R0\nJNZ loop\nHALT\n"


@pytest.fixture
def asm(tmp_path):
    def write(text, name="prog.asm"):
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return write


def test_run_json_gives_registers_flags_cycles_halted(asm, capsys):
    assert main(["run", asm(SUM), "--set", "R0=10", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["registers"]["R1"] == 55 and out["cycles"] == 32 and out["halted"] is True
    assert set(out["registers"]) == {"R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "SP"}
    assert out["flags"] == {"ZF": True, "SF": False, "CF": False, "OF": False}


def test_run_plain_text(asm, capsys):
    assert main(["run", asm(SUM), "--set", "r0=0x3"]) == 0
    assert "R1=6" in capsys.readouterr().out


def test_assembly_errors_go_to_stderr_with_status_1(asm, capsys):
    assert main(["run", asm("MOV R0, 1\nBLAH R1\nJMP nowhere\n")]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "2 errors" in captured.err and "line 2, column 1" in captured.err and "Traceback" not in captured.err


def test_budget_and_missing_file_are_errors(asm, capsys):
    assert main(["run", asm("top:\nJMP top\n"), "--max-cycles", "50"]) == 1
    assert "cycle budget of 50" in capsys.readouterr().err
    assert main(["run", "/nonexistent/x.asm"]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_neural_mode_prints_the_same_final_state(asm, capsys):
    outputs = []
    for mode in ("fast", "neural"):
        assert main(["run", asm(SUM), "--mode", mode, "--set", "R0=6", "--json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1] and outputs[1]["registers"]["R1"] == 21


def test_unknown_mode_is_a_usage_error(asm, capsys):
    assert main(["run", asm(SUM), "--mode", "warp"]) == 2
    assert "unknown mode" in capsys.readouterr().err


def test_asm_listing_and_isa_reference(asm, capsys):
    assert main(["asm", asm(SUM)]) == 0
    assert "ADD R1, R1, R0" in capsys.readouterr().out
    assert main(["isa", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "| `ADD R, R, R` |" in out and "JNZ" in out


def test_console_script_is_installed_and_exits_cleanly(asm):
    proc = subprocess.run([sys.executable, "-m", "ncpu_nb", "run", asm("MOV R0, 1\nFOO\n"), "--json"],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "unknown instruction" in proc.stderr


# `ncpu-nb bench`: tests/test_bench.py


def test_lab_opens_the_learners_own_copy_and_keeps_their_changes(tmp_path):
    from ncpu_nb.lab import checkout, workspace
    from ncpu_nb.resources import PACKAGE

    assert checkout() == PACKAGE.parent  # --here: the checkout itself
    root, added = workspace(tmp_path / "course")
    tour = root / "notebooks" / "00_tour.ipynb"
    assert tour.is_file() and (root / "tutorials" / "01_assembly_on_the_ncpu.ipynb").is_file()
    assert "notebooks/00_tour.ipynb" in added
    tour.write_text("the learner's own work")
    (root / "notebooks" / "05_stepping_the_ncpu.ipynb").unlink()  # as if a newer kit brought this chapter
    again, added = workspace(tmp_path / "course")
    assert again == root and tour.read_text() == "the learner's own work"
    assert added == ["notebooks/05_stepping_the_ncpu.ipynb"]


def test_saving_drops_widget_references_a_reopened_notebook_could_not_show():
    from ncpu_nb.lab import WIDGET_VIEW, keep_static_views

    view = {"model_id": "m"}
    outputs = [{"output_type": "display_data", "data": {"text/html": "<div class='ncpu-view'>", WIDGET_VIEW: view}},
               {"output_type": "display_data", "data": {"text/plain": "timing: 100%|##########| 5/5", WIDGET_VIEW: view}},
               {"output_type": "display_data", "data": {WIDGET_VIEW: view}},
               {"output_type": "stream", "name": "stdout", "text": "hi"}]
    model = {"type": "notebook", "content": {"cells": [{"cell_type": "code", "outputs": outputs}]}}
    keep_static_views(model)
    assert [sorted(o.get("data", {})) for o in outputs] == [["text/html"], ["text/plain"], [WIDGET_VIEW], []]


@pytest.mark.full  # about eight minutes; CI runs the sample below
def test_verify_proves_the_neural_alu_exact(capsys):
    assert main(["verify", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["exact"] is True
    checks = {c["check"]: c for c in report["checks"]}
    assert checks["cell combine"]["cases"] == 16 and checks["add random"]["cases"] == 1_000_000
    assert checks["mul bytes 3"]["cases"] == 65_536 and checks["div random"]["cases"] == 1_000_000
    assert checks["fadd wired random"]["cases"] == 10_000_000 and checks["fdiv neural e4m3"]["cases"] == 65_536
    assert checks["fsqrt fast special"]["cases"] > 0 and checks["itof neural random"]["cases"] == 10_000
    assert all(c["mismatches"] == 0 and c["max_ulp"] == 0 for c in checks.values())


def test_verify_on_a_smaller_random_sample_still_checks_every_cell_and_integer_operation_whole(monkeypatch):
    """CI's share of `ncpu-nb verify` (the float operations' share is test_float_unit's short run): the same
    seed, every cell on its whole domain and every exhaustive set (edge pairs, byte lanes, shifts) in the
    core's neural mode, 20,000 random pairs per operation instead of 1,000,000, and the torch wiring of MUL,
    DIV and MOD on the first 2,000 pairs of each set instead of 50,000 or 10,000."""
    from ncpu_nb import verification
    from ncpu_nb.ncpu.table import INTEGER_OPS

    monkeypatch.setattr(verification, "SLOW", {"mul": 2_000, "div": 2_000, "mod": 2_000})
    report = verification.verify(progress=False, ops=INTEGER_OPS, random_pairs=20_000)
    assert report.exact
    checks = {c.what: c for c in report}
    assert checks["cell combine"].cases == 16 and checks["add random"].cases == 20_000
    assert checks["mul bytes 3"].cases == 65_536 and checks["div random"].cases == 20_000
    assert {f"{op} random" for op in INTEGER_OPS} <= set(checks)
    assert all(c.mismatches == 0 for c in checks.values())


# --- closed pipes, bad options, streamed stdin -----------------------------------------------------
HELLO = ROOT / "programs" / "arm64" / "c" / "bin" / "hello"
ONE_GIB = 1 << 30


def _shell(command: str, timeout: float = 120, **options) -> subprocess.CompletedProcess:
    """`command` in bash, in its own process group: a timeout ends every process of the pipeline (a
    runaway `yes | …` would otherwise outlive the test)."""
    proc = subprocess.Popen(["bash", "-c", command], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, **options)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


def _limit_memory() -> None:  # the child of bash, and its children, may map at most 1 GiB
    resource.setrlimit(resource.RLIMIT_AS, (ONE_GIB, ONE_GIB))


def _subcommands() -> set[str]:
    parser = build_parser()
    return set(next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices)


def test_every_subcommand_parses_alone():
    """COMMANDS lets a command build only its own parser: a command missing there still works, slowly."""
    from ncpu_nb.cli import COMMANDS

    assert set(COMMANDS) == _subcommands()


NOT_PIPED = {"verify": "minutes of work (its report goes through the same main)", "lab": "starts JupyterLab",
             "conformance": "runs BusyBox's own testsuite",
             "coursework": "runs nbgrader on notebooks (tests/test_coursework.py)"}


@pytest.mark.slow
def test_every_subcommand_piped_into_head_stops_without_a_traceback(asm, tmp_path):
    big = asm("".join(f"l{i}: ADD R1, R1, R0\n" for i in range(20_000)) + "HALT\n")  # a long listing
    spec = tmp_path / "double.json"
    spec.write_text(json.dumps({"inputs": ["R0"], "outputs": ["R1"], "max_len": 3, "time_limit": 20,
                                "examples": [[{"R0": x}, {"R1": 2 * x}] for x in (1, -3, 7, 12, 0, 40)]}))
    piped = {"run": f"run {big}", "asm": f"asm {big}", "isa": "isa --markdown", "bench": "bench fast --quick",
             "synth": f"synth {spec}", "synth-bench": "synth-bench --task add --time-limit 5",
             "busybox": "busybox seq 100000", "exec": f"exec {HELLO}", "sanitize": "sanitize busybox seq 300",
             "discover": "discover --preset squares --test 12", "text": "text --example hello=khoor --apply world",
             "text-bench": "text-bench --limit 3", "differential": "differential c --json",
             "fuzz": "fuzz --seeds 0-1 --executions 200 --json programs/arm64/c/bin/magic"}
    assert _subcommands() <= set(piped) | set(NOT_PIPED), "a new subcommand: add it here"
    for name, arguments in piped.items():
        done = _shell(f"{sys.executable} -m ncpu_nb {arguments} | head -1; exit ${{PIPESTATUS[0]}}", cwd=ROOT)
        assert done.returncode in (0, 128 + signal.SIGPIPE) and done.stdout.count(b"\n") == 1, (name, done)
        assert b"Traceback" not in done.stderr and b"Exception ignored" not in done.stderr, (name, done.stderr)
    assert _shell(f"{sys.executable} -m ncpu_nb --help | head -1", cwd=ROOT).stderr == b""


def test_an_unknown_register_or_a_timeout_that_is_not_a_positive_number_is_a_usage_error(asm, capsys):
    with pytest.raises(SystemExit) as info:
        main(["run", asm(SUM), "--set", "R9=1"])
    assert info.value.code == 2 and "argument --set: no register R9; registers are R0," in capsys.readouterr().err
    for seconds in ("nan", "inf", "-1", "0", "soon"):
        with pytest.raises(SystemExit):
            main(["busybox", "--timeout", seconds, "true"])
        assert "expected a positive number of seconds" in capsys.readouterr().err


def test_verify_on_an_unknown_device_is_a_clear_error_before_any_work(capsys):
    t0 = time.perf_counter()
    assert main(["verify", "--device", "bogus"]) == 2
    err = capsys.readouterr().err
    assert err == "ncpu-nb verify: unknown torch device 'bogus': cpu, or cuda where there is a GPU\n"
    assert time.perf_counter() - t0 < 30


def test_synth_without_json_prints_the_program(tmp_path, capsys):
    spec = tmp_path / "double.json"
    spec.write_text(json.dumps({"inputs": ["R0"], "outputs": ["R1"], "max_len": 3, "time_limit": 20,
                                "examples": [[{"R0": x}, {"R1": 2 * x}] for x in (1, -3, 7, 12, 0, 40)]}))
    assert main(["synth", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "solved by" in out and out.rstrip().endswith("HALT")


def test_busybox_gets_environment_variables_and_its_own_options_after_a_double_dash(capsys):
    assert main(["busybox", "--env", "GREETING=hello world", "--env", "HOME=/tmp", "--env", "EMPTY=",
                 "sh", "-c", 'echo "$GREETING|$HOME|${EMPTY-unset}|$PATH"']) == 0
    assert capsys.readouterr().out == "hello world|/tmp||/bin:/sbin:/usr/bin:/usr/sbin\n"
    assert main(["busybox", "--", "--list"]) == 0
    applets = capsys.readouterr().out.split()
    assert {"sh", "ls", "sha256sum"} <= set(applets) and len(applets) > 200
    with pytest.raises(SystemExit):
        main(["busybox", "--env", "NOEQUALS", "true"])
    assert "expected NAME=VALUE" in capsys.readouterr().err


def test_host_stdin_streams_into_the_guest_as_it_reads():
    t0 = time.perf_counter()
    done = _shell(f"yes | {sys.executable} -m ncpu_nb busybox head -n1", timeout=60, cwd=ROOT,
                  preexec_fn=_limit_memory)
    assert (done.stdout, done.returncode) == (b"y\n", 0), done.stderr
    assert time.perf_counter() - t0 < 30
    # input the guest never reads stays for the next reader
    done = _shell(f"printf 'a\\nb\\n' | ({sys.executable} -m ncpu_nb busybox true; cat)", cwd=ROOT)
    assert done.stdout == b"a\nb\n"


def test_exec_refuses_a_file_that_is_not_a_regular_one_before_reading_it(tmp_path):
    done = _shell(f"{sys.executable} -m ncpu_nb exec /dev/zero", timeout=60, cwd=ROOT, preexec_fn=_limit_memory)
    assert done.returncode == 1 and done.stderr == b"ncpu-nb exec: /dev/zero: not a regular file\n"
    huge = tmp_path / "huge"
    with huge.open("wb") as file:
        file.truncate(300 << 20)  # sparse: no disk used
    done = _shell(f"{sys.executable} -m ncpu_nb exec {huge}", cwd=ROOT)
    assert done.returncode == 1 and b"more than the 256 MiB an executable may have" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("command", ["run", "asm", "synth", "bench fast --quick --compare", "sanitize --stdin"])
def test_commands_reading_a_file_refuse_one_that_is_not_a_regular_one_before_reading_it(command):
    tail = " busybox true" if command.startswith("sanitize") else ""
    done = _shell(f"{sys.executable} -m ncpu_nb {command} /dev/zero{tail}", timeout=120, cwd=ROOT,
                  preexec_fn=_limit_memory)
    name = command.split()[0]
    assert (done.returncode, done.stderr) == (1, f"ncpu-nb {name}: /dev/zero: not a regular file\n".encode())


def test_a_source_file_too_large_is_refused_before_reading_it(tmp_path, capsys):
    huge = tmp_path / "huge.asm"
    with huge.open("wb") as file:
        file.truncate(100 << 20)  # sparse: no disk used
    assert main(["asm", str(huge)]) == 1
    assert capsys.readouterr().err == f"ncpu-nb asm: {huge}: 104,857,600 bytes, more than the 16 MiB it may have\n"


@pytest.mark.parametrize("option,value", [("--memory", "99999999999999999999999"), ("--tmpfs-size", "16777216T"),
                                          ("--memory", str(1 << 64)), ("--max-procs", "99999999999999999999")])
def test_a_guest_limit_too_large_for_the_engine_is_a_usage_error(option, value, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["exec", option, value, str(HELLO)])
    err = capsys.readouterr().err
    assert exit.value.code == 2 and f"argument {option}: expected" in err and "Traceback" not in err


def test_a_library_limit_too_large_for_the_engine_is_a_value_error():
    from ncpu_nb.arm64.limits import Limits

    with pytest.raises(ValueError, match="Limits.memory must be a positive integer below 2"):
        Limits(memory=1 << 64)


def test_a_folder_the_host_cannot_make_is_an_error_that_names_it(capsys):
    assert main(["coursework", "release", "/dev/null/x"]) == 1
    assert capsys.readouterr().err == "ncpu-nb coursework: /dev/null/x: Not a directory\n"


def test_import_and_the_busybox_command_load_neither_numpy_nor_torch():
    code = ("import sys\nimport ncpu_nb\nlight = [m for m in ('numpy', 'torch') if m in sys.modules]\n"
            "from ncpu_nb.cli import main\nrc = main(['busybox', 'echo', 'hi'])\n"
            "print(light, [m for m in ('numpy', 'torch') if m in sys.modules], rc)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["hi", "[] [] 0"]


@pytest.mark.parametrize("words", [
    ["busybox", "echo", "hi"], ["busybox"], ["busybox", "--", "--list"], ["busybox", "ls", "--cwd", "/x"],
    ["busybox", "--cwd", "/tmp", "--env", "A=1", "--env=B=2", "--mount", "/tmp:/mnt:rw", "sh", "-c", "pwd"],
    ["busybox", "--timeout", "2.5", "--memory", "512M", "--tmpfs-size=64M", "--max-procs", "8", "true"],
    ["exec", "/bin/prog", "-v", "x"], ["exec", "--cwd", "/", "prog"]])
def test_the_quick_reading_of_guest_command_lines_agrees_with_argparse(words):
    from ncpu_nb.cli import _quick_guest_args

    quick = vars(_quick_guest_args(words))
    full = vars(build_parser().parse_args(words))
    assert quick == full


@pytest.mark.parametrize("words", [["busybox", "-h"], ["busybox", "--mo", "/a:/b", "ls"], ["busybox", "--timeout", "x"],
                                   ["busybox", "--cwd"], ["busybox", "--cwd", "-x"], ["exec"], ["exec", "--", "p"]])
def test_other_guest_command_lines_go_to_argparse(words):
    from ncpu_nb.cli import _quick_guest_args

    assert _quick_guest_args(words) is None


def test_the_busybox_command_starts_without_argparse_dataclasses_or_typing():
    code = ("import sys\nfrom ncpu_nb.cli import main\nrc = main(['busybox', 'echo', 'hi'])\n"
            "print(sorted(m for m in ('argparse', 'dataclasses', 'typing', 'pathlib', 'json', 'numpy', 'torch')"
            " if m in sys.modules), rc)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["hi", "[] 0"]
