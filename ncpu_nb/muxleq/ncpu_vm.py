"""MUXLEQ as an nCPU program (programs/forth/muxleq.asm): eForth on the nCPU, in fast or neural mode.

The image sits in the CPU's data memory, one 32-bit word a cell; input and output go through buffers in memory
(the layout is at the top of the .asm file). `NcpuForth` is the driver: it fills the input buffer, runs the CPU
in chunks until the program HALTs because it wants more input, its output buffer is full, or MUXLEQ stopped,
and hands back the output.
"""
from __future__ import annotations

import time

import numpy as np

from ncpu_nb.muxleq.reference_vm import load_image
from ncpu_nb.resources import data_dir

IN_HEAD, IN_LEN, IN_EOF, OUT_LEN, OUT_CAP = 0x0, 0x4, 0x8, 0xC, 0x10
IN_BUF, IN_CAP, OUT_BUF, CELLS = 0x100, 0x2000, 0x2100, 0x4000
MEMORY_SIZE = CELLS + 4 * 65536 + 256  # 278,784 bytes: buffers, the cells, a little room for SP's top
STOPPED, WANTS_INPUT, OUTPUT_FULL = 0, 1, 2  # R7 at a HALT


def program_source() -> str:
    return (data_dir("programs") / "forth" / "muxleq.asm").read_text()


class NcpuForth:
    """eForth on the nCPU. `feed(text)` adds input; `run()` runs until MUXLEQ needs input that has not come
    (or stops) and returns the output so far; `close()` marks the end of input.

        forth = NcpuForth(mode="fast")
        forth.feed("2 3 + .\\n"); forth.close()
        forth.run()          # ' 5 ok\\r\\n'
    """

    def __init__(self, mode: str = "fast", *, image=None, output_buffer: int = CELLS - OUT_BUF, **cpu_options):
        from ncpu_nb.ncpu import CPU

        self.cpu = CPU(program_source(), mode=mode, memory_size=MEMORY_SIZE, **cpu_options)
        cells = np.asarray(load_image() if image is None else image, dtype=np.int64)  # `image`: other cells
        self.cpu.write_memory(CELLS, ((cells + 0x8000) % 0x10000 - 0x8000).astype("<i4").tobytes())  # sign-extended
        if not 1 <= output_buffer <= CELLS - OUT_BUF:
            raise ValueError(f"output_buffer must be 1..{CELLS - OUT_BUF} bytes")
        self._set_word(OUT_CAP, output_buffer)  # a small one makes the driver empty it often (for tests)
        self._loop = self.cpu.program.code_labels["loop"]
        self.pending = bytearray()  # input not yet in the CPU's buffer
        self.closed = False
        self.stopped = False  # MUXLEQ halted (pc negative)
        self.seconds = 0.0  # time spent running the CPU
        self.boot_cycles: int | None = None  # nCPU instructions before MUXLEQ first asked for input

    @property
    def cycles(self) -> int:
        return self.cpu.cycles

    def feed(self, data: bytes | str) -> None:
        self.pending += data.encode() if isinstance(data, str) else bytes(data)

    def close(self) -> None:
        self.closed = True

    def _word(self, address: int) -> int:
        return self.cpu.read_word(address)

    def _set_word(self, address: int, value: int) -> None:
        self.cpu.write_memory(address, int(value).to_bytes(4, "little", signed=True))

    def _refill(self) -> None:
        """Move pending input into the buffer (from its start: what was there has all been read)."""
        chunk, self.pending = self.pending[:IN_CAP], self.pending[IN_CAP:]
        self.cpu.write_memory(IN_BUF, bytes(chunk))
        self._set_word(IN_HEAD, 0)
        self._set_word(IN_LEN, len(chunk))
        self._set_word(IN_EOF, int(self.closed and not self.pending))

    def _drain(self) -> bytes:
        n = self._word(OUT_LEN)
        self._set_word(OUT_LEN, 0)
        return self.cpu.read_memory(OUT_BUF, n)

    def run(self, max_steps: int | None = None, *, decode: bool = True):
        """Run until MUXLEQ stops or waits for input not yet fed (or after `max_steps` nCPU instructions);
        returns the output (text, or bytes with decode=False)."""
        out = bytearray()
        budget = float("inf") if max_steps is None else max_steps
        while not self.stopped and budget > 0:
            if self._word(IN_HEAD) >= self._word(IN_LEN) and (self.pending or self.closed):
                self._refill()
            before, t0 = self.cpu.cycles, time.perf_counter()
            self.cpu.run(min(budget, 50_000_000), check=False)
            self.seconds += time.perf_counter() - t0
            budget -= self.cpu.cycles - before
            if self.cpu.status == "fault":
                self.cpu.run(0)  # raises ExecutionError with the PC and instruction
            if self.cpu.status != "halted":
                continue
            why = self.cpu.registers["R7"]
            out += self._drain()
            if why == STOPPED:
                self.stopped = True
            elif why == WANTS_INPUT:
                if self.boot_cycles is None:
                    self.boot_cycles = self.cpu.cycles
                if not self.pending and not self.closed:
                    self.cpu.pc = self._loop
                    break  # wait for `feed`
            if not self.stopped:
                self.cpu.pc = self._loop  # restart: the wound-back instruction runs again
        out += self._drain()
        return out.decode("utf-8", "replace") if decode else bytes(out)
