"""Guest roots made of Debian's arm64 packages, for running dynamically linked programs on the
Metal machine.

    root = ncpu_nb.rootfs.debian(["coreutils", "grep"], "~/arm64-root")   # downloads, once
    m = ncpu_nb.rootfs.machine(root, "ls", "-a", "/usr")                    # runs Debian's ls
    m.run(); print(m.stdout)

`debian` is the only function here that reaches the network, and only when called: it asks
`apt-get download` for the arm64 packages and every package they depend on (Depends and
Pre-Depends, recursively: libc6 and the other libraries the programs load), unpacks each with
`dpkg-deb -x` into the folder and writes MANIFEST (package, version, sha256 of each .deb) there.
It unpacks only into a new or empty folder or one it made (marked by MARKER); `cached` deletes and
remakes only such a folder, and only once the host has what a new root needs.
It needs a Debian or Ubuntu host with arm64 as a dpkg architecture (`dpkg --add-architecture arm64
&& apt-get update`, as root; `debian(..., setup=True)` does that when it is missing).

The machine sees the root through mounts: the root's top folders (usr, lib, bin, sbin…) at the same
guest paths, so the dynamic loader a program names (/lib/ld-linux-aarch64.so.1) and the libraries
it opens are found inside the guest, never on the host. The guest's own /etc, /dev, /proc and /tmp
stay. qemu-aarch64 runs the same files with `qemu-aarch64 -L ROOT ROOT/usr/bin/PROGRAM`.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

MANIFEST = "MANIFEST"
# What marks a folder as a root the kit made: only such a folder is ever rewritten or deleted.
MARKER = ".ncpu_nb-root"
# The root's folders the guest sees; /etc is left out so the guest keeps its own users and hosts.
GUEST_FOLDERS = ("usr", "lib", "lib64", "bin", "sbin")


class RootfsError(RuntimeError):
    """A guest root could not be made (no apt, no arm64 architecture, a failed download)."""


def _run(cmd: list[str], cwd: Path | None = None) -> str:
    try:
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError as e:
        raise RootfsError(f"{cmd[0]} is not installed: a Debian or Ubuntu host is needed") from e
    if done.returncode != 0:
        raise RootfsError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return done.stdout


def _arm64_known() -> bool:
    done = subprocess.run(["apt-cache", "show", "libc6:arm64"], capture_output=True, text=True, check=False)
    return done.returncode == 0 and "Package: libc6" in done.stdout


def closure(packages: list[str]) -> list[str]:
    """The arm64 packages `packages` need: themselves and their Depends and Pre-Depends, recursively
    (virtual names left out: a real package that provides one is in the list by its own name)."""
    qualified = [p if ":" in p else f"{p}:arm64" for p in packages]
    out = _run(["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts",
                "--no-breaks", "--no-replaces", "--no-enhances", *qualified])
    names = {line.strip() for line in out.splitlines() if line and not line.startswith((" ", "<"))}
    return sorted(n for n in names if n.endswith(":arm64"))


def _relative_links(dest: Path) -> None:
    """Absolute symlinks in the packages (/lib/ld-linux-aarch64.so.1 -> /lib/aarch64-linux-gnu/…)
    point into the root, not the host: they become relative, for qemu's -L and for plain tools."""
    for dirpath, dirnames, filenames in os.walk(dest):
        for name in dirnames + filenames:
            link = Path(dirpath) / name
            if link.is_symlink() and os.readlink(link).startswith("/"):
                target = dest / os.readlink(link).lstrip("/")
                link.unlink()
                link.symlink_to(os.path.relpath(target, link.parent))


def _checked_dest(dest) -> Path:
    """`dest` as an absolute path, if the kit may unpack there: missing, an empty folder, or a root
    the kit made (its MARKER inside). Anything else is the user's and is refused before any change."""
    path = Path(os.path.abspath(Path(dest).expanduser()))
    if path.is_symlink():
        raise RootfsError(f"dest {str(path)!r} is a symlink (to {os.readlink(path)!r}): the kit unpacks, "
                          "rewrites and deletes only a folder it made itself; pass a real folder's path")
    if path.exists() and not path.is_dir():
        raise RootfsError(f"dest {str(path)!r} is a file, not a folder")
    if path.is_dir() and any(path.iterdir()) and not (path / MARKER).is_file():
        raise RootfsError(f"dest {str(path)!r} is a folder that ncpu_nb.rootfs did not make (no {MARKER} in it) "
                          "and is not empty: the kit unpacks, rewrites and deletes only a folder it made itself; "
                          "pass a new or empty folder")
    return path.resolve()


def _check_host(setup: bool) -> None:
    """apt-get and dpkg-deb present, arm64 packages known (made known when `setup`)."""
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        raise RootfsError("apt-get and dpkg-deb are needed: a Debian or Ubuntu host")
    if not _arm64_known():
        if not setup:
            raise RootfsError("apt knows no arm64 packages: run `dpkg --add-architecture arm64 && apt-get update` "
                              "as root, or call debian(..., setup=True)")
        _run(["dpkg", "--add-architecture", "arm64"])
        _run(["apt-get", "update"])


def debian(packages, dest, *, setup: bool = False) -> Path:
    """Downloads Debian's arm64 `packages` and what they depend on and unpacks them into `dest` (a
    new or empty folder, made if missing, or a root this function made before); returns its path.
    MANIFEST there lists each .deb with its version and sha256. `setup=True` adds arm64 to dpkg's
    architectures and updates apt's lists when arm64 packages are unknown (root only)."""
    dest = _checked_dest(dest)
    if isinstance(packages, str):
        packages = [packages]
    packages = list(packages) or ["libc6"]
    if "libc6" not in packages and "libc6:arm64" not in packages:
        packages.append("libc6")
    _check_host(setup)
    wanted = closure(packages)
    dest.mkdir(parents=True, exist_ok=True)
    # Written before unpacking, so that a root left half made is still known as the kit's own.
    (dest / MARKER).write_text("Made by ncpu_nb.rootfs.debian: rootfs.cached may delete and remake this folder.\n")
    rows = []
    with tempfile.TemporaryDirectory(prefix="ncpu-debs-") as tmp:
        _run(["apt-get", "download", *wanted], cwd=Path(tmp))
        for deb in sorted(Path(tmp).glob("*.deb")):
            fields = _run(["dpkg-deb", "-f", str(deb), "Package", "Version", "Architecture"])
            info = dict(line.split(": ", 1) for line in fields.splitlines() if ": " in line)
            digest = hashlib.sha256(deb.read_bytes()).hexdigest()
            _run(["dpkg-deb", "-x", str(deb), str(dest)])
            rows.append(f"{info['Package']}\t{info['Version']}\t{info['Architecture']}\t{digest}\t{deb.name}")
    _relative_links(dest)
    header = "# package\tversion\tarchitecture\tsha256 of the .deb\tfile (apt-get download, unpacked with dpkg-deb -x)"
    (dest / MANIFEST).write_text("\n".join([header, *rows]) + "\n")
    return dest


def default_root() -> Path:
    """Where `cached` keeps its root: $XDG_CACHE_HOME/ncpu_nb/debian-root (~/.cache/...)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ncpu_nb" / "debian-root"


def cached(packages, dest=None, *, setup: bool = False) -> Path:
    """The root at `dest` (default: `default_root()`) if its MANIFEST lists every one of `packages`;
    otherwise made afresh there by `debian` (which downloads), after the host is checked and only
    if `dest` is missing, empty or a root `debian` made: any other folder is refused, never deleted."""
    import fcntl

    dest = Path(dest).expanduser() if dest else default_root()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(dest.parent / f"{dest.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two notebooks (or test workers) at once: one makes it, one waits
        listed = (dest / MANIFEST).read_text() if (dest / MANIFEST).is_file() else ""
        if all(f"\n{p}\t" in "\n" + listed for p in packages):
            return dest.resolve()
        root = _checked_dest(dest)
        _check_host(setup)
        if root.exists():
            shutil.rmtree(root)  # the kit's own root (_checked_dest found its MARKER)
        return debian(packages, root, setup=setup)


def mounts(root) -> list[str]:
    """Mount specs (read-only) that show the root's top folders at the same guest paths."""
    root = Path(root).expanduser().resolve()
    return [f"{root / name}:/{name}:ro" for name in GUEST_FOLDERS if (root / name).is_dir()]


def find_program(root, name: str) -> str:
    """The guest path of program `name` in the root: a path as given, else the first of /usr/bin,
    /bin, /usr/sbin, /sbin that holds it."""
    root = Path(root).expanduser().resolve()
    if name.startswith("/"):
        return name
    for folder in ("usr/bin", "bin", "usr/sbin", "sbin"):
        if (root / folder / name).is_file():
            return f"/{folder}/{name}"
    raise FileNotFoundError(f"no program {name!r} in {root}")


def machine(root, program: str, *args: str, **options):
    """An Arm64Machine about to run `program ARGS…` from the guest root `root` (made by `debian` or any
    arm64 sysroot), with the root's folders mounted; other options as for Arm64Machine (extra `mounts`
    are added after the root's)."""
    from ncpu_nb.arm64.machine import Arm64Machine

    root = Path(root).expanduser().resolve()
    guest = find_program(root, program)
    host = (root / guest.lstrip("/")).resolve()
    if not host.is_relative_to(root):
        raise FileNotFoundError(f"{program!r} leads outside {root}")
    options["mounts"] = [*mounts(root), *options.get("mounts", ())]
    options.setdefault("exe_path", guest)
    return Arm64Machine.from_elf(host, [program, *args], **options)
