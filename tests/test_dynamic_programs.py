"""Dynamically linked programs on the Metal machine, each compared with qemu-aarch64 running the same
file on the same guest root: stdout byte for byte and the exit status.

- A C program built here with Debian's cross gcc (not -static) runs against the cross libc's sysroot,
  /usr/aarch64-linux-gnu (its lib/ mounted as the guest's /lib, where PT_INTERP points): the loader,
  the auxiliary vector, the dynamic loader's file mappings, threads with TLS and dlopen. No download.
- Debian's own arm64 programs (coreutils, grep, sed, gawk, bash, lua5.4, python3) from a root made once per
  cache folder by `ncpu_nb.rootfs.debian` (tests/artifacts/debian-root, git-ignored; run as root, it
  first adds arm64 to dpkg's architectures if apt knows no arm64 packages): skipped with the reason
  when apt cannot download them (no network, not a Debian host).
"""
import shutil
import subprocess
from pathlib import Path

import pytest

from ncpu_nb import rootfs
from ncpu_nb.arm64.machine import Arm64Machine

HERE = Path(__file__).resolve().parent
SYSROOT = Path("/usr/aarch64-linux-gnu")
QEMU = shutil.which("qemu-aarch64")
GCC = shutil.which("aarch64-linux-gnu-gcc")

needs_qemu = pytest.mark.skipif(QEMU is None, reason="qemu-aarch64 is not installed (apt-get install qemu-user)")
needs_cross = pytest.mark.skipif(
    GCC is None or not (SYSROOT / "lib" / "ld-linux-aarch64.so.1").exists(),
    reason="Debian's cross compiler is not installed (apt-get install gcc-aarch64-linux-gnu)")


def qemu(root: Path, program, args, cwd="/"):
    done = subprocess.run([QEMU, "-L", str(root), str(program), *args], capture_output=True, cwd=cwd,
                          timeout=120, check=False)
    return done.stdout, done.returncode


def finish(m):
    run = m.run(check=False, timeout=120)
    assert run.stop == "exited", (run, m.stderr)
    return m.stdout.encode() if isinstance(m.stdout, str) else bytes(m.stdout), run.exit_status


@pytest.fixture(scope="module")
def dynamic_hello(tmp_path_factory):
    exe = tmp_path_factory.mktemp("dyn") / "dynamic_hello"
    subprocess.run([GCC, "-O1", "-Wall", "-Werror", "-o", str(exe), str(HERE / "c_dynamic" / "dynamic_hello.c")], check=True)
    return exe


@needs_cross
def test_the_cross_compiled_program_is_dynamically_linked(dynamic_hello):
    data = dynamic_hello.read_bytes()
    assert data[16] == 3 and b"/lib/ld-linux-aarch64.so.1\0" in data  # a PIE naming its dynamic loader


@needs_cross
@needs_qemu
def test_a_dynamic_c_program_matches_qemu_on_the_cross_sysroot(dynamic_hello):
    args = ["one", "two words"]
    m = Arm64Machine.from_elf(dynamic_hello, ["./dynamic_hello", *args], mounts=[f"{SYSROOT / 'lib'}:/lib"],
                              exe_path="/usr/bin/dynamic_hello", cwd="/usr/bin")
    out, status = finish(m)
    want, want_status = qemu(SYSROOT, "./dynamic_hello", args, cwd=dynamic_hello.parent)
    assert (out, status) == (want, want_status)
    assert status == 42
    for line in (b"AT_BASE is a loaded ELF file: 1", b"thread-local: main 40, thread 42", b"from dlopen'd libm"):
        assert line in out
    assert m._engine.unknown_syscalls() == []


@needs_cross
def test_a_missing_dynamic_loader_is_a_clear_error(dynamic_hello):
    with pytest.raises(Exception, match="ld-linux-aarch64.so.1"):
        Arm64Machine.from_elf(dynamic_hello).run()


# ---- Debian's own programs --------------------------------------------------------------------------

DEBIAN_RUNS = {
    "echo": ["echo", "hello", "from", "Debian"],
    "ls": ["ls", "-a", "/usr/lib/aarch64-linux-gnu"],
    "sort": ["sort", "-r", "/usr/share/doc/grep/copyright"],
    "wc": ["wc", "/usr/share/doc/sed/copyright", "/usr/share/doc/bash/copyright"],
    "grep": ["grep", "-n", "-i", "license", "/usr/share/doc/grep/copyright"],
    "sed": ["sed", "-n", "s/GNU/gnu/gp", "/usr/share/doc/sed/copyright"],
    "gawk": ["gawk", "BEGIN { for (i = 0; i < 10; i++) s += i * i; printf \"%d %.6f %s\\n\", s, sqrt(2), toupper(\"x\") }"],
    "bash": ["bash", "-c", "for i in 1 2 3; do echo $((i * i)); done; x=$(echo sub); echo \"$x ${#x}\"; exit 7"],
    "lua": ["lua5.4", "-e", ("local t = {} for i = 1, 10 do t[#t + 1] = i * i end "
                             "print(table.concat(t, ','), string.format('%.5f', math.pi)) os.exit(3)")],
    "python3": ["python3", "-c", ("import struct, sys; print(sum(i * i for i in range(1000)), sys.version_info[:2], "
                                  "struct.pack('<I', 258), [x ** 0.5 for x in (2, 3)]); sys.exit(5)")],
    # An epoll server on the loopback, socketpair, an abstract AF_UNIX datagram and IPv6: under qemu the
    # host's kernel, in the machine its own sockets.
    "python3-sockets": ["python3", "-c", (HERE / "python_sockets.py").read_text()],
}


@needs_qemu
@pytest.mark.parametrize("name", list(DEBIAN_RUNS))
def test_debian_programs_match_qemu(debian_root, name):
    program, *args = DEBIAN_RUNS[name]
    m = rootfs.machine(debian_root, program, *args)
    out, status = finish(m)
    want, want_status = qemu(debian_root, debian_root / rootfs.find_program(debian_root, program).lstrip("/"), args)
    assert (out, status) == (want, want_status)
    assert out and m._engine.unknown_syscalls() == []


def test_the_manifest_lists_every_deb_with_its_sha256(debian_root, debian_packages):
    rows = [line.split("\t") for line in (debian_root / rootfs.MANIFEST).read_text().splitlines()
            if not line.startswith("#")]
    packages = {row[0] for row in rows}
    assert {"libc6", *debian_packages} <= packages
    assert all(row[2] in ("arm64", "all") and len(row[3]) == 64 for row in rows)
    # The dynamic loader is reached through a relative link inside the root, never a host path.
    loader = debian_root / "lib" / "ld-linux-aarch64.so.1"
    assert loader.resolve().is_relative_to(debian_root.resolve())


def test_ls_long_listing_reads_sizes_and_asks_for_acls(debian_root):
    """`ls -l` asks each file for its ACL (lgetxattr: the machine has no attributes, ENODATA); qemu -L
    does not map the names `ls` reads back, so the sizes are checked against the host's files."""
    folder = debian_root / "usr" / "share" / "doc" / "bash"
    m = rootfs.machine(debian_root, "ls", "-l", "/usr/share/doc/bash")
    out, status = finish(m)
    assert (status, m.stderr) == (0, "")
    rows = [line.split() for line in out.decode().splitlines()[1:]]
    assert {row[-1]: int(row[4]) for row in rows} == {p.name: p.lstat().st_size for p in folder.iterdir()}
    assert not [name for _, name in m._engine.unknown_syscalls() if "xattr" in name]


def test_a_bash_pipeline_runs_debian_programs_in_child_processes(debian_root):
    """bash forks and execs each stage, every one started by the dynamic loader again. (qemu-user
    runs only the first program: a child's execve goes to the host, so this one has its answer here.)"""
    script = ("printf 'pear\\napple\\nfig\\n' | sort | sed -n 2p | gawk '{ print toupper($0), length($0) }'; "
              "echo done | grep -c done; lua5.4 -e 'io.write(6 * 7, \"\\n\")'; exit 4")
    m = rootfs.machine(debian_root, "bash", "-c", script)
    out, status = finish(m)
    assert (out, status, m.stderr) == (b"FIG 3\n1\n42\n", 4, "")
