"""ncpu_nb.rootfs keeps its hands off folders it did not make: `cached` and `debian` refuse a `dest`
that is a symlink or a non-empty folder without the kit's marker, and check the host (apt-get,
dpkg-deb) before they delete anything. PATH is emptied in every test, so no test reaches apt or the
network: what is checked is what happens before the download."""
from __future__ import annotations

import pytest

from ncpu_nb import rootfs


@pytest.fixture(autouse=True)
def no_apt(monkeypatch, tmp_path):
    """A host without apt-get or dpkg-deb (a Fedora or macOS user's, say)."""
    empty = tmp_path / "empty-path"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


def _users_folder(path):
    """A folder of the user's own, with a MANIFEST that does not list the packages asked for and an
    absolute symlink (the kind `debian` rewrites in its own roots)."""
    path.mkdir()
    (path / "thesis.tex").write_text("years of work")
    (path / rootfs.MANIFEST).write_text("# package\n")
    (path / "latest").symlink_to("/etc/hostname")
    return path


def _untouched(path):
    assert (path / "thesis.tex").read_text() == "years of work"
    assert (path / "latest").readlink().as_posix() == "/etc/hostname"


def test_cached_refuses_a_folder_it_did_not_make(tmp_path):
    dest = _users_folder(tmp_path / "mine")
    with pytest.raises(rootfs.RootfsError, match=r"dest .*mine.* did not make"):
        rootfs.cached(["grep"], dest)
    _untouched(dest)


def test_debian_refuses_a_folder_it_did_not_make(tmp_path):
    dest = _users_folder(tmp_path / "mine")
    with pytest.raises(rootfs.RootfsError, match=r"dest .*mine.* did not make"):
        rootfs.debian(["grep"], dest)
    _untouched(dest)


@pytest.mark.parametrize("make", [rootfs.cached, rootfs.debian])
def test_a_symlinked_dest_is_refused(tmp_path, make):
    target = _users_folder(tmp_path / "elsewhere")
    (target / rootfs.MARKER).write_text("")  # even a root of the kit's, reached through a link
    link = tmp_path / "debian-root"
    link.symlink_to(target)
    with pytest.raises(rootfs.RootfsError, match=r"dest .*debian-root.* is a symlink"):
        make(["grep"], link)
    _untouched(target)
    assert link.is_symlink()


def test_cached_checks_the_host_before_deleting_its_own_root(tmp_path):
    """A root the kit made, but stale (grep missing from its MANIFEST): on a host without apt it
    stays, and the error says why it cannot be remade."""
    dest = tmp_path / "debian-root"
    dest.mkdir()
    (dest / rootfs.MARKER).write_text("")
    (dest / rootfs.MANIFEST).write_text("# package\nlibc6\t2.36\tarm64\n")
    with pytest.raises(rootfs.RootfsError, match="apt-get and dpkg-deb are needed"):
        rootfs.cached(["grep"], dest)
    assert (dest / rootfs.MANIFEST).read_text() == "# package\nlibc6\t2.36\tarm64\n"


def test_an_empty_or_missing_dest_goes_on_to_the_host_check(tmp_path):
    (tmp_path / "empty").mkdir()
    for dest in (tmp_path / "empty", tmp_path / "missing"):
        with pytest.raises(rootfs.RootfsError, match="apt-get and dpkg-deb are needed"):
            rootfs.debian(["grep"], dest)
    assert not (tmp_path / "missing").exists()


def test_a_file_as_dest_is_refused(tmp_path):
    dest = tmp_path / "notes.txt"
    dest.write_text("mine")
    with pytest.raises(rootfs.RootfsError, match=r"dest .*notes.txt.* is a file"):
        rootfs.cached(["grep"], dest)
    assert dest.read_text() == "mine"
