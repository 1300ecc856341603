"""Writes the synthesis benchmark: one JSON spec per task, examples computed by running each task's
reference program on the plain-Python reference interpreter (ncpu_nb.ncpu.reference_interpreter).

    python3 programs/synth/generate.py

Each task: 10 training examples and 10 held-out examples with different inputs (fewer where the
input domain is smaller; the parity ring uses every input combination, two thirds for training), a max_len, and the reference program (which the
synthesizer never reads; it documents the task and proves the examples consistent)."""
import json
import random
from pathlib import Path

from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.reference_interpreter import run_reference

HERE = Path(__file__).parent
S, U, B, N = (-100, 100), (0, 255), (0, 1023), (0, 9)  # signed, byte, 10-bit, small counts

# name, category, inputs, outputs, range, max_len, reference (";" separates instructions), description
TASKS = [
    # --- arithmetic
    ("add", "arithmetic", "R0 R1", "R2", S, 3, "ADD R2, R0, R1", "R2 = R0 + R1"),
    ("sub", "arithmetic", "R0 R1", "R2", S, 3, "SUB R2, R0, R1", "R2 = R0 - R1"),
    ("rsub", "arithmetic", "R0 R1", "R2", S, 3, "SUB R2, R1, R0", "R2 = R1 - R0"),
    ("mul", "arithmetic", "R0 R1", "R2", S, 3, "MUL R2, R0, R1", "R2 = R0 * R1"),
    ("add3", "arithmetic", "R0 R1 R2", "R3", S, 3, "ADD R3, R0, R1; ADD R3, R3, R2", "R3 = R0 + R1 + R2"),
    ("double", "arithmetic", "R0", "R1", S, 3, "ADD R1, R0, R0", "R1 = 2 * R0"),
    ("triple", "arithmetic", "R0", "R1", S, 3, "MUL R1, R0, 3", "R1 = 3 * R0"),
    ("plus7", "arithmetic", "R0", "R1", S, 3, "ADD R1, R0, 7", "R1 = R0 + 7"),
    ("minus5", "arithmetic", "R0", "R1", S, 3, "SUB R1, R0, 5", "R1 = R0 - 5"),
    ("times5", "arithmetic", "R0", "R1", S, 3, "MUL R1, R0, 5", "R1 = 5 * R0"),
    ("times10", "arithmetic", "R0", "R1", S, 3, "MUL R1, R0, 10", "R1 = 10 * R0"),
    ("square", "arithmetic", "R0", "R1", S, 3, "MUL R1, R0, R0", "R1 = R0 * R0"),
    ("cube", "arithmetic", "R0", "R1", S, 3, "MUL R1, R0, R0; MUL R1, R1, R0", "R1 = R0 ** 3"),
    ("square_plus_y", "arithmetic", "R0 R1", "R2", S, 3, "MUL R2, R0, R0; ADD R2, R2, R1", "R2 = R0² + R1"),
    ("diff_of_squares", "arithmetic", "R0 R1", "R2", S, 4, "ADD R2, R0, R1; SUB R3, R0, R1; MUL R2, R2, R3",
     "R2 = R0² - R1²"),
    ("twice_sum", "arithmetic", "R0 R1", "R2", S, 3, "ADD R2, R0, R1; ADD R2, R2, R2", "R2 = 2 (R0 + R1)"),
    ("average", "arithmetic", "R0 R1", "R2", S, 3, "ADD R2, R0, R1; SAR R2, R2, 1", "R2 = floor((R0 + R1) / 2)"),
    ("negate", "arithmetic", "R0", "R1", S, 3, "NEG R1, R0", "R1 = -R0"),
    ("square_plus_x", "arithmetic", "R0", "R1", S, 3, "MUL R1, R0, R0; ADD R1, R1, R0", "R1 = R0² + R0"),
    ("three_x_plus_1", "arithmetic", "R0", "R1", S, 3, "MUL R1, R0, 3; ADD R1, R1, 1", "R1 = 3 R0 + 1"),
    ("two_x_three_y", "arithmetic", "R0 R1", "R2", S, 4, "ADD R2, R0, R0; MUL R3, R1, 3; ADD R2, R2, R3",
     "R2 = 2 R0 + 3 R1"),
    ("product_plus_1", "arithmetic", "R0 R1", "R2", S, 3, "MUL R2, R0, R1; ADD R2, R2, 1", "R2 = R0 R1 + 1"),
    ("product_plus_x", "arithmetic", "R0 R1", "R2", S, 3, "MUL R2, R0, R1; ADD R2, R2, R0", "R2 = R0 R1 + R0"),
    ("triangular", "arithmetic", "R0", "R1", (0, 100), 4, "ADD R1, R0, 1; MUL R1, R1, R0; SHR R1, R1, 1",
     "R1 = R0 (R0 + 1) / 2"),
    ("half", "arithmetic", "R0", "R1", S, 3, "DIV R1, R0, 2", "R1 = R0 / 2 (toward zero)"),
    ("third", "arithmetic", "R0", "R1", S, 3, "DIV R1, R0, 3", "R1 = R0 / 3 (toward zero)"),
    ("mod7", "arithmetic", "R0", "R1", (0, 1000), 3, "MOD R1, R0, 7", "R1 = R0 % 7"),
    ("quotient", "arithmetic", "R0 R1", "R2", (1, 200), 3, "DIV R2, R0, R1", "R2 = R0 / R1"),
    ("remainder", "arithmetic", "R0 R1", "R2", (1, 200), 3, "MOD R2, R0, R1", "R2 = R0 % R1"),
    ("hundred_minus", "arithmetic", "R0", "R1", S, 3, "NEG R1, R0; ADD R1, R1, 100", "R1 = 100 - R0"),
    ("x_times_y_plus_1", "arithmetic", "R0 R1", "R2", S, 3, "ADD R2, R1, 1; MUL R2, R2, R0", "R2 = R0 (R1 + 1)"),
    ("four_x_plus_1", "arithmetic", "R0", "R1", S, 3, "SHL R1, R0, 2; ADD R1, R1, 1", "R1 = 4 R0 + 1"),
    ("increment", "arithmetic", "R0", "R1", S, 3, "ADD R1, R0, 1", "R1 = R0 + 1"),
    ("decrement", "arithmetic", "R0", "R1", S, 3, "SUB R1, R0, 1", "R1 = R0 - 1"),
    ("quadratic", "arithmetic", "R0", "R1", S, 4, "MUL R1, R0, 2; ADD R1, R1, 3; MUL R1, R1, R0; ADD R1, R1, 1",
     "R1 = 2 R0² + 3 R0 + 1"),
    ("sum_minus_product", "arithmetic", "R0 R1", "R2", S, 3, "ADD R2, R0, R1; MUL R3, R0, R1; SUB R2, R2, R3",
     "R2 = R0 + R1 - R0 R1"),
    ("square_of_sum", "arithmetic", "R0 R1", "R2", S, 3, "ADD R2, R0, R1; MUL R2, R2, R2", "R2 = (R0 + R1)²"),
    ("in_place_add", "arithmetic", "R0 R1", "R0", S, 3, "ADD R0, R0, R1", "R0 = R0 + R1 (in place)"),
    ("in_place_square", "arithmetic", "R0", "R0", S, 3, "MUL R0, R0, R0", "R0 = R0² (in place)"),
    ("constant_42", "arithmetic", "R0", "R1", S, 3, "MOV R1, 42", "R1 = 42, whatever R0 is"),
    # --- bitwise
    ("and", "bitwise", "R0 R1", "R2", B, 3, "AND R2, R0, R1", "R2 = R0 & R1"),
    ("or", "bitwise", "R0 R1", "R2", B, 3, "OR R2, R0, R1", "R2 = R0 | R1"),
    ("xor", "bitwise", "R0 R1", "R2", B, 3, "XOR R2, R0, R1", "R2 = R0 ^ R1"),
    ("not", "bitwise", "R0", "R1", B, 3, "NOT R1, R0", "R1 = ~R0"),
    ("low_byte", "bitwise", "R0", "R1", (0, 100000), 3, "AND R1, R0, 255", "R1 = R0 & 0xFF"),
    ("set_bit0", "bitwise", "R0", "R1", B, 3, "OR R1, R0, 1", "R1 = R0 | 1"),
    ("flip_low_byte", "bitwise", "R0", "R1", B, 3, "XOR R1, R0, 255", "R1 = R0 ^ 0xFF"),
    ("shl1", "bitwise", "R0", "R1", B, 3, "SHL R1, R0, 1", "R1 = R0 << 1"),
    ("shl3", "bitwise", "R0", "R1", B, 3, "SHL R1, R0, 3", "R1 = R0 << 3"),
    ("shr2", "bitwise", "R0", "R1", B, 3, "SHR R1, R0, 2", "R1 = R0 >> 2"),
    ("sar1", "bitwise", "R0", "R1", S, 3, "SAR R1, R0, 1", "R1 = R0 >> 1 (arithmetic)"),
    ("clear_lowest_bit", "bitwise", "R0", "R1", B, 3, "SUB R1, R0, 1; AND R1, R1, R0", "R1 = R0 & (R0 - 1)"),
    ("lowest_bit", "bitwise", "R0", "R1", B, 3, "NEG R1, R0; AND R1, R1, R0", "R1 = R0 & -R0"),
    ("set_bit4", "bitwise", "R0", "R1", B, 3, "OR R1, R0, 16", "R1 = R0 | 16"),
    ("toggle_bit0", "bitwise", "R0", "R1", B, 3, "XOR R1, R0, 1", "R1 = R0 ^ 1"),
    ("and_not", "bitwise", "R0 R1", "R2", B, 3, "NOT R2, R1; AND R2, R2, R0", "R2 = R0 & ~R1"),
    ("nand", "bitwise", "R0 R1", "R2", B, 3, "AND R2, R0, R1; NOT R2, R2", "R2 = ~(R0 & R1)"),
    ("nor", "bitwise", "R0 R1", "R2", B, 3, "OR R2, R0, R1; NOT R2, R2", "R2 = ~(R0 | R1)"),
    ("xnor", "bitwise", "R0 R1", "R2", B, 3, "XOR R2, R0, R1; NOT R2, R2", "R2 = ~(R0 ^ R1)"),
    ("second_byte", "bitwise", "R0", "R1", (0, 1 << 20), 3, "SHR R1, R0, 8; AND R1, R1, 255",
     "R1 = (R0 >> 8) & 0xFF"),
    ("is_odd", "bitwise", "R0", "R1", B, 3, "AND R1, R0, 1", "R1 = R0 & 1"),
    ("times8_by_shift", "bitwise", "R0", "R1", S, 3, "SHL R1, R0, 3", "R1 = R0 << 3, negative values too"),
    ("xor_low_bit", "bitwise", "R0 R1", "R2", B, 3, "XOR R2, R0, R1; AND R2, R2, 1", "R2 = (R0 ^ R1) & 1"),
    ("bit3", "bitwise", "R0", "R1", B, 3, "SHR R1, R0, 3; AND R1, R1, 1", "R1 = bit 3 of R0"),
    ("low_nibble", "bitwise", "R0", "R1", B, 3, "AND R1, R0, 15", "R1 = R0 & 15"),
    ("round_down_8", "bitwise", "R0", "R1", B, 3, "AND R1, R0, -8", "R1 = R0 rounded down to a multiple of 8"),
    ("mask_below", "bitwise", "R0", "R1", (0, 20), 3, "MOV R1, 1; SHL R1, R1, R0; SUB R1, R1, 1",
     "R1 = (1 << R0) - 1"),
    ("power_of_two", "bitwise", "R0", "R1", (0, 20), 3, "MOV R1, 1; SHL R1, R1, R0", "R1 = 1 << R0"),
    ("shift_by_y", "bitwise", "R0 R1", "R2", (0, 12), 3, "SHL R2, R0, R1", "R2 = R0 << R1"),
    ("or_and", "bitwise", "R0 R1 R2", "R3", B, 3, "OR R3, R0, R1; AND R3, R3, R2", "R3 = (R0 | R1) & R2"),
    ("xor3", "bitwise", "R0 R1 R2", "R3", B, 3, "XOR R3, R0, R1; XOR R3, R3, R2", "R3 = R0 ^ R1 ^ R2"),
    ("negate_by_bits", "bitwise", "R0", "R1", S, 3, "NOT R1, R0; ADD R1, R1, 1", "R1 = ~R0 + 1"),
    ("sign_bit", "bitwise", "R0", "R1", S, 3, "SHR R1, R0, 31", "R1 = 1 if R0 < 0 else 0 (the sign bit)"),
    # --- comparison and selection
    ("max", "selection", "R0 R1", "R2", S, 4, "MOV R2, R0; CMP R0, R1; JGE d; MOV R2, R1; d: HALT", "R2 = max(R0, R1)"),
    ("min", "selection", "R0 R1", "R2", S, 4, "MOV R2, R0; CMP R0, R1; JLE d; MOV R2, R1; d: HALT", "R2 = min(R0, R1)"),
    ("abs", "selection", "R0", "R1", S, 4, "MOV R1, R0; CMP R0, 0; JGE d; NEG R1, R0; d: HALT", "R1 = |R0|"),
    ("sign", "selection", "R0", "R1", S, 4,
     "MOV R1, 0; CMP R0, 0; JZ d; JL n; MOV R1, 1; JMP d; n: MOV R1, -1; d: HALT", "R1 = -1, 0 or 1 by the sign of R0"),
    ("relu", "selection", "R0", "R1", S, 4, "MOV R1, R0; CMP R0, 0; JGE d; MOV R1, 0; d: HALT", "R1 = max(R0, 0)"),
    ("min_zero", "selection", "R0", "R1", S, 4, "MOV R1, R0; CMP R0, 0; JLE d; MOV R1, 0; d: HALT", "R1 = min(R0, 0)"),
    ("clamp_0_50", "selection", "R0", "R1", S, 5,
     "MOV R1, R0; CMP R0, 0; JGE p; MOV R1, 0; p: CMP R1, 50; JLE d; MOV R1, 50; d: HALT",
     "R1 = R0 clamped to 0..50"),
    ("abs_diff", "selection", "R0 R1", "R2", S, 4, "SUB R2, R0, R1; CMP R2, 0; JGE d; NEG R2, R2; d: HALT",
     "R2 = |R0 - R1|"),
    ("is_zero", "selection", "R0", "R1", S, 4, "MOV R1, 0; CMP R0, 0; JNZ d; MOV R1, 1; d: HALT", "R1 = 1 if R0 == 0 else 0"),
    ("is_negative", "selection", "R0", "R1", S, 4, "MOV R1, 0; CMP R0, 0; JGE d; MOV R1, 1; d: HALT",
     "R1 = 1 if R0 < 0 else 0"),
    ("equal", "selection", "R0 R1", "R2", (0, 5), 4, "MOV R2, 0; CMP R0, R1; JNZ d; MOV R2, 1; d: HALT",
     "R2 = 1 if R0 == R1 else 0"),
    ("less", "selection", "R0 R1", "R2", S, 4, "MOV R2, 0; CMP R0, R1; JGE d; MOV R2, 1; d: HALT",
     "R2 = 1 if R0 < R1 else 0"),
    ("select_nonzero", "selection", "R0 R1 R2", "R3", S, 4, "MOV R3, R1; CMP R0, 0; JZ d; MOV R3, R2; d: HALT",
     "R3 = R2 if R0 != 0 else R1"),
    ("nonzero", "selection", "R0", "R1", S, 4, "MOV R1, 1; CMP R0, 0; JNZ d; MOV R1, 0; d: HALT", "R1 = 1 if R0 != 0 else 0"),
    ("is_even", "selection", "R0", "R1", B, 4, "AND R1, R0, 1; XOR R1, R1, 1", "R1 = 1 if R0 is even else 0"),
    ("greater_than_10", "selection", "R0", "R1", (-20, 40), 4, "MOV R1, 0; CMP R0, 10; JLE d; MOV R1, 1; d: HALT",
     "R1 = 1 if R0 > 10 else 0"),
    ("max_with_5", "selection", "R0", "R1", (-20, 20), 4, "MOV R1, R0; CMP R0, 5; JGE d; MOV R1, 5; d: HALT",
     "R1 = max(R0, 5)"),
    ("unsigned_less", "selection", "R0 R1", "R2", (0, 1000), 4, "MOV R2, 0; CMP R0, R1; JNC d; MOV R2, 1; d: HALT",
     "R2 = 1 if R0 < R1 (unsigned) else 0"),
    ("pick_larger_abs", "selection", "R0 R1", "R2", (0, 100), 4, "MOV R2, R1; CMP R0, R1; JBE d; MOV R2, R0; d: HALT",
     "R2 = the larger of two non-negative values"),
    ("if_negative_double", "selection", "R0", "R1", S, 4, "MOV R1, R0; CMP R0, 0; JGE d; ADD R1, R0, R0; d: HALT",
     "R1 = 2 R0 if R0 < 0 else R0"),
    # --- several outputs
    ("sum_and_difference", "multi-output", "R0 R1", "R2 R3", S, 4, "ADD R2, R0, R1; SUB R3, R0, R1",
     "R2 = R0 + R1, R3 = R0 - R1"),
    ("swap", "multi-output", "R0 R1", "R0 R1", S, 4, "MOV R2, R0; MOV R0, R1; MOV R1, R2", "exchange R0 and R1"),
    ("divmod", "multi-output", "R0 R1", "R2 R3", (1, 200), 4, "DIV R2, R0, R1; MOD R3, R0, R1",
     "R2 = R0 / R1, R3 = R0 % R1"),
    ("sort2", "multi-output", "R0 R1", "R2 R3", S, 5,
     "MOV R2, R0; MOV R3, R1; CMP R0, R1; JLE d; MOV R2, R1; MOV R3, R0; d: HALT", "R2 = min, R3 = max"),
    ("square_and_cube", "multi-output", "R0", "R1 R2", S, 4, "MUL R1, R0, R0; MUL R2, R1, R0", "R1 = R0², R2 = R0³"),
    ("double_and_triple", "multi-output", "R0", "R1 R2", S, 4, "ADD R1, R0, R0; ADD R2, R1, R0",
     "R1 = 2 R0, R2 = 3 R0"),
    ("increment_both", "multi-output", "R0 R1", "R0 R1", S, 4, "ADD R0, R0, 1; ADD R1, R1, 1",
     "R0 += 1, R1 += 1"),
    ("nibbles", "multi-output", "R0", "R1 R2", U, 4, "AND R1, R0, 15; SHR R2, R0, 4", "R1 = low nibble, R2 = high nibble"),
    ("sum_and_product", "multi-output", "R0 R1", "R2 R3", S, 4, "ADD R2, R0, R1; MUL R3, R0, R1",
     "R2 = R0 + R1, R3 = R0 R1"),
    ("rotate3", "multi-output", "R0 R1 R2", "R0 R1 R2", S, 5, "MOV R3, R0; MOV R0, R1; MOV R1, R2; MOV R2, R3",
     "(R0, R1, R2) = (R1, R2, R0)"),
    ("negate_both", "multi-output", "R0 R1", "R2 R3", S, 4, "NEG R2, R0; NEG R3, R1", "R2 = -R0, R3 = -R1"),
    ("and_or", "multi-output", "R0 R1", "R2 R3", B, 4, "AND R2, R0, R1; OR R3, R0, R1", "R2 = R0 & R1, R3 = R0 | R1"),
    ("copy_twice", "multi-output", "R0", "R1 R2", S, 4, "MOV R1, R0; MOV R2, R0", "R1 = R2 = R0"),
    ("halves", "multi-output", "R0", "R1 R2", (0, 1000), 4, "SHR R1, R0, 1; AND R2, R0, 1",
     "R1 = R0 >> 1, R2 = R0 & 1"),
    ("xor_swap_sum", "multi-output", "R0 R1", "R2 R3", B, 4, "XOR R2, R0, R1; ADD R3, R0, R1",
     "R2 = R0 ^ R1, R3 = R0 + R1"),
    ("min_max_zero", "multi-output", "R0", "R1 R2", S, 5,
     "MOV R1, R0; MOV R2, 0; CMP R0, 0; JLE d; MOV R1, 0; MOV R2, R0; d: HALT", "R1 = min(R0, 0), R2 = max(R0, 0)"),
    # --- loops
    ("factorial", "loop", "R0", "R1", (0, 12), 6, "MOV R1, 1; t: CMP R0, 0; JLE e; MUL R1, R1, R0; DEC R0; JMP t; e: HALT",
     "R1 = R0!"),
    ("sum_to_n_loop", "loop", "R0", "R1", (0, 30), 6, "MOV R1, 0; t: CMP R0, 0; JLE e; ADD R1, R1, R0; DEC R0; JMP t; e: HALT",
     "R1 = 1 + 2 + ... + R0, by a loop"),
    ("sum_of_squares", "loop", "R0", "R1", (0, 20), 6,
     "MOV R1, 0; t: CMP R0, 0; JLE e; MUL R2, R0, R0; ADD R1, R1, R2; DEC R0; JMP t; e: HALT",
     "R1 = 1² + 2² + ... + R0²"),
    ("power", "loop", "R0 R1", "R2", (0, 6), 6,
     "MOV R2, 1; t: CMP R1, 0; JLE e; MUL R2, R2, R0; DEC R1; JMP t; e: HALT", "R2 = R0 ** R1"),
    ("popcount", "loop", "R0", "R1", U, 6,
     "MOV R1, 0; t: CMP R0, 0; JZ e; AND R2, R0, 1; ADD R1, R1, R2; SHR R0, R0, 1; JMP t; e: HALT",
     "R1 = number of set bits of R0"),
    ("bit_parity", "loop", "R0", "R1", U, 6,
     "MOV R1, 0; t: CMP R0, 0; JZ e; XOR R1, R1, R0; SHR R0, R0, 1; JMP t; e: AND R1, R1, 1; HALT",
     "R1 = parity of the bits of R0"),
    ("digit_sum", "loop", "R0", "R1", (0, 99999), 6,
     "MOV R1, 0; t: CMP R0, 0; JLE e; MOD R2, R0, 10; ADD R1, R1, R2; DIV R0, R0, 10; JMP t; e: HALT",
     "R1 = sum of the decimal digits of R0"),
    ("count_digits", "loop", "R0", "R1", (1, 99999), 6,
     "MOV R1, 0; t: CMP R0, 0; JLE e; INC R1; DIV R0, R0, 10; JMP t; e: HALT", "R1 = number of decimal digits of R0"),
    ("bit_length", "loop", "R0", "R1", (0, 5000), 6,
     "MOV R1, 0; t: CMP R0, 0; JZ e; INC R1; SHR R0, R0, 1; JMP t; e: HALT", "R1 = number of bits needed for R0"),
    ("multiply_by_adding", "loop", "R0 R1", "R2", (0, 12), 6,
     "MOV R2, 0; t: CMP R1, 0; JLE e; ADD R2, R2, R0; DEC R1; JMP t; e: HALT", "R2 = R0 R1 by repeated addition"),
    ("double_n_times", "loop", "R0 R1", "R2", (0, 10), 6,
     "MOV R2, R0; t: CMP R1, 0; JLE e; ADD R2, R2, R2; DEC R1; JMP t; e: HALT", "R2 = R0 doubled R1 times"),
    ("sum_of_odds", "loop", "R0", "R1", (0, 30), 6,
     "MOV R1, 0; t: CMP R0, 0; JLE e; ADD R2, R0, R0; SUB R2, R2, 1; ADD R1, R1, R2; DEC R0; JMP t; e: HALT",
     "R1 = 1 + 3 + ... + (2 R0 - 1)"),
    ("reverse_bits_count", "loop", "R0", "R1", U, 6,
     "MOV R1, 0; t: CMP R0, 0; JZ e; SHL R1, R1, 1; AND R2, R0, 1; OR R1, R1, R2; SHR R0, R0, 1; JMP t; e: HALT",
     "R1 = the bits of R0 reversed (up to its highest set bit)"),
]

# Boundary inputs some tasks must see in training (one tuple of input values each).
EDGES = {"greater_than_10": [(10,), (11,)], "count_digits": [(9,), (10,), (99,), (100,), (1000,)],
         "equal": [(3, 3), (2, 4)], "sar1": [(-3,), (-5,), (7,)], "max_with_5": [(5,), (4,), (6,)],
         "clamp_0_50": [(50,), (51,), (-1,)], "less": [(5, 5), (4, 5)], "unsigned_less": [(7, 7), (6, 7)],
         "is_negative": [(0,), (-1,)], "half": [(-7,), (7,)], "third": [(-7,), (8,)], "sign": [(0,), (5,), (-5,)]}

PARITY_RING = range(3, 8)  # TerpreT's known-hard case: parity of k bits held in k registers. Two bits
# are too few: their four input rows, less a held-out one, fit several one-instruction programs.


def parse(text):
    return "\n".join(part.strip() for part in text.split(";")) + ("" if text.rstrip().endswith("HALT") else "\nHALT")


def example(program, inputs, outputs, regs):
    state = run_reference(program, registers=regs, max_cycles=100_000)
    assert state.halted, (program.name, regs)
    signed = lambda v: v - (1 << 32) if v >= (1 << 31) else v  # noqa: E731
    return [regs, {o: signed(state.registers[int(o[1])]) for o in outputs}]


def write(name, category, description, inputs, outputs, max_len, source, train, held_out):
    spec = {"name": name, "category": category, "description": description, "inputs": inputs, "outputs": outputs,
            "max_len": max_len, "time_limit": 30, "examples": train, "held_out": held_out, "reference": source}
    (HERE / f"{name}.json").write_text(json.dumps(spec, indent=1) + "\n")
    return {"name": name, "category": category, "description": description}


def main():
    manifest = []
    for name, category, ins, outs, (lo, hi), max_len, ref, description in TASKS:
        rng = random.Random(name)
        inputs, outputs = ins.split(), outs.split()
        source = parse(ref)
        program = assemble(source, name=name)
        seen, rows = set(), []
        domain = (hi - lo + 1) ** len(inputs)
        # Training starts with the edges of the domain (and each task's own boundary cases): an
        # example set that never shows the interesting case cannot teach it.
        edges = [{r: v for r in inputs} for v in (0, 1, -1, lo, hi) if lo <= v <= hi]
        edges += [dict(zip(inputs, e)) for e in EDGES.get(name, [])]
        while len(rows) < min(20, domain):
            regs = edges.pop(0) if edges else {r: rng.randint(lo, hi) for r in inputs}
            if name in ("quotient", "remainder", "divmod"):
                regs["R1"] = rng.randint(1, 20)
            key = tuple(regs.values())
            if len(edges) and key in seen:
                continue
            if key not in seen:
                seen.add(key)
                rows.append(example(program, inputs, outputs, regs))
        cut = (len(rows) + 1) // 2
        manifest.append(write(name, category, description, inputs, outputs, max_len, source, rows[:cut], rows[cut:]))
    for k in PARITY_RING:
        name = f"parity_ring_{k}"
        inputs, source = [f"R{i}" for i in range(k)], "\n".join(f"XOR R7, R7, R{i}" for i in range(k)) + "\nHALT"
        program = assemble(source, name=name)
        combos = [{f"R{i}": (n >> i) & 1 for i in range(k)} for n in range(1 << k)]
        random.Random(name).shuffle(combos)
        rows = [example(program, inputs, ["R7"], regs) for regs in combos]
        cut = (len(rows) * 3) // 4
        manifest.append(write(name, "parity ring", f"R7 = parity of {k} bits held in R0..R{k - 1} (TerpreT's hard case)",
                              inputs, ["R7"], k, source, rows[:cut], rows[cut:]))
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"{len(manifest)} tasks")


if __name__ == "__main__":
    main()
