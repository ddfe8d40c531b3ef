#!/bin/sh
# Build Dhara's FTL (dlbeer/dhara: dhara/map.c, dhara/journal.c, dhara/error.c) with this
# folder's harness (harness.c) and in-memory NAND (nand_ram.c):
#   build.sh DHARA_GIT_DIR [OUT] [COMMIT]
# DHARA_GIT_DIR: a clone of dlbeer/dhara (a bare one will do); COMMIT: default HEAD. Dhara's
# files are taken from the clone at COMMIT, unmodified, into OUT/src and compiled with the
# repository's own flags (its Makefile's -O1 -Wall -I.). Dhara is under an ISC-style licence
# (its LICENSE); still, none of its code is held in this repository.
set -eu
GIT_DIR_IN=$1
OUT=${2:-/work/foreign-build/dhara}
COMMIT=${3:-HEAD}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/src"
git --git-dir="$GIT_DIR_IN" archive "$COMMIT" dhara LICENSE | tar -x -C "$OUT/src"
git --git-dir="$GIT_DIR_IN" rev-parse "$COMMIT^{commit}" > "$OUT/COMMIT"
S=$OUT/src
gcc -O1 -Wall -I"$S" -I"$HERE" -o "$OUT/dhara-harness" "$HERE/harness.c" "$HERE/nand_ram.c" \
    "$S/dhara/map.c" "$S/dhara/journal.c" "$S/dhara/error.c"
echo "built $OUT/dhara-harness from $(cat "$OUT/COMMIT")"
