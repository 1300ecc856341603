"""ncpu-nb synth and synth-bench."""
import json

from ncpu_nb.cli import main


def test_synth_json(tmp_path, capsys):
    spec = tmp_path / "double.json"
    spec.write_text(json.dumps({"inputs": ["R0"], "outputs": ["R1"], "max_len": 3, "time_limit": 20,
                                "examples": [[{"R0": x}, {"R1": 2 * x}] for x in (1, -3, 7, 12, 0, 40)]}))
    assert main(["synth", str(spec), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solved"] is True and set(out) == {"solved", "program", "method", "seconds"}
    assert out["program"].endswith("HALT")


def test_synth_rejects_a_malformed_spec(tmp_path, capsys):
    spec = tmp_path / "bad.json"
    spec.write_text('{"inputs": ["R0"], "outputs": ["R1"], "examples": [[{"R0": 1}, {"R1": "x"}]]}')
    assert main(["synth", str(spec)]) == 1
    assert "examples[0]: R1='x' is not a 32-bit integer" in capsys.readouterr().err
    spec.write_text('{"inputs": ')
    assert main(["synth", str(spec)]) == 1
    assert "line 1, column" in capsys.readouterr().err


def test_synth_bench_one_task(capsys):
    assert main(["synth-bench", "--task", "add", "--time-limit", "10", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["totals"]["tasks"] == 1 and report["tasks"][0]["name"] == "add"


def test_synth_bench_random_ablation(capsys):
    assert main(["synth-bench", "--task", "negate", "--time-limit", "2", "--ablation", "random"]) == 0
    assert "ablation random: gradient descent's sampler with learning rate 0" in capsys.readouterr().out


def test_import_stays_light_and_the_engine_names_load_on_use():
    import subprocess
    import sys

    code = ("import sys, ncpu_nb; assert 'torch' not in sys.modules; "
            "from ncpu_nb import DifferentiableEngine, ProgramOptimizer, Synthesizer, SynthesisSpec, "
            "plot_gradient_flow; assert 'torch' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=str(__import__("pathlib").Path(__file__).parents[1]))
