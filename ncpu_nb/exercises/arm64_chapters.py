"""The exercises of chapters 18-26: the AArch64 machine, its Linux, BusyBox and the debugging tools."""
from __future__ import annotations

from ncpu_nb.exercises.checker import Row, WrongKind, expect, exercise, integer, require, text


def hex_word(value: int) -> str:
    return f"0x{value:x}"


def c_program(name: str):
    from ncpu_nb.resources import data_dir

    return data_dir("programs") / "arm64" / "c" / "bin" / name


# --- 18 · the ARM64 machine --------------------------------------------------------------------------

@exercise("18", "add_word", "The 32-bit word of `add x3, x1, x2`")
def _(answer):
    from ncpu_nb.arm64 import Arm64Core

    word = integer(answer, "the word as a number, e.g. 0x8b000000")
    return [expect("word", 0x8B000000 | 2 << 16 | 1 << 5 | 3, word, show=lambda w: f"0x{w:08x}"),
            expect("the core disassembles it as", "add x3, x1, x2", Arm64Core.disassemble(word & 0xFFFFFFFF, 0))]


@exercise("18", "flags_after_subs", "Which of N, Z, C, V are set after `subs x1, x1, #1` when x1 was 1?")
def _(answer):
    from ncpu_nb.arm64 import Arm64Core

    core = Arm64Core()
    core.map(0x10000, 0x1000)
    core.write_memory(0x10000, (0xF1000000 | 1 << 10 | 1 << 5 | 1).to_bytes(4, "little"))  # subs x1, x1, #1
    core.set("pc", 0x10000)
    core.set("x1", 1)
    core.step(1)
    nzcv = core.get("nzcv")
    set_flags = "".join(name for i, name in enumerate("NZCV") if nzcv >> (31 - i) & 1)
    given = "".join(sorted(text(answer, "the letters of the set flags, e.g. \"NV\"").upper(), key="NZCV".find))
    return [expect("flags set", set_flags, given)]


# --- 19 · loading an ELF -----------------------------------------------------------------------------

@exercise("19", "hello_entry", "The entry point of the `hello` test program")
def _(answer):
    import ncpu_nb

    return [expect("entry point", ncpu_nb.ElfFile.read(c_program("hello")).entry, integer(answer), show=hex_word)]


@exercise("19", "busybox_bss", "Bytes of .bss in BusyBox's writable LOAD segment (memory size − file size)")
def _(answer):
    import ncpu_nb
    from ncpu_nb.arm64 import busybox_path

    data = next(s for s in ncpu_nb.ElfFile.read(busybox_path()).segments if s.type == "LOAD" and "w" in s.perms)
    return [expect("bytes of .bss", data.memsz - data.filesz, integer(answer), show=lambda n: f"{n:,} ({n:#x})")]


# --- 20 · system calls -------------------------------------------------------------------------------

def hello_log():
    import ncpu_nb

    machine = ncpu_nb.Arm64Machine.from_elf(c_program("hello"), ["hello"])
    machine.run()
    return machine.syscall_log()


@exercise("20", "hello_syscalls", "How many system calls does `hello` make, from start to exit?")
def _(answer):
    return [expect("system calls", len(hello_log()), integer(answer))]


@exercise("20", "first_syscall_number", "Which number is in x8 at hello's first `svc #0`?")
def _(answer):
    first = hello_log()[0]
    return [expect(f"x8 (the number of {first.name})", first.number, integer(answer))]


# --- 21 · BusyBox from a cell ------------------------------------------------------------------------

def shell_rows(command, runs: list[tuple[str, str]]) -> list[Row]:
    """Run `command` under BusyBox's sh once per (stdin, expected output) and compare the output."""
    import ncpu_nb

    command = text(command, "a command line, as text")
    rows = []
    for number, (stdin, expected) in enumerate(runs, 1):
        result = ncpu_nb.busybox("sh", "-c", command, stdin=stdin)
        detail = f"; stderr: {result.stderr.strip()}" if result.exit_code and result.stderr.strip() else ""
        row = expect(f"input {number}", expected, result.stdout.strip())
        rows.append(row._replace(detail=row.detail + detail))
    return rows


WORDS = ["the quick brown fox jumps over the lazy dog\nthe dog sleeps\n", "a b a b a\nc\n"]


@exercise("21", "distinct_words", "A pipeline that prints how many distinct words its standard input has")
def _(answer):
    return shell_rows(answer, [(words, str(len(set(words.split())))) for words in WORDS])


TABLES = ["x,y\n1,2\n3,4\n5,6\n", "name,score\nada,10\nbob,-3\n"]


@exercise("21", "column_sum", "A command that prints the sum of the second column of a CSV (with a header) on stdin")
def _(answer):
    def total(csv: str) -> str:
        return str(sum(int(line.split(",")[1]) for line in csv.splitlines()[1:]))

    return shell_rows(answer, [(csv, total(csv)) for csv in TABLES])


# --- 22 · looking inside a run -----------------------------------------------------------------------

@exercise("22", "call_register", "Run `hello` to main with a trace: the last `blr` in it jumps through which register?")
def _(answer):
    import ncpu_nb

    machine = ncpu_nb.Arm64Machine.from_elf(c_program("hello"), ["hello"], trace_depth=8)
    machine.breakpoints.add("main")
    machine.run()
    call = next(step for step in reversed(machine.trace) if step.instruction.startswith("blr"))
    register = call.instruction.split()[1]
    return [expect(f"the register of `{call.instruction}`", register,
                   text(answer, "a register's name, e.g. \"x0\"").lower(), show=str)]


@exercise("22", "first_read_of_vd_b", "At which address is the instruction that first reads `vd_b` in float_math?")
def _(answer):
    import ncpu_nb

    machine = ncpu_nb.Arm64Machine.from_elf(c_program("float_math"), ["float_math"])
    machine.watchpoints.add("vd_b", 8, read=True, write=False)
    machine.run()
    return [expect("pc of the first read", machine.pc, integer(answer), show=hex_word)]


@exercise("22", "busiest_function", "The function of float_math that executes the most instructions itself")
def _(answer):
    import ncpu_nb

    busiest = ncpu_nb.profile(ncpu_nb.Arm64Machine.from_elf(c_program("float_math"))).functions()[0].name
    return [expect("function", busiest, text(answer, "the function's name, as text"))]


# --- 23 · debugging ARM64 ----------------------------------------------------------------------------

def float_math_checks() -> list[str]:
    """The message (x1) of every call of float_math's `check`, in order."""
    import ncpu_nb

    machine = ncpu_nb.Arm64Machine.from_elf(c_program("float_math"), ["float_math"])
    machine.breakpoints.add("check")
    messages = []
    while machine.run().stop == "breakpoint":
        messages.append(machine.read_string(machine.registers["x1"]))
        machine.step()  # off the breakpoint
    return messages


@exercise("23", "check_calls", "With a breakpoint on `check`: how many times does float_math call it?")
def _(answer):
    return [expect("calls of check", len(float_math_checks()), integer(answer))]


@exercise("23", "first_check_message", "At the first stop on `check`, which message does x1 point to?")
def _(answer):
    return [expect("message", float_math_checks()[0], text(answer, "the message, as text"))]


SELECT_CASES = 24


@exercise("23", "constant_select", "An nCPU program: R1 = R2 when R0 is odd, else R3, in constant time")
def _(answer):
    import random

    from ncpu_nb.debugging.constant_time import constant_time
    from ncpu_nb.exercises.programs import program_rows

    rng = random.Random(23)
    inputs = [{r: rng.randrange(-2**31, 2**31) for r in ("R0", "R2", "R3")} for _ in range(SELECT_CASES)]
    rows = program_rows(answer, [(i, {"R1": i["R2"] if i["R0"] & 1 else i["R3"]}) for i in inputs])
    if not all(row.passed for row in rows):
        return rows
    report = constant_time(answer, inputs)
    return rows + [Row(f"constant time over {SELECT_CASES} secrets", report.constant,
                       "the same instructions, branches and addresses for every secret" if report.constant
                       else f"{report.leak.kind} depends on the secret at {report.leak.instruction}")]


# --- 24 · finding memory bugs ------------------------------------------------------------------------

def sanitized_heap_bugs(mode: str):
    """(machine, report) of heap_bugs MODE run under the sanitizer."""
    import ncpu_nb

    machine = ncpu_nb.Arm64Machine.from_elf(c_program("heap_bugs"), ["heap_bugs", mode])
    return machine, ncpu_nb.sanitize(machine)


def heap_bugs_line(pc: int) -> int:
    from ncpu_nb.arm64.elf import ElfFile
    from ncpu_nb.arm64.source_lines import SourceLines

    return SourceLines.of(ElfFile.read(c_program("heap_bugs"))).at(pc).line


@exercise("24", "overflow_line", "The line of heap_bugs.c whose store writes past the block in `overflow` mode")
def _(answer):
    finding = sanitized_heap_bugs("overflow")[1].findings[0]
    return [expect("line", finding.line.line, integer(answer, "a line number"))]


@exercise("24", "freed_line", "The line of heap_bugs.c that freed the block `use-after-free` mode reads")
def _(answer):
    finding = sanitized_heap_bugs("use-after-free")[1].findings[0]
    return [expect("line", heap_bugs_line(finding.block.freed_at[0]), integer(answer, "a line number"))]


@exercise("24", "magic_hang", "The minimised input that makes `magic` hang, as the fuzzer finds it")
def _(answer):
    from ncpu_nb.debugging.fuzzer import fuzz

    report = fuzz(c_program("magic"), workers=1, seed=4, executions=20_000, stop_on_crash=True)
    return [expect("input", report.hangs[0].input, require(answer, bytes, "bytes, e.g. b'AB'"))]


# --- 25 · proving AES constant time -----------------------------------------------------------------

def aes128_instructions(impl: str, blocks: int) -> int:
    """Instructions of one run of aes128 IMPL ecb on `blocks` blocks (key 00 01 … 0f, data zero)."""
    from ncpu_nb.arm64 import Arm64Machine

    machine = Arm64Machine.from_elf(c_program("aes128"), ["aes128", impl, "ecb"],
                                    stdin=bytes(range(16)) + bytes(16 * blocks))
    machine.run()
    return machine.instructions


@exercise("25", "block_instructions", "Instructions the constant-time AES (`ct`) runs for each further 16-byte block in ECB")
def _(answer):
    return [expect("instructions a block", aes128_instructions("ct", 2) - aes128_instructions("ct", 1),
                   integer(answer, "a number of instructions"))]


@exercise("25", "leak_line", "The line of aes128.c where the table AES first reads an address that depends on the key")
def _(answer):
    import random

    import ncpu_nb
    from ncpu_nb.arm64 import Arm64Machine

    rng = random.Random(0)
    secrets = [bytes(rng.randrange(256) for _ in range(32)) for _ in range(8)]
    report = ncpu_nb.constant_time(
        lambda s: Arm64Machine.from_elf(c_program("aes128"), ["aes128", "table", "ecb"], stdin=s), secrets)
    return [expect("line", report.leak.line.line, integer(answer, "a line number"))]


# --- 26 · the BusyBox terminal -----------------------------------------------------------------------

@exercise("26", "remembered_greeting", "Lines after which `echo $greeting` in the same shell prints `hi there`")
def _(answer):
    import ncpu_nb

    lines = [answer] if isinstance(answer, str) else require(answer, (list, tuple), "a list of lines")
    if not all(isinstance(line, str) for line in lines):
        raise WrongKind("every line must be text")
    # one shell reading the lines from its standard input, as the terminal's shell does; the marker
    # separates what the learner's lines print from what the later `echo $greeting` prints
    marker = "--- your lines end here ---"
    result = ncpu_nb.busybox("sh", stdin="\n".join([*lines, f"echo '{marker}'", "echo $greeting"]) + "\n")
    printed = result.stdout.rpartition(marker)[2].strip()
    return [expect("what `echo $greeting` printed", "hi there", printed)]


@exercise("26", "interrupted_status", "After Ctrl-C stops `yes > /dev/null`, which status does `echo status $?` print?")
def _(answer):
    sigint = 2
    return [expect("status", 128 + sigint, integer(answer))]
