#!/bin/bash
# Regenerate expected/NAME.out and expected/NAME.status by running each
# program in bin/ under the oracle, QEMU user mode (Debian 12 package
# qemu-user 1:7.2+dfsg-7+deb12u18+b3):
#     qemu-aarch64 -cpu cortex-a53 bin/NAME ARGS...
# Every program runs twice; the script fails if the two runs differ.
# argv and environment are fixed here and documented in expected/RUNS.md.
# The environment is emptied with `env -i` and only the listed variables set.
#
# Usage: ./make_expected.sh          (write expected/)
#        ./make_expected.sh --check  (compare against expected/, write nothing)
set -u
cd "$(dirname "$0")"
QEMU=${QEMU:-qemu-aarch64}
if ! command -v "$QEMU" >/dev/null 2>&1; then
    echo "make_expected.sh: error: '$QEMU' not found (apt-get install qemu-user)" >&2
    exit 1
fi
mode=${1:-write}
mkdir -p expected
fail=0

# name | env assignments (for env -i) | argv after the program path
# (a name PROGRAM.RUN runs bin/PROGRAM and writes expected/PROGRAM.RUN.{out,status})
run() {
    local name=$1 envs=$2 program=${1%%.*}
    shift 2
    local out1 out2 st1 st2
    # shellcheck disable=SC2086
    out1=$(env -i $envs "$QEMU" -cpu cortex-a53 "bin/$program" "$@" < "${STDIN_FILE:-/dev/null}"; echo "~$?")
    # shellcheck disable=SC2086
    out2=$(env -i $envs "$QEMU" -cpu cortex-a53 "bin/$program" "$@" < "${STDIN_FILE:-/dev/null}"; echo "~$?")
    st1=${out1##*~}; out1=${out1%~*}
    st2=${out2##*~}; out2=${out2%~*}
    if [ "$out1" != "$out2" ] || [ "$st1" != "$st2" ]; then
        echo "NONDETERMINISTIC: $name" >&2
        fail=1
        return
    fi
    if [ "$mode" = --check ]; then
        local exp
        exp=$(cat "expected/$name.out"; echo "~")
        exp=${exp%"~"}
        if [ "$out1" = "$exp" ] &&
           [ "$st1" = "$(cat "expected/$name.status")" ]; then
            echo "match:    $name (status $st1)"
        else
            echo "MISMATCH: $name (status $st1)" >&2
            fail=1
        fi
    else
        printf '%s' "$out1" > "expected/$name.out"
        echo "$st1" > "expected/$name.status"
        echo "wrote expected/$name.{out,status} (status $st1, deterministic over 2 runs)"
    fi
}

run hello          ""
run argv_env       "ARM64_TEST_VAR=hello_world ARM64_TEST_EMPTY= LANG=C" one "two words" "" last
run file_io        ""
run fork_pipe_wait ""
run signals        ""
run sockets        ""
run float_math     ""
run threads        ""
run gradebook      "" 90 120 50 100 100 100 100 100 30
# magic reads its input from stdin (every other run's stdin is /dev/null): two of the fuzzer's seeds
run_stdin() {
    local name=$1 input=$2
    shift 2
    STDIN_FILE=$(mktemp)
    printf '%s' "$input" > "$STDIN_FILE"
    run "$name" "" "$@"
    rm -f "$STDIN_FILE"
    STDIN_FILE=
}
run_stdin magic.empty ""
run_stdin magic.fuz "FUZ"
# secret_compare reads a 16-byte guess from stdin: the right password and one wrong in its last byte, both modes
for compare in early-exit constant; do
    run_stdin "secret_compare.$compare-right" "open sesame 2024" "$compare"
    run_stdin "secret_compare.$compare-wrong" "open sesame 2025" "$compare"
done
# muxleq (eForth on a two-instruction machine) reads a Forth session from stdin: tests/test_forth.py's two
run_stdin muxleq.add $'2 3 + .\n'
run_stdin muxleq.square $': sq dup * ; 7 sq .\n'
# the gallery's stdin sessions are files in input/ (ncpu_nb.gallery runs them the same way)
run_input() {
    local name=$1
    shift
    STDIN_FILE=input/$name.in
    run "$name" "" "$@"
    STDIN_FILE=
}
run_input kvstore
run_input lisp
run_input calc
run_input sudoku
run primes         ""
run nqueens        ""
run sorts          ""
run squeeze        "" -x
# the gallery's drawing programs take a framebuffer path: on the machine /dev/fb0, here an empty plain
# file (the FBIOGET_VSCREENINFO ioctl fails on it and the frames overwrite it); stdout is the same
for program in mandelbrot life raycaster; do
    screen=$(mktemp)
    run "$program" "" "$screen"
    rm -f "$screen"
done
for defect in clean overflow uninit use-after-free double-free unmapped; do
    run "heap_bugs.$defect" "" "$defect"
done
# aes128 reads and prints raw bytes, NULs among them, which a shell variable cannot hold: its runs go
# through files, stdin given in hex. NAME STDIN-HEX ARGS...
run_binary() {
    local name=$1 hex=$2 program=${1%%.*}
    shift 2
    local tmp st1 st2
    tmp=$(mktemp -d)
    # shellcheck disable=SC2059
    printf "$(printf '%s' "$hex" | sed 's/../\\x&/g')" > "$tmp/in"
    env -i "$QEMU" -cpu cortex-a53 "bin/$program" "$@" < "$tmp/in" > "$tmp/out1"; st1=$?
    env -i "$QEMU" -cpu cortex-a53 "bin/$program" "$@" < "$tmp/in" > "$tmp/out2"; st2=$?
    if ! cmp -s "$tmp/out1" "$tmp/out2" || [ "$st1" != "$st2" ]; then
        echo "NONDETERMINISTIC: $name" >&2
        fail=1
    elif [ "$mode" = --check ]; then
        if cmp -s "$tmp/out1" "expected/$name.out" && [ "$st1" = "$(cat "expected/$name.status")" ]; then
            echo "match:    $name (status $st1)"
        else
            echo "MISMATCH: $name (status $st1)" >&2
            fail=1
        fi
    else
        cp "$tmp/out1" "expected/$name.out"
        echo "$st1" > "expected/$name.status"
        echo "wrote expected/$name.{out,status} (status $st1, deterministic over 2 runs)"
    fi
    rm -rf "$tmp"
}
# aes128: both implementations on published vectors (the test, tests/test_aes128.py, also holds them):
# FIPS 197 Appendix C.1 for ecb and ecb-decrypt; SP 800-38A F.2.1, F.2.2 and F.5.1 for cbc, cbc-decrypt, ctr
fips197_key=000102030405060708090a0b0c0d0e0f
fips197_plain=00112233445566778899aabbccddeeff
fips197_cipher=69c4e0d86a7b0430d8cdb78070b4c55a
sp800_key=2b7e151628aed2a6abf7158809cf4f3c
sp800_plain=6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710
sp800_cbc_iv=000102030405060708090a0b0c0d0e0f
sp800_cbc_cipher=7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7
sp800_ctr_counter=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
for impl in ct table; do
    run_binary "aes128.$impl-ecb" "$fips197_key$fips197_plain" "$impl" ecb
    run_binary "aes128.$impl-ecb-decrypt" "$fips197_key$fips197_cipher" "$impl" ecb-decrypt
    run_binary "aes128.$impl-cbc" "$sp800_key$sp800_cbc_iv$sp800_plain" "$impl" cbc
    run_binary "aes128.$impl-cbc-decrypt" "$sp800_key$sp800_cbc_iv$sp800_cbc_cipher" "$impl" cbc-decrypt
    run_binary "aes128.$impl-ctr" "$sp800_key$sp800_ctr_counter$sp800_plain" "$impl" ctr
done
exit $fail
