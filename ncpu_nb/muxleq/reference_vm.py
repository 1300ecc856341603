"""MUXLEQ, the two-instruction machine that runs eForth: the image loader and the reference interpreter.

The machine (howerj/muxleq's readme, checked against its C VM): 65,536 cells of 16 bits; a program counter that
starts at 0; each instruction is three cells a, b, c, and the machine stops as soon as pc is negative (>= 0x8000):

    a == -1             m[b] = next input byte (0xFFFF at end of input)
    b == -1             output the low byte of m[a]
    c < 0, c != -1      m[b] = (m[a] & ~m[c & 0x7FFF]) | (m[b] & m[c & 0x7FFF])       (mux)
    otherwise           r = m[b] - m[a] (16 bits); m[b] = r; if r <= 0 (signed): pc = c   (subleq)

This plain-Python interpreter is the oracle the nCPU program and the AArch64 guest are checked against; it is
slow (about a million MUXLEQ instructions a second) and meant to be obviously right rather than fast.
"""
from __future__ import annotations

from functools import lru_cache

from ncpu_nb.resources import data_dir

CELLS = 1 << 16
MASK = CELLS - 1
EOF_CELL = MASK  # what an input instruction stores at end of input (C's getchar() == -1, as a cell)


def image_path():
    """programs/forth/muxleq.dec: the eForth image (howerj/muxleq, public domain; see its README)."""
    return data_dir("programs") / "forth" / "muxleq.dec"


@lru_cache(maxsize=1)
def load_image() -> tuple[int, ...]:
    """The image's cells as signed 16-bit numbers, in order from address 0 (the file is one number a line)."""
    return tuple(int(word) for word in image_path().read_text().replace(",", " ").split())


def signed(cell: int) -> int:
    """A 16-bit cell as a signed number."""
    return cell - CELLS if cell & 0x8000 else cell


class MuxleqVM:
    """The reference MUXLEQ machine. `feed(data)` gives it input; `run()` runs until it halts, or until it wants
    input that has not come (then `waiting` is True; with `close()` called, end of input is 0xFFFF instead).

        vm = MuxleqVM()
        vm.feed(b"2 3 + .\\n"); vm.close()
        vm.run()              # b' 5 ok\\r\\n'
    """

    def __init__(self, image=None):
        cells = load_image() if image is None else image
        self.m = [c & MASK for c in cells] + [0] * (CELLS - len(cells))
        self.pc = 0
        self.steps = 0  # MUXLEQ instructions executed
        self.first_input_step: int | None = None  # steps when it first asked for input: the boot
        self.input = bytearray()
        self.closed = False
        self.waiting = False

    @property
    def halted(self) -> bool:
        return self.pc >= 0x8000

    def feed(self, data: bytes | str) -> None:
        self.input += data.encode() if isinstance(data, str) else bytes(data)

    def close(self) -> None:
        self.closed = True

    def run(self, max_steps: int | None = None) -> bytes:
        """Run until halted, waiting for input, or `max_steps` more instructions; returns the bytes output."""
        m, pc, out, steps = self.m, self.pc, bytearray(), 0
        limit = float("inf") if max_steps is None else max_steps
        self.waiting = False
        while pc < 0x8000 and steps < limit:
            a, b, c = m[pc], m[pc + 1], m[pc + 2]
            if a == MASK:
                if self.first_input_step is None:
                    self.first_input_step = self.steps + steps
                if self.input:
                    m[b] = self.input.pop(0)
                elif self.closed:
                    m[b] = EOF_CELL
                else:
                    self.waiting = True
                    break  # pc still at the input instruction: it runs again when input comes
            elif b == MASK:
                out.append(m[a] & 0xFF)
            elif c & 0x8000 and c != MASK:
                mc = m[c & 0x7FFF]
                m[b] = (m[a] & ~mc | m[b] & mc) & MASK
            else:
                r = (m[b] - m[a]) & MASK
                m[b] = r
                if r == 0 or r & 0x8000:
                    pc = c
                    steps += 1
                    continue
            pc += 3
            steps += 1
        self.pc, self.steps = pc, self.steps + steps
        return bytes(out)


def run_session(session: bytes | str, max_steps: int | None = None) -> tuple[bytes, MuxleqVM]:
    """The whole session as input (then end of input) on a fresh reference machine: (output, machine)."""
    vm = MuxleqVM()
    vm.feed(session)
    vm.close()
    return vm.run(max_steps), vm
