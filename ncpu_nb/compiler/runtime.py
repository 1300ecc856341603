"""The compiled programs' runtime: the list allocator routine and the runtime-error exits.

A runtime error (a division by zero, an index out of range, ...) jumps to a stub of its site that
puts the site's number in the error word (address 4) and halts; `CompiledPython` turns that number
back into the Python exception, line and column. Lists live on a heap that grows up from the module
variables: `.newlist` takes the fill value and the length on the stack and returns the address of
element 0 in R4 (the length is the word before it), or 0 when the heap would come within 256 bytes
of the stack.
"""
from __future__ import annotations

from ncpu_nb.compiler.register_roles import ERROR_CELL, HEAP_TOP

MAX_LIST = 16384  # words: a list longer than this cannot fit in 64 KiB of data memory anyway
STACK_MARGIN = 256  # bytes kept between the heap and the stack

NEWLIST = f"""
.newlist:
    PUSH R5
    PUSH R6
    LDR R5, [SP, 12]
    CMP R5, 0
    JGE .nl_size
    MOV R5, 0
.nl_size:
    CMP R5, {MAX_LIST}
    JG .nl_fail
    LDR R4, [{HEAP_TOP}]
    STR R5, [R4]
    ADD R4, R4, 4
    SHL R6, R5, 2
    ADD R6, R6, R4
    MOV R5, SP
    SUB R5, R5, {STACK_MARGIN}
    CMP R6, R5
    JG .nl_fail
    STR R6, [{HEAP_TOP}]
    LDR R5, [SP, 16]
.nl_fill:
    CMP R6, R4
    JLE .nl_done
    SUB R6, R6, 4
    STR R5, [R6]
    JMP .nl_fill
.nl_fail:
    MOV R4, 0
.nl_done:
    POP R6
    POP R5
    RET
"""

FAIL = f"""
.fail:
    STR R6, [{ERROR_CELL}]
    HALT
"""


def routine_lines(text: str) -> list[tuple[str, bool]]:
    """(line, is_label) for each non-blank line of a routine."""
    out = []
    for line in text.strip().splitlines():
        line = line.strip()
        out.append((line[:-1] if line.endswith(":") else line, line.endswith(":")))
    return out
