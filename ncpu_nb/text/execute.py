"""Running a text program on the nCPU: strings written into data memory, one lane per string, the
results read back from `OUTPUT` up to their terminator."""
from __future__ import annotations

from ncpu_nb.errors import NcpuError
from ncpu_nb.ncpu.program import Program
from ncpu_nb.text.memory_layout import INPUT, MAX_INPUT, MEMORY, OUTPUT

STEPS_PER_BYTE = 120  # far above any emitted loop's cost per byte, two stages included
OUTPUT_SPAN = 4 * MAX_INPUT + 1


class TextInputError(NcpuError, ValueError):
    """A string the text machine cannot hold: not single-byte text, a NUL inside, or too long."""


def to_bytes(text: str | bytes, what: str = "text") -> bytes:
    """`text` as the bytes the nCPU holds (Latin-1: one byte per character)."""
    if isinstance(text, bytes):
        data = text
    else:
        try:
            data = text.encode("latin-1")
        except UnicodeEncodeError as exc:
            raise TextInputError(f"{what} {text!r}: {text[exc.start]!r} is not a one-byte character "
                                 "(the machine holds Latin-1 text)") from None
    if 0 in data:
        raise TextInputError(f"{what} {text!r} contains a NUL byte, which ends a string in memory")
    if len(data) > MAX_INPUT:
        raise TextInputError(f"{what} is {len(data)} bytes long; the machine holds at most {MAX_INPUT}")
    return data


def load(cpu, data: bytes, lane: int | None = None) -> None:
    """Write `data` and its terminator at INPUT (every lane, or one)."""
    cpu.write_memory(INPUT, data + b"\0", lane)


def result(cpu, lane: int = 0) -> bytes:
    """The zero-terminated result at OUTPUT."""
    return cpu.read_memory(OUTPUT, OUTPUT_SPAN, lane).split(b"\0", 1)[0]


def text_cpu(program: Program, data: bytes, mode: str = "fast", trace_depth: int = 256):
    """A CPU holding `program`, with `data` in memory at INPUT, ready to run (or to debug)."""
    from ncpu_nb.ncpu import CPU

    cpu = CPU(program, mode=mode, memory_size=MEMORY, trace_depth=trace_depth,
              max_steps=STEPS_PER_BYTE * (len(data) + 1) + 100)
    load(cpu, data)
    return cpu


def run_many(program: Program, strings: list[bytes], mode: str = "fast") -> tuple[list[bytes | None], int]:
    """Run `program` on every string at once (one lane each). Returns the results (None where a lane
    did not halt cleanly) and the steps all lanes took together."""
    from ncpu_nb.ncpu import CPU

    if not strings:
        return [], 0
    cpu = CPU(program, mode=mode, lanes=len(strings), memory_size=MEMORY, trace_depth=0)
    for lane, data in enumerate(strings):
        load(cpu, data, lane)
    run = cpu.run(STEPS_PER_BYTE * (max(map(len, strings)) + 1) + 100, check=False)
    statuses = cpu.lane_status()
    return [result(cpu, lane) if status == "halted" else None for lane, status in enumerate(statuses)], \
        run.instructions
