#!/bin/sh
# Build nvmevirt-conv-harness from NVMeVirt's conventional FTL source (unmodified) and this
# folder's stand-ins.
#   build.sh NVMEVIRT_GIT_DIR [OUT_DIR] [COMMIT]
# NVMEVIRT_GIT_DIR: a clone of https://github.com/snu-csl/nvmevirt (a bare one will do);
# COMMIT: 61c90f7758cbd9545b4a4727e89377bf88eab060 unless given.
# Taken from NVMeVirt unmodified (GPL-2.0-only; pqueue/ BSD-2-Clause): conv_ftl.c, conv_ftl.h,
# ssd.c, ssd.h, channel_model.c, channel_model.h, pqueue/pqueue.c, pqueue/pqueue.h. In place of
# its nvmev.h (kernel headers) and ssd_config.h (the drive's macros): this folder's stand-ins;
# the kernel headers those files include (<linux/...>) are empty files under OUT/include.
set -eu
src_git=$1
out=${2:-$(pwd)/nvmevirt-standalone}
commit=${3:-61c90f7758cbd9545b4a4727e89377bf88eab060}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/src/pqueue" "$out/include/linux/sched"
for f in conv_ftl.c conv_ftl.h ssd.c ssd.h channel_model.c channel_model.h \
    pqueue/pqueue.c pqueue/pqueue.h; do
    git -C "$src_git" show "$commit:$f" > "$out/src/$f"
done
cp "$here/nvmev.h" "$here/ssd_config.h" "$out/src/"
for h in vmalloc ktime types kthread highmem sched/clock; do
    : > "$out/include/linux/$h.h"
done
cc -O2 -std=gnu11 -w -I"$out/src" -I"$out/include" -o "$out/nvmevirt-conv-harness" \
    "$here/harness.c" "$out/src/conv_ftl.c" "$out/src/ssd.c" "$out/src/channel_model.c" \
    "$out/src/pqueue/pqueue.c"
git -C "$src_git" rev-parse "$commit^{commit}" > "$out/COMMIT"
echo "$out/nvmevirt-conv-harness (NVMeVirt $(cat "$out/COMMIT"))"
