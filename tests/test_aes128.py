"""programs/arm64/c/aes128.c on the AArch64 machine: AES-128 in constant time (`ct`) and with the S-box
table (`table`), in ECB, CBC and CTR and the inverse cipher for ECB and CBC, checked against the published
vectors, against what qemu printed (c/expected/aes128.*) and against the `cryptography` package on random
keys, IVs and data.

The program reads the 16-byte key, then (but for ecb) the 16-byte IV or initial counter block, then the
data from stdin, and writes the output bytes raw to stdout."""
import random

import pytest

from ncpu_nb.arm64 import Arm64Machine
from ncpu_nb.resources import data_dir

C = data_dir("programs") / "arm64" / "c"
AES128 = C / "bin" / "aes128"
IMPLS = ["ct", "table"]
MODES = ["ecb", "cbc", "ctr", "ecb-decrypt", "cbc-decrypt"]

# ---- published vectors ----
h = bytes.fromhex
# FIPS 197 (AES), Appendix C.1 "AES-128 (Nk=4, Nr=10)": the example vector, enciphered and deciphered
FIPS197_C1 = (h("000102030405060708090a0b0c0d0e0f"), h("00112233445566778899aabbccddeeff"),
              h("69c4e0d86a7b0430d8cdb78070b4c55a"))
# FIPS 197, Appendix B "Cipher Example": the round-by-round example's input and output
FIPS197_B = (h("2b7e151628aed2a6abf7158809cf4f3c"), h("3243f6a8885a308d313198a2e0370734"),
             h("3925841d02dc09fbdc118597196a0b32"))
# NIST SP 800-38A, Appendix F: the AES-128 key and four-block plaintext its examples share
SP800_38A_KEY = h("2b7e151628aed2a6abf7158809cf4f3c")
SP800_38A_PLAIN = h("6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
                    "30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710")
# F.1.1 ECB-AES128.Encrypt (F.1.2 ECB-AES128.Decrypt is the reverse)
SP800_38A_ECB = h("3ad77bb40d7a3660a89ecaf32466ef97" "f5d3d58503b9699de785895a96fdbaaf"
                  "43b1cd7f598ece23881b00e3ed030688" "7b0c785e27e8ad3f8223207104725dd4")
# F.2.1 CBC-AES128.Encrypt (F.2.2 CBC-AES128.Decrypt is the reverse)
SP800_38A_CBC_IV = h("000102030405060708090a0b0c0d0e0f")
SP800_38A_CBC = h("7649abac8119b246cee98e9b12e9197d" "5086cb9b507219ee95db113a917678b2"
                  "73bed6b8e3c1743b7116e69e22229516" "3ff1caa1681fac09120eca307586e1a7")
# F.5.1 CTR-AES128.Encrypt (F.5.2 CTR-AES128.Decrypt is the same operation on the ciphertext)
SP800_38A_CTR_COUNTER = h("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
SP800_38A_CTR = h("874d6191b620e3261bef6864990db6ce" "9806f66b7970fdff8617187bb9fffdff"
                  "5ae4df3edbd5d35e5b4f09020db03eab" "1e031dda2fbe03d1792170a0f3009cee")

# name: (mode, key, iv, input, output)
VECTORS = {
    "FIPS 197 C.1": ("ecb", *FIPS197_C1[:1], b"", *FIPS197_C1[1:]),
    "FIPS 197 C.1 inverse": ("ecb-decrypt", FIPS197_C1[0], b"", FIPS197_C1[2], FIPS197_C1[1]),
    "FIPS 197 B": ("ecb", FIPS197_B[0], b"", *FIPS197_B[1:]),
    "FIPS 197 B inverse": ("ecb-decrypt", FIPS197_B[0], b"", FIPS197_B[2], FIPS197_B[1]),
    "SP 800-38A F.1.1": ("ecb", SP800_38A_KEY, b"", SP800_38A_PLAIN, SP800_38A_ECB),
    "SP 800-38A F.1.2": ("ecb-decrypt", SP800_38A_KEY, b"", SP800_38A_ECB, SP800_38A_PLAIN),
    "SP 800-38A F.2.1": ("cbc", SP800_38A_KEY, SP800_38A_CBC_IV, SP800_38A_PLAIN, SP800_38A_CBC),
    "SP 800-38A F.2.2": ("cbc-decrypt", SP800_38A_KEY, SP800_38A_CBC_IV, SP800_38A_CBC, SP800_38A_PLAIN),
    "SP 800-38A F.5.1": ("ctr", SP800_38A_KEY, SP800_38A_CTR_COUNTER, SP800_38A_PLAIN, SP800_38A_CTR),
    "SP 800-38A F.5.2": ("ctr", SP800_38A_KEY, SP800_38A_CTR_COUNTER, SP800_38A_CTR, SP800_38A_PLAIN),
}


def aes128(impl, mode, key, iv, data):
    """The program run to its end on the machine, with key, IV and data on stdin."""
    machine = Arm64Machine.from_elf(AES128, ["aes128", impl, mode], stdin=key + iv + data)
    machine.run()
    return machine


def output(impl, mode, key, iv, data):
    machine = aes128(impl, mode, key, iv, data)
    assert machine.exit_status == 0 and machine.stderr_bytes == b""
    return machine.stdout_bytes


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("name", list(VECTORS))
def test_the_published_vectors(impl, name):
    mode, key, iv, data, expected = VECTORS[name]
    assert output(impl, mode, key, iv, data) == expected


# make_expected.sh's runs: (mode, stdin, the publication's output)
QEMU_RUNS = {
    "ecb": (FIPS197_C1[0] + FIPS197_C1[1], FIPS197_C1[2]),
    "ecb-decrypt": (FIPS197_C1[0] + FIPS197_C1[2], FIPS197_C1[1]),
    "cbc": (SP800_38A_KEY + SP800_38A_CBC_IV + SP800_38A_PLAIN, SP800_38A_CBC),
    "cbc-decrypt": (SP800_38A_KEY + SP800_38A_CBC_IV + SP800_38A_CBC, SP800_38A_PLAIN),
    "ctr": (SP800_38A_KEY + SP800_38A_CTR_COUNTER + SP800_38A_PLAIN, SP800_38A_CTR),
}


@pytest.mark.oracle
@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("mode", list(QEMU_RUNS))
def test_the_machine_prints_what_qemu_printed(impl, mode):
    stdin, published = QEMU_RUNS[mode]
    expected = C / "expected" / f"aes128.{impl}-{mode}"
    recorded = expected.with_name(expected.name + ".out").read_bytes()
    assert recorded == published  # qemu's recording is itself the publication's output
    machine = Arm64Machine.from_elf(AES128, ["aes128", impl, mode], stdin=stdin)
    machine.run()
    assert machine.stdout_bytes == recorded
    assert machine.exit_status == int(expected.with_name(expected.name + ".status").read_text())


def reference(mode, key, iv, data):
    """The same operation by the `cryptography` package (OpenSSL)."""
    ciphers = pytest.importorskip("cryptography.hazmat.primitives.ciphers")
    modes = ciphers.modes
    chosen = {"ecb": modes.ECB, "ecb-decrypt": modes.ECB}.get(mode)
    chosen = chosen() if chosen else {"cbc": modes.CBC, "cbc-decrypt": modes.CBC, "ctr": modes.CTR}[mode](iv)
    cipher = ciphers.Cipher(ciphers.algorithms.AES(key), chosen)
    operation = cipher.decryptor() if mode.endswith("decrypt") else cipher.encryptor()
    return operation.update(data) + operation.finalize()


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("mode", MODES)
def test_agrees_with_the_cryptography_package_on_random_keys_ivs_and_data(impl, mode):
    """50 random keys, IVs and data per mode: 0 to 4 blocks (ctr: 0 to 70 bytes, so also a last block cut
    short), some counters near a carry out of their low bytes and one about to wrap to zero. The
    constant-time version also runs the same number of instructions for inputs of the same length."""
    rng = random.Random(f"{impl} {mode}")
    counts = {}
    for k in range(50):
        key = rng.randbytes(16)
        iv = b"" if mode.startswith("ecb") else rng.randbytes(16)
        if mode == "ctr" and k % 5 == 0:
            iv = iv[:13] + b"\xff\xff" + bytes([rng.choice([0xfe, 0xff])]) if k else b"\xff" * 16
        data = rng.randbytes(rng.randrange(71) if mode == "ctr" else 16 * rng.randrange(5))
        machine = aes128(impl, mode, key, iv, data)
        assert machine.exit_status == 0
        assert machine.stdout_bytes == reference(mode, key, iv, data), (key.hex(), iv.hex(), data.hex())
        counts.setdefault(len(data), set()).add(machine.instructions)
    if impl == "ct":
        assert all(len(seen) == 1 for seen in counts.values()), counts


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("mode", ["ecb", "ecb-decrypt"])
def test_every_s_box_entry(impl, mode):
    """With the zero key the first SubBytes meets all 256 byte values across these 16 blocks (the inverse
    cipher's first InvSubBytes too, on them XOR the last round key): a wrong entry would show."""
    data, key = bytes(range(256)), bytes(16)
    assert output(impl, mode, key, b"", data) == reference(mode, key, b"", data)


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("mode", ["ecb", "cbc"])
def test_decryption_undoes_encryption(impl, mode):
    rng = random.Random(7)
    key, iv, data = rng.randbytes(16), rng.randbytes(16) if mode == "cbc" else b"", rng.randbytes(48)
    assert output(impl, f"{mode}-decrypt", key, iv, output(impl, mode, key, iv, data)) == data


@pytest.mark.parametrize("args, stdin, status", [
    (["ct"], bytes(32), 2),  # no mode
    (["fast", "ecb"], bytes(32), 2),  # no such implementation
    (["ct", "ofb"], bytes(48), 2),  # no such mode
    (["ct", "ecb"], bytes(15), 1),  # a short key
    (["table", "cbc"], bytes(16 + 8), 1),  # a short IV
    (["ct", "ecb"], bytes(16 + 17), 1),  # ecb and cbc take whole blocks
    (["table", "cbc-decrypt"], bytes(32 + 15), 1),
])
def test_wrong_arguments_or_input_print_nothing_and_say_why(args, stdin, status):
    machine = Arm64Machine.from_elf(AES128, ["aes128", *args], stdin=stdin)
    machine.run()
    assert machine.exit_status == status and machine.stdout_bytes == b""
    assert machine.stderr.startswith("usage: aes128" if status == 2 else "aes128: ")


def test_the_empty_input_gives_empty_output_and_ctr_any_length():
    key, counter = bytes(range(16)), bytes(16)
    assert output("ct", "ecb", key, b"", b"") == b""
    assert output("table", "ctr", key, counter, b"\x00" * 5) == output("ct", "ecb", key, b"", counter)[:5]


@pytest.mark.parametrize("impl, most", [("ct", 150_000), ("table", 30_000)])
def test_one_block_stays_lean_enough_for_a_constant_time_proof_over_many_secrets(impl, most):
    """A run of one block (startup, key expansion, one cipher) within what the constant-time chapter's
    proof over many keys can afford; a block more costs the same for every block."""
    key, block = FIPS197_C1[0], FIPS197_C1[1]
    one, nine = aes128(impl, "ecb", key, b"", block), aes128(impl, "ecb", key, b"", block * 9)
    per_block = (nine.instructions - one.instructions) / 8
    assert one.instructions < most and per_block < most / 2
    assert nine.stdout_bytes == FIPS197_C1[2] * 9


# ---- the constant-time proof: the machine runs every secret and compares what an observer could see ----

def aes_machine(impl, mode):
    return lambda secret: Arm64Machine.from_elf(AES128, ["aes128", impl, mode], stdin=secret)


def random_secrets(n, size, seed):
    rng = random.Random(seed)
    return [bytes(rng.randrange(256) for _ in range(size)) for _ in range(n)]


def test_ct_is_constant_time_over_a_thousand_random_keys_and_plaintexts():
    import ncpu_nb

    report = ncpu_nb.constant_time(aes_machine("ct", "ecb"), random_secrets(1000, 32, seed=1))
    assert report.constant, report
    assert len(set(report.steps)) == 1 and set(report.outcomes) == {"exited"}


@pytest.mark.parametrize("mode", ["cbc", "ctr", "ecb-decrypt", "cbc-decrypt"])
def test_ct_is_constant_time_in_every_mode_with_key_iv_and_data_secret(mode):
    import ncpu_nb

    size = 16 + (0 if mode.startswith("ecb") else 16) + 48  # key, IV, three blocks of data
    report = ncpu_nb.constant_time(aes_machine("ct", mode), random_secrets(100, size, seed=2))
    assert report.constant, report


def test_the_table_version_leaks_at_its_first_s_box_lookup_with_its_line():
    import ncpu_nb

    report = ncpu_nb.constant_time(aes_machine("table", "ecb"), random_secrets(20, 32, seed=3))
    leak = report.leak
    assert leak is not None and leak.kind == "memory address" and leak.where.startswith("sub_word_table")
    source = (C / "aes128.c").read_text().splitlines()
    marked = next(i + 1 for i, line in enumerate(source) if "the leak, first in a run" in line)
    assert (leak.line.file, leak.line.line) == ("aes128.c", marked) and leak.code == source[marked - 1].strip()
    assert report.differing["memory address"] == 19  # every other key reads other S-box entries
