"""Register roles, variable homes and the temporary-register pool of the compiled code.

    R0-R3  homes of the four most used variables of a scope (callee-saved: a function pushes
           the ones it uses and restores them before RET)
    R4-R5  temporaries of expression evaluation (caller-saved; R4 carries a call's result);
           deeper expressions spill to the stack with PUSH/POP
    R6     scratch, live only inside one short instruction sequence
    R7     the frame pointer of the running function: [R7] the caller's R7, [R7 + 4] the return
           index, [R7 + 8 + 4k] the arguments (the last at + 8), below R7 the saved homes and locals
    SP     the stack, growing down from the top of data memory

Data memory: word 0 holds the heap top, word 4 the runtime error code (0: none); module variables
that do not live in registers follow from address 8; the heap (lists: a length word, then the
elements) grows up from there, and a list's value is the address of its first element.
"""
from __future__ import annotations

from dataclasses import dataclass

HOMES = ("R0", "R1", "R2", "R3")
TEMPS = ("R4", "R5")
RESULT = "R4"
SCRATCH = "R6"
FP = "R7"
HEAP_TOP, ERROR_CELL, GLOBALS_START = 0, 4, 8


@dataclass(frozen=True)
class Home:
    """Where a variable lives: a register, a module word at a fixed address, or a frame word."""

    kind: str  # "register", "global", "frame"
    offset: int = 0
    register: str = ""

    @property
    def operand(self) -> str:
        """The register name, or the memory operand that reads and writes it."""
        if self.kind == "register":
            return self.register
        if self.kind == "global":
            return f"[{self.offset}]"
        return f"[{FP}, {self.offset}]"

    def __str__(self) -> str:
        return self.operand


class TempPool:
    """The free temporaries; `take` gives one (None when all are in use)."""

    def __init__(self):
        self.free = list(TEMPS)

    def take(self) -> str | None:
        return self.free.pop(0) if self.free else None

    def give(self, register: str) -> None:
        if register in TEMPS and register not in self.free:
            self.free.append(register)
            self.free.sort()

    def in_use(self) -> list[str]:
        return [r for r in TEMPS if r not in self.free]
