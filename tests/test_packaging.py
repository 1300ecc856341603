"""A plain `pip install .` wheel carries the extension and the data folders inside the package, and
installs and runs in a fresh virtual environment on a machine without Rust."""
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow  # builds a wheel

SMOKE = """
import ncpu_nb
from ncpu_nb import resources
assert resources.data_dir("programs").is_relative_to(resources.PACKAGE / "data"), resources.data_dir("programs")
for mode in ("fast", "neural"):
    cpu = ncpu_nb.CPU(ncpu_nb.load_program("gcd"), mode=mode)
    cpu.run()
    assert cpu.halted, mode
result = ncpu_nb.busybox("echo", "hi")
assert (result.stdout, result.exit_code) == ("hi\\n", 0), result
page = ncpu_nb.CPU(ncpu_nb.load_program("gcd")).debugger().static_html()
assert "<script" not in page and "R0" in page
print("smoke ok")
"""


# Each requirement of the installed wheel (its metadata, not pyproject's) is met by a version found here.
REQUIREMENTS_MET = """
from importlib.metadata import requires, version
from packaging.requirements import Requirement
for line in requires("ncpu_nb"):
    req = Requirement(line)
    if req.marker is None or req.marker.evaluate({"extra": ""}):
        assert req.specifier.contains(version(req.name), prereleases=True), (line, version(req.name))
        print(req.name)
"""


VIEW_FILES = ("ncpu_nb/views/terminal.js", "ncpu_nb/views/widgets.css", "ncpu_nb/views/vendor/xterm/lib/xterm.js",
              "ncpu_nb/views/vendor/xterm/addons/fit/fit.js", "ncpu_nb/views/vendor/xterm/xterm.css",
              "ncpu_nb/views/vendor/xterm/copyright", "ncpu_nb/views/vendor/xterm/PROVENANCE.md")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory, full) -> Path:
    """The wheel `pip wheel .` builds. Outside --full it is built with the editable install's Cargo profile,
    which reuses that build's compiled dependencies (about 80 s); --full builds it as released, with
    whole-program LTO (about six minutes here)."""
    out = tmp_path_factory.mktemp("wheel")
    env = os.environ if full else {**os.environ, "MATURIN_PEP517_ARGS": "--profile editable"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                    "--quiet", "-w", str(out)], check=True, env=env)
    (built,) = out.glob("ncpu_nb-*.whl")
    return built


def test_wheel_contains_extension_and_data_and_runs_from_an_unpacked_copy(wheel, tmp_path, full):
    assert "abi3" in wheel.name  # one build serves every Python >= 3.10
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("ncpu_nb/_metal") for n in names)
    assert "ncpu_nb/data/programs/ncpu/manifest.json" in names
    assert "ncpu_nb/data/notebooks/00_tour.ipynb" in names
    assert set(VIEW_FILES) <= set(names)  # the views' scripts and the vendored xterm.js with its licence
    assert not any(n.startswith(("programs/", "weights/", "notebooks/")) for n in names)  # nothing at top level
    record = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("RECORD"))).decode()
    assert "ncpu_nb/data/programs/ncpu/manifest.json,sha256=" in record

    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    # The wheel is tagged linux_x86_64: it runs where the C library is at least as new as the newest
    # symbol version the extension asks for. Colab and Ubuntu 22.04 have glibc 2.35.
    (extension,) = (site / "ncpu_nb").glob("_metal*.so")
    symbols = subprocess.run(["objdump", "-T", str(extension)], capture_output=True, text=True, check=True).stdout
    needed = max(tuple(map(int, v.split("."))) for v in re.findall(r"GLIBC_(\d+\.\d+)", symbols))
    assert needed <= (2, 35), f"the extension needs glibc {needed}: newer than Colab's 2.35"
    probe = ("import ncpu_nb, ncpu_nb.resources as r; "
             "assert r.data_dir('programs').is_relative_to(r.PACKAGE / 'data'); "
             "cpu = ncpu_nb.CPU(ncpu_nb.load_program('gcd')); cpu.run(); print(cpu.halted, ncpu_nb._metal.BUILD_CHECKED)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env={"PYTHONPATH": str(site)},
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", str(not full)]  # a released wheel has no overflow checks


def test_the_wheel_installs_and_runs_in_a_fresh_venv_without_cargo(wheel, tmp_path, full):
    """As on a hosted notebook: pip installs the wheel (no Rust toolchain anywhere on PATH), then the
    package runs both nCPU modes, BusyBox and a debugger's static view, and a chapter runs under nbmake.
    Under --full pip resolves and installs every dependency (about two minutes here); otherwise the venv borrows
    this environment's (a .pth line, which adds the folder but not its editable finder), checked against
    the wheel's own requirements."""
    venv = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    cargo = shutil.which("cargo")
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                           if not (cargo and Path(p) == Path(cargo).parent))
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{path}", "VIRTUAL_ENV": str(venv)}
    env.pop("PYTHONPATH", None)
    assert shutil.which("cargo", path=env["PATH"]) is None
    python = venv / "bin" / "python"
    if full:
        subprocess.run([python, "-m", "pip", "install", "--quiet", str(wheel), "nbmake", "pytest", "ipykernel"],
                       check=True, env=env, cwd=tmp_path)
    else:
        site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              capture_output=True, text=True, check=True).stdout.strip()
        borrowed = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
        (Path(site) / "borrowed.pth").write_text("\n".join(borrowed) + "\n")
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)], check=True, env=env,
                       cwd=tmp_path)
        check = subprocess.run([python, "-c", REQUIREMENTS_MET], env=env, cwd=tmp_path, capture_output=True,
                               text=True)
        assert check.returncode == 0 and {"numpy", "torch"} <= set(check.stdout.split()), check.stdout + check.stderr
    where = subprocess.run([python, "-c", "import ncpu_nb; print(ncpu_nb.__file__)"], env=env, cwd=tmp_path,
                           capture_output=True, text=True)
    assert Path(where.stdout.strip()).is_relative_to(venv), where  # the wheel's copy, not the checkout
    smoke = subprocess.run([python, "-c", SMOKE], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert smoke.returncode == 0 and smoke.stdout.strip() == "smoke ok", smoke.stderr
    chapter = tmp_path / "01_the_ncpu_isa.ipynb"  # a copy: nothing of the checkout on the kernel's path
    shutil.copy(ROOT / "notebooks" / chapter.name, chapter)
    run = subprocess.run([python, "-m", "pytest", "--nbmake", "-q", "-p", "no:cacheprovider",
                          str(chapter)], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]


SOURCE_MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")

LEARNERS_WORKSPACE = """
import sys
sys.modules["nbgrader"] = None  # the default install: no course extra
from pathlib import Path
from ncpu_nb import lab, resources
assert resources.data_dir("tutorials").is_relative_to(resources.PACKAGE / "data"), resources.data_dir("tutorials")
root, added = lab.workspace(sys.argv[1])
print(len(added))
"""


def test_neither_the_wheel_nor_a_learners_workspace_holds_a_solution_or_hidden_test(wheel, tmp_path):
    """Every learner installs the wheel and opens `ncpu-nb lab`: both hold the student versions of the
    assignments (solution cells that raise NotImplementedError, no hidden test), and nothing else."""
    with zipfile.ZipFile(wheel) as z:
        notebooks = {n: z.read(n).decode() for n in z.namelist() if n.endswith(".ipynb")}
    assignments = {n: text for n, text in notebooks.items() if n.startswith("ncpu_nb/data/tutorials/0")
                   and "00_running" not in n}
    assert len(assignments) == 6
    for name, text in notebooks.items():
        assert not any(marker in text for marker in SOURCE_MARKERS), name
    for name, text in assignments.items():
        assert "raise NotImplementedError()" in text, name

    site, learner = tmp_path / "site", tmp_path / "learner"
    zipfile.ZipFile(wheel).extractall(site)
    made = subprocess.run([sys.executable, "-c", LEARNERS_WORKSPACE, str(learner)], cwd=tmp_path,
                          env={"PYTHONPATH": str(site)}, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    files = [p for p in learner.rglob("*") if p.is_file()]
    assert int(made.stdout) == len(files) > 6
    for file in files:
        text = file.read_text(errors="replace")
        assert not any(marker in text for marker in SOURCE_MARKERS), file
    tutorials = sorted(p.name for p in (learner / "tutorials").glob("0*.ipynb"))
    assert tutorials == sorted(Path(n).name for n in notebooks if n.startswith("ncpu_nb/data/tutorials/"))


def test_the_sdist_carries_the_views_and_the_vendored_xterm(tmp_path):
    subprocess.run([sys.executable, "-m", "maturin", "sdist", "-o", str(tmp_path)], cwd=ROOT, check=True,
                   capture_output=True)
    (sdist,) = tmp_path.glob("ncpu_nb-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert set(VIEW_FILES) <= names


def test_the_sdist_holds_student_versions_of_the_assignments(tmp_path):
    """A wheel built from the sdist (as pip does where no wheel fits) is a learner's too: the sdist the
    project's build backend makes holds the student versions, not the sources."""
    make = "import sys, wheel_backend; print(wheel_backend.build_sdist(sys.argv[1]))"
    subprocess.run([sys.executable, "-c", make, str(tmp_path)], cwd=ROOT, check=True, capture_output=True,
                   env={**os.environ, "PYTHONPATH": str(ROOT / ".ci")})
    (sdist,) = tmp_path.glob("ncpu_nb-*.tar.gz")
    with tarfile.open(sdist) as tar:
        notebooks = {m.name: tar.extractfile(m).read().decode() for m in tar.getmembers()
                     if m.name.endswith(".ipynb")}
    assignments = [n for n in notebooks if "/tutorials/0" in n and "00_running" not in n]
    assert len(assignments) == 6
    for name, text in notebooks.items():
        assert not any(marker in text for marker in SOURCE_MARKERS), name
    for name in assignments:
        assert "raise NotImplementedError()" in notebooks[name], name
