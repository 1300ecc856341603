#!/bin/sh
# Build TinyCC as a static AArch64 program for the Metal machine, with what it needs
# inside the guest, into guest/ (the machine mounts it at /opt/tcc):
#     guest/bin/tcc                 the compiler (static, glibc 2.36, built by aarch64-linux-gnu-gcc)
#     guest/lib/tcc/include, libtcc1.a   tcc's own headers and runtime library (built by that tcc)
#     guest/sysroot/include, lib    musl 1.2.3's headers, crt*.o and libc.a: the programs tcc links
# The guest's programs are linked statically against musl, not glibc: tcc's AArch64 linker has no
# TLS relocations (glibc's libc.a needs R_AARCH64_TLSIE_*) and no IFUNC, musl's libc.a needs neither.
#
# Needs (Debian 12): gcc-aarch64-linux-gnu 4:12.2.0-3 (GCC 12.2.0, glibc 2.36), qemu-user 7.2
# (qemu-aarch64 runs the new tcc to build libtcc1.a), gcc, xz, curl (or MUSL_DEB), patch.
#
# Usage: ./build.sh                      build from tinycc-50cfe11.tar.xz here and musl-dev fetched from Debian
#        TCC_SRC=DIR MUSL_DEB=FILE ./build.sh   take the source from a TinyCC git clone / musl-dev .deb already here
set -eu

# the source: `git archive --format=tar --prefix=tinycc-50cfe11/ COMMIT | xz -9` of TinyCC's mob branch
TCC_COMMIT=50cfe1141b1d600783c634458219420a617d99a1   # https://github.com/TinyCC/tinycc (mirror of repo.or.cz/tinycc.git)
TCC_TAR_SHA256=f311346b4cfc5894f806734455b03b98100546d8cbe76b0f0b3f3940e3bb1753   # of the tar, uncompressed
MUSL_URL=http://deb.debian.org/debian/pool/main/m/musl/musl-dev_1.2.3-1_arm64.deb
MUSL_SHA256=55c2ca4bc3041c8ed8ac7dc3ef6080d9551a21650568b2fd7610b59eaf98a4f4

here=$(cd "$(dirname "$0")" && pwd)
CROSS=${CROSS:-aarch64-linux-gnu-}
for tool in "${CROSS}gcc" qemu-aarch64 gcc patch; do
    command -v "$tool" >/dev/null 2>&1 || { echo "build.sh: error: '$tool' not found" >&2; exit 1; }
done
echo "using: $("${CROSS}gcc" --version | head -n 1)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- sources ------------------------------------------------------------------------------------
if [ -n "${TCC_SRC:-}" ]; then
    git -C "$TCC_SRC" archive --format=tar --prefix=tinycc-50cfe11/ "$TCC_COMMIT" > "$work/tinycc.tar"
else
    xz -dc "$here/tinycc-50cfe11.tar.xz" > "$work/tinycc.tar"
fi
echo "$TCC_TAR_SHA256  $work/tinycc.tar" | sha256sum -c --quiet
tar -x -C "$work" -f "$work/tinycc.tar" && mv "$work/tinycc-50cfe11" "$work/tcc"
if [ -z "${MUSL_DEB:-}" ]; then
    MUSL_DEB=$work/musl-dev.deb
    curl -fsSL -o "$MUSL_DEB" "$MUSL_URL"
fi
echo "$MUSL_SHA256  $MUSL_DEB" | sha256sum -c --quiet
dpkg-deb -x "$MUSL_DEB" "$work/musl"

# --- tcc, a static AArch64 program whose paths are the guest's -----------------------------------
cd "$work/tcc"
patch -p1 --quiet < "$here/static-libc-order.patch"
./configure --cross-prefix="$CROSS" --cpu=aarch64 --enable-static --extra-ldflags=-static --config-musl \
    --prefix=/opt/tcc --tccdir=/opt/tcc/lib/tcc \
    --sysincludepaths=/opt/tcc/lib/tcc/include:/opt/tcc/sysroot/include \
    --libpaths=/opt/tcc/lib/tcc:/opt/tcc/sysroot/lib --crtprefix=/opt/tcc/sysroot/lib --triplet= >/dev/null
# tccdefs_.h comes from a small host program (the Makefile would build it with the cross compiler)
gcc -DC2STR conftest.c -o c2str.exe && ./c2str.exe include/tccdefs.h tccdefs_.h
make -s tcc

# --- the guest's /opt/tcc, staged; libtcc1.a built by the new tcc under qemu-aarch64 --------------
stage=$work/stage/opt/tcc
mkdir -p "$stage/bin" "$stage/lib/tcc/include" "$stage/sysroot/lib"
cp tcc "$stage/bin/tcc"
cp include/*.h "$stage/lib/tcc/include/"
cp -r "$work/musl/usr/include/aarch64-linux-musl" "$stage/sysroot/include"
for f in crt1.o crti.o crtn.o libc.a libm.a libpthread.a libdl.a librt.a; do
    cp "$work/musl/usr/lib/aarch64-linux-musl/$f" "$stage/sysroot/lib/"
done
make -s libtcc1.a XTCC="qemu-aarch64 -L $work/stage $PWD/tcc"
cp libtcc1.a "$stage/lib/tcc/"

rm -rf "$here/guest"
cp -r "$stage" "$here/guest"
cp COPYING "$here/COPYING.tinycc"
cp "$work/musl/usr/share/doc/musl-dev/copyright" "$here/copyright.musl"
echo "done: $here/guest"
