#!/bin/sh
# Build MQSim from its own repository with this folder's patches, by its own Makefile.
#   build.sh MQSIM_GIT_DIR [OUT_DIR] [COMMIT]
# MQSIM_GIT_DIR: a clone of https://github.com/CMU-SAFARI/MQSim (a bare one will do);
# COMMIT: 7ec40e3b198e8bd117f992f051cd610e330e079e unless given.
# MQSIM_PATCHES: the patch files applied, in order (names in this folder, space-separated);
# every *.patch here, in name order, unless set ("" builds MQSim unpatched).
# MQSIM_TRACE=1: trace/*.patch applied after them (diagnosis counters, a command trace and what-if
# switches, all off unless their environment variables are set: trace/README.md); off by default.
# What each patch fixes and why: bench/foreign/README.md, "MQSim's patches".
set -eu
mqsim=$1
out=${2:-$(pwd)/mqsim-patched}
commit=${3:-7ec40e3b198e8bd117f992f051cd610e330e079e}
here=$(cd "$(dirname "$0")" && pwd)
if [ "${MQSIM_PATCHES+set}" = set ]; then
    patches=$MQSIM_PATCHES
else
    patches=$(cd "$here" && ls -- *.patch | sort)
fi
if [ "${MQSIM_TRACE:-}" = 1 ]; then
    patches="$patches $(cd "$here" && ls -- trace/*.patch | sort)"
fi
"$here/../apply_patches.sh" "$mqsim" "$commit" "$out" "$here" $patches
make -C "$out" > "$out/build.log" 2>&1
echo "$out/MQSim (MQSim $(cat "$out/COMMIT"); patches: $(echo $patches))"
