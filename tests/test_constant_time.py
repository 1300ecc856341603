"""`ncpu_nb.constant_time`: programs whose PC sequence, branch outcomes or memory addresses do or do not
depend on a secret, on the nCPU (Rust and torch lanes) and on the AArch64 machine; a C program
(secret_compare.c) whose early-exit password compare leaks at its source line and whose constant-time
compare does not; and the memory accesses traces record, against capstone's reading of each instruction."""
import random
import string

import pytest

import ncpu_nb
from ncpu_nb import CPU
from ncpu_nb.arm64 import Arm64Machine
from ncpu_nb.resources import data_dir

SELECT = """
    AND R2, R0, 1      ; mask = -(secret & 1): all ones or all zeros
    NEG R2, R2
    MOV R3, 111
    MOV R4, 222
    AND R3, R3, R2
    NOT R2, R2
    AND R4, R4, R2
    OR R1, R3, R4      ; secret odd ? 111 : 222, without a branch
    HALT
"""
COMPARE = """
    CMP R0, 1234
    JZ match
    MOV R1, 0
    HALT
match:
    MOV R1, 1
    HALT
"""
LOOKUP = """
.data
sbox: .byte 9, 4, 7, 1, 3, 8, 2, 6
.text
    AND R0, R0, 7
    LDRB R1, [R0 + sbox]
    HALT
"""


def secrets(n=40, seed=0):
    rng = random.Random(seed)
    return [{"R0": 1234}] + [{"R0": rng.randrange(2**31)} for _ in range(n)]


def test_a_branchless_select_is_constant_time_and_computes_the_right_values():
    report = ncpu_nb.constant_time(SELECT, secrets())
    assert report.constant and report.leak is None and set(report.steps) == {9}
    assert "constant time" in repr(report) and "✔" in report._repr_html_()
    odd, even = CPU(SELECT), CPU(SELECT)
    odd.set_registers(R0=7), even.set_registers(R0=8)
    odd.run(), even.run()
    assert (odd.registers["R1"], even.registers["R1"]) == (111, 222)


def test_a_comparison_branch_leaks_through_control_flow_at_the_branch():
    report = ncpu_nb.constant_time(COMPARE, secrets())
    leak = report.leak
    assert not report.constant
    assert (leak.kind, leak.step, leak.pc, leak.instruction) == ("control flow", 1, 1, "JZ match")
    assert leak.secret_a == {"R0": 1234} and leak.secret_b != leak.secret_a
    assert "match" in leak.detail and report.differing["control flow"] == 40


def test_a_table_lookup_leaks_through_the_address_it_reads():
    report = ncpu_nb.constant_time(LOOKUP, secrets())
    leak = report.leak
    assert (leak.kind, leak.step, leak.instruction) == ("memory address", 1, "LDRB R1, [R0]")
    assert "read of 1 at 0x2" in leak.detail  # 1234 & 7 = 2: the first secret's sbox entry
    elsewhere = sum(1 for secret in secrets() if secret["R0"] & 7 != 2)  # draws that read another entry
    assert report.differing == {"control flow": 0, "memory address": elsewhere, "length": 0} and elsewhere > 20


def test_a_run_cut_short_by_a_fault_is_a_length_leak():
    report = ncpu_nb.constant_time("LDR R1, [R0]\nHALT", [{"R0": 16}, {"R0": 1 << 30}])
    assert (report.leak.kind, report.leak.step) == ("length", 0)  # the faulting load never completes
    assert "halted / fault" in report.leak.detail
    # values that depend on the secret are fine as long as the addresses do not: 5/5 = 7/7 = 1
    report = ncpu_nb.constant_time("DIV R2, R0, R0\nLDR R3, [R2]\nHALT", [{"R0": 5}, {"R0": 7}, {"R0": -9}])
    assert report.constant


def test_torch_lanes_record_the_same_accesses_and_give_the_same_verdicts():
    for source in (SELECT, COMPARE, LOOKUP):
        rust = ncpu_nb.constant_time(source, secrets(12))

        def on_torch(secret, source=source):
            cpu = CPU(source, device="cpu")
            cpu.set_registers(**secret)
            return cpu

        torch_lanes = ncpu_nb.constant_time(on_torch, secrets(12))
        assert repr(rust) == repr(torch_lanes) and rust.leak == torch_lanes.leak


def test_secrets_in_an_arm64_program_a_string_compare_leaks_and_ignoring_the_secret_does_not():
    rng = random.Random(1)
    words = ["hunter2"] + ["".join(rng.choice(string.ascii_lowercase) for _ in range(7)) for _ in range(7)]
    leaky = ncpu_nb.constant_time(lambda s: Arm64Machine.busybox("test", s, "=", "hunter2"), words)
    assert leaky.leak.kind == "control flow" and leaky.leak.instruction.startswith("b.")
    assert leaky.leak.secret_a == "hunter2" and "0x" in leaky.leak.where
    same = ncpu_nb.constant_time(lambda s: Arm64Machine.busybox("true", s), words)
    assert same.constant and len(set(same.steps)) == 1


def test_the_report_escapes_secrets_and_refuses_too_few():
    report = ncpu_nb.constant_time(lambda s: CPU(COMPARE if s == "<b>" else SELECT), ["<b>", "x"])
    page = report._repr_html_()
    assert "<b>" not in page.replace("<b>first", "") and "&lt;b&gt;" in page and "<script" not in page
    with pytest.raises(ValueError, match="two secrets"):
        ncpu_nb.constant_time(SELECT, [{"R0": 1}])
    with pytest.raises(TypeError, match="dict of registers"):
        ncpu_nb.constant_time(SELECT, [1, 2])


@pytest.mark.oracle
def test_arm64_traces_record_the_address_capstone_reads_off_every_load_and_store():
    """For every traced instruction with one memory operand (no index register), the first recorded
    access is at base + displacement (the base alone after a post-indexed access), with the base's
    value rebuilt from the registers at the start and every step's changes: tens of thousands of
    BusyBox loads and stores, decoded independently by capstone."""
    from capstone import CS_ARCH_ARM64, CS_MODE_ARM, Cs
    from capstone.arm64 import ARM64_OP_MEM

    cs = Cs(CS_ARCH_ARM64, CS_MODE_ARM)
    cs.detail = True
    alias = {"fp": "x29", "lr": "x30"}
    checked = 0
    for args, stdin in ((("sort",), "b\na\nc\nzz\n"), (("sh", "-c", "x=1; for i in 1 2 3; do x=$((x*7+i)); done"), "")):
        m = Arm64Machine.busybox(*args, stdin=stdin)
        m.run(3000, check=False)
        registers = dict(m.registers)
        m.trace_depth, m.trace_accesses = 40_000, True
        m.run(40_000, check=False)
        for step in m.trace:
            insn = next(cs.disasm(m.read_memory(step.pc, 4), step.pc))
            memory = [op.mem for op in insn.operands if op.type == ARM64_OP_MEM]
            if len(memory) == 1 and memory[0].index == 0 and not insn.mnemonic.startswith(("prfm", "prfum", "dc")):
                base = insn.reg_name(memory[0].base)
                post_indexed = insn.writeback and "]," in insn.op_str
                expected = (registers[alias.get(base, base)] + (0 if post_indexed else memory[0].disp)) % 2**64
                assert step.accesses and step.accesses[0][0] == expected, (hex(step.pc), insn.mnemonic, insn.op_str)
                checked += 1
            for name, (_, new) in step.changes.items():
                registers[name] = new
    assert checked > 10_000


def test_arm64_accesses_are_recorded_only_when_asked():
    m = Arm64Machine.busybox("echo", "hi", trace_depth=20_000)
    m.run(20_000, check=False)
    assert not any(step.accesses for step in m.trace)
    m.reset()
    m.trace_accesses = True
    m.run(20_000, check=False)
    writes = [step for step in m.trace if step.memory_write]
    assert writes and all(step.memory_write == next((a, n) for a, n, w in step.accesses if w) for step in writes)


# --- a C program: programs/arm64/c/secret_compare.c, a password compared two ways ----------------------------
C = data_dir("programs") / "arm64" / "c"
PASSWORD = b"open sesame 2024"  # secret_compare.c's stored password
SECRET_COMPARE_SOURCE = (C / "secret_compare.c").read_text().splitlines()


def secret_compare(mode):
    return lambda guess: Arm64Machine.from_elf(C / "bin" / "secret_compare", ["secret_compare", mode], stdin=guess)


def guesses(seed=0):
    """The password, then 16 guesses right in their first 0, 1, … 15 bytes only, then 40 random ones: 57."""
    rng = random.Random(seed)
    right_for = [PASSWORD[:k] + bytes([PASSWORD[k] ^ 1]) + rng.randbytes(15 - k) for k in range(16)]
    return [PASSWORD, *right_for, *(rng.randbytes(16) for _ in range(40))]


@pytest.fixture(scope="module")
def compared():
    """constant_time over the same guesses, once per mode (each about 3 seconds)."""
    return {mode: ncpu_nb.constant_time(secret_compare(mode), guesses()) for mode in ("early-exit", "constant")}


@pytest.mark.parametrize("mode", ["early-exit", "constant"])
@pytest.mark.parametrize("guess, run", [(PASSWORD, "right"), (b"open sesame 2025", "wrong")])
def test_secret_compare_prints_what_qemu_printed(mode, guess, run):
    machine = secret_compare(mode)(guess)
    machine.run()
    expected = C / "expected" / f"secret_compare.{mode}-{run}"
    assert machine.stdout_bytes == expected.with_name(expected.name + ".out").read_bytes()
    assert machine.exit_status == int(expected.with_name(expected.name + ".status").read_text())


def test_an_early_exit_compare_in_c_leaks_at_its_branch_and_names_the_source_line(compared):
    report, leak = compared["early-exit"], compared["early-exit"].leak
    marker = next(i for i, text in enumerate(SECRET_COMPARE_SOURCE, 1) if "/* the leak:" in text)
    assert not report.constant and leak.kind == "control flow" and leak.instruction.startswith("b.")
    function = next(s for s in Arm64Machine.from_elf(C / "bin" / "secret_compare").elf.symbols.values()
                    if s.kind == "function" and s.name.startswith("early_exit_equal"))
    assert function.address <= leak.pc < function.address + function.size
    assert leak.where.startswith("early_exit_equal") and leak.where.split("+")[0] == function.name
    assert (leak.line.file, leak.line.line) == ("secret_compare.c", marker)
    assert leak.code == SECRET_COMPARE_SOURCE[marker - 1].strip() and "a[i] != b[i]" in leak.code
    assert leak.secret_a == PASSWORD and leak.secret_b != PASSWORD
    assert report.differing == {"control flow": len(report.secrets) - 1, "memory address": 0, "length": 0}
    assert f"at secret_compare.c:{marker}" in repr(report)
    assert f"secret_compare.c:{marker}" in report._repr_html_() and "a[i] != b[i]" in report._repr_html_()
    # the timing signal itself: each further right byte runs the compare loop once more
    right_for = report.steps[1:17]
    assert all(a < b for a, b in zip(right_for, right_for[1:])) and right_for[-1] < report.steps[0]


def test_a_constant_time_compare_in_c_runs_the_same_for_every_guess(compared):
    report = compared["constant"]
    assert report.constant and report.leak is None and len(report.secrets) >= 50
    assert len(set(report.steps)) == 1 and set(report.outcomes) == {"exited"}
    assert "✔" in report._repr_html_() and "source line" not in report._repr_html_()


def test_the_engine_digest_tells_two_runs_apart_exactly_when_their_full_traces_differ():
    """The AArch64 path keeps a digest per run (PCs, next PCs, accesses) and traces only runs that
    differ: the digest must agree with the full record, run by run."""
    from ncpu_nb.debugging.constant_time import _observed

    def both(mode, guess):
        digested = secret_compare(mode)(guess)
        digested.set_observation(True)
        digested.run()
        traced = secret_compare(mode)(guess)
        traced.trace_depth, traced.trace_accesses = 100_000, True
        traced.run()
        return digested.observation, [_observed(s) for s in traced.trace]

    for mode in ("early-exit", "constant"):
        runs = [both(mode, guess) for guess in (PASSWORD, b"open sesame 2025", b"x" * 16, b"x" * 16)]
        for (digest_a, trace_a) in runs:
            for (digest_b, trace_b) in runs:
                assert (digest_a == digest_b) == (trace_a == trace_b)
        assert runs[2][0] == runs[3][0]  # the same guess twice: the same digest
        assert (runs[0][0] == runs[2][0]) == (mode == "constant")
    machine = secret_compare("constant")(PASSWORD)
    assert machine.observation is None  # off unless asked
