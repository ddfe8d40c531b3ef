#!/bin/sh
# Build SSDsim (Hu et al., ICS 2011) from its own sources with this folder's patch and harness.
#   build.sh SSDSIM_GIT_DIR [OUT_DIR] [COMMIT]
# SSDSIM_GIT_DIR: a clone of https://github.com/huaicheng/ssdsim (cloned there if absent);
# COMMIT: f4112896c8e8439382fe9f9dca20052d1b5c936d unless given.
# SSDSIM_PATCHES: the patch files applied, in order (names in this folder, space-separated);
# every *.patch here, in name order, unless set ("" builds SSDsim unpatched).
# SSDsim's own Makefile links with gcc's old common symbols (initialize.h defines `ac_timing` in
# every file that includes it), which gcc >= 10 refuses; the same sources are compiled here with
# -fcommon, at -O2, and ssd.c's main() renamed so harness.c (this repository's run loop) is the
# program. What the patch fixes and why: bench/foreign/README.md, "SSDsim: how it was built".
set -eu
src=$1
out=${2:-$(pwd)/ssdsim-build}
commit=${3:-f4112896c8e8439382fe9f9dca20052d1b5c936d}
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -d "$src" ]; then
    git clone --quiet https://github.com/huaicheng/ssdsim "$src"
fi
if [ "${SSDSIM_PATCHES+set}" = set ]; then
    patches=$SSDSIM_PATCHES
else
    patches=$(cd "$here" && ls -- *.patch | sort)
fi
"$here/../apply_patches.sh" "$src" "$commit" "$out/src" "$here" $patches
mv "$out/src/COMMIT" "$out/src/PATCHES" "$out/"
cd "$out/src"
cflags="-O2 -fcommon -w"
gcc $cflags -Dmain=ssdsim_main -c ssd.c -o ssd.o
for f in avlTree flash initialize pagemap; do
    gcc $cflags -c "$f.c" -o "$f.o"
done
gcc $cflags -I. -c "$here/harness.c" -o harness.o
gcc -o "$out/ssdsim-harness" harness.o ssd.o avlTree.o flash.o initialize.o pagemap.o -lm
echo "$out/ssdsim-harness (SSDsim $(cat "$out/COMMIT"); patches: $(echo $patches))"
