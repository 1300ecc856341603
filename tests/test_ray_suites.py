"""The suites, fuzzing campaigns and training-seed sweeps as Ray tasks (ncpu_nb.sweeps): on a local Ray they give
the local run's answers, on reduced workloads. Without Ray the Ray tests are skipped; the local runs are checked
either way."""
from __future__ import annotations

import json

import pytest

from ncpu_nb import sweeps
from ncpu_nb.arm64.conformance.busybox_suite import busybox_conformance
from ncpu_nb.arm64.differential import cases, differential_suite
from ncpu_nb.debugging.fuzzer import fuzz_campaign
from ncpu_nb.resources import data_dir
from ncpu_nb.train import seed_sweep

APPLETS = ("basename", "dirname", "echo")  # about 3 s of the testsuite
CASES = ["echo", "echo_n_e", "sort", "sed", "awk_sum", "sh_pipeline"]
MAGIC = str(data_dir("programs") / "arm64" / "c" / "bin" / "magic")


def _verdicts(report):
    return {name: run.verdicts for name, run in report.runs.items()}


def _drop_seconds(value):
    if isinstance(value, dict):
        return {k: _drop_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_drop_seconds(v) for v in value]
    return value


def _fuzz_answers(campaign):
    per_seed = [(r.seed, r.executions, r.edges, r.corpus, [(f.outcome, f.input, f.original, f.execution)
                                                           for f in r.crashes + r.hangs]) for r in campaign.reports]
    return per_seed, campaign.executions, campaign.edges, campaign.corpus, [
        (f.outcome, f.input) for f in campaign.crashes + campaign.hangs]


def test_the_differential_suite_passes_here_and_names_unknown_cases():
    report = differential_suite("all", CASES + ["hello", "argv_env"], progress=False)
    assert [v.key for v in report.verdicts][-2:] == ["c: hello", "c: argv_env"]
    assert report.failures == [] and len(report.verdicts) >= 4
    with pytest.raises(ValueError, match="no such case"):
        cases("busybox", ["no-such-case"])


def test_a_fuzzing_campaign_merges_its_seeds():
    campaign = fuzz_campaign(MAGIC, seeds=[0, 1], executions=600, progress=False)
    assert campaign.seeds == [0, 1] and campaign.executions == 1200
    assert campaign.edges >= max(r.edges for r in campaign.reports)
    assert set(campaign.corpus) == {d for r in campaign.reports for d in r.corpus}
    assert [f.outcome.signature for f in campaign.hangs] == ["hang"]  # both seeds find HA; kept once
    assert [row["seed"] for row in campaign.rows()] == [0, 1]


def test_a_seed_sweep_trains_each_cell_from_each_seed():
    rows = seed_sweep(["logic"], [0, 1], max_steps=400, progress=False)
    assert [(r["cell"], r["seed"]) for r in rows] == [("logic", 0), ("logic", 1)]
    assert all(r["exact"] and r["steps"] < 400 for r in rows)
    assert rows[0]["weights_sha256"] != rows[1]["weights_sha256"]


def test_the_new_commands_say_so_when_ray_is_missing(monkeypatch, capsys):
    import builtins
    import sys

    real_import = builtins.__import__

    def without_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_ray)
    monkeypatch.delitem(sys.modules, "ray", raising=False)
    from ncpu_nb.cli import main

    for argv in (["differential", "c", "--case", "hello", "--ray"], ["fuzz", "--ray", "--seeds", "0", MAGIC],
                 ["conformance", "busybox", "--applet", "echo", "--ray"]):
        assert main(argv) == 1, argv
        assert "Ray is not installed" in capsys.readouterr().err


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    sweeps.connect(num_cpus=2)
    yield ray
    sweeps.shutdown()
    assert not ray.is_initialized()


@pytest.mark.conformance
@pytest.mark.slow
def test_the_testsuite_on_ray_gives_the_local_verdicts(local_ray, tmp_path):
    local = busybox_conformance("quick", only=APPLETS, progress=False)
    on_ray = busybox_conformance("quick", only=APPLETS, progress=False, ray=True, keep=str(tmp_path))
    assert _verdicts(on_ray) == _verdicts(local)
    assert {v.unit for v in local.runs["machine"].verdicts} == set(APPLETS)
    assert local.runs["machine"].count("pass") >= 20 and on_ray.machine_only == local.machine_only == []
    assert (tmp_path / "machine" / "logs" / "echo.log").read_text().count("PASS: echo") >= 5


def test_the_differential_suite_on_ray_gives_the_local_verdicts(local_ray):
    names = CASES + ["hello", "threads"]
    local = differential_suite("all", names, progress=False)
    on_ray = differential_suite("all", names, progress=False, ray=True)
    assert on_ray.verdicts == local.verdicts  # stop, status, stdout, instruction counts
    assert not local.failures


def test_cli_differential_with_ray_prints_the_local_json(local_ray, capsys):
    from ncpu_nb.cli import main

    argv = ["differential", "c", "--case", "hello", "--case", "gradebook", "--json"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(argv + ["--ray"]) == 0  # Ray runs already: the CLI joins it and leaves it running
    assert _drop_seconds(json.loads(capsys.readouterr().out)) == _drop_seconds(local)
    assert local_ray.is_initialized()


def test_a_fuzzing_campaign_on_ray_gives_the_local_reports(local_ray):
    local = fuzz_campaign(MAGIC, seeds=[0, 1, 4], executions=1000, progress=False)
    on_ray = fuzz_campaign(MAGIC, seeds=[0, 1, 4], executions=1000, progress=False, ray=True)
    assert _fuzz_answers(on_ray) == _fuzz_answers(local)


def test_an_ncpu_lane_campaign_on_ray_gives_the_local_reports(local_ray):
    options = {"where": "memory:input", "lanes": 64, "progress": False}
    local = fuzz_campaign("magic_word", seeds=[0, 1], executions=512, **options)
    on_ray = fuzz_campaign("magic_word", seeds=[0, 1], executions=512, ray=True, **options)
    assert _fuzz_answers(on_ray) == _fuzz_answers(local)


def test_a_training_seed_sweep_on_ray_gives_the_local_rows(local_ray):
    local = seed_sweep(["logic", "mux"], [0, 1], max_steps=300, progress=False)
    on_ray = seed_sweep(["logic", "mux"], [0, 1], max_steps=300, progress=False, ray=True)
    assert on_ray == local  # steps, loss, patterns right, the weights' digest
    assert len({r["weights_sha256"] for r in local}) == 4


def test_cli_fuzz_with_ray_prints_the_local_json(local_ray, capsys):
    from ncpu_nb.cli import main

    argv = ["fuzz", "--seeds", "3-4", "--executions", "800", "--json", MAGIC]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(argv[:1] + ["--ray"] + argv[1:]) == 0  # before the program: what follows it is the program's
    assert _drop_seconds(json.loads(capsys.readouterr().out)) == _drop_seconds(local)
    assert [row["seed"] for row in local["seeds"]] == [3, 4] and local["executions"] == 1600
