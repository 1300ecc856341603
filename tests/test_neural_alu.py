"""The neural ALU: trained cells, reproducible training, the data path really through the weights."""
import json
import shutil

import numpy as np
import pytest
import torch

from ncpu_nb.ncpu.neural_cells import CELLS, WeightsError, read_manifest, sha256
from ncpu_nb.ncpu.torch_cells import load_cell
from ncpu_nb.ncpu.neural_alu import NeuralALU
from ncpu_nb.ncpu.table import CARRY_OPS, INTEGER_OPS, alu
from ncpu_nb.resources import data_dir
from ncpu_nb.train import train_all


# The wiring runs wherever torch does; on a machine with a GPU every test using it runs there too.
@pytest.fixture(scope="module", params=["cpu"] + (["cuda"] if torch.cuda.is_available() else []))
def neural(request):
    return NeuralALU(device=request.param)


def test_every_committed_cell_is_right_on_its_whole_domain_and_matches_the_manifest():
    manifest = read_manifest()
    assert set(manifest["cells"]) == set(CELLS)
    for name, entry in manifest["cells"].items():
        right, total = load_cell(name).check()
        assert right == total == entry["domain_size"] == entry["verified"]["correct"]


@pytest.mark.slow
def test_every_operation_matches_the_reference_on_random_and_edge_operands(neural):
    rng = np.random.default_rng(7)
    edge = np.array([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 31, 32], dtype=np.uint64)
    a = np.concatenate([np.repeat(edge, len(edge)), rng.integers(0, 2**32, 300, np.uint64)])
    b = np.concatenate([np.tile(edge, len(edge)), rng.integers(0, 2**32, 300, np.uint64)])
    for op in INTEGER_OPS:
        result, carry, overflow = neural.compute(op, a, b)
        for i in range(len(a)):
            want = alu(op, int(a[i]), int(b[i]))
            got = (int(result[i]), int(carry[i]), int(overflow[i]))
            assert got[0] == want[0] and (op not in CARRY_OPS or got == want), (op, hex(a[i]), hex(b[i]))


def test_the_torch_wiring_names_what_it_does_not_compute(neural):
    from ncpu_nb.errors import UnsupportedInstruction

    with pytest.raises(UnsupportedInstruction, match="'fadd' is not one of them"):
        neural.compute("fadd", [1], [2])


@pytest.fixture
def weights_copy(tmp_path):
    shutil.copytree(data_dir("weights"), tmp_path / "weights")
    return tmp_path / "weights"


def test_training_from_scratch_rebuilds_a_verified_cell(weights_copy):
    cheapest = min(CELLS, key=lambda n: read_manifest()["cells"][n]["parameters"])
    manifest = train_all(weights_copy, [cheapest])
    entry = manifest["cells"][cheapest]
    assert entry["verified"] == {"correct": entry["domain_size"], "of": entry["domain_size"]}
    right, total = load_cell(cheapest, weights_copy).check()
    assert right == total


def test_perturbing_a_weight_changes_neural_results(weights_copy):
    from safetensors.torch import load_file, save_file

    path = weights_copy / "combine.safetensors"
    tensors = load_file(str(path))
    tensors["out.bias"] = tensors["out.bias"] - 50.0  # the carry network now never generates a carry
    save_file(tensors, str(path))
    manifest = json.loads((weights_copy / "manifest.json").read_text())
    manifest["cells"]["combine"]["sha256"] = sha256(path)
    (weights_copy / "manifest.json").write_text(json.dumps(manifest))
    a = np.array([1, 0xFF, 123456], dtype=np.uint64)
    good = NeuralALU().compute("add", a, a)[0]
    bad = NeuralALU(weights_copy).compute("add", a, a)[0]
    assert list(good) == [2, 0x1FE, 246912] and list(bad) != list(good)


def test_a_tampered_or_missing_weight_file_is_named_in_the_error(weights_copy):
    path = weights_copy / "logic.safetensors"
    path.write_bytes(path.read_bytes()[:-1] + b"\0")
    with pytest.raises(WeightsError, match="logic.safetensors does not match its sha256"):
        NeuralALU(weights_copy)
    path.unlink()
    with pytest.raises(WeightsError, match="logic.safetensors is missing"):
        NeuralALU(weights_copy)


def test_no_gradients_and_bit_tensors_only(neural):
    bits = neural.add(torch.ones(2, 32), torch.zeros(2, 32))[0]
    assert bits.dtype == torch.float32 and set(bits.unique().tolist()) <= {0.0, 1.0}
