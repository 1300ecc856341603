"""Every straight-line program of up to three instructions over an instruction set, evaluated at once.

Registers start as the inputs a and b; instruction i writes register v_i and reads two registers written
before it; a program's result is its last register. Level 1 applies every op to every pair of {a, b};
level 2 to every pair of {a, b, v1}; level 3 only to pairs that read v2 (a last instruction that ignores
the one before it computes nothing new). For k ops that is 4k, 36k² and 252k³ programs (16, 576, 16,128
for k = 4), few enough to evaluate together on a batch of examples, exactly or under autograd.

`apply(x, y)` gives every op's result on operand tensors x, y as a trailing dimension of size k, so the
same enumeration serves learned ops (soft mixtures, differentiable) and the fixed nCPU ALU (exact).
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

PAIRS_1 = [(i, j) for i in range(2) for j in range(2)]          # over (a, b)
PAIRS_2 = [(i, j) for i in range(3) for j in range(3)]          # over (a, b, v1)
PAIRS_3 = [(3, r) for r in range(4)] + [(r, 3) for r in range(3)]  # over (a, b, v1, v2), reading v2


@dataclass(frozen=True)
class Instruction:
    op: int          # index into the instruction set
    a: int           # register read first: 0 = a, 1 = b, 2 = v1, 3 = v2
    b: int


def levels(apply, a: torch.Tensor, b: torch.Tensor, length: int = 3):
    """Yields the results of every program of 1, 2, … `length` instructions: a (programs, examples)
    tensor per length, in the order `decode` reads (lazily: a search can stop before the largest)."""
    if length not in (1, 2, 3):
        raise ValueError(f"programs have 1 to 3 instructions, not {length!r}")
    examples = a.shape[0]
    base = torch.stack([a, b])                                                        # (2, E)
    v1 = apply(base[[i for i, _ in PAIRS_1]], base[[j for _, j in PAIRS_1]])          # (4, E, k)
    k = v1.shape[-1]
    v1 = v1.permute(0, 2, 1).reshape(-1, examples)                                    # (4k, E)
    yield v1
    if length == 1:
        return
    regs = torch.cat([base.unsqueeze(0).expand(len(v1), 2, -1), v1.unsqueeze(1)], 1)  # (4k, 3, E)
    v2 = apply(regs[:, [i for i, _ in PAIRS_2]], regs[:, [j for _, j in PAIRS_2]])    # (4k, 9, E, k)
    v2 = v2.permute(0, 1, 3, 2).reshape(-1, examples)                                 # (36k², E)
    yield v2
    if length == 2:
        return
    regs2 = torch.cat([regs.repeat_interleave(9 * k, 0), v2.unsqueeze(1)], 1)        # (36k², 4, E)
    v3 = apply(regs2[:, [i for i, _ in PAIRS_3]], regs2[:, [j for _, j in PAIRS_3]])  # (36k², 7, E, k)
    yield v3.permute(0, 1, 3, 2).reshape(-1, examples)                                # (252k³, E)


def decode(length: int, index: int, k: int) -> list[Instruction]:
    """The instructions of program `index` among the programs of `length` instructions."""
    pairs = [PAIRS_1, PAIRS_2, PAIRS_3][:length]
    program = []
    for level in reversed(range(length)):
        index, choice = divmod(index, len(pairs[level]) * k)
        pair, op = divmod(choice, k)
        program.append(Instruction(op, *pairs[level][pair]))
    return program[::-1]


def uses(length: int, k: int, device: str | torch.device = "cpu") -> torch.Tensor:
    """(programs, k) booleans on `device`: which ops each program of `length` instructions executes."""
    ops = torch.arange(k, device=device)
    mask = torch.nn.functional.one_hot(ops.repeat(len(PAIRS_1)), k).bool()
    for pairs in [PAIRS_2, PAIRS_3][:length - 1]:
        step = torch.nn.functional.one_hot(ops.repeat(len(pairs)), k).bool()
        mask = (mask.unsqueeze(1) | step.unsqueeze(0)).reshape(-1, k)
    return mask


def live(program: list[Instruction]) -> list[int]:
    """Indices of the instructions the result depends on (the others are dead code)."""
    needed, keep = {len(program) + 1}, []
    for i in reversed(range(len(program))):
        if i + 2 in needed:
            keep.append(i)
            needed |= {program[i].a, program[i].b}
    return keep[::-1]


def listing(program: list[Instruction], names: list[str]) -> list[str]:
    """The live instructions as lines `v1 = op(a, b)`, registers renumbered after dead code is dropped."""
    kept, rename, lines = live(program), {0: "a", 1: "b"}, []
    for n, i in enumerate(kept, start=1):
        ins = program[i]
        rename[i + 2] = f"v{n}"
        lines.append(f"v{n} = {names[ins.op]}({rename[ins.a]}, {rename[ins.b]})")
    return lines


def shortest(apply, a: torch.Tensor, b: torch.Tensor, targets: dict[str, torch.Tensor], k: int,
             max_length: int = 3) -> dict[str, list[Instruction] | None]:
    """Target name -> the first program of the fewest instructions that computes it exactly on every
    example (integer ops), or None if none of up to `max_length` does. Found at the first length that
    has one, so none of its instructions is dead."""
    found: dict = {}
    for length, values in enumerate(levels(apply, a, b, max_length), start=1):
        for name, t in targets.items():
            hit = (values == t).all(1).nonzero() if name not in found else []
            if len(hit):
                found[name] = decode(length, int(hit[0]), k)
        if len(found) == len(targets):
            break
    return {name: found.get(name) for name in targets}
