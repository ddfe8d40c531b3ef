#!/bin/sh
# Build eagletree-harness against EagleTree's own objects (its Makefile's build, unmodified).
#   build.sh EAGLETREE_DIR [OUT_DIR]
# EAGLETREE_DIR: a checkout of https://github.com/ClydeProjects/EagleTree already built with its
# own `make` (the objects *.o in its top folder; needs libboost-serialization).
set -eu
et=$(cd "$1" && pwd)
out=${2:-$et}
here=$(cd "$(dirname "$0")" && pwd)
g++ -std=c++0x -w -O2 -I"$et" -o "$out/eagletree-harness" "$here/harness.cpp" "$et"/*.o \
    -lboost_serialization
echo "$out/eagletree-harness"
