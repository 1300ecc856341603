"""TinyCC building itself on the machine: the self-hosting chain of `ncpu_nb.cc`'s compiler.

    src = unpack_source(folder)            # tcc's kept source, patched and configured by guest programs
    stage2 = build_tcc(src)                # the shipped tcc (built by gcc) compiles tcc, in the machine
    stage3 = build_tcc(src, tcc=stage2)    # that tcc compiles tcc again: the same bytes as stage 2

Everything after unpacking runs as guest programs: BusyBox `patch` applies the kit's one patch, tcc
compiles tcc's `c2str` helper, which turns `tccdefs.h` into C, and tcc compiles `tcc.c` (one source file)
with the configuration `programs/arm64/tcc/build.sh` gives the shipped tcc.
"""
from __future__ import annotations

import lzma
import tarfile
from pathlib import Path

from ncpu_nb.arm64.busybox import busybox
from ncpu_nb.arm64.cc import GUEST_TCC, CCompileError, compile_c, tcc_root
from ncpu_nb.arm64.machine import Arm64Machine

SOURCE = "tinycc-50cfe11"  # programs/arm64/tcc/tinycc-50cfe11.tar.xz (see PROVENANCE.md)
# tcc's configuration for the guest, as build.sh's configure writes it
DEFINES = [f'-DCONFIG_TCC_SYSINCLUDEPATHS="{GUEST_TCC}/lib/tcc/include:{GUEST_TCC}/sysroot/include"',
           f'-DCONFIG_TCC_LIBPATHS="{GUEST_TCC}/lib/tcc:{GUEST_TCC}/sysroot/lib"',
           f'-DCONFIG_TCC_CRTPREFIX="{GUEST_TCC}/sysroot/lib"', '-DCONFIG_TRIPLET="aarch64-linux-gnu"',
           "-DTCC_MUSL", "-DTCC_TARGET_ARM64", "-DONE_SOURCE=1", "-I."]
CONFIG_H = (f'#ifndef CONFIG_TCCDIR\n# define CONFIG_TCCDIR "{GUEST_TCC}/lib/tcc"\n#endif\n#ifndef CONFIG_TCC_PREDEFS\n'
            '# define CONFIG_TCC_PREDEFS 1\n#endif\n#define TCC_VERSION "0.9.28rc"\n#define GCC_MAJOR 0\n'
            '#define GCC_MINOR 0\n#define CC_NAME CC_gcc\n')


def unpack_source(folder: Path | str) -> Path:
    """tcc's source unpacked into `folder`, then patched and prepared on the machine; returns its folder."""
    folder = Path(folder)
    with lzma.open(tcc_root().parent / f"{SOURCE}.tar.xz") as packed, tarfile.open(fileobj=packed) as tar:
        tar.extractall(folder, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    src = folder / SOURCE
    mounts = [(str(src), "/src", True), (str(tcc_root().parent), "/p")]
    patched = busybox("patch", "-p1", "-i", "/p/static-libc-order.patch", mounts=mounts, cwd="/src")
    if not patched.ok:
        raise CCompileError(patched.stderr, patched.exit_code)
    (src / "config.h").write_text(CONFIG_H)
    c2str, _, _ = compile_c(src / "conftest.c", ["-DC2STR"])  # tccdefs.h as a C string, made on the machine too
    machine = Arm64Machine(c2str, ["c2str", "include/tccdefs.h", "tccdefs_.h"], mounts=mounts[:1], cwd="/src")
    if not machine.run().exited or machine.exit_status != 0:
        raise CCompileError(machine.stderr, machine.exit_status)
    return src


def build_tcc(src: Path, tcc: Path | None = None, output: str | None = None, timeout: float = 300) -> Path:
    """tcc compiled from `src` (see `unpack_source`) on the machine, by the shipped tcc or by `tcc` (a tcc
    this function built before); returns the new program's host path (`output` in `src`)."""
    output = output or ("tcc2" if tcc is None else f"{Path(tcc).name}+")
    guest_tcc = f"{GUEST_TCC}/bin/tcc" if tcc is None else f"/src/{Path(tcc).name}"
    machine = Arm64Machine.from_elf(tcc or tcc_root() / "bin" / "tcc", ["tcc", "-static", *DEFINES, "-o", output, "tcc.c"],
                                    mounts=[(str(tcc_root()), GUEST_TCC), (str(src), "/src", True)], cwd="/src",
                                    exe_path=guest_tcc)
    run = machine.run(timeout=timeout)
    if not run.exited or machine.exit_status != 0:
        raise CCompileError(machine.stderr or f"tcc stopped: {run.stop}", machine.exit_status)
    return Path(src) / output
