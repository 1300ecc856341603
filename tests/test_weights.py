"""Loading trained weights: one typed error for every bad folder, files confined to it, the kit's own
cells proven right as they load."""
import json
import shutil

import pytest

import ncpu_nb
from ncpu_nb.ncpu import neural_cells as cells
from ncpu_nb.ncpu.neural_cells import sha256
from ncpu_nb.ncpu.torch_cells import load_cell
from ncpu_nb.errors import NcpuError, WeightsError
from ncpu_nb.resources import data_dir


@pytest.fixture
def weights(tmp_path):
    shutil.copytree(data_dir("weights"), tmp_path / "weights")
    return tmp_path / "weights"


def _edit_manifest(folder, change) -> None:
    path = folder / "manifest.json"
    manifest = json.loads(path.read_text())
    change(manifest["cells"])
    path.write_text(json.dumps(manifest))


def _record_hashes(monkeypatch) -> list:
    read = []
    monkeypatch.setattr(cells, "sha256", lambda path: read.append(path) or sha256(path))
    return read


def test_one_typed_error_exported_from_the_package():
    assert ncpu_nb.WeightsError is WeightsError is cells.WeightsError and issubclass(WeightsError, NcpuError)


def test_a_tampered_kit_cell_with_an_updated_manifest_is_refused(weights, monkeypatch):
    from safetensors.torch import load_file, save_file

    path = weights / "combine.safetensors"
    tensors = load_file(str(path))
    tensors["out.bias"] = tensors["out.bias"] - 50.0  # never generates a carry
    save_file(tensors, str(path))
    _edit_manifest(weights, lambda entries: entries["combine"].update(sha256=sha256(path)))
    assert load_cell("combine", weights).check()[0] < 16  # a folder of one's own loads as its manifest says
    monkeypatch.setattr(cells, "data_dir", lambda name: weights)  # now it is the kit's own folder
    with pytest.raises(WeightsError, match=r"combine.safetensors is wrong on \d+ of the 16 patterns.*ncpu-nb verify"):
        load_cell("combine")
    assert load_cell("logic").check() == (4, 4)  # the untouched cells still load


@pytest.mark.parametrize("text, message", [
    ('{"cells": ', "is not valid JSON: Expecting value: line 1"),
    ("\xff\xfe", "is not valid JSON"),
    ('["cells"]', 'has no "cells" table'),
    ('{"cells": {"logic": "logic.safetensors"}}', 'cell \'logic\' needs a "file" and a "sha256"'),
    ('{"cells": {"logic": {"file": "logic.safetensors"}}}', 'cell \'logic\' needs a "file" and a "sha256"'),
    ('{"cells": {}}', "has no cell 'logic'"),
    ("[" * 100_000 + "]" * 100_000, "nests deeper than a manifest does"),
    ('{"cells": ' + '{"a": ' * 100_000 + "0" + "}" * 100_001, "nests deeper than a manifest does"),
])
def test_a_malformed_manifest_is_a_weights_error(weights, text, message):
    (weights / "manifest.json").write_bytes(text.encode("latin-1"))
    with pytest.raises(WeightsError, match=message):
        load_cell("logic", weights)


@pytest.mark.parametrize("file", ["../../../../etc/passwd", "/etc/passwd", "..", "", "sub/logic.safetensors",
                                  "outside.safetensors"])
def test_a_manifest_naming_a_file_outside_the_folder_is_refused_before_reading_it(weights, file, monkeypatch):
    (weights / "sub").mkdir()
    shutil.copy(weights / "logic.safetensors", weights / "sub" / "logic.safetensors")
    (weights / "outside.safetensors").symlink_to(weights.parent / "elsewhere.safetensors")
    shutil.copy(weights / "logic.safetensors", weights.parent / "elsewhere.safetensors")
    _edit_manifest(weights, lambda entries: entries["logic"].update(file=file))
    read = _record_hashes(monkeypatch)
    with pytest.raises(WeightsError, match="not a file in"):
        load_cell("logic", weights)
    assert read == []


def test_a_malformed_weight_file_is_a_weights_error(weights):
    path = weights / "logic.safetensors"
    for content in (b"not safetensors at all", (weights / "mux.safetensors").read_bytes()):  # the wrong cell
        path.write_bytes(content)
        _edit_manifest(weights, lambda entries: entries["logic"].update(sha256=sha256(path)))
        with pytest.raises(WeightsError, match="logic.safetensors is not a logic cell"):
            load_cell("logic", weights)


def test_the_old_home_of_the_torch_cells_still_works_with_a_warning():
    from ncpu_nb.ncpu import torch_cells

    with pytest.warns(DeprecationWarning, match="torch_cells.load_cell"):
        from ncpu_nb.ncpu.neural_cells import load_cell as old
    assert old is torch_cells.load_cell
