"""A plain `pip install .` wheel carries the extension and the data folders inside the package."""
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # builds the whole extension in release mode
def test_wheel_contains_extension_and_data_and_runs_from_an_unpacked_copy(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                    "--quiet", "-w", str(tmp_path)], check=True)
    (wheel,) = tmp_path.glob("ncpu_nb-*.whl")
    assert "abi3" in wheel.name  # one build serves every Python >= 3.10
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("ncpu_nb/_metal") for n in names)
    assert "ncpu_nb/data/programs/ncpu/manifest.json" in names
    assert "ncpu_nb/data/notebooks/00_tour.ipynb" in names
    assert not any(n.startswith(("programs/", "weights/", "notebooks/")) for n in names)  # nothing at top level
    record = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("RECORD"))).decode()
    assert "ncpu_nb/data/programs/ncpu/manifest.json,sha256=" in record

    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = ("import ncpu_nb, ncpu_nb.resources as r; "
             "assert r.data_dir('programs').is_relative_to(r.PACKAGE / 'data'); "
             "cpu = ncpu_nb.CPU(ncpu_nb.load_program('gcd')); cpu.run(); print(cpu.halted)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env={"PYTHONPATH": str(site)},
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"
