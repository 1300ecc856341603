#!/bin/sh
# Rebuild the AArch64 test programs in this directory into bin/NAME.
#
# Needs Debian 12 (bookworm) package gcc-aarch64-linux-gnu (4:12.2.0-3,
# i.e. aarch64-linux-gnu-gcc (Debian 12.2.0-14) 12.2.0) with
# libc6-dev-arm64-cross 2.36-8cross1 (pulled in by it):
#     apt-get install gcc-aarch64-linux-gnu
# The binaries in bin/ were built with exactly those versions; another
# compiler/glibc gives different (but equivalent) binaries, and the
# expected outputs in expected/ may then need to be re-checked.
#
# Usage: ./build.sh            (from any directory)
#        CC=other-gcc ./build.sh
set -eu

cd "$(dirname "$0")"
CC=${CC:-aarch64-linux-gnu-gcc}
CFLAGS="-static -O2 -Wall -Wextra"

if ! command -v "$CC" >/dev/null 2>&1; then
    echo "build.sh: error: '$CC' not found." >&2
    echo "  Install the Debian cross compiler:  apt-get install gcc-aarch64-linux-gnu" >&2
    echo "  (Debian 12: gcc-aarch64-linux-gnu 4:12.2.0-3, GCC 12.2.0, glibc 2.36)" >&2
    exit 1
fi
echo "using: $("$CC" --version | head -n 1)"

mkdir -p bin
# muxleq compiles in the eForth image: programs/forth/muxleq.dec as a C initialiser, one "N," a line
image_dir=$(mktemp -d)
trap 'rm -rf "$image_dir"' EXIT
sed 's/,*$/,/' ../../forth/muxleq.dec > "$image_dir/muxleq_image.h"
# the gallery (ncpu_nb.gallery): programs worth showing; mandelbrot, life and raycaster draw through gallery_fb.h
gallery="mandelbrot life raycaster primes nqueens sudoku kvstore sorts lisp squeeze calc"
for src in hello argv_env file_io fork_pipe_wait signals sockets tty_jobs float_math threads gradebook heap_bugs magic secret_compare aes128 muxleq $gallery; do
    extra=""
    case $src in
        threads) extra="-pthread" ;;
        float_math|raycaster|calc) extra="-lm" ;;
        # the sanitizer's planted defects: source lines (-g), and no warning for the bugs on purpose
        heap_bugs) extra="-O0 -g -Wno-use-after-free" ;;
        magic) extra="-g -Wno-array-bounds" ;;  # the fuzzer's target (its crash writes near null on purpose)
        secret_compare) extra="-g" ;;  # the constant-time checker's target: source lines of its leaking branch
        aes128) extra="-g" ;;  # the constant-time checker's AES: source lines of the table version's leaks
        muxleq) extra="-I$image_dir" ;;  # the generated muxleq_image.h
    esac
    echo "  CC $src.c -> bin/$src"
    # shellcheck disable=SC2086
    "$CC" $CFLAGS -o "bin/$src" "$src.c" $extra
done
echo "done."
ls -l bin
