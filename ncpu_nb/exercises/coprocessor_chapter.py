"""The exercises of chapter 17: the neural ALU as a transformer's coprocessor."""
from __future__ import annotations

from ncpu_nb.exercises.checker import expect, exercise, integer, require


@exercise("17", "longest_exact_mul", "The longest operand length n (both operands n digits) for which every n-digit "
                                     "by n-digit MUL the coprocessor computes is exact in the ALU's 32-bit words")
def _(answer):
    from ncpu_nb.coprocessor.alu_coprocessor import ALUCoprocessor, CoprocessorConfig

    n = integer(answer, "a number of digits")
    largest = [int("9" * k) for k in range(1, 7)]
    exact = [k + 1 for k, v in enumerate(largest)  # the ALU itself says where the largest product stops fitting
             if ALUCoprocessor(CoprocessorConfig(8)).compute(largest[k:k + 1], largest[k:k + 1])[0, 2] == v * v]
    return [expect("longest exact length", max(exact), n)]


@exercise("17", "written_answer", "The characters the hand-set coprocessor writes, token by token, over "
                                  "'12+345=357' (only the tokens it routes)")
def _(answer):
    from ncpu_nb.coprocessor.alu_coprocessor import NOTHING, RESULT_CHARS, hand_set

    text = require(answer, str, "the characters as one string")
    cop, h, _ = hand_set([("+", 12, 345)])
    cop(h[:, :len("12+345=357")])
    chars = cop.last["chars"][0, :, 0]
    return [expect("written over the routed tokens", "".join(RESULT_CHARS[c] for c in chars if c != NOTHING), text)]
