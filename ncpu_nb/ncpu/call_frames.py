"""The call stack of an nCPU program, read off its data memory.

CALL pushes the return index (a 4-byte word) and jumps; RET pops it. There are no frame pointers, so
the walk works out where each return index lies the way an unwinder reads call-frame information: a
function is a CALL target and the code reached from it (jumps followed, calls stepped over, up to RET
or HALT), and within it every instruction has a fixed number of bytes pushed since entry (PUSH adds
4, POP takes 4 away). The return index of the frame at `pc` is then the word at SP + that depth, and
the caller's SP is just past it.

A function whose depth is not fixed (it writes SP itself, or two paths meet at different depths)
falls back to a scan up the stack for a word that is the return index of a CALL of that function.
"""
from __future__ import annotations

from collections.abc import Callable

from ncpu_nb.ncpu.table import SP
from ncpu_nb.protocol import Frame

MAX_FRAMES = 256


def call_stack(program, pc: int, sp: int, read_word: Callable[[int], int], memory_size: int) -> list[Frame]:
    """Frames innermost first; `read_word(address)` is the unsigned 32-bit word there."""
    if program is None:
        return []
    instructions = program.instructions
    calls = {i: ins.values[0] for i, ins in enumerate(instructions) if ins.mnemonic == "CALL"}
    depths = {start: _stack_depths(instructions, start) for start in sorted(set(calls.values()))}
    bodies = {start: set(d) if d is not None else _reach(instructions, start) for start, d in depths.items()}
    labels = program.label_at()

    def function_of(location: int) -> int:
        """The function whose code holds `location` (the one starting last, when bodies share code)."""
        return max((start for start, body in bodies.items() if location in body), default=0)

    def name(start: int) -> str:
        return labels.get(start, "" if start else "(entry)")

    def returns_here(word: int, function: int) -> bool:
        return 1 <= word <= len(instructions) and calls.get(word - 1) == function

    frames: list[Frame] = []
    here, function, sp = pc, function_of(pc), sp & 0xFFFF_FFFF
    while function != 0 and len(frames) < MAX_FRAMES:
        known = depths[function]
        if known is not None and here in known:
            slot = sp + known[here]
            if slot + 4 > memory_size or not returns_here(read_word(slot), function):
                break  # the stack does not hold what the code says: stop rather than guess
        else:  # no fixed depth: the nearest word above SP that returns from a call of this function
            slot = next((a for a in range(sp, memory_size - 3, 4) if returns_here(read_word(a), function)), None)
            if slot is None:
                break
        word = read_word(slot)
        frames.append(Frame(here, name(function), word, slot + 4))  # RET pops it: SP is then past it
        here, function, sp = word - 1, function_of(word - 1), slot + 4
    frames.append(Frame(here, name(function), None, memory_size))
    return frames


def _successors(instructions, i: int) -> list[int]:
    ins = instructions[i]
    if ins.mnemonic in ("RET", "HALT"):
        return []
    if ins.form.sem.kind == "jump":
        return [ins.values[0]] if ins.form.sem.cond == "al" else [ins.values[0], i + 1]
    return [i + 1]


def _writes_sp(ins) -> bool:
    return any(name == "rd" and value == SP for (name, _, _), value in zip(ins.form.operands, ins.values))


def _stack_depths(instructions, start: int) -> dict[int, int] | None:
    """Instruction index -> bytes pushed since the function's entry, over the code reached from `start`;
    None when that is not one number per instruction."""
    depths = {start: 0}
    todo = [start]
    while todo:
        i = todo.pop()
        ins = instructions[i]
        if _writes_sp(ins):
            return None
        after = depths[i] + (4 if ins.mnemonic == "PUSH" else -4 if ins.mnemonic == "POP" else 0)
        for j in _successors(instructions, i):
            if not 0 <= j < len(instructions):
                continue
            if j in depths:
                if depths[j] != after:
                    return None
            else:
                depths[j] = after
                todo.append(j)
    return depths


def _reach(instructions, start: int) -> set[int]:
    """The instructions reached from `start`: jumps followed, CALLs stepped over, ending at RET or HALT."""
    seen: set[int] = set()
    todo = [start]
    while todo:
        i = todo.pop()
        if i in seen or not 0 <= i < len(instructions):
            continue
        seen.add(i)
        todo.extend(_successors(instructions, i))
    return seen
