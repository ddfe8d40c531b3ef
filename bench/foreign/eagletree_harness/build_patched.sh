#!/bin/sh
# Build EagleTree from its own repository with this folder's patches, by its own Makefile, and
# link the harness against it (build.sh).
#   build_patched.sh EAGLETREE_GIT_DIR [OUT_DIR] [COMMIT]
# EAGLETREE_GIT_DIR: a clone of https://github.com/ClydeProjects/EagleTree (a bare one will do);
# COMMIT: c5df886f281a7c4fd751bf7de9aedb0b2f6fe97c unless given.
# EAGLETREE_PATCHES: the patch files applied, in order (names in this folder, space-separated);
# every *.patch here, in name order, unless set ("" builds EagleTree unpatched).
# What the patch fixes and why: bench/foreign/results/eaglefix/DIAGNOSIS.md.
set -eu
src=$1
out=${2:-$(pwd)/eagletree-patched}
commit=${3:-c5df886f281a7c4fd751bf7de9aedb0b2f6fe97c}
here=$(cd "$(dirname "$0")" && pwd)
if [ "${EAGLETREE_PATCHES+set}" = set ]; then
    patches=$EAGLETREE_PATCHES
else
    patches=$(cd "$here" && ls -- *.patch | sort)
fi
"$here/../apply_patches.sh" "$src" "$commit" "$out" "$here" $patches
make -C "$out" > "$out/build.log" 2>&1
"$here/build.sh" "$out" > /dev/null
echo "$out/eagletree-harness (EagleTree $(cat "$out/COMMIT"); patches: $(echo $patches))"
