#!/bin/sh
# Build flashsim-dftl-harness from FlashSim's source and this folder's harness.cpp.
#   build.sh FLASHSIM_GIT_DIR [OUT_DIR] [COMMIT]
# FLASHSIM_GIT_DIR: a clone of https://github.com/MatiasBjorling/flashsim (a bare one will do);
# COMMIT: 53098b0 (53098b0d...) unless given. FlashSim is GPL-3.0 (its COPYING); nothing of it
# is held in this repository. Its library sources are compiled as its Makefile lists them
# (every ssd_*.cpp but ssd_ftl.cpp, FTLs/*.cpp, SSDSim.cpp), with -O2 in place of its -g, and
# one patch (gc-trigger-count.patch, a real bug: bench/foreign/README.md, "FlashSim's DFTL");
# needs Boost's headers (Debian's libboost1.74-dev) for its multi_index containers.
set -eu
src_git=$1
out=${2:-$(pwd)/flashsim-dftl}
commit=${3:-53098b0}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out/src"
mkdir -p "$out/src"
git -C "$src_git" archive "$commit" | tar -x -C "$out/src"
(cd "$out/src" && patch -p1 < "$here/gc-trigger-count.patch")
cd "$out/src"
objs=""
for f in $(ls ssd_*.cpp FTLs/*.cpp SSDSim.cpp | grep -v '^ssd_ftl.cpp$'); do
    g++ -std=c++11 -O2 -w -c "$f" -o "${f%.cpp}.o"
    objs="$objs ${f%.cpp}.o"
done
g++ -std=c++11 -O2 -w -I. -o "$out/flashsim-dftl-harness" "$here/harness.cpp" $objs
git -C "$src_git" rev-parse "$commit^{commit}" > "$out/COMMIT"
echo "$out/flashsim-dftl-harness (FlashSim $(cat "$out/COMMIT"), patched: gc-trigger-count)"
