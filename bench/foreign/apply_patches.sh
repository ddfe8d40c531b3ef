#!/bin/sh
# A foreign simulator's sources at one commit, with this repository's patch files applied in
# order: the one step the patched builds share (mqsim_patches/build.sh, ssdsim/build.sh).
#   apply_patches.sh GIT_DIR COMMIT OUT PATCH_DIR [PATCH...]
# Writes the commit's tree into OUT, OUT/COMMIT (the commit's full hash) and OUT/PATCHES (each
# patch applied, with its sha256), so a build says what it was built from.
set -eu
src=$1
commit=$2
out=$3
patch_dir=$4
shift 4
mkdir -p "$out"
git -C "$src" archive "$commit" | tar -x -C "$out"
git -C "$src" rev-parse "$commit^{commit}" > "$out/COMMIT"
: > "$out/PATCHES"
for p in "$@"; do
    patch -p1 --forward --quiet -d "$out" < "$patch_dir/$p"
    (cd "$patch_dir" && sha256sum "$p") >> "$out/PATCHES"
done
