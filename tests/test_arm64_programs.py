"""The committed AArch64 binaries are the ones their provenance and checksums describe."""
import hashlib
import struct

from ncpu_nb.resources import data_dir

ARM64 = data_dir("programs") / "arm64"
EM_AARCH64 = 183


def test_every_binary_matches_its_checksum_and_is_a_static_aarch64_elf():
    lines = (ARM64 / "SHA256SUMS").read_text().split("\n")
    entries = [line.split() for line in lines if line.strip()]
    binaries = {"busybox/busybox"} | {f"c/bin/{p.name}" for p in (ARM64 / "c" / "bin").iterdir()}
    # the guest C compiler: tcc, its runtime library, musl's start files and archives (see tcc/PROVENANCE.md)
    guest = ARM64 / "tcc" / "guest"
    binaries |= {str(p.relative_to(ARM64)) for p in guest.rglob("*")
                 if p.is_file() and (p.parent.name == "bin" or p.suffix in (".a", ".o"))}
    assert sorted(name for _, name in entries) == sorted(binaries)  # every binary listed, once
    for digest, name in entries:
        data = (ARM64 / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest, name
        if name.endswith(".a"):
            assert data.startswith(b"!<arch>\n"), name
            continue
        assert data[:4] == b"\x7fELF" and data[4] == 2  # ELF64
        assert struct.unpack_from("<H", data, 18)[0] == EM_AARCH64, name


def test_busybox_is_debians_1_35_with_its_licence_and_provenance():
    binary = (ARM64 / "busybox" / "busybox").read_bytes()
    assert len(binary) == 1_846_504
    provenance = (ARM64 / "busybox" / "PROVENANCE.md").read_text()
    assert "1:1.35.0-4+deb12u1+b1" in provenance and hashlib.sha256(binary).hexdigest() in provenance
    assert "GPL" in (ARM64 / "busybox" / "copyright").read_text()


def test_every_c_program_has_its_source_and_an_expected_run():
    """Each program has its source and at least one recorded run (NAME.out, or NAME.RUN.out for a program
    run several ways) with its exit status; at least one run of each exits 0."""
    expected = ARM64 / "c" / "expected"
    for binary in (ARM64 / "c" / "bin").iterdir():
        assert (ARM64 / "c" / f"{binary.name}.c").is_file()
        runs = [expected / binary.name] if (expected / f"{binary.name}.out").is_file() else \
            [out.with_suffix("") for out in expected.glob(f"{binary.name}.*.out")]
        assert runs, binary.name
        statuses = [int(run.with_name(run.name + ".status").read_text()) for run in runs]
        assert 0 in statuses, binary.name
