"""Loops the synthesizer reaches: fib(n), factorial, gcd, Collatz steps, the sum, max and reverse of an
array; every program is checked on the exact CPU and on held-out examples it never saw."""
from __future__ import annotations

from math import gcd

import pytest

from ncpu_nb.ncpu.exact_check import passing
from ncpu_nb.synthesis.array_sketches import search_arrays
from ncpu_nb.synthesis.loop_sketches import search_loops
from ncpu_nb.synthesis.spec import SynthesisSpec
from ncpu_nb.synthesis.synthesizer import Synthesizer

FIB = [0, 1]
while len(FIB) < 30:
    FIB.append(FIB[-1] + FIB[-2])


def solve(spec):
    result = Synthesizer().synthesize(spec, time_limit=30)
    assert result.solved, result.attempts
    assert passing(result.program, spec.examples + spec.held_out, width=spec.memory_width).all()
    assert result.held_out == (len(spec.held_out), len(spec.held_out)) and spec.held_out
    return result


def test_fib_n_is_a_two_register_loop_found_by_the_loop_sketches():
    spec = SynthesisSpec.from_sequence(FIB[:14], mode="nth", held_out=3, gradient_seconds=1)
    result = solve(spec)
    assert result.method == "loops" and "JMP" in result.program.source


def test_factorial_and_gcd():
    fact = SynthesisSpec.from_dict({"inputs": ["R0"], "outputs": ["R1"], "gradient_seconds": 1,
                                    "examples": [[{"R0": n}, {"R1": f}] for n, f in
                                                 [(0, 1), (1, 1), (2, 2), (3, 6), (4, 24), (5, 120)]],
                                    "held_out": [[{"R0": 7}, {"R1": 5040}], [{"R0": 10}, {"R1": 3628800}]]})
    assert solve(fact).method in ("loop", "loops")
    pairs = lambda rows: [[{"R0": a, "R1": b}, {"R2": gcd(a, b)}] for a, b in rows]
    g = SynthesisSpec.from_dict({"inputs": ["R0", "R1"], "outputs": ["R2"], "gradient_seconds": 1,
                                 "examples": pairs([(12, 18), (7, 5), (100, 75), (9, 27), (0, 4), (17, 51)]),
                                 "held_out": pairs([(48, 36), (1071, 462)])})
    assert "MOD" in solve(g).program.source


def test_sum_max_and_reverse_of_an_array_in_memory():
    total = SynthesisSpec.from_arrays([([3, 1, 4], 8), ([5], 5), ([], 0), ([2, 7, 1, 8], 18)],
                                      held_out=[([1, 2, 3, 4, 5, 6, 7], 28)])
    result = solve(total)
    assert result.method == "array" and "LDR" in result.program.source
    assert [m for m, _, o in result.attempts if o.startswith("not applicable")][0] == "gradient"
    biggest = SynthesisSpec.from_arrays([([3, 1, 4], 4), ([5], 5), ([-2, -7], -2), ([2, 7, 1, 8], 8)],
                                        held_out=[([1, 9, 3, 4, 5], 9)])
    solve(biggest)
    reverse = SynthesisSpec.from_arrays([([3, 1, 4], [4, 1, 3]), ([5], [5]), ([], []), ([2, 7, 1, 8], [8, 1, 7, 2])],
                                        held_out=[([1, 9, 3, 4, 5], [5, 4, 3, 9, 1])], output="array", in_place=True)
    assert "STR" in solve(reverse).program.source


def test_a_program_that_fits_training_but_fails_held_out_does_not_stop_the_search():
    # Trained on 0..3 only, n -> fib(n) is also n -> n - (n > 1)... many shapes fit; the held-out terms decide.
    spec = SynthesisSpec.from_dict({"inputs": ["R0"], "outputs": ["R1"], "gradient_seconds": 1,
                                    "examples": [[{"R0": n}, {"R1": FIB[n]}] for n in range(4)],
                                    "held_out": [[{"R0": n}, {"R1": FIB[n]}] for n in (10, 15)]})
    result = Synthesizer().synthesize(spec, time_limit=30)
    assert result.solved and passing(result.program, spec.held_out).all()
    assert len(result.fits) >= 2  # something fit the four examples first and was set aside


def test_sketches_see_their_own_kind_of_spec_only():
    registers = SynthesisSpec.from_sequence(FIB[:10], mode="nth")
    array = SynthesisSpec.from_arrays([([1, 2], 3)])
    assert search_arrays(registers, float("inf")) == [] and search_loops(array, float("inf")) == []


def test_collatz_steps_take_a_loop_with_a_branch_inside():
    def steps(n):
        k = 0
        while n > 1:
            n, k = (n // 2 if n % 2 == 0 else 3 * n + 1), k + 1
        return k

    rows = lambda ns: [[{"R0": n}, {"R1": steps(n)}] for n in ns]
    spec = SynthesisSpec.from_dict({"inputs": ["R0"], "outputs": ["R1"], "gradient_seconds": 1,
                                    "examples": rows([1, 2, 3, 6, 7, 9, 12]), "held_out": rows([27, 97])})
    assert "JNZ" in solve(spec).program.source


def test_stop_ends_a_search_early_and_keeps_what_it_has():
    import threading
    import time

    spec = SynthesisSpec.from_dict({"inputs": ["R0"], "outputs": ["R1"],  # nothing short computes this
                                    "examples": [[{"R0": n}, {"R1": (n * 7919) % 1013 ^ n}] for n in range(8)]})
    synthesizer = Synthesizer()
    threading.Timer(1.0, synthesizer.stop).start()
    start = time.perf_counter()
    result = synthesizer.synthesize(spec, time_limit=60)
    assert result.stopped and time.perf_counter() - start < 10
