"""The call stack of an AArch64 program: a frame-pointer and link-register walk, symbolised.

AAPCS64 code keeps a chain of frame records: a function's prologue stores the caller's x29 and its
own return address (x30) as a pair on the stack (`stp x29, x30, [sp, #-N]!`) and points x29 at it
(`mov x29, sp`); the epilogue loads the pair back (`ldp x29, x30, …`) before `ret`. So from x29 each
record gives a return address and the record before it.

The innermost function needs care: before its prologue has run (or after its epilogue, or in a leaf
that never makes a record) x29 is still its caller's, and the return address is in x30. The walk
reads the function's own code to tell: has `mov x29, sp` (or `add x29, sp, #…`) run since its entry,
with no branch before it, and has `ldp x29, x30` not yet run on the way out?
"""
from __future__ import annotations

from ncpu_nb.protocol import Frame

MAX_FRAMES = 256
PROLOGUE = 64  # instructions from a function's entry searched for the one that sets x29


def _branches(text: str) -> bool:
    mnemonic = text.split(" ", 1)[0]
    return mnemonic in ("b", "br", "bl", "blr", "ret", "cbz", "cbnz", "tbz", "tbnz") or mnemonic.startswith("b.")


def _sets_frame_pointer(text: str) -> bool:
    return text == "mov x29, sp" or text.startswith("add x29, sp, ")


def _restores_frame_pointer(text: str) -> bool:
    return text.startswith("ldp x29, x30, ")


def own_frame_record(disassemble, pc: int, start: int | None) -> bool:
    """True when x29 points at the frame record of the function executing at `pc` (entered at `start`)."""
    if start is None:
        return True  # no symbol: trust the chain
    prologue_done = False
    for _, text in disassemble(start, min((pc - start) // 4, PROLOGUE)):
        if _sets_frame_pointer(text):
            prologue_done = True
            break
        if _branches(text):
            break
    if not prologue_done:
        return False
    # On the way out: `ldp x29, x30, …` ran in the straight run of code just before pc, and `ret` follows.
    before = disassemble(max(start, pc - 16), (pc - max(start, pc - 16)) // 4)
    after = disassemble(pc, 4)
    restored = False
    for _, text in before:
        if _restores_frame_pointer(text):
            restored = True
        elif _branches(text):
            restored = False
    if not restored:
        return True
    for _, text in after:
        if text.startswith("ret"):
            return False
        if _branches(text):
            break
    return True


def call_stack(machine) -> list[Frame]:
    """Frames innermost first: the PC's function, then each caller, down to the outermost record."""
    def named(address: int) -> tuple[str, int | None]:
        return machine.elf.function_at(address) or ("", None)

    def word(address: int) -> int | None:
        try:
            return int.from_bytes(machine.read_memory(address, 8), "little")
        except ValueError:  # an unmapped frame record ends the walk
            return None

    regs = machine.registers
    pc, sp, fp, lr = regs["pc"], regs["sp"], regs["x29"], regs["x30"]
    name, start = named(pc)
    if own_frame_record(machine.disassemble, pc, start):
        returns_to, record = word(fp + 8), word(fp)
    else:
        returns_to, record = lr, fp
    frames = [Frame(pc, name, returns_to or None, sp)]
    while returns_to and len(frames) < MAX_FRAMES:
        here = returns_to - 4  # the call instruction
        caller_sp = record if record else sp
        if not record or record < sp:  # no record further out (or not on this stack): the outermost frame
            frames.append(Frame(here, named(here)[0], None, caller_sp))
            break
        returns_to, next_record = word(record + 8), word(record)
        frames.append(Frame(here, named(here)[0], returns_to or None, record))
        if next_record is not None and next_record != 0 and next_record <= record:
            break  # a chain must climb the stack: anything else is not a frame record
        record = next_record
    return frames
