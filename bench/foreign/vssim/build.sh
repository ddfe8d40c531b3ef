#!/bin/sh
# Build VSSIM's page-mapping FTL standalone with this folder's harness (harness.c, clock.h):
#   build.sh VSSIM_GIT_DIR [OUT] [COMMIT]
# VSSIM_GIT_DIR: a clone of ESOS-Lab/VSSIM (a bare one will do); COMMIT: default HEAD.
# VSSIM's files are taken from the clone at COMMIT, unmodified, into OUT/src and compiled with
# its PAGE_MAP FTL selected (-DPAGE_MAP, as its CONFIG/QEMU_MAKEFILE/Makefile_pm does) and
# -DVSSIM_BENCH (its switch that leaves out QEMU's headers); clock.h is passed to each with
# -include. The repository has no licence file: nothing of it is held in this repository.
set -eu
GIT_DIR_IN=$1
OUT=${2:-/work/foreign-build/vssim}
COMMIT=${3:-HEAD}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/src"
git --git-dir="$GIT_DIR_IN" archive "$COMMIT" CONFIG FTL/COMMON FTL/PAGE_MAP SSD_MODULE FIRMWARE \
    | tar -x -C "$OUT/src"
git --git-dir="$GIT_DIR_IN" rev-parse "$COMMIT^{commit}" > "$OUT/COMMIT"
S=$OUT/src
CFLAGS="-O2 -g0 -w -DPAGE_MAP -DVSSIM_BENCH -include $HERE/clock.h \
 -I$S/FTL/COMMON -I$S/FTL/PAGE_MAP -I$S/SSD_MODULE -I$S/FIRMWARE -I$S/CONFIG"
gcc $CFLAGS -o "$OUT/vssim-harness" "$HERE/harness.c" \
    "$S/CONFIG/vssim_config_manager.c" "$S/FTL/PAGE_MAP/ftl.c" \
    "$S/FTL/PAGE_MAP/ftl_gc_manager.c" "$S/FTL/PAGE_MAP/ftl_inverse_mapping_manager.c" \
    "$S/FTL/PAGE_MAP/ftl_mapping_manager.c" "$S/FTL/PAGE_MAP/ftl_cache.c" \
    "$S/FTL/COMMON/ftl_perf_manager.c" "$S/SSD_MODULE/ssd_io_manager.c"
echo "built $OUT/vssim-harness from $(cat "$OUT/COMMIT")"
