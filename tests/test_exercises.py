"""Every chapter ends with "Your turn": its exercises exist, the model answers pass, blanks and wrong
answers give a table (never an exception)."""
import json
import re
from pathlib import Path

import pytest

from exercise_solutions import SOLUTIONS
from ncpu_nb.exercises import WrongKind, chapter, chapters
from ncpu_nb.exercises.checker import Exercise, Row

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("[0-9][0-9]*_*.ipynb"))
CHECK_CALL = re.compile(r'your_turn\.check\("(\w+)", answer\)')

# A plausible but wrong answer for every exercise: of the right kind, so each check gets to judge it.
WRONG = {
    "00": {"collatz_97": 117, "longest_below_1000": 1000},
    "01": {"sub_word": 0x11000000, "unsigned_less": "MOV R2, 0\nCMP R0, R1\nJGE done\nMOV R2, 1\ndone:\nHALT",
           "floor_quarter": "MOV R2, 4\nDIV R1, R0, R2\nHALT"},
    "02": {"nor_neuron": ([1, 1], -0.5), "shifter_cell": "logic", "combine_cells": 160},
    "03": {"gcd_neural_cycles": 0, "through_the_cells": "ABCDE", "square_minus_one": "MUL R1, R0, R0\nHALT"},
    "04": {"one_third": 0x3EAAAAAA, "nan_branches": "JG JO",
           "hypotenuse": "FMUL R3, R0, R0\nFMUL R4, R1, R1\nFADD R5, R3, R4\nFDIV R2, R5, R5\nHALT"},
    "05": {"first_pass_cycle": 19, "passes": 10, "deepest_stack": 12},
    "06": {"hand_gradient": 5.0, "straight_through": "MUL DIV", "slope_seven": "MUL R2, R0, R0\nHALT"},
    "07": {"find_input": 6, "fit_line": "MUL R1, R0, 5\nADD R1, R1, 3\nHALT"},
    "08": {"shortest_fit": "MUL R1, R0, 3\nHALT", "which_generalises": "A"},
    "09": {"sequence_examples": 7, "triangular_loop": "MUL R1, R0, R0\nADD R1, R1, R0\nSHR R1, R1, 1\nHALT"},
    "10": {"explode_gradient": 16 * 1.7, "no_path_register": "R0"},
    "11": {"array_gradient": 4.0, "find_array": [4, 7, 2]},
    "12": {"patched_sum": 6, "patch_word": 0x3011000C},
    "13": {"or_as_add": 0.5, "shortest_fixed": "ADD R2, R0, R1\nMUL R2, R2, R0\nMOV R3, R1\nSUB R2, R2, R3\nHALT"},
    "14": {"floor_of_negative": -3, "sum_of_squares": "total = n * n"},
    "15": {"input_gradient": -6.0, "constant_gradient": -6.0},
    "16": {"be_the_compiler": "ADD R3, R0, 2\nSUB R4, R1, R2\nMUL R3, R3, R3\nHALT", "learned_length": 5, "right_but_not_exact": 0},
    "17": {"longest_exact_mul": 5, "written_answer": "357"},
    "18": {"add_word": 0x8B010023, "flags_after_subs": "N"},
    "19": {"hello_entry": 0x400000, "busybox_bss": 0},
    "20": {"hello_syscalls": 1, "first_syscall_number": 64},
    "21": {"distinct_words": "wc -w", "column_sum": "echo 12"},
    "22": {"call_register": "x30", "first_read_of_vd_b": 0, "busiest_function": "main"},
    "23": {"check_calls": 1, "first_check_message": "1/3",
           "constant_select": "AND R4, R0, 1\nJZ even\nMOV R1, R2\nHALT\neven:\nMOV R1, R3\nHALT"},  # right, not constant
    "24": {"overflow_line": 51, "freed_line": 87, "magic_hang": b"FUZZ"},
    "25": {"block_instructions": 4605, "leak_line": 163},
    "26": {"remembered_greeting": "echo hi there", "interrupted_status": 0},
    "27": {"verify_tasks": 15, "xor_first_random": 3653403231},
    "28": {"cube_word": ": cube dup * ; 3 cube .", "mux_result": 0xAB34, "ncpu_per_muxleq": 27},
    "29": {"kv_session": "SET a 1\nSET b 2\nSET c 3\nDEL d\nCOUNT", "mandelbrot_pixel": 0x93EE83,
           "fewest_comparisons": "quick"},
    "30": {"triangle_program": '#include <stdio.h>\nint main(void) {\n    int total = 0;\n'
                                 '    for (int i = 1; i < 100; i++)\n        total += i;\n'
                                 '    printf("%d\\n", total);\n    return 0;\n}\n',
           "error_line": 10, "compile_share": 100},
    "31": {"loader_path": "/lib/aarch64-linux-gnu/libc.so.6", "gawk_total": "{ total += $1 } END { print total }"},
    "32": {"cgi_script": "#!/bin/sh\necho '6 * 7 = 42'\n", "connect_errors": ("ECONNREFUSED", "ECONNREFUSED")},
}


def number_of(path: Path) -> str:
    """A chapter's number from its notebook's name: '14' from 14_..., '14b' from 14b_..."""
    return path.name.split("_")[0]


def notebook_exercises(path: Path) -> list[str]:
    """The exercise names the notebook's "Your turn" cells check, in order; the section must end the notebook."""
    cells = json.loads(path.read_text())["cells"]
    starts = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and "## Your turn" in "".join(c["source"])]
    assert len(starts) == 1, f"{path.name}: expected one '## Your turn' section"
    after = cells[starts[0] + 1:]
    assert after and all(c["cell_type"] == "code" for c in after), f"{path.name}: 'Your turn' must be the last section"
    names = []
    for cell in after:
        source = "".join(cell["source"])
        assert "answer = ...\n" in source, f"{path.name}: every exercise cell has a blank to fill"
        names += CHECK_CALL.findall(source)
    return names


def every_exercise():
    return [pytest.param(number, exercise, id=f"{number}-{exercise.name}")
            for number in chapters() for exercise in chapter(number)]


def test_every_chapter_has_exercises():
    assert [number_of(path) for path in NOTEBOOKS] == chapters()
    assert all(2 <= len(chapter(number)) <= 3 for number in chapters())


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: number_of(p))
def test_notebook_ends_with_your_turn_and_checks_every_exercise(path):
    assert notebook_exercises(path) == list(chapter(number_of(path)).exercises)
    asked = re.findall(r'chapter\("(\d\d)"\)', "".join("".join(cell["source"]) for cell in
                                                         json.loads(path.read_text())["cells"]))
    assert asked == [number_of(path)], f"{path.name} asks for chapter {asked}"


@pytest.mark.parametrize("number, exercise", every_exercise())
def test_model_answer_passes(number, exercise):
    result = exercise.check(SOLUTIONS[number][exercise.name])
    assert result.passed, repr(result)


@pytest.mark.parametrize("number, exercise", every_exercise())
@pytest.mark.parametrize("blank", [..., None])
def test_blank_is_not_answered_yet(number, exercise, blank):
    result = exercise.check(blank)
    assert not result.answered and not result.passed
    assert "not answered yet" in result._repr_html_() and "✘" not in result._repr_html_()


@pytest.mark.parametrize("number, exercise", every_exercise())
def test_wrong_answer_fails_with_a_row(number, exercise):
    result = exercise.check(WRONG[number][exercise.name])
    assert result.answered and not result.passed, repr(result)
    failing = [row for row in result.rows if row.passed is False]
    assert failing and all(row.what != "your answer" for row in failing), repr(result)  # judged, not crashed
    assert "✘" in result._repr_html_()


def test_answers_of_the_wrong_kind_and_raising_code_become_rows():
    sub_word = chapter("01")["sub_word"]
    result = sub_word.check("0x11123000")
    assert result.rows == (Row("your answer", False, "expected the word as a number, e.g. 0x12345678, "
                                                    "got str '0x11123000'"),)

    def explode(answer):
        raise ZeroDivisionError("division by zero\nand more lines")

    result = Exercise("99", "boom", "?", explode).check(1)
    assert result.rows == (Row("your answer", False, "ZeroDivisionError: division by zero"),)
    assert issubclass(WrongKind, TypeError)


def test_a_program_that_does_not_assemble_is_a_row():
    result = chapter("01").check("unsigned_less", "MOVE R2, 0\nHALT")
    assert [row.what for row in result.rows] == ["assembles"] and result.rows[0].passed is False


def test_html_is_static_and_escaped():
    result = chapter("21").check("distinct_words", "echo '<script>alert(1)</script>'")
    page = result._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<table>" in page and "expected / got" in page
    for number in chapters():
        for exercise in chapter(number):
            assert "<script" not in exercise.check(...)._repr_html_()


def test_text_repr_and_unknown_names():
    assert repr(chapter("00").check("collatz_97", 118)) == "collatz_97: ✔ correct\n  ✔ steps from 97: got 118"
    with pytest.raises(KeyError, match="has no exercise 'nope'"):
        chapter("00").check("nope", 1)
    with pytest.raises(KeyError, match="no exercises for chapter 42"):
        chapter("42")
