"""Sweeps (ncpu_nb.sweeps): the same answers here and as Ray tasks on a local Ray cluster."""
from __future__ import annotations

import builtins
import hashlib
import subprocess
import sys

import pytest

from ncpu_nb import sweeps
from ncpu_nb.errors import NcpuError

SYNTH_TASKS = ["add", "abs", "max", "is_even"]  # each solved in about a second


def _square(x):
    return x * x


def test_local_sweep_keeps_order_and_reports_each_result():
    seen = []
    assert sweeps.sweep(_square, [3, 1, 2], progress=False, on_result=lambda i, r: seen.append((i, r))) == [9, 1, 4]
    assert seen == [(0, 9), (1, 1), (2, 4)]


def test_local_sweep_raises_the_items_error():
    with pytest.raises(ZeroDivisionError):
        sweeps.sweep(lambda x: 1 // x, [1, 0], progress=False)


@pytest.fixture
def no_ray(monkeypatch):
    """`import ray` fails, as where it is not installed."""
    real_import = builtins.__import__

    def without_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_ray)
    monkeypatch.delitem(sys.modules, "ray", raising=False)


def test_ray_missing_is_a_clear_error(no_ray):
    with pytest.raises(NcpuError, match=r'pip install "ncpu_nb\[ray\]"'):
        sweeps.sweep(_square, [1, 2], ray=True, progress=False)


def test_cli_says_so_when_ray_is_missing(no_ray, capsys):
    from ncpu_nb.cli import main

    assert main(["synth-bench", "--task", "add", "--ray", "--json"]) == 1
    assert "Ray is not installed" in capsys.readouterr().err


def test_importing_the_sweeps_module_does_not_import_ray():
    code = "import ncpu_nb.sweeps, ncpu_nb.cli, sys; print('ray' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"


class _FlakyRay:
    """Ray whose first node start fails, as a start that times out on a loaded machine does."""

    def __init__(self):
        self.calls = []

    def is_initialized(self):
        return False

    def init(self, address=None, **kwargs):
        self.calls.append(("init", address))
        if len(self.calls) == 1:
            raise TimeoutError("the node did not start in time")

    def shutdown(self):
        self.calls.append(("shutdown", None))


def test_a_local_ray_start_is_retried_once(monkeypatch):
    flaky = _FlakyRay()
    monkeypatch.setattr(sweeps, "_import_ray", lambda: flaky)
    monkeypatch.setattr(sweeps, "_started_here", False)
    assert sweeps.connect(num_cpus=1) is flaky
    assert flaky.calls == [("init", None), ("shutdown", None), ("init", None)]


def test_joining_a_cluster_is_not_retried(monkeypatch):
    flaky = _FlakyRay()
    monkeypatch.setattr(sweeps, "_import_ray", lambda: flaky)
    with pytest.raises(TimeoutError):
        sweeps.connect("ray://head:10001")
    assert flaky.calls == [("init", "ray://head:10001")]


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    sweeps.connect(num_cpus=2)
    yield ray
    sweeps.shutdown()
    assert not ray.is_initialized()


def _answers(outcomes):
    return [(o.name, o.solved, o.method, o.program, o.held_out, o.restarts, o.restart_successes, o.length,
             o.gradient_solved) for o in outcomes]


def test_synth_bench_on_ray_gives_the_local_answers(local_ray):
    from ncpu_nb.synthesis import synth_bench as bench

    local = bench.run(names=SYNTH_TASKS, time_limit=20, turn_steps=20)
    on_ray = bench.run(names=SYNTH_TASKS, time_limit=20, turn_steps=20, ray=True)
    assert [o.name for o in on_ray] == sorted(SYNTH_TASKS)  # the order of the task files
    assert all(o.solved and o.program for o in local)
    assert _answers(on_ray) == _answers(local)


def test_verification_on_ray_gives_the_local_report(local_ray):
    from ncpu_nb.verification import verify

    local = verify(ops=["and", "xor"], random_pairs=5000, progress=False)
    on_ray = verify(ops=["and", "xor"], random_pairs=5000, progress=False, ray=True)
    rows = lambda report: [(c.what, c.domain, c.cases, c.torch_cases, c.mismatches) for c in report]  # noqa: E731
    assert rows(on_ray) == rows(local)
    assert [c.what for c in local][:4] == ["cell logic", "cell combine", "cell full_adder", "cell mux"]
    assert on_ray.exact and len(local) == 4 + 2 * 6


def test_a_ray_worker_draws_the_same_random_operands(local_ray):
    """The report above cannot show which random pairs were checked; their digests can."""
    import numpy as np

    from ncpu_nb.verification import operand_sets
    from ncpu_nb.ncpu.table import ALU_NAMES

    def digests(op):
        rng = np.random.default_rng([0, ALU_NAMES.index(op)])
        return [hashlib.sha256(a.tobytes() + b.tobytes()).hexdigest() for _, _, a, b in operand_sets(op, rng, 1000)]

    ops = ["add", "shl", "mul"]
    here = sweeps.sweep(digests, ops, progress=False)
    assert sweeps.sweep(digests, ops, ray=True, progress=False) == here
    assert here[0][-1] != here[2][-1]  # each operation has its own stream


def test_a_ray_tasks_error_reaches_the_caller(local_ray):
    with pytest.raises(ZeroDivisionError):
        sweeps.sweep(lambda x: 1 // x, [1, 0], ray=True, progress=False)


def test_cli_synth_bench_with_ray_prints_the_local_json(local_ray, capsys):
    import json

    from ncpu_nb.cli import main

    argv = ["synth-bench", "--task", "add", "--task", "max", "--turn-steps", "20", "--time-limit", "20", "--json"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(argv + ["--ray"]) == 0  # Ray is running already: the CLI joins it and leaves it running
    on_ray = json.loads(capsys.readouterr().out)
    assert local_ray.is_initialized()
    drop = lambda t: {k: v for k, v in t.items() if k != "seconds"}  # noqa: E731
    assert [drop(t) for t in on_ray["tasks"]] == [drop(t) for t in local["tasks"]]


def test_turn_steps_make_gradient_search_independent_of_the_clock(monkeypatch):
    """What lets a busy Ray worker give the local answer: with turn_steps, a clock running 5 times
    faster (a machine 5 times slower) takes the same steps to the same program. (Without turn_steps
    it does not: turns of 0.25 s x the length interleave the lengths differently, and on max the
    faster clock ends with a longer program.)"""
    import time

    from ncpu_nb.synthesis import gradient_search
    from ncpu_nb.synthesis.gradient_search import GradientSearch
    from ncpu_nb.synthesis.spec import SynthesisSpec
    from ncpu_nb.synthesis.synth_bench import task_files

    spec = SynthesisSpec.from_json(task_files(names=["max"])[0])

    def search(speed):
        class Clock:
            @staticmethod
            def perf_counter():
                return time.perf_counter() * speed

        monkeypatch.setattr(gradient_search, "time", Clock)
        text, stats = GradientSearch(turn_steps=20).search(spec, Clock.perf_counter() + 60 * speed)
        return text, stats.steps, stats.restarts, stats.successes, stats.losses

    normal, slow = search(1.0), search(5.0)
    assert normal[0] is not None and normal == slow
