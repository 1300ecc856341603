"""Model answers to every chapter's "Your turn" (tests only: never shown in the notebooks)."""

SOLUTIONS = {
    "00": {"collatz_97": 118, "longest_below_1000": 871},
    "01": {
        "sub_word": 0x11123000,
        "unsigned_less": """
    MOV R2, 0
    CMP R0, R1
    JAE done          ; unsigned R0 >= R1: leave 0
    MOV R2, 1
done:
    HALT
""",
        "floor_quarter": "SAR R1, R0, 2\nHALT",
    },
    "02": {"nor_neuron": ([-1, -1], 0.5), "shifter_cell": "mux", "combine_cells": 129},
    "03": {"gcd_neural_cycles": 84, "through_the_cells": "ACE",
           "square_minus_one": "MUL R1, R0, R0\nDEC R1\nHALT"},
    "04": {"one_third": 0x3EAAAAAB, "nan_branches": "JL JO",
           "hypotenuse": "FMUL R3, R0, R0\nFMUL R4, R1, R1\nFADD R5, R3, R4\nFSQRT R2, R5\nHALT"},
    "05": {"first_pass_cycle": 106, "passes": 7, "deepest_stack": 13},
    "06": {"hand_gradient": 6.0, "straight_through": {"XOR", "SHL", "DIV"}, "slope_seven": "MUL R2, R0, 7\nHALT"},
    "07": {"find_input": 7, "fit_line": "MUL R1, R0, 5\nADD R1, R1, -3\nHALT"},
    "08": {"shortest_fit": "MUL R1, R0, 3\nINC R1\nHALT", "which_generalises": "B"},
    "09": {"sequence_examples": 5, "triangular_loop": "MOV R1, 0\nloop:\nCMP R0, 0\nJLE done\nADD R1, R1, R0\nSUB R0, R0, 1\nJMP loop\ndone:\nHALT"},
    "10": {"explode_gradient": 16 * 1.7 ** 15, "no_path_register": "R1"},
    "11": {"array_gradient": 8.0, "find_array": [4, -7, 2]},
    "12": {"patched_sum": 21, "patch_word": 0x3111000C},
    "13": {"or_as_add": 0.1356, "shortest_fixed": "ADD R2, R0, R1\nMUL R2, R2, R0\nSUB R2, R2, R1\nHALT"},
    "14": {"floor_of_negative": -4,
           "sum_of_squares": "total = 0\nfor i in range(1, n + 1):\n    total += i * i\n"},
    "15": {"input_gradient": -30.0, "constant_gradient": -12.0},
    "16": {"be_the_compiler": "ADD R3, R0, 2\nSUB R4, R1, R2\nMUL R3, R3, R4\nHALT", "learned_length": 4,
            "right_but_not_exact": 3},
    "17": {"longest_exact_mul": 4, "written_answer": "357."},
    "18": {"add_word": 0x8B020023, "flags_after_subs": "ZC"},
    "19": {"hello_entry": 0x400580, "busybox_bss": 28912},
    "20": {"hello_syscalls": 15, "first_syscall_number": 214},
    "21": {"distinct_words": "tr -s ' ' '\\n' | sort -u | grep -c .",
           "column_sum": "awk -F, 'NR > 1 { s += $2 } END { print s }'"},
    "22": {"call_register": "x3", "first_read_of_vd_b": 0x4006C8, "busiest_function": "__vfprintf_internal"},
    "23": {"check_calls": 14, "first_check_message": "sqrtf(2) correctly rounded",
           "constant_select": "AND R4, R0, 1\nNEG R4, R4\nAND R5, R2, R4\nNOT R4, R4\nAND R6, R3, R4\n"
                              "OR R1, R5, R6\nHALT"},
    "24": {"overflow_line": 52, "freed_line": 86, "magic_hang": b"HA"},
    "25": {"block_instructions": 17435, "leak_line": 169},
    "26": {"remembered_greeting": ["greeting='hi there'"], "interrupted_status": 130},
    "27": {"verify_tasks": 23, "xor_first_random": 1359923601},
    "28": {"cube_word": ": cube dup dup * * ;\n3 cube .", "mux_result": 0x12CD, "ncpu_per_muxleq": 28.41},
    "29": {"kv_session": "SET a 1\nSET b 2\nSET c 3\nDEL b\nCOUNT", "mandelbrot_pixel": 0x83EE93,
           "fewest_comparisons": "merge"},
    "30": {"triangle_program": '#include <stdio.h>\nint main(void) {\n    int total = 0;\n'
                                 '    for (int i = 1; i <= 100; i++)\n        total += i;\n'
                                 '    printf("%d\\n", total);\n    return 0;\n}\n',
           "error_line": 11, "compile_share": 5536},
    "31": {"loader_path": "/lib/ld-linux-aarch64.so.1", "gawk_total": "{ total += $2 } END { print total }"},
    "32": {"cgi_script": "#!/bin/sh\necho 'Content-Type: text/plain'\necho\necho '6 * 7 = 42'\n",
           "connect_errors": ("ECONNREFUSED", "ENETUNREACH")},
}
