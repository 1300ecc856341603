"""Runs one AArch64 instruction on both the core (`Arm64Core`) and Unicorn from the same state and
reports every difference. Used by the differential tests of the core.

An instruction family is a 32-character bit pattern (0, 1, or x for a random bit) plus an optional
filter that rejects encodings the architecture leaves UNPREDICTABLE (results may differ there).
"""
import random
import struct

from unicorn import (UC_ARCH_ARM64, UC_ERR_FETCH_PROT, UC_ERR_FETCH_UNMAPPED, UC_ERR_INSN_INVALID,
                     UC_ERR_READ_PROT, UC_ERR_READ_UNALIGNED, UC_ERR_READ_UNMAPPED, UC_ERR_WRITE_PROT,
                     UC_ERR_WRITE_UNALIGNED, UC_ERR_WRITE_UNMAPPED, UC_HOOK_INTR, UC_MODE_ARM, Uc, UcError)
from unicorn import arm64_const as A

from ncpu_nb._metal import Arm64Core

CODE = 0x40_0000
CODE_SIZE = 0x10_0000  # the code page sits in the middle of 1 MiB of random bytes (literal loads)
DATA = 0x100_0000
DATA_SIZE = 0x2_0000
X_REGS = [getattr(A, f"UC_ARM64_REG_X{i}") for i in range(29)] + [A.UC_ARM64_REG_X29, A.UC_ARM64_REG_X30]
Q_REGS = [getattr(A, f"UC_ARM64_REG_Q{i}") for i in range(32)]
EXCP_UDEF, EXCP_SWI, EXCP_DATA_ABORT, EXCP_BKPT = 1, 2, 4, 7
CLREX = 0xD503305F
MEMORY_ERRORS = {UC_ERR_READ_UNMAPPED, UC_ERR_WRITE_UNMAPPED, UC_ERR_FETCH_UNMAPPED, UC_ERR_READ_PROT,
                 UC_ERR_WRITE_PROT, UC_ERR_FETCH_PROT}
ALIGNMENT_ERRORS = {UC_ERR_READ_UNALIGNED, UC_ERR_WRITE_UNALIGNED}


def pattern_word(pattern, rng):
    """A word matching `pattern` (MSB first; '0', '1', or 'x' for random; spaces ignored)."""
    bits = pattern.replace(" ", "")
    assert len(bits) == 32, pattern
    word = 0
    for c in bits:
        word = word << 1 | (rng.getrandbits(1) if c == "x" else int(c))
    return word


def field(word, lo, width):
    return (word >> lo) & ((1 << width) - 1)


class Pair:
    """A core and a Unicorn instance with the same memory map."""

    def __init__(self, seed, model=A.UC_CPU_ARM64_A53):
        self.rng = random.Random(seed)
        self.core = Arm64Core()
        self.uc = Uc(UC_ARCH_ARM64, UC_MODE_ARM)
        self.uc.ctl_set_cpu_model(model)
        self.uc.hook_add(UC_HOOK_INTR, self._interrupt)
        self.interrupt = None
        code_base = CODE - CODE_SIZE // 2
        for base, size in ((code_base, CODE_SIZE), (DATA, DATA_SIZE)):
            self.core.map(base, size, 7)
            self.uc.mem_map(base, size)
            filler = self.rng.randbytes(size)
            self.core.write_memory(base, filler)
            self.uc.mem_write(base, filler)

    def _interrupt(self, uc, intno, _):
        self.interrupt = intno
        uc.emu_stop()

    def data_pointer(self, align=1):
        return (DATA + DATA_SIZE // 4 + self.rng.randrange(DATA_SIZE // 4)) & -align

    def random_value(self):
        r = self.rng.random()
        if r < 0.3:
            return self.rng.getrandbits(64)
        if r < 0.5:
            return self.rng.choice([0, 1, 2, 31, 32, 63, 64, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
                                    1 << 63, (1 << 63) - 1, (1 << 64) - 1, (1 << 64) - 2])
        if r < 0.7:
            return self.rng.getrandbits(self.rng.choice([5, 8, 16, 32]))
        return (-self.rng.getrandbits(16)) % (1 << 64)

    def random_state(self, pointers=False):
        """Registers for one test: random values, or data pointers where addresses are formed."""
        rng = self.rng
        state = {f"x{i}": self.data_pointer(rng.choice([1, 4, 16])) if pointers else self.random_value()
                 for i in range(31)}
        state["sp"] = self.data_pointer(16)
        state["nzcv"] = rng.getrandbits(4) << 28
        for i in range(32):
            state[f"v{i}"] = rng.getrandbits(128)
        return state

    def set_state(self, state):
        for name, value in state.items():
            self.core.set(name, value)
            if name == "sp":
                self.uc.reg_write(A.UC_ARM64_REG_SP, value)
            elif name == "nzcv":
                self.uc.reg_write(A.UC_ARM64_REG_NZCV, value)
            elif name[0] == "x":
                self.uc.reg_write(X_REGS[int(name[1:])], value)
            elif name[0] == "v":
                self.uc.reg_write(Q_REGS[int(name[1:])], value)
            else:
                self.uc.reg_write(getattr(A, f"UC_ARM64_REG_{name.upper()}"), value)

    def core_state(self, names):
        return {n: self.core.get(n) for n in names}

    def uc_state(self, names):
        out = {}
        for n in names:
            if n == "sp":
                out[n] = self.uc.reg_read(A.UC_ARM64_REG_SP)
            elif n == "pc":
                out[n] = self.uc.reg_read(A.UC_ARM64_REG_PC)
            elif n == "nzcv":
                out[n] = self.uc.reg_read(A.UC_ARM64_REG_NZCV) & 0xF000_0000
            elif n[0] == "x":
                out[n] = self.uc.reg_read(X_REGS[int(n[1:])])
            elif n[0] == "v":
                out[n] = self.uc.reg_read(Q_REGS[int(n[1:])])
            else:
                out[n] = self.uc.reg_read(getattr(A, f"UC_ARM64_REG_{n.upper()}"))
        return out

    def clear_exclusive(self):
        """Runs CLREX on both, so no reservation carries over from an earlier test."""
        code = struct.pack("<I", CLREX)
        self.core.write_memory(CODE, code)
        self.uc.mem_write(CODE, code)
        self.core.set("pc", CODE)
        assert self.core.step(1) == (1, None)
        self.uc.emu_start(CODE, CODE + 4, count=1)

    def run_one(self, word, state, names, compare_memory):
        """Executes `word` at CODE on both; returns the differences (empty when equal) and how
        the core stopped."""
        code = struct.pack("<I", word)
        self.core.write_memory(CODE, code)
        self.uc.mem_write(CODE, code)
        self.set_state({**state, "pc": CODE})
        self.uc.reg_write(A.UC_ARM64_REG_PC, CODE)
        before = self.core_state(names)

        _, stop = self.core.step(1)
        core_kind = stop[0] if stop else "ok"
        self.interrupt = None
        try:
            self.uc.emu_start(CODE, CODE + 4, count=1)
            uc_kind = "ok"
        except UcError as e:
            # Unicorn fetches the next instruction before it honours count=1: an unmapped branch
            # target means the branch itself completed.
            completed = e.errno == UC_ERR_FETCH_UNMAPPED and self.uc.reg_read(A.UC_ARM64_REG_PC) != CODE
            uc_kind = "ok" if completed else (
                       ("undefined" if e.errno == UC_ERR_INSN_INVALID else "memory" if e.errno in MEMORY_ERRORS
                       else "alignment" if e.errno in ALIGNMENT_ERRORS else f"unicorn error {e}"))
        if self.interrupt is not None:
            uc_kind = {EXCP_UDEF: "undefined", EXCP_SWI: "svc", EXCP_BKPT: "brk",
                       EXCP_DATA_ABORT: "alignment"}.get(self.interrupt, f"interrupt {self.interrupt}")

        diffs = []
        if core_kind != uc_kind:
            diffs.append(("stop", core_kind, uc_kind))
            if compare_memory:
                self.core.write_memory(DATA, bytes(self.uc.mem_read(DATA, DATA_SIZE)))
            return diffs, core_kind
        after = self.core_state(names)
        if core_kind not in ("ok", "svc"):
            # Nothing may change when an instruction does not complete.
            diffs += [(n, before[n], after[n]) for n in names if before[n] != after[n]]
            return diffs, core_kind
        expected = self.uc_state(names)
        diffs += [(n, after[n], expected[n]) for n in names if after[n] != expected[n]]
        if compare_memory:
            mine = self.core.read_memory(DATA, DATA_SIZE)
            theirs = bytes(self.uc.mem_read(DATA, DATA_SIZE))
            if mine != theirs:
                at = next(i for i in range(DATA_SIZE) if mine[i] != theirs[i])
                diffs.append(("memory", hex(DATA + at), (mine[at], theirs[at])))
                # Resynchronise so one mismatch does not cascade into the following tests.
                self.core.write_memory(DATA, theirs)
        return diffs, core_kind


GPR_NAMES = [f"x{i}" for i in range(31)] + ["sp", "pc", "nzcv"]
ALL_NAMES = GPR_NAMES + [f"v{i}" for i in range(32)]


def run_family(pair, pattern, count, accept=None, pointers=False, memory=False, fixup=None, clrex=False):
    """Runs `count` random encodings of `pattern`; returns (executed, mismatches, stops) where
    stops counts how each test ended ("ok", "undefined", "memory"...)."""
    names = ALL_NAMES if memory else GPR_NAMES
    mismatches = []
    executed = 0
    stops = {}
    while executed < count:
        word = pattern_word(pattern, pair.rng)
        if accept is not None and not accept(word):
            continue
        state = pair.random_state(pointers)
        if fixup is not None:
            word = fixup(word, state, pair)
        executed += 1
        if clrex:
            pair.clear_exclusive()
        diffs, kind = pair.run_one(word, state, names, memory)
        stops[kind] = stops.get(kind, 0) + 1
        if diffs:
            mismatches.append((hex(word), Arm64Core.disassemble(word, CODE), diffs[:4]))
    return executed, mismatches, stops


def run_stream(pair, words, state, names):
    """Runs `words` laid out from CODE on both (stopping together at a fault); returns the
    differences."""
    code = b"".join(struct.pack("<I", w) for w in words)
    pair.core.write_memory(CODE, code)
    pair.uc.mem_write(CODE, code)
    pair.set_state({**state, "pc": CODE})
    pair.uc.reg_write(A.UC_ARM64_REG_PC, CODE)
    _, stop = pair.core.step(len(words))
    try:
        pair.uc.emu_start(CODE, CODE + 4 * len(words), count=len(words))
        uc_stopped = False
    except UcError:
        uc_stopped = True
    diffs = [] if (stop is not None) == uc_stopped else [("stop", stop, uc_stopped)]
    mine, theirs = pair.core_state(names), pair.uc_state(names)
    diffs += [(n, mine[n], theirs[n]) for n in names if mine[n] != theirs[n]]
    ours, expected = pair.core.read_memory(DATA, DATA_SIZE), bytes(pair.uc.mem_read(DATA, DATA_SIZE))
    if ours != expected:
        diffs.append(("memory", hex(DATA + next(i for i in range(DATA_SIZE) if ours[i] != expected[i]))))
        pair.core.write_memory(DATA, expected)
    return diffs
