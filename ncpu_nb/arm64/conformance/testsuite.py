"""BusyBox 1.35.0's upstream testsuite as the kit ships it (programs/arm64/busybox-testsuite), and the folders it
runs in. See that folder's PROVENANCE.md."""
from __future__ import annotations

import shutil
from pathlib import Path

from ncpu_nb.resources import data_dir

# Applets whose tests take seconds on 2 cores: text tools, pipes, files, the shell that runs them, and output on
# stdout and stderr at once.
QUICK = ("basename", "cat", "cmp", "cut", "dirname", "echo", "expand", "fold", "head", "nl", "paste", "printf",
         "sort", "tail", "tr", "uniq", "wc")


def suite_dir() -> Path:
    return data_dir("programs") / "arm64" / "busybox-testsuite"


def units_to_run(applets) -> list[str]:
    """The applets runtest tests, in its order: those the binary has (and `busybox` itself) that have old-style
    tests (a folder) or new-style ones (APPLET.tests)."""
    tests = suite_dir() / "testsuite"
    return [a for a in sorted({*applets, "busybox"}) if (tests / a).is_dir() or (tests / f"{a}.tests").is_file()]


def recorded_qemu_failures() -> set[str]:
    """The failures `qemu-aarch64 -cpu cortex-a53` gives on the whole testsuite, as recorded in qemu-failures.txt."""
    lines = (suite_dir() / "qemu-failures.txt").read_text().splitlines()
    return {line for line in lines if line and not line.startswith("#")}


def make_bindir(folder: Path, wrapper: str) -> Path:
    """Fills `folder` as runtest's bindir: Debian's .config, the `busybox` wrapper and a fresh copy of the
    testsuite (tests write their scratch files beside themselves). Returns the testsuite folder."""
    folder.mkdir(parents=True, exist_ok=True)
    tests = folder / "testsuite"
    shutil.copytree(suite_dir() / "testsuite", tests)
    shutil.copyfile(suite_dir() / "config", folder / ".config")
    busybox = folder / "busybox"
    busybox.write_text(wrapper)
    for script in (busybox, tests / "runtest", *tests.glob("*.tests")):
        script.chmod(0o755)  # a wheel may not keep the execute bits
    return tests
