"""Gradient synthesis, the differentiable engine, the optimizer and ISA discovery on a torch device.

Every tensor of a run must be made on the device it was given. On "cpu" the runs happen under
`torch.set_default_device("meta")`: a tensor made without the device lands on "meta", and mixing it
with the CPU's tensors raises (or reading it does), so a forgotten `device=` fails here. A seed must
give the same results on the device as on the default. "cuda" runs the same checks where there is a GPU.
"""
import contextlib
import time

import pytest
import torch

from ncpu_nb.cli import main
from ncpu_nb.differentiable.engine import DifferentiableEngine
from ncpu_nb.differentiable.isa_discovery import ISADiscovery
from ncpu_nb.differentiable.optimizer import ProgramOptimizer
from ncpu_nb.differentiable.soft_program import SoftProgram
from ncpu_nb.synthesis import synth_bench
from ncpu_nb.synthesis.gradient_search import GradientSearch
from ncpu_nb.synthesis.spec import SynthesisSpec
from ncpu_nb.synthesis.synthesizer import Synthesizer

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
LOOP = ("MOV R1, 3\nloop:\nMUL R2, R0, R1\nSTR R2, [R3, 256]\nLDR R4, [R3, 256]\nLDR R5, [R3, 300]\n"
        "ADD R4, R4, R5\nSUB R1, R1, 1\nCMP R1, 0\nJNZ loop\nHALT")


@contextlib.contextmanager
def strict(device: str):
    """On the CPU, tensors made without a device go to "meta" (see the module docstring)."""
    if device != "cpu":
        yield
        return
    before = torch.get_default_device()
    torch.set_default_device("meta")
    try:
        yield
    finally:
        torch.set_default_device(before)


def test_strict_catches_a_tensor_made_without_the_device():
    with strict("cpu"), pytest.raises(RuntimeError, match="meta"):
        torch.zeros(2, device="cpu") + torch.zeros(2)
    assert torch.zeros(1).device.type == "cpu"  # restored


def _search(name: str, **options):
    spec = SynthesisSpec.from_json(synth_bench.default_directory() / f"{name}.json")
    text, stats = GradientSearch(turn_steps=5, seed=1, **options).search(spec, time.perf_counter() + 60)
    return text, stats.steps, stats.restarts, stats.losses


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", ["add", "max"])
def test_gradient_search_on_a_device_is_the_default_search(device, name):
    expected = _search(name)
    assert expected[0] is not None
    with strict(device):
        assert _search(name, device=device) == expected


@pytest.mark.parametrize("device", DEVICES)
def test_the_synthesizer_hands_its_device_to_gradient_descent(device):
    spec = synth_bench.default_directory() / "add.json"
    with strict(device):
        synthesizer = Synthesizer(methods=("gradient",), device=device)
    assert synthesizer.gradient.device.type == device
    assert synthesizer.synthesize(SynthesisSpec.from_json(spec)).solved
    with pytest.raises(ValueError, match="GradientSearch"):
        Synthesizer(gradient=GradientSearch(), device=device)


def test_an_unknown_device_is_a_clear_error_before_any_task(capsys):
    assert main(["synth-bench", "--task", "add", "--device", "bogus"]) == 2
    assert "unknown torch device 'bogus'" in capsys.readouterr().err
    with pytest.raises(ValueError, match="torch device"):
        DifferentiableEngine("HALT", device="bogus")


def _engine_run(device=None):
    x = torch.tensor([5.0, 2.0, -3.0], dtype=torch.float64, device="cpu", requires_grad=True)  # the user's leaf
    engine = DifferentiableEngine(LOOP, **({} if device is None else {"device": device}))
    run = engine.run(inputs={"R0": x, "memory": {300: [1.0, 2.0]}})
    gradients = engine.gradients()
    (run["R4"] * run["R2"]).sum().backward()
    array = engine.inputs["memory"][300]
    return (run["R4"].device.type, run.pc_distribution.device.type, run["R4"].tolist(), x.grad.tolist(),
            array.grad.tolist(), gradients)


@pytest.mark.parametrize("device", DEVICES)
def test_the_engine_runs_lanes_on_the_device_and_gradients_reach_the_inputs(device):
    expected = _engine_run()
    with strict(device):
        found = _engine_run(device)
    assert found[:2] == (device, device)
    assert found[2:] == expected[2:]
    assert expected[2] == [6.0, 3.0, -2.0]  # the last trip: R4 = R0 * 1 + mem[300], as the CPU computes it


def _code_in_memory(device=None):
    engine = DifferentiableEngine("MOV R0, 7\nADD R0, R0, 5\nHALT", code_at=1024,
                                  **({} if device is None else {"device": device}))
    return engine.run(lanes=2)["R0"].tolist()


@pytest.mark.parametrize("device", DEVICES)
def test_code_fetched_from_memory_runs_on_the_device(device):
    with strict(device):
        assert _code_in_memory(device) == _code_in_memory() == [12.0, 12.0]


def _soft_program(device=None):
    program = SoftProgram(3, seed=2, **({} if device is None else {"device": device}))
    run = DifferentiableEngine(program).run(inputs={"R0": 4.0, "R1": 2.0}, lanes=2)
    ((run["R2"] - 8) ** 2).sum().backward()
    return run["R2"].tolist(), [t.grad.tolist() for t in program.parameters()]


@pytest.mark.parametrize("device", DEVICES)
def test_a_soft_program_drawn_for_a_device_trains_there_as_on_the_cpu(device):
    with strict(device):
        assert _soft_program(device) == _soft_program()


def _optimize(device=None):
    optimizer = ProgramOptimizer(max_steps=40, **({} if device is None else {"device": device}))
    inputs = optimizer.optimize_inputs("MUL R2, R0, R1\nADD R2, R2, 7\nHALT", {"R2": 43}, ["R0", "R1"],
                                       restarts=4, seed=3)
    examples = [({"R0": i}, {"R1": 3 * i + 5}) for i in range(4)]
    constants = optimizer.fit_constants("MUL R1, R0, 2\nADD R1, R1, 1\nHALT", examples)
    table = optimizer.fit_memory("LDR R1, [R0, 256]\nHALT", [({"R0": 4 * i}, {"R1": i * i}) for i in range(3)],
                                 256, 3)
    return [(r.values, r.solved, r.steps, r.losses) for r in (inputs, constants, table)]


@pytest.mark.parametrize("device", DEVICES)
def test_the_optimizer_runs_its_restarts_as_lanes_on_the_device(device):
    expected = _optimize()
    assert [solved for _, solved, _, _ in expected] == [False, True, True]  # 40 steps: the restarts still search
    with strict(device):
        assert _optimize(device) == expected


def _discover(device=None):
    result = ISADiscovery("arithmetic", ops=2, steps=8, restarts=2, examples=8, seed=5,
                          **({} if device is None else {"device": device})).fit()
    return [op.circuit for op in result.ops], result.history["restart_losses"], result.history["loss"]


@pytest.mark.parametrize("device", DEVICES)
def test_isa_discovery_trains_its_restarts_on_the_device(device):
    with strict(device):
        found = _discover(device)
    assert found == _discover()


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a second torch device")
def test_a_soft_program_on_another_device_than_the_engine_is_a_clear_error():
    with pytest.raises(ValueError, match="make the SoftProgram with device='cpu'"):
        DifferentiableEngine(SoftProgram(2, device="cuda"), device="cpu")
