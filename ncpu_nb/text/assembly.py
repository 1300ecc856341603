"""A `Pipeline` as an nCPU program: one loop per stage over zero-terminated strings in data memory.

Each stage reads bytes with LDRB from its source buffer and writes its result with STRB to its
destination buffer, ending it with a 0; the first stage reads `INPUT`, the last writes `OUTPUT`, a
stage between them goes through `MIDDLE`. At HALT, R0 holds the length of the result.

Registers: R1 source pointer, R2 destination pointer, R3 the byte being worked on, R4 scratch,
R5 the Vigenère key index or a run's length, R6 and R7 scratch (digits of a run length).
"""
from __future__ import annotations

from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.program import Program
from ncpu_nb.text.char_classes import PUNCTUATION_RANGES
from ncpu_nb.text.memory_layout import INPUT, MIDDLE, OUTPUT
from ncpu_nb.text.transforms import Pipeline, Transform


def class_test(cls: str, yes: str, no: str, p: str) -> list[str]:
    """Jump to `yes` if R3 is in class `cls`, else to `no` (R4 scratch; labels prefixed `p`)."""
    def in_range(lo, hi, miss: str) -> list[str]:
        return [f"CMP R3, {lo}", f"JL {miss}", f"CMP R3, {hi}", f"JLE {yes}"]

    if cls == "digits":
        return in_range("'0'", "'9'", no) + [f"JMP {no}"]
    if cls == "lowercase":
        return in_range("'a'", "'z'", no) + [f"JMP {no}"]
    if cls == "uppercase":
        return in_range("'A'", "'Z'", no) + [f"JMP {no}"]
    if cls == "letters":
        return in_range("'a'", "'z'", f"{p}_caps") + [f"{p}_caps:"] + in_range("'A'", "'Z'", no) + [f"JMP {no}"]
    if cls == "spaces":
        return ["CMP R3, ' '", f"JZ {yes}", f"JMP {no}"]
    if cls == "vowels":  # OR 32 folds A-Z onto a-z; only 'A' and 'a' become 'a', and so on
        return ["OR R4, R3, 32"] + [ln for v in "aeiou" for ln in (f"CMP R4, '{v}'", f"JZ {yes}")] + [f"JMP {no}"]
    if cls == "consonants":
        return class_test("vowels", no, f"{p}_letter", f"{p}_v") + [f"{p}_letter:"] + class_test("letters", yes, no, p)
    if cls == "punctuation":
        lines = []
        for i, (lo, hi) in enumerate(PUNCTUATION_RANGES):
            lines += in_range(lo, hi, f"{p}_r{i}") + [f"{p}_r{i}:"]
        return lines + [f"JMP {no}"]
    raise ValueError(f"no character class {cls!r}")


def _shift_in_case(last: str, amount: str, then: str) -> list[str]:
    """R3, a letter of the alphabet ending at `last`, moved forward by `amount` (< 26), wrapping around:
    a compare and a subtraction where `% 26` would cost a MOD (slow in neural mode)."""
    return [f"ADD R3, R3, {amount}", f"CMP R3, '{last}'", f"JLE {then}", "SUB R3, R3, 26", f"JMP {then}"]


def _letter_cases(p: str, lower: list[str], upper: list[str], done: str) -> list[str]:
    """Run `lower` on a-z and `upper` on A-Z (each ends by jumping on); any other byte goes to `done`."""
    return ["CMP R3, 'a'", f"JL {p}_upper", "CMP R3, 'z'", f"JG {p}_upper", *lower,
            f"{p}_upper:", "CMP R3, 'A'", f"JL {done}", "CMP R3, 'Z'", f"JG {done}", *upper]


def map_body(t: Transform, p: str, store: str, skip: str) -> list[str]:
    """Code that changes R3 and jumps to `store` (write it) or `skip` (write nothing)."""
    f, k = t.family, t.param
    if f == "copy":
        return [f"JMP {store}"]
    if f == "upper":
        return ["CMP R3, 'a'", f"JL {store}", "CMP R3, 'z'", f"JG {store}", "SUB R3, R3, 32", f"JMP {store}"]
    if f == "lower":
        return ["CMP R3, 'A'", f"JL {store}", "CMP R3, 'Z'", f"JG {store}", "ADD R3, R3, 32", f"JMP {store}"]
    if f == "swapcase":
        return _letter_cases(p, ["SUB R3, R3, 32", f"JMP {store}"], ["ADD R3, R3, 32", f"JMP {store}"], store)
    if f == "atbash":  # a + z - c, A + Z - c
        return _letter_cases(p, ["NEG R3, R3", "ADD R3, R3, 219", f"JMP {store}"],
                             ["NEG R3, R3", "ADD R3, R3, 155", f"JMP {store}"], store)
    if f == "caesar":
        return _letter_cases(p, _shift_in_case("z", str(k), store), _shift_in_case("Z", str(k), store), store)
    if f == "vigenere":  # R5 counts letters; the key's bytes sit at data label `<p>_key`
        advance, load = f"{p}_advance", f"LDRB R4, [R5, {p}_key]"
        return (_letter_cases(p, [load, *_shift_in_case("z", "R4", advance)],
                              [load, *_shift_in_case("Z", "R4", advance)], store)
                + [f"{advance}:", "INC R5", f"CMP R5, {len(k)}", f"JL {store}", "MOV R5, 0", f"JMP {store}"])
    if f == "replace":
        cls, to = k
        return class_test(cls, f"{p}_hit", store, p) + [f"{p}_hit:", f"MOV R3, {to}", f"JMP {store}"]
    if f == "remove":
        return class_test(k, skip, store, p)
    if f == "double":
        twice = f"{p}_twice"
        test = [f"JMP {twice}"] if k == "all" else class_test("letters", twice, store, p)
        return test + [f"{twice}:", "STRB R3, [R2]", "INC R2", f"JMP {store}"]
    if f == "add":
        return [f"ADD R3, R3, {k}", "AND R3, R3, 255", f"JMP {store}"]
    if f == "xor":
        return [f"XOR R3, R3, {k}", f"JMP {store}"]
    raise ValueError(f"{t} is not a per-byte transform")


def byte_loop(t: Transform, p: str, src: int, dst: int) -> list[str]:
    """A stage that looks at one byte at a time: load, change, store (or skip), next."""
    setup = ["MOV R5, 0"] if t.family == "vigenere" else []
    return [f"MOV R1, 0x{src:X}", f"MOV R2, 0x{dst:X}", *setup,
            f"{p}_loop:", "LDRB R3, [R1]", "CMP R3, 0", f"JZ {p}_end",
            *map_body(t, p, f"{p}_store", f"{p}_next"),
            f"{p}_store:", "STRB R3, [R2]", "INC R2",
            f"{p}_next:", "INC R1", f"JMP {p}_loop",
            f"{p}_end:", "STRB R3, [R2]"]


def reverse_loop(p: str, src: int, dst: int) -> list[str]:
    """Find the terminator, then copy backwards."""
    return [f"MOV R1, 0x{src:X}",
            f"{p}_find:", "LDRB R3, [R1]", "CMP R3, 0", f"JZ {p}_found", "INC R1", f"JMP {p}_find",
            f"{p}_found:", f"MOV R2, 0x{dst:X}",
            f"{p}_loop:", f"CMP R1, 0x{src:X}", f"JZ {p}_end", "DEC R1", "LDRB R3, [R1]", "STRB R3, [R2]", "INC R2",
            f"JMP {p}_loop",
            f"{p}_end:", "MOV R3, 0", "STRB R3, [R2]"]


def rle_loop(t: Transform, p: str, src: int, dst: int) -> list[str]:
    """Measure each run (R5), then write its length in decimal (digits pushed, popped in order) and its byte."""
    order, ones = t.param
    char = ["STRB R3, [R2]", "INC R2"]
    count = ([] if ones else ["CMP R5, 1", f"JZ {p}_counted"]) + [
        "MOV R6, 0",
        f"{p}_digit:", "MOD R7, R5, 10", "ADD R7, R7, 48", "PUSH R7", "INC R6", "DIV R5, R5, 10", f"JNZ {p}_digit",
        f"{p}_put:", "POP R7", "STRB R7, [R2]", "INC R2", "DEC R6", f"JNZ {p}_put",
        f"{p}_counted:"]
    body = count + char if order == "count-first" else char + count
    return [f"MOV R1, 0x{src:X}", f"MOV R2, 0x{dst:X}",
            f"{p}_run:", "LDRB R3, [R1]", "CMP R3, 0", f"JZ {p}_end", "MOV R5, 0",
            f"{p}_count:", "INC R5", "INC R1", "LDRB R4, [R1]", "CMP R4, R3", f"JZ {p}_count",
            *body, f"JMP {p}_run",
            f"{p}_end:", "STRB R3, [R2]"]


def stage_code(t: Transform, p: str, src: int, dst: int) -> list[str]:
    kind = t.definition.kind
    if kind == "reverse":
        return reverse_loop(p, src, dst)
    if kind == "rle":
        return rle_loop(t, p, src, dst)
    return byte_loop(t, p, src, dst)


def _tidy(lines: list[str]) -> list[str]:
    """Drop a jump to the label right after it (the templates jump on explicitly; falling through is
    shorter), then the labels nothing jumps to."""
    kept = [line for i, line in enumerate(lines)
            if not (line.startswith("JMP ") and i + 1 < len(lines) and lines[i + 1] == line[4:] + ":")]
    targets = {line.split()[-1] for line in kept if line.startswith("J")}
    return [line for line in kept if not line.endswith(":") or line[:-1] in targets]


def source(pipeline: Pipeline) -> str:
    """The program's assembly text, commented."""
    n = len(pipeline.stages)
    if not 1 <= n <= 2:
        raise ValueError("a pipeline has one or two stages")
    buffers = [INPUT, MIDDLE, OUTPUT] if n == 2 else [INPUT, OUTPUT]
    lines = [f"; {pipeline.words()}" if n == 2 else f"; {pipeline}",
             f"; input: a zero-terminated string at 0x{INPUT:X}; output: the result at 0x{OUTPUT:X}, R0 its length"]
    keys = [f"s{i + 1}_key: .byte " + ", ".join(map(str, s.param))
            for i, s in enumerate(pipeline.stages) if s.family == "vigenere"]
    if keys:
        lines += [".data", *keys, ".text"]
    for i, stage in enumerate(pipeline.stages):
        p = f"s{i + 1}"
        lines.append(f"; stage {i + 1}: {stage.words()} (0x{buffers[i]:X} -> 0x{buffers[i + 1]:X})")
        code = _tidy(stage_code(stage, p, buffers[i], buffers[i + 1]))
        lines += [line if line.endswith(":") else "    " + line for line in code]
    lines += [f"    SUB R0, R2, 0x{OUTPUT:X}", "    HALT"]
    return "\n".join(lines) + "\n"


def program(pipeline: Pipeline, name: str = "text transform") -> Program:
    return assemble(source(pipeline), name=name)
