"""BusyBox's own upstream testsuite against the machine: the shipped copy, the wrapper's pieces, and the quick
subset run end to end (`-m "not conformance"` leaves that out)."""
import hashlib
import json
import os

import pytest

from ncpu_nb import cli
from ncpu_nb.arm64.conformance.guest import guest_argv, guest_mounts
from ncpu_nb.arm64.conformance.runner import Verdict, parse_verdicts
from ncpu_nb.arm64.conformance.testsuite import make_bindir, recorded_qemu_failures, suite_dir, units_to_run


def test_the_shipped_testsuite_is_the_one_its_provenance_names():
    provenance = (suite_dir() / "PROVENANCE.md").read_text()
    assert hashlib.sha256((suite_dir() / "config").read_bytes()).hexdigest() in provenance
    files = sorted(str(p.relative_to(suite_dir())).encode() for p in (suite_dir() / "testsuite").rglob("*")
                   if p.is_file())
    listing = b"".join(hashlib.sha256((suite_dir() / f.decode()).read_bytes()).hexdigest().encode() + b"  " + f
                       + b"\n" for f in files)
    assert len(files) == 324
    assert hashlib.sha256(listing).hexdigest() in provenance


def test_runtest_verdicts_are_read_per_applet():
    output = "PASS: sed n\nsed: -e expression #1\nFAIL: sed s//\nSKIPPED: sed -z\nUNTESTED: sed-x\n"
    assert parse_verdicts("sed", output) == [Verdict("sed", "pass", "sed n"), Verdict("sed", "fail", "sed s//"),
                                             Verdict("sed", "skip", "sed -z"), Verdict("sed", "skip", "sed-x")]


def test_only_applets_with_tests_are_run_and_busybox_always():
    units = units_to_run(["sed", "cat", "no-such-applet"])
    assert units == ["busybox", "cat", "sed"]


def test_the_guest_sees_the_run_folder_and_an_outside_working_directory_at_their_own_paths():
    assert guest_mounts("/tmp/run", "/tmp/run/job0/testsuite") == ["/tmp/run:/tmp/run:rw"]
    assert guest_mounts("/tmp/run", "/srv/data") == ["/tmp/run:/tmp/run:rw", "/srv/data:/srv/data:rw"]
    assert guest_mounts("/tmp/run", "/") == ["/tmp/run:/tmp/run:rw"]


def _guest_argv_with(stdout, stderr, argv, umask=0o022):
    saved, saved_umask = (os.dup(1), os.dup(2)), os.umask(umask)
    try:
        os.dup2(stdout.fileno(), 1)
        os.dup2(stderr.fileno(), 2)
        return guest_argv(argv)
    finally:
        os.umask(saved_umask)
        for fd, original in zip((1, 2), saved):
            os.dup2(original, fd)
            os.close(original)


def test_stdout_and_stderr_on_one_file_stay_one_in_the_guest(tmp_path):
    argv = ["/run/links/sed", "-n", "p"]
    with open(tmp_path / "out", "w") as out, open(tmp_path / "err", "w") as err:
        assert _guest_argv_with(out, err, argv) == argv
        assert _guest_argv_with(out, out, argv) == ["sh", "-c", 'umask 022; exec /bin/busybox "$@" 2>&1', "sh",
                                                    "sed", "-n", "p"]
        assert _guest_argv_with(out, out, ["/run/busybox", "sed"])[-1] == "sed"


def test_the_guest_gets_the_hosts_umask(tmp_path):
    with open(tmp_path / "out", "w") as out, open(tmp_path / "err", "w") as err:
        argv = _guest_argv_with(out, err, ["/run/links/touch", "f"], umask=0)
    assert argv == ["sh", "-c", 'umask 000; exec /bin/busybox "$@"', "sh", "touch", "f"]


def test_a_bindir_has_the_config_the_wrapper_and_runnable_scripts(tmp_path):
    tests = make_bindir(tmp_path / "job0", "#!/bin/sh\n")
    assert (tmp_path / "job0" / ".config").read_text().startswith("#\n# Automatically generated")
    assert os.access(tmp_path / "job0" / "busybox", os.X_OK)
    assert os.access(tests / "runtest", os.X_OK) and os.access(tests / "sed.tests", os.X_OK)


def test_qemus_recorded_failures_are_mdevs_alone():
    failures = recorded_qemu_failures()
    assert failures and all(key.startswith("mdev: ") for key in failures)


@pytest.mark.conformance
@pytest.mark.slow
def test_quick_subset_has_no_failure_that_qemu_does_not_have(tmp_path, capsys):
    status = cli.main(["conformance", "busybox", "--subset", "quick", "--jobs", "2", "--json",
                       "--keep", str(tmp_path)])
    report = json.loads(capsys.readouterr().out)
    assert report["machine_only"] == [], report
    assert status == 0
    assert report["runs"]["machine"]["pass"] >= 150
