"""Writes the sequences suite (`ncpu-nb synth-bench --suite sequences`): integer sequences, integer
loops and arrays in memory, one JSON spec per task, examples computed from each task's definition
in plain Python below.

    python3 programs/synth/sequences/generate.py

Every task has held-out examples the synthesizer never sees, on larger inputs than the training
ones (a later term, a longer array): a program that fits the training examples but not these is
unsolved. `gradient_seconds` caps gradient descent's turn at 3 s (it still runs first): loops are
outside its reach, and without the cap it would spend half of every loop task's 30 s on them."""
import json
import random
from functools import reduce
from math import gcd, prod
from pathlib import Path

HERE = Path(__file__).parent
ARRAY, OUTPUT = 0x100, 0x800  # where an input array and an output array live (SynthesisSpec.from_arrays)
COMMON = {"time_limit": 30, "gradient_seconds": 3}


def terms(first, rule, count):
    seq = list(first)
    while len(seq) < count:
        seq.append(rule(seq))
    return seq


def fact(n):
    return 1 if n < 2 else n * fact(n - 1)


def collatz_steps(n):
    steps = 0
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


FIB = terms([0, 1], lambda s: s[-1] + s[-2], 30)
LUCAS = terms([2, 1], lambda s: s[-1] + s[-2], 30)
PELL = terms([0, 1], lambda s: 2 * s[-1] + s[-2], 22)
JACOBSTHAL = terms([0, 1], lambda s: s[-1] + 2 * s[-2], 25)
TRIBONACCI = terms([0, 0, 1], lambda s: s[-1] + s[-2] + s[-3], 30)

# name, description, nth-term definition a(n), training n, held-out n
NTH = [
    ("fib_nth", "R1 = fib(R0)", lambda n: FIB[n], range(0, 10), (14, 20, 25)),
    ("lucas_nth", "R1 = Lucas(R0)", lambda n: LUCAS[n], range(0, 10), (15, 22)),
    ("pell_nth", "R1 = Pell(R0)", lambda n: PELL[n], range(0, 9), (12, 16)),
    ("jacobsthal_nth", "R1 = Jacobsthal(R0)", lambda n: JACOBSTHAL[n], range(0, 9), (13, 20)),
    ("squares", "R1 = R0²", lambda n: n * n, range(0, 10), (17, 40, 123)),
    ("cubes", "R1 = R0³", lambda n: n ** 3, range(0, 10), (15, 33)),
    ("triangular_nth", "R1 = 0 + 1 + … + R0", lambda n: n * (n + 1) // 2, range(0, 10), (20, 57)),
    ("powers_of_two", "R1 = 2^R0", lambda n: 1 << n, range(0, 10), (16, 30)),
    ("powers_of_three", "R1 = 3^R0", lambda n: 3 ** n, range(0, 9), (12, 15)),
    ("factorial_nth", "R1 = R0!", lambda n: fact(n), range(0, 8), (10, 12)),
    ("odd_numbers", "R1 = 2 R0 + 1", lambda n: 2 * n + 1, range(0, 10), (50, 333)),
    ("pronic", "R1 = R0 (R0 + 1)", lambda n: n * (n + 1), range(0, 10), (31, 100)),
    ("sum_of_squares_nth", "R1 = 1² + … + R0²", lambda n: sum(i * i for i in range(n + 1)), range(0, 9), (15, 30)),
]

# name, description, order (previous terms in R0..), the sequence; the last terms are held out
NEXT = [
    ("fib_next", "the next Fibonacci number from the two before it", 2, FIB[1:18]),
    ("lucas_next", "the next Lucas number from the two before it", 2, LUCAS[:16]),
    ("pell_next", "the next Pell number: 2 b + a", 2, PELL[:16]),
    ("jacobsthal_next", "the next Jacobsthal number: b + 2 a", 2, JACOBSTHAL[:18]),
    ("tribonacci_next", "the next tribonacci number from the three before it", 3, TRIBONACCI[3:20]),
    ("geometric_next", "the next term of 1, 3, 9, 27, …", 1, [3 ** i for i in range(14)]),
    ("arithmetic_next", "the next term of 4, 11, 18, 25, …", 1, [4 + 7 * i for i in range(14)]),
    ("collatz_next", "the next term of a Collatz trajectory", 1, None),
]

# name, description, inputs, output, definition, training inputs, held-out inputs
LOOPS = [
    ("gcd", "R2 = gcd(R0, R1)", ["R0", "R1"], "R2", gcd,
     [(12, 18), (7, 5), (100, 75), (9, 27), (0, 4), (17, 51), (21, 6), (8, 8)], [(48, 36), (81, 12), (1071, 462)]),
    ("collatz_steps", "R1 = steps for R0 to reach 1 under the Collatz rule", ["R0"], "R1", collatz_steps,
     [(1,), (2,), (3,), (6,), (7,), (9,), (12,), (5,)], [(27,), (97,), (19,)]),
    ("digit_sum", "R1 = sum of R0's decimal digits", ["R0"], "R1", lambda n: sum(map(int, str(n))),
     [(0,), (7,), (10,), (59,), (123,), (999,), (4005,), (81,)], [(98765,), (1000001,), (3210,)]),
    ("popcount", "R1 = number of set bits of R0", ["R0"], "R1", lambda n: bin(n).count("1"),
     [(0,), (1,), (2,), (3,), (7,), (8,), (255,), (1000,)], [(65535,), (123456,), (1 << 20,)]),
    ("count_digits", "R1 = number of decimal digits of R0 (0 has none)", ["R0"], "R1", lambda n: len(str(n)) if n else 0,
     [(0,), (5,), (10,), (99,), (100,), (12345,), (9,), (1000,)], [(999999,), (1234567,), (10,)]),
    ("bit_length", "R1 = bits needed for R0", ["R0"], "R1", lambda n: n.bit_length(),
     [(0,), (1,), (2,), (3,), (4,), (7,), (8,), (200,)], [(1023,), (1024,), (99999,)]),
    ("reverse_digits", "R1 = R0 with its decimal digits reversed", ["R0"], "R1", lambda n: int(str(n)[::-1]),
     [(0,), (7,), (12,), (120,), (345,), (1000,), (9081,), (56,)], [(12345,), (907,), (2021,)]),
    ("factorial", "R1 = R0!", ["R0"], "R1", fact, [(0,), (1,), (2,), (3,), (4,), (5,)], [(7,), (10,), (12,)]),
    ("max", "R2 = max(R0, R1)", ["R0", "R1"], "R2", max,
     [(3, 5), (5, 3), (-4, 2), (0, 0), (-7, -9), (100, 99), (1, -1), (-50, 60)], [(1234, -5), (-3, -2), (8, 80)]),
    ("abs", "R1 = |R0|", ["R0"], "R1", abs, [(0,), (5,), (-5,), (17,), (-100,), (1,), (-1,), (42,)],
     [(-12345,), (999,), (-7,)]),
    ("sum_to_n", "R1 = 1 + 2 + … + R0", ["R0"], "R1", lambda n: n * (n + 1) // 2,
     [(0,), (1,), (2,), (3,), (4,), (10,), (7,)], [(100,), (1000,), (33,)]),
    ("halving_steps", "R1 = times R0 can be halved before it reaches 0", ["R0"], "R1", lambda n: n.bit_length(),
     [(0,), (1,), (5,), (16,), (17,), (100,), (3,), (64,)], [(4096,), (70000,), (9,)]),
]

# name, description, width, output ("R2" or "array"/"in_place"), definition, training arrays, held-out arrays
rng = random.Random(16)


def arrays(count, low, high, lengths):
    return [[rng.randint(low, high) for _ in range(n)] for n in lengths for _ in range(count)]


TRAIN = [[]] + arrays(1, -20, 50, (1, 2, 3, 4, 5, 6))
HELD = arrays(1, -99, 99, (7, 9, 12))
POS_TRAIN = [[]] + arrays(1, 1, 30, (1, 2, 3, 4, 5, 6))
POS_HELD = arrays(1, 1, 99, (7, 9, 12))


def terminated(rows):
    return [r + [0] for r in rows]


ARRAYS = [
    ("array_sum", "R2 = sum of the array", 4, "R2", sum, TRAIN, HELD),
    ("array_max", "R2 = largest element (non-empty)", 4, "R2", max, TRAIN[1:], HELD),
    ("array_min", "R2 = smallest element (non-empty)", 4, "R2", min, TRAIN[1:], HELD),
    ("array_product", "R2 = product of the elements", 4, "R2", prod,
     [[]] + arrays(1, -5, 5, (1, 2, 3, 4, 5)), arrays(1, -6, 6, (6, 7))),
    ("array_xor", "R2 = xor of the elements", 4, "R2", lambda a: reduce(lambda x, y: x ^ y, a, 0), POS_TRAIN, POS_HELD),
    ("array_count_nonzero", "R2 = how many elements are not 0", 4, "R2", lambda a: sum(x != 0 for x in a),
     [[]] + arrays(1, 0, 2, (1, 3, 4, 5, 6, 7)), arrays(1, 0, 2, (9, 12))),
    ("array_count_odd", "R2 = how many elements are odd", 4, "R2", lambda a: sum(x % 2 for x in a), POS_TRAIN,
     POS_HELD),
    ("array_sum_of_squares", "R2 = sum of the squares of the elements", 4, "R2", lambda a: sum(x * x for x in a),
     TRAIN, HELD),
    ("array_length_to_zero", "R2 = elements before the terminating 0 (R1 unused)", 4, "R2", lambda a: a.index(0),
     terminated(POS_TRAIN), terminated(POS_HELD)),
    ("array_sum_to_zero", "R2 = sum of the elements before the terminating 0", 4, "R2", lambda a: sum(a[:a.index(0)]),
     terminated(POS_TRAIN), terminated(POS_HELD)),
    ("byte_sum", "R2 = sum of a byte array (LDRB)", 1, "R2", sum, [[]] + arrays(1, 0, 255, (1, 2, 3, 5, 6)),
     arrays(1, 0, 255, (8, 12))),
    ("byte_length_to_zero", "R2 = bytes before the terminating 0", 1, "R2", lambda a: a.index(0),
     terminated([[]] + arrays(1, 1, 255, (1, 2, 3, 5, 6))), terminated(arrays(1, 1, 255, (8, 12)))),
    ("array_reverse_in_place", "reverse the array where it is", 4, "in_place", lambda a: a[::-1], TRAIN, HELD),
    ("array_reverse_copy", "the array reversed, at the output address", 4, "array", lambda a: a[::-1], TRAIN[1:],
     HELD),
    ("array_copy", "the array copied to the output address", 4, "array", list, TRAIN[1:], HELD),
    ("array_double_in_place", "double every element where it is", 4, "in_place", lambda a: [2 * x for x in a],
     TRAIN, HELD),
    ("array_add_ten", "every element plus 10, at the output address", 4, "array", lambda a: [x + 10 for x in a],
     TRAIN[1:], HELD),
    ("array_prefix_sums", "running sums, at the output address", 4, "array",
     lambda a: [sum(a[:i + 1]) for i in range(len(a))], TRAIN[1:], HELD),
    ("array_negate_in_place", "negate every element where it is", 4, "in_place", lambda a: [-x for x in a],
     TRAIN, HELD),
]


def write(name, category, description, data):
    spec = {"name": name, "category": category, "description": description, **COMMON, **data}
    (HERE / f"{name}.json").write_text(json.dumps(spec, indent=1) + "\n")
    return {"name": name, "category": category, "description": description}


def main():
    manifest = []
    for name, description, rule, train, held in NTH:
        pairs = lambda ns: [[{"R0": n}, {"R1": rule(n)}] for n in ns]
        manifest.append(write(name, "sequence: n-th term", description,
                              {"inputs": ["R0"], "outputs": ["R1"], "examples": pairs(train), "held_out": pairs(held)}))
    for name, description, order, seq in NEXT:
        if seq is None:  # Collatz: pairs (n, next) rather than one trajectory (a trajectory repeats 4, 2, 1)
            rule = lambda n: n // 2 if n % 2 == 0 else 3 * n + 1
            pairs = [[{"R0": n}, {"R1": rule(n)}] for n in (1, 2, 3, 6, 7, 10, 11, 16, 27, 40, 41, 100, 333)]
            train, held = pairs[:9], pairs[9:]
        else:
            regs = [f"R{i}" for i in range(order)]
            pairs = [[dict(zip(regs, seq[i - order:i])), {f"R{order}": seq[i]}] for i in range(order, len(seq))]
            train, held = pairs[:-3], pairs[-3:]
        inputs = list(train[0][0])
        manifest.append(write(name, "sequence: next term", description,
                              {"inputs": inputs, "outputs": list(train[0][1]), "examples": train, "held_out": held}))
    for name, description, inputs, output, rule, train, held in LOOPS:
        pairs = lambda rows: [[dict(zip(inputs, row)), {output: rule(*row)}] for row in rows]
        manifest.append(write(name, "integer loop", description,
                              {"inputs": inputs, "outputs": [output], "examples": pairs(train),
                               "held_out": pairs(held)}))
    for name, description, width, output, rule, train, held in ARRAYS:
        def pairs(rows):
            out = []
            for row in rows:
                given = {"R0": ARRAY, "R1": len(row), "memory": {str(ARRAY): row}}
                if output in ("array", "in_place"):
                    want = {"memory": {str(ARRAY if output == "in_place" else OUTPUT): rule(row)}}
                else:
                    want = {output: rule(row)}
                out.append([given, want])
            return out
        manifest.append(write(name, "array", description,
                              {"inputs": ["R0", "R1"], "outputs": [] if output in ("array", "in_place") else [output],
                               "memory_width": width, "examples": pairs(train), "held_out": pairs(held)}))
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"{len(manifest)} tasks")


if __name__ == "__main__":
    main()
