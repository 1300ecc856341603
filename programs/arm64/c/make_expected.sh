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
for defect in clean overflow uninit use-after-free double-free unmapped; do
    run "heap_bugs.$defect" "" "$defect"
done
exit $fail
