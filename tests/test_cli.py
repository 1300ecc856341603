"""The ncpu-nb command line: JSON output, initial registers, errors without tracebacks."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from ncpu_nb.cli import main

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


@pytest.mark.parametrize("target", ["fast", "neural", "debugger"])
def test_bench_quick_reports_rates(target, capsys):
    assert main(["bench", target, "--quick", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert all(r["per_second"] > 0 for r in report["results"].values())


def test_bench_machine_quick_reports_every_row_beside_its_reference(capsys):
    qemu = shutil.which("qemu-aarch64")
    if qemu is None and os.environ.get("CI"):
        pytest.fail("qemu-aarch64 is needed in CI (apt-get install qemu-user)")
    assert main(["bench", "machine", "--quick", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    labels = [r["label"] for r in rows]
    assert len(labels) == 7 and labels[0].startswith("ARM64 loop") and labels[1].endswith("(budgeted)")
    assert "trace ring 64" in labels[2]
    assert labels[-1].startswith("busybox echo") and rows[-1]["value"] > 0
    for row in rows:
        assert set(row) == {"label", "value", "unit", "reference", "reference_value", "ratio", "target", "detail",
                            "meets_target"}
    for row in rows[:6] if qemu else rows[:3]:  # speeds are reported, never asserted
        assert row["value"] > 0 and row["reference_value"] > 0 and row["ratio"] > 0
        assert "DIFFER" not in row["detail"]


def test_lab_opens_the_checkout_or_a_fresh_copy_of_the_curriculum(tmp_path):
    from ncpu_nb.lab import curriculum_root
    from ncpu_nb.resources import PACKAGE

    assert curriculum_root(None) == PACKAGE.parent  # in a checkout: the checkout itself
    copy = curriculum_root(str(tmp_path / "course"))
    assert (copy / "notebooks" / "00_tour.ipynb").is_file()
    assert (copy / "tutorials" / "01_assembly_coursework.ipynb").is_file()


def test_verify_proves_the_neural_alu_exact(capsys):
    assert main(["verify", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["exact"] is True
    checks = {c["check"]: c for c in report["checks"]}
    assert checks["cell combine"]["cases"] == 16 and checks["add random"]["cases"] == 1_000_000
    assert checks["mul bytes 3"]["cases"] == 65_536 and checks["div random"]["cases"] == 1_000_000
    assert all(c["mismatches"] == 0 for c in checks.values())
