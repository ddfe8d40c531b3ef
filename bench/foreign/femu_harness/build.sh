#!/bin/sh
# Build femu-bbssd-harness from FEMU's own FTL source (unmodified) and this folder's shim.
#   build.sh FEMU_GIT_DIR [COMMIT] [OUT_DIR] [NAME]
# FEMU_GIT_DIR: a clone of https://github.com/MoatLab/FEMU (a bare one will do);
# COMMIT: femu-v9.0.1 (3690338cf4dae8064ab6dff0042ad98f7a8bfb78) unless given; NAME: the
# binary's name in OUT_DIR (femu-bbssd-harness unless given: a new harness beside an old one).
set -eu
femu=$1
commit=${2:-femu-v9.0.1}
out=${3:-$(pwd)/femu-standalone}
name=${4:-femu-bbssd-harness}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/src/hw/femu/bbssd" "$out/src/hw/femu/lib" "$out/src/hw/femu/inc"
for f in bbssd/ftl.c bbssd/ftl.h lib/pqueue.c inc/pqueue.h; do
    git -C "$femu" show "$commit:hw/femu/$f" > "$out/src/hw/femu/$f"
done
# ftl.h includes "../nvme.h": FEMU's pulls in QEMU, the harness's stand-in goes in its place
cp "$here/nvme.h" "$out/src/hw/femu/nvme.h"
cc -O2 -std=gnu11 -w -I"$out/src/hw/femu" -o "$out/$name" \
    "$here/harness.c" "$out/src/hw/femu/lib/pqueue.c"
git -C "$femu" rev-parse "$commit^{commit}" > "$out/COMMIT"
echo "$out/$name (FEMU $(cat "$out/COMMIT"))"
