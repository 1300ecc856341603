import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Under pytest-xdist each worker has a core of its own: torch and BLAS in it, and in the kernels it
# starts, compute on one thread. Two workers with a thread per core each made chapter 13 (two minutes
# alone) run past ten.
if os.environ.get("PYTEST_XDIST_WORKER"):
    for threads in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(threads, "1")

# CI runs more examples than a developer's quick loop.
settings.register_profile("ci", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# Tiers by where a test lives (a test marked by hand as well keeps both): the quick loop is
# `pytest -m "not slow and not browser"`.
ORACLE_FILES = {"test_arm64_core.py", "test_arm64_simd_fp.py", "test_arm64_disasm.py", "test_linux_machine.py",
                "test_arm64_programs.py", "test_fast_vs_reference.py"}


def pytest_addoption(parser):
    parser.addoption("--all-chapters", action="store_true",
                     help="the curriculum browser test runs every chapter and tutorial, not only those with live views")
    parser.addoption("--full", action="store_true",
                     help="also run the tests marked `full`: the long runs CI leaves to a smaller sample of each")


def full_run(config) -> bool:
    return config.getoption("--full")


def pytest_configure(config):
    # The chapters whose cost is search or training take a quarter of their numbers here, and all of
    # them under --full (ncpu_nb/chapter_budget.py); the kernels nbmake and JupyterLab start inherit it.
    from ncpu_nb.chapter_budget import VARIABLE

    os.environ.setdefault(VARIABLE, "1" if full_run(config) else "0.25")


@pytest.fixture(scope="session")
def full(request) -> bool:
    """True under --full: a test that takes a size takes the whole one."""
    return full_run(request.config)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    """Tiers and markers first (before -m selects by them), then, once -m and -k have chosen, each notebook
    is executed once: where a chosen test executes a notebook itself (marked `executes(path)`: the browser's
    Run All, nbgrader grading an assignment's source), nbmake does not run it a second time."""
    _tiers(config, items)
    yield
    executed = {Path(mark.args[0]).resolve() for item in items for mark in item.iter_markers("executes")}
    twice = [item for item in items if item.path.suffix == ".ipynb" and item.path.resolve() in executed]
    if twice:
        config.hook.pytest_deselected(items=twice)
        items[:] = [item for item in items if item not in twice]


def _tiers(config, items):
    if not full_run(config):  # the full tier is deselected (and counted so) unless asked for
        long_runs = [item for item in items if item.get_closest_marker("full")]
        if long_runs:
            config.hook.pytest_deselected(items=long_runs)
            items[:] = [item for item in items if not item.get_closest_marker("full")]
    for item in items:
        if "full" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.sized)
        path = item.path
        if "browser" in path.parts:
            item.add_marker(pytest.mark.browser)
        if path.suffix == ".ipynb":
            item.add_marker(pytest.mark.notebook)
        if path.name in ORACLE_FILES:
            item.add_marker(pytest.mark.oracle)


@pytest.fixture(scope="session")
def once_per_run(tmp_path_factory):
    """once_per_run(name, make): make(folder)'s value, computed by one pytest-xdist worker for the whole run
    and read back (pickled) by the others, which wait for it. A module-scoped fixture would be made again by
    each worker, and again whenever worksteal hands that module's tests to a worker in between others'."""
    import fcntl
    import pickle

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the workers' common folder

    def once(name, make):
        folder, value = shared / name, shared / f"{name}.pickle"
        with open(shared / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not value.exists():
                shutil.rmtree(folder, ignore_errors=True)  # what a worker that failed half-way left
                folder.mkdir()
                made = make(folder)
                value.write_bytes(pickle.dumps(made))
                return made
        return pickle.loads(value.read_bytes())

    return once


# Debian's arm64 packages for the dynamically linked programs (tests/test_dynamic_programs.py) and the
# bench's start-up rows (tests/test_bench.py).
DEBIAN_PACKAGES = ["coreutils", "grep", "sed", "gawk", "bash", "lua5.4", "python3-minimal"]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


@pytest.fixture(scope="session")
def debian_packages():
    return DEBIAN_PACKAGES


@pytest.fixture(scope="session")
def debian_root():
    """Debian's arm64 packages unpacked once into the cache folder (kept between sessions)."""
    import fcntl

    from ncpu_nb import rootfs

    root = ARTIFACTS / "debian-root"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with open(ARTIFACTS / "debian-root.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # pytest-xdist's workers: one makes the root, the others wait for it
        if (root / rootfs.MANIFEST).is_file() and all(
                f"\n{p}\t" in (root / rootfs.MANIFEST).read_text() for p in DEBIAN_PACKAGES):
            return root
        if shutil.which("apt-get") is None:
            pytest.skip("no apt-get: Debian's arm64 packages cannot be downloaded here")
        try:
            shutil.rmtree(root, ignore_errors=True)
            return rootfs.debian(DEBIAN_PACKAGES, root, setup=hasattr(os, "geteuid") and os.geteuid() == 0)
        except rootfs.RootfsError as e:
            pytest.skip(f"cannot download Debian's arm64 packages: {e}")


