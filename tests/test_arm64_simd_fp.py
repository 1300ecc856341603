"""SIMD & FP data processing on Arm64Core, instruction by instruction against Unicorn.

Each family of encodings is sampled at random (register fields, sizes, immediates inside the
family's pattern); words capstone cannot decode are skipped. Every case starts from random vector
registers seeded with special floating-point values, a random FPCR (rounding mode, DN, FZ, AHP),
random NZCV and general registers, runs one instruction on both machines and compares every
general and vector register, NZCV, FPSR and the PC. Where Unicorn raises an undefined
instruction, the core must too.
"""
import os
import random
import struct

import pytest
from capstone import CS_ARCH_ARM64, CS_MODE_ARM, Cs
from unicorn import UC_ARCH_ARM64, UC_MODE_ARM, Uc, UcError
from unicorn import arm64_const as A

from ncpu_nb._metal import Arm64Core
from ncpu_nb.resources import data_dir

CODE = 0x100000
CODE_SIZE = 0x400000  # one fresh address per case, so Unicorn never runs a stale translation
NZCV_VALUES = [0x0, 0x4 << 28, 0x8 << 28, 0x2 << 28, 0x6 << 28, 0xF << 28, 0x3 << 28, 0x9 << 28]

F32_SPECIAL = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0xFFA00005,
               0x00000001, 0x807FFFFF, 0x00400000, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000,
               0x3F000000, 0x3FC00000, 0x40200000, 0x4B000001, 0x4EFFFFFF, 0x4F000000, 0xCF000000, 0x5F000000,
               0x4F800000, 0x3EAAAAAB, 0x33800000, 0x0C000000]
F64_SPECIAL = [0x0, 0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
               0xFFF8000000000123, 0x7FF0000000000001, 0xFFF4000000000000, 0x0000000000000001, 0x800FFFFFFFFFFFFF,
               0x0010000000000000, 0x7FEFFFFFFFFFFFFF, 0x3FF0000000000000, 0xBFF0000000000000, 0x3FE0000000000000,
               0x3FF8000000000000, 0x4004000000000000, 0x4330000000000001, 0x41DFFFFFFFC00000, 0x41E0000000000000,
               0xC1E0000000000000, 0x43E0000000000000, 0x43F0000000000000, 0x3FD5555555555555, 0x3CA0000000000000,
               0x0008000000000000, 0x36A0000000000000, 0xC3E0000000000001]
F16_SPECIAL = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x0001, 0x03FF, 0x0400, 0x7BFF, 0x3C00, 0xBC00, 0x3800]

disassembler = Cs(CS_ARCH_ARM64, CS_MODE_ARM)


def describe(word):
    ins = list(disassembler.disasm(struct.pack("<I", word), 0))
    return f"{ins[0].mnemonic} {ins[0].op_str}" if ins else "(invalid)"


def mnemonic(word):
    ins = list(disassembler.disasm(struct.pack("<I", word), 0))
    return ins[0].mnemonic if ins else None


def random_half(rng):
    """64 random bits that are often special FP values of some width."""
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice(F64_SPECIAL) ^ (rng.getrandbits(3) if rng.random() < 0.3 else 0)
    if kind == 1:
        return rng.choice(F32_SPECIAL) | rng.choice(F32_SPECIAL) << 32
    if kind == 2:
        return sum(rng.choice(F16_SPECIAL) << (16 * i) for i in range(4))
    if kind == 3:  # small numbers (integers and floats near 1)
        return rng.choice([rng.getrandbits(8), struct.unpack("<Q", struct.pack("<d", rng.uniform(-300, 300)))[0],
                           struct.unpack("<I", struct.pack("<f", rng.uniform(-3e9, 3e9)))[0]])
    return rng.getrandbits(64)


class Machines:
    """One Unicorn and one Arm64Core, reused across cases."""

    def __init__(self):
        self.uc = Uc(UC_ARCH_ARM64, UC_MODE_ARM)
        self.uc.ctl_set_cpu_model(A.UC_CPU_ARM64_A53)  # the ARMv8.0 core qemu is checked as
        self.uc.mem_map(CODE, CODE_SIZE)
        self.uc.reg_write(A.UC_ARM64_REG_CPACR_EL1, 3 << 20)  # FP/SIMD enabled at EL0/EL1
        self.core = Arm64Core()
        self.core.map(CODE, 0x1000)
        self.next_slot = 0

    def random_state(self, rng):
        fpcr = rng.randrange(4) << 22 if rng.random() < 0.5 else 0
        fpcr |= (1 << 25 if rng.random() < 0.25 else 0) | (1 << 24 if rng.random() < 0.25 else 0)
        fpcr |= 1 << 26 if rng.random() < 0.15 else 0  # AHP: alternative half precision
        return {
            "v": [random_half(rng) | random_half(rng) << 64 for _ in range(32)],
            "x": [rng.choice([rng.getrandbits(64), rng.getrandbits(8), (1 << 63) | rng.getrandbits(3),
                              rng.getrandbits(32), 0]) for _ in range(31)],
            "nzcv": rng.choice(NZCV_VALUES),
            "fpcr": fpcr,
            "fpsr": 0 if rng.random() < 0.8 else 0x10,
        }

    def run_unicorn(self, words, state):
        uc = self.uc
        if self.next_slot + len(words) > CODE_SIZE // 4:
            self.next_slot = 0
        addr = CODE + 4 * self.next_slot
        self.next_slot += len(words)
        uc.mem_write(addr, struct.pack(f"<{len(words)}I", *words))
        for i, v in enumerate(state["v"]):
            uc.reg_write(A.UC_ARM64_REG_V0 + i, v)
        for i, x in enumerate(state["x"]):
            uc.reg_write(A.UC_ARM64_REG_X0 + i if i < 29 else (A.UC_ARM64_REG_X29, A.UC_ARM64_REG_X30)[i - 29], x)
        uc.reg_write(A.UC_ARM64_REG_NZCV, state["nzcv"])
        uc.reg_write(A.UC_ARM64_REG_FPCR, state["fpcr"])
        uc.reg_write(A.UC_ARM64_REG_FPSR, state["fpsr"])
        uc.reg_write(A.UC_ARM64_REG_PC, addr)
        try:
            uc.emu_start(addr, addr + 4 * len(words), count=len(words))
        except UcError:
            return None
        return {
            "v": [uc.reg_read(A.UC_ARM64_REG_V0 + i) for i in range(32)],
            "x": [uc.reg_read(A.UC_ARM64_REG_X0 + i if i < 29 else (A.UC_ARM64_REG_X29, A.UC_ARM64_REG_X30)[i - 29])
                  for i in range(31)],
            "nzcv": uc.reg_read(A.UC_ARM64_REG_NZCV),
            "fpsr": uc.reg_read(A.UC_ARM64_REG_FPSR),
            "pc": uc.reg_read(A.UC_ARM64_REG_PC) - addr,
        }

    def run_core(self, words, state):
        core = self.core
        core.write_memory(CODE, struct.pack(f"<{len(words)}I", *words))
        for i, v in enumerate(state["v"]):
            core.set(f"v{i}", v)
        for i, x in enumerate(state["x"]):
            core.set(f"x{i}", x)
        for name in ("nzcv", "fpcr", "fpsr"):
            core.set(name, state[name])
        core.set("pc", CODE)
        executed, exc = core.step(len(words))
        if exc is not None:
            assert exc[0] == "undefined" and exc[1] == CODE, exc
            return None
        return {
            "v": [core.get(f"v{i}") for i in range(32)],
            "x": [core.get(f"x{i}") for i in range(31)],
            "nzcv": core.get("nzcv"),
            "fpsr": core.get("fpsr"),
            "pc": core.get("pc") - CODE,
        }


@pytest.fixture(scope="module")
def machines():
    return Machines()


def difference(word, state, ours, theirs):
    """A readable account of the first disagreement, or None."""
    if (ours is None) != (theirs is None):
        who = "core" if ours is None else "unicorn"
        return f"{word:08x} {describe(word)}: only {who} says undefined"
    if ours is None:
        return None
    diffs = []
    for i in range(32):
        if ours["v"][i] != theirs["v"][i]:
            diffs.append(f"v{i} core {ours['v'][i]:032x} unicorn {theirs['v'][i]:032x}")
    for i in range(31):
        if ours["x"][i] != theirs["x"][i]:
            diffs.append(f"x{i} core {ours['x'][i]:x} unicorn {theirs['x'][i]:x}")
    for name in ("nzcv", "fpsr", "pc"):
        if ours[name] != theirs[name]:
            diffs.append(f"{name} core {ours[name]:x} unicorn {theirs[name]:x}")
    if not diffs:
        return None
    inputs = ", ".join(f"v{i}={state['v'][i]:032x}" for i in sorted({(word >> s) & 31 for s in (0, 5, 16, 10)}))
    return f"{word:08x} {describe(word)} fpcr={state['fpcr']:x} nzcv={state['nzcv']:x} [{inputs}]: " + "; ".join(diffs)


def check_words(machines, words, rng, states_per_word=1):
    """Runs each word on both machines; returns (compared, mismatches)."""
    compared, mismatches = 0, []
    for word in words:
        for _ in range(states_per_word):
            state = machines.random_state(rng)
            theirs = machines.run_unicorn([word], state)
            ours = machines.run_core([word], state)
            compared += theirs is not None
            problem = difference(word, state, ours, theirs)
            if problem:
                mismatches.append(problem)
    return compared, mismatches


def family_words(pattern, rng, count):
    """Random words matching `pattern`: 32 characters of 0, 1 or x (x = random), most significant first."""
    pattern = pattern.replace(" ", "")
    assert len(pattern) == 32, pattern
    fixed = int(pattern.replace("x", "0"), 2)
    free = int("".join("1" if c == "x" else "0" for c in pattern), 2)
    words = []
    while len(words) < count:
        word = fixed | (rng.getrandbits(32) & free)
        if mnemonic(word) is not None:
            words.append(word)
    return words


# Instruction classes of the SIMD & FP data-processing group, as bit patterns.
FAMILIES = {
    "fp 1-source": "000 11110 xx 1 xxxxxx 10000 xxxxx xxxxx",
    "fp 2-source": "000 11110 xx 1 xxxxx xxxx 10 xxxxx xxxxx",
    "fp 3-source": "000 11111 xx x xxxxx x xxxxx xxxxx xxxxx",
    "fp compare": "000 11110 xx 1 xxxxx 00 1000 xxxxx xx000",
    "fp cond compare": "000 11110 xx 1 xxxxx xxxx 01 xxxxx xxxxx",
    "fp cond select": "000 11110 xx 1 xxxxx xxxx 11 xxxxx xxxxx",
    "fp immediate": "000 11110 xx 1 xxxxxxxx 100 00000 xxxxx",
    "fp <-> int": "x00 11110 xx 1 xx xxx 000000 xxxxx xxxxx",
    "fp <-> fixed": "x00 11110 xx 0 xx xxx xxxxxx xxxxx xxxxx",
    "simd three same": "0xx 01110 xx 1 xxxxx xxxxx 1 xxxxx xxxxx",
    "simd three different": "0xx 01110 xx 1 xxxxx xxxx 00 xxxxx xxxxx",
    "simd two-reg misc": "0xx 01110 xx 10000 xxxxx 10 xxxxx xxxxx",
    "simd across lanes": "0xx 01110 xx 11000 xxxxx 10 xxxxx xxxxx",
    "simd copy": "0xx 01110 000 xxxxx 0 xxxx 1 xxxxx xxxxx",
    "simd permute": "0x0 01110 xx 0 xxxxx 0 xxx 10 xxxxx xxxxx",
    "simd ext": "0x1 01110 00 0 xxxxx 0 xxxx 0 xxxxx xxxxx",
    "simd table": "0x0 01110 00 0 xxxxx 0 xx x 00 xxxxx xxxxx",
    "simd modified immediate": "0xx 01111 00000 xxx xxxx 0 1 xxxxx xxxxx",
    "simd shift immediate": "0xx 011110 xxxx xxx xxxxx 1 xxxxx xxxxx",
    "simd by element": "0xx 01111 xx xx xxxx xxxx x 0 xxxxx xxxxx",
    "scalar three same": "01x 11110 xx 1 xxxxx xxxxx 1 xxxxx xxxxx",
    "scalar three different": "01x 11110 xx 1 xxxxx xxxx 00 xxxxx xxxxx",
    "scalar two-reg misc": "01x 11110 xx 10000 xxxxx 10 xxxxx xxxxx",
    "scalar pairwise": "01x 11110 xx 11000 xxxxx 10 xxxxx xxxxx",
    "scalar copy": "010 11110 000 xxxxx 0 0000 1 xxxxx xxxxx",
    "scalar shift immediate": "01x 111110 xxxx xxx xxxxx 1 xxxxx xxxxx",
    "scalar by element": "01x 11111 xx xx xxxx xxxx x 0 xxxxx xxxxx",
    "crypto aes": "0100 1110 00 10100 xxxxx 10 xxxxx xxxxx",
    "crypto sha two-register": "0101 1110 00 10100 xxxxx 10 xxxxx xxxxx",
    "crypto sha three-register": "0101 1110 000 xxxxx 0 xxx 00 xxxxx xxxxx",
}

# The slow tier (NCPU_NB_SLOW=1) runs over 100 000 scalar-FP and 300 000 AdvSIMD cases.
CASES_PER_FAMILY = 12_000 if os.environ.get("NCPU_NB_SLOW") else 500


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_family_matches_unicorn(machines, family):
    rng = random.Random(f"simd-fp {family}")
    words = family_words(FAMILIES[family], rng, CASES_PER_FAMILY)
    compared, mismatches = check_words(machines, words, rng)
    assert compared > CASES_PER_FAMILY // 4, (family, compared)
    assert not mismatches, f"{len(mismatches)} of {len(words)} differ:\n" + "\n".join(mismatches[:15])


def test_random_streams_match_unicorn(machines):
    """Streams of 32 instructions drawn from every family: results feed later instructions
    (FCMP into FCSEL and FCCMP, accumulating FPSR flags, partial register writes)."""
    rng = random.Random("streams")
    probe = Arm64Core()
    probe.map(CODE, 0x1000)

    def defined(word):
        probe.write_memory(CODE, struct.pack("<I", word))
        probe.set("pc", CODE)
        return probe.step(1)[1] is None

    names = sorted(FAMILIES)
    for _ in range(60 if not os.environ.get("NCPU_NB_SLOW") else 3000):
        words = []
        while len(words) < 32:
            word = family_words(FAMILIES[rng.choice(names)], rng, 1)[0]
            if defined(word):
                words.append(word)
        state = machines.random_state(rng)
        problem = difference(words[0], state, machines.run_core(words, state), machines.run_unicorn(words, state))
        assert problem is None, ([f"{w:08x} {describe(w)}" for w in words], problem)


def executable_words(path):
    """Every 32-bit word of the ELF's executable sections."""
    data = path.read_bytes()
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    for i in range(shnum):
        _, _, flags, _, offset, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)[:6]
        if flags & 4:  # SHF_EXECINSTR
            yield from struct.unpack_from(f"<{size // 4}I", data, offset)


def test_every_simd_fp_word_of_busybox_and_the_c_programs(machines):
    arm64 = data_dir("programs") / "arm64"
    paths = [arm64 / "busybox" / "busybox", *sorted((arm64 / "c" / "bin").iterdir())]
    words = sorted({w for p in paths for w in executable_words(p) if (w >> 25) & 7 == 7 and mnemonic(w)})
    rng = random.Random("busybox")
    compared, mismatches = check_words(machines, words, rng, states_per_word=3)
    assert compared > 1000
    assert not mismatches, f"{len(mismatches)} differ:\n" + "\n".join(mismatches[:15])


def test_random_words_of_the_whole_group_agree_with_unicorn(machines):
    """Any word with bits 27..25 = 111, valid or not: both machines execute it identically or both
    refuse it."""
    rng = random.Random("whole group")
    words = [(rng.getrandbits(32) & ~(7 << 25)) | 7 << 25 for _ in range(5000)]
    compared, mismatches = 0, []
    for word in words:
        state = machines.random_state(rng)
        theirs = machines.run_unicorn([word], state)
        ours = machines.run_core([word], state)
        compared += theirs is not None
        problem = difference(word, state, ours, theirs)
        if problem:
            mismatches.append(problem)
    assert compared > 300
    assert not mismatches, f"{len(mismatches)} differ:\n" + "\n".join(mismatches[:15])


def test_no_word_of_the_group_panics():
    """Raw random words (and every FP control setting) only ever execute or raise undefined."""
    rng = random.Random("no panic")
    core = Arm64Core()
    core.map(CODE, 0x1000)
    outcomes = {"executed": 0, "undefined": 0}
    for i in range(50_000):
        word = (rng.getrandbits(32) & ~(7 << 25)) | 7 << 25
        core.write_memory(CODE, struct.pack("<I", word))
        core.set("pc", CODE)
        if i % 64 == 0:
            core.set("fpcr", rng.getrandbits(4) << 22)
            for r in range(32):
                core.set(f"v{r}", random_half(rng) | random_half(rng) << 64)
        executed, exc = core.step(1)
        if exc is None:
            assert executed == 1 and core.get("pc") == CODE + 4
            outcomes["executed"] += 1
        else:
            assert exc == ("undefined", CODE, f"0x{word:08x}") and core.get("pc") == CODE
            outcomes["undefined"] += 1
    assert outcomes["executed"] > 3_000 and outcomes["undefined"] > 30_000, outcomes
