"""`ncpu-nb bench`: the row shape, the statistics (on fake clocks), the --json document of quick runs,
ratios that are the measured ours/reference and nothing else. Speeds are never asserted."""
import itertools
import json
import shutil
import sys
from pathlib import Path

import pytest

from ncpu_nb import _metal, bench_report
from ncpu_nb import bench_stats as bs
from ncpu_nb.cli import main

ROW_FIELDS = {"label", "measures", "runs", "statistic", "ours", "reference", "ratio", "ratio_sense", "target", "met",
              "outputs_match", "detail"}
SIDE_FIELDS = {"name", "measured", "runs", "work_per_run", "unit", "wall_s", "cpu_s"}
SUMMARY_FIELDS = {"best", "median", "min", "max", "q1", "q3", "runs"}
ROOT = Path(__file__).resolve().parent.parent


def test_summary_gives_best_median_spread_and_quartiles():
    s = bs.summary([5.0, 1.0, 3.0, 2.0, 4.0])
    assert (s["best"], s["median"], s["min"], s["max"], s["q1"], s["q3"]) == (1.0, 3.0, 1.0, 5.0, 2.0, 4.0)
    assert s["runs"] == [5.0, 1.0, 3.0, 2.0, 4.0]  # in the order taken
    assert bs.summary([2.0, 4.0])["median"] == 3.0
    one = bs.summary([7.0])
    assert one["best"] == one["median"] == one["q1"] == one["q3"] == 7.0
    with pytest.raises(ValueError):
        bs.summary([])


def fake_clock(*readings):
    it = iter(readings)
    return lambda: next(it)


def test_timed_call_reads_the_wall_and_cpu_clocks_around_the_work():
    calls = []
    result, wall, cpu = bs.timed_call(lambda: calls.append(1) or "done", wall_clock=fake_clock(10.0, 12.5),
                                      cpu_clock=fake_clock(3.0, 4.0))
    assert (result, wall, cpu, calls) == ("done", 2.5, 1.0, [1])


def test_sides_are_timed_in_turns():
    order = []
    counter = itertools.count()

    def side(name):
        return lambda: order.append(name) or (next(counter), 0.0)

    samples = bs.in_turns({"ours": side("ours"), "ref": side("ref")}, 3, warmup=True)
    assert order == ["ours", "ref"] * 4  # one untimed warm-up each, then A B A B A B
    assert samples == {"ours": [(2, 0.0), (4, 0.0), (6, 0.0)], "ref": [(3, 0.0), (5, 0.0), (7, 0.0)]}


def series(name, cpu, wall=None, work=1, unit="instruction"):
    return bs.series_from(name, list(zip(wall or cpu, cpu)), work, unit)


def test_the_ratio_is_the_same_statistic_of_both_sides_per_unit_of_work():
    ours = series("ours", [3.0, 1.0, 2.0], wall=[9.0, 8.0, 7.0], work=100)
    ref = series("ref", [4.0, 6.0, 5.0], wall=[1.0, 1.0, 1.0], work=50)
    row = bs.row("x", "a test", ours, ref)  # default: median cpu
    assert row["statistic"] == "median cpu" and row["ratio"] == pytest.approx((2.0 / 100) / (5.0 / 50))
    row = bs.row("x", "a test", ours, ref, statistic="best wall")
    assert row["ratio"] == pytest.approx((7.0 / 100) / (1.0 / 50))
    row = bs.row("x", "a test", ours, ref, sense="speedup", limit=4, target=">= 4x")
    assert row["ratio"] == pytest.approx((5.0 / 50) / (2.0 / 100)) and row["met"] is True
    assert bs.row("x", "a test", ours, ref, limit=0.1, target="<= 0.1x")["met"] is False
    with pytest.raises(ValueError):
        ours.statistic("mean cpu")


def test_row_shape_and_targets():
    ours = series("ours", [0.04, 0.06, 0.05])
    row = bs.row("cold", "a start-up", ours, series("qemu", [0.01, 0.01, 0.01]), statistic="median cpu",
                 absolute=0.050, target="<= 50 ms")
    assert set(row) == ROW_FIELDS and row["runs"] == 3 and row["met"] is True
    assert set(row["ours"]) >= SIDE_FIELDS and set(row["ours"]["cpu_s"]) == SUMMARY_FIELDS
    assert bs.row("cold", "a start-up", ours, absolute=0.045)["met"] is False
    # outputs that differ fail the target whatever the times
    assert bs.row("w", "work", ours, series("ref", [1.0, 1.0, 1.0]), limit=1.5, ok=False)["met"] is False
    json.dumps(row)  # all plain data


def test_a_reference_not_measured_gives_no_ratio_and_no_verdict():
    row = bs.row("n", "neural", series("ours", [1.0]), bs.NotMeasured("the original", "not present"),
                 target="-", limit=1.0)
    assert row["ratio"] is None and row["met"] is None
    assert row["reference"] == {"name": "the original", "measured": False, "why": "not present"}
    assert "not measured (not present)" in "\n".join(bench_report.format_row(row))


def test_a_row_whose_own_side_is_not_measured_has_no_runs_ratio_or_verdict():
    row = bs.row("d", "a start", bs.NotMeasured("ours", "no guest root"), bs.NotMeasured("qemu", "no guest root"),
                 target="<= 1.5x", limit=1.5, absolute=0.05)
    assert (row["runs"], row["ratio"], row["met"]) == (0, None, None)
    assert row["ours"] == {"name": "ours", "measured": False, "why": "no guest root"}
    text = "\n".join(bench_report.format_row(row))
    assert "ours       not measured (no guest root)" in text and "no ratio (not measured)" in text


def test_a_child_process_is_timed_with_its_own_cpu_time():
    done = bs.run_child([sys.executable, "-c", "import sys\nx = sum(range(3_000_000))\nsys.stdout.write('ok')"])
    assert done.returncode == 0 and done.stdout == b"ok" and done.cpu > 0 and done.wall >= done.cpu * 0.5
    assert bs.run_child([sys.executable, "-c", "raise SystemExit(3)"]).returncode == 3


def test_the_original_ncpu_row_says_not_measured_without_its_code(monkeypatch, tmp_path):
    from ncpu_nb import bench, original_ncpu

    monkeypatch.setenv("NCPU_ORIGINAL", str(tmp_path))  # a folder without the original's code
    assert original_ncpu.location() is None
    row = bench.original_row(10, quick=True)
    assert row["reference"]["measured"] is False and "not present" in row["reference"]["why"]
    assert "NCPU_ORIGINAL" in row["reference"]["why"] and row["ratio"] is None


def check_document(doc, target):
    assert doc["schema"] == bench_report.SCHEMA and doc["target"] == target and doc["quick"] is True
    host = doc["host"]
    assert host["cpu"] and host["cores"] >= 1 and "python" in host["versions"]
    assert "load_average_start" in host and "load_average_end" in host
    assert host["extension"] == ("checked" if _metal.BUILD_CHECKED else "release")
    assert ("checked build" in bench_report.format_document(doc)) == _metal.BUILD_CHECKED
    assert doc["rows"]
    for row in doc["rows"]:
        check_row(row)
    text = bench_report.format_document(doc)
    assert all(row["label"] in text for row in doc["rows"])
    table = bench_report.format_markdown(doc).splitlines()
    assert len(table) == 4 + len(doc["rows"]) and all(line.count(" | ") >= 4 for line in table[4:])


def check_row(row):
    assert set(row) == ROW_FIELDS, row["label"]
    if not row["ours"]["measured"]:  # our side could not be run here either: says why, no figures
        assert row["runs"] == 0 and row["ours"]["why"] and row["ratio"] is None and row["met"] is None
        return
    assert row["runs"] == row["ours"]["runs"] >= 1
    ref = row["reference"]
    if ref is not None and ref["measured"]:
        stat, clock = row["statistic"].split()
        mine = row["ours"][f"{clock}_s"][stat] / row["ours"]["work_per_run"]
        theirs = ref[f"{clock}_s"][stat] / ref["work_per_run"]
        expected = mine / theirs if row["ratio_sense"] == "time" else theirs / mine
        assert row["ratio"] == pytest.approx(expected), row["label"]  # measured, never a constant
    else:
        assert row["ratio"] is None


@pytest.mark.parametrize("target", ["fast", "debugger", pytest.param("neural", marks=pytest.mark.slow),
                                    pytest.param("machine", marks=pytest.mark.slow),
                                    pytest.param("synth", marks=pytest.mark.slow),
                                    pytest.param("coprocessor", marks=pytest.mark.slow),
                                    pytest.param("learned-compiler", marks=pytest.mark.slow),
                                    pytest.param("fuzz", marks=pytest.mark.slow)])
def test_bench_quick_json_document(target, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("NCPU_ORIGINAL", str(tmp_path))
    assert main(["bench", target, "--quick", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    check_document(doc, target)
    if target == "neural":
        original = [r for r in doc["rows"] if "original nCPU" in r["label"]]
        assert original and original[0]["reference"]["measured"] is False
    if target == "machine":
        labels = [r["label"] for r in doc["rows"]]
        for name in ("ash loop", "sha256sum FILE", "gzip -c FILE", "awk PROGRAM FILE", "sort FILE",
                     "Debian bash -c true", "Debian python3 -c 'print(1)'", "Debian lua5.4 -e 'print(1)'",
                     "cold start: ncpu-nb busybox echo hi", "cold start: import ncpu_nb"):
            assert any(name in label for label in labels), name
        assert all(r["outputs_match"] for r in doc["rows"]), [r["detail"] for r in doc["rows"] if not r["outputs_match"]]


def test_debian_rows_say_not_measured_without_the_guest_root(tmp_path):
    from ncpu_nb.arm64 import machine_bench

    rows = machine_bench.bench_debian(True, "/usr/bin/qemu-aarch64", 1, tmp_path / "no-root")
    assert [r["label"] for r in rows] == list(machine_bench.debian_starts())
    for row in rows:
        check_row(row)
        assert row["ours"]["measured"] is False and row["reference"]["measured"] is False
        assert "no Debian guest root at" in row["ours"]["why"] and str(tmp_path) in row["ours"]["why"]
        assert f"not measured ({row['ours']['why']})" in "\n".join(bench_report.format_row(row))
    (tmp_path / "root" / "bin").mkdir(parents=True)  # a root without the programs
    why = machine_bench.bench_debian(True, None, 1, tmp_path / "root")[1]["ours"]["why"]
    assert why.startswith("no python3 in the guest root") and "'python3-minimal'" in why


@pytest.mark.skipif(shutil.which("qemu-aarch64") is None, reason="qemu-aarch64 is not installed")
def test_debian_start_rows_are_measured_beside_qemu_on_the_same_root(debian_root):
    from ncpu_nb.arm64 import machine_bench

    rows = {r["label"]: r for r in machine_bench.bench_debian(True, shutil.which("qemu-aarch64"), 1, debian_root)}
    bash = rows["Debian bash -c true"]
    assert bash["ours"]["measured"] and bash["reference"]["measured"] and bash["runs"] == 1
    assert bash["reference"]["name"] == "qemu-aarch64 -cpu cortex-a53" and bash["ratio"] > 0
    assert int(bash["detail"].split()[0].replace(",", "")) > 100_000  # the dynamic loader ran, then bash
    for row in rows.values():
        check_row(row)
        assert row["outputs_match"], row["detail"]  # stdout and exit status equal to qemu's


def test_compare_prints_the_change_of_each_row(tmp_path, capsys):
    old = {"date": "then", "host": {"load_average_start": [0.1, 0.1, 0.1]},
           "rows": [bs.row("a", "x", series("ours", [2.0])), bs.row("gone", "x", series("ours", [1.0])),
                    bs.row("c", "x", series("ours", [1.0]))]}
    new = {"date": "now", "host": {"load_average_start": [0.2, 0.2, 0.2]},
           "rows": [bs.row("a", "x", series("ours", [1.0])), bs.row("b", "x", series("ours", [1.0])),
                    bs.row("c", "x", bs.NotMeasured("ours", "no guest root"))]}
    text = bench_report.compare(old, new)
    assert "a: median cpu 2.00 s -> 1.00 s (-50.0 %)" in text and "b: new row" in text
    assert "gone: no longer measured" in text and "c: not measured now (no guest root)" in text
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    assert main(["bench", "fast", "--quick", "--compare", str(path)]) == 0
    assert "change from then" in capsys.readouterr().out


@pytest.mark.parametrize("target", ["fast", "neural"])
def test_bench_device_rows_are_torch_lanes_beside_the_rust_executor(target, capsys):
    assert main(["bench", target, "--device", "cpu", "--quick", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    check_document(doc, target)
    assert [r["label"] for r in doc["rows"]] == [f"{target}: torch lanes on cpu, {n} lanes" for n in (64, 256)]
    for row in doc["rows"]:
        assert row["outputs_match"] is True  # every lane's registers and cycles equal the Rust executor's
        assert row["reference"]["name"] == "Rust lane executor" and row["ratio"] > 0
        assert row["ours"]["unit"] == "lane-instruction" and row["statistic"] == "median wall"
        assert row["met"] is None and "is for a data-centre GPU" in row["detail"]  # no target on the CPU


def test_bench_device_is_refused_for_other_targets_and_unknown_devices():
    from ncpu_nb import bench

    with pytest.raises(ValueError, match="fast, neural and synth"):
        bench.run("debugger", quick=True, device="cpu")
    with pytest.raises(ValueError, match="torch device"):
        bench.run("fast", quick=True, device="no-such-device")
    with pytest.raises(ValueError, match="torch device"):  # synth: gradient descent's restarts on the device
        bench.run("synth", quick=True, device="no-such-device")
