#!/bin/sh
# Diagnosis only: FEMU's truth at levels between and past the stored truths' 0,10,20,30,40%, to
# read where each deep-onset drive's WAF leaves its floor (same drives and harness as the stored
# truths, femu.py's QD32 truth method); with a third argument `past`, P1 and P3 at 39-50% instead
# (the curve past the edge, into NAME-past.json). Usage from the repository root:
#   sh bench/results/reserveflat/runs.sh /work/foreign-build/femu/femu-bbssd-harness WORK >> bench/results/reserveflat/runs.log
#   sh bench/results/reserveflat/runs.sh /work/foreign-build/femu/femu-bbssd-harness WORK past >> bench/results/reserveflat/runs.log
set -e
BIN=$1
WORK=$2
STAGE=${3:-}
OUT=bench/results/reserveflat/truth
PY="nice -n 10 env PYTHONPATH=python /work/main/.venv/bin/python"
run() {  # name levels drive-options...
    name=$1; levels=$2; shift 2
    echo "== $name at $levels: $(date -u +%H:%M:%S)"
    /usr/bin/time -f "$name CPU s %U user %S system" $PY bench/foreign/femu.py --binary "$BIN" \
        --work "$WORK/$name" --extra-op "$levels" --qd 32 --qd-sweep '' --drive-writes 30 "$@" \
        --out "$OUT/$name$SUFFIX.json" 2>&1 | tail -3
}
if [ "$STAGE" = past ]; then
    SUFFIX=-past
    run femu-52lun-56blk-thres55-3800us-ns82 39,41,43,46,50 --nchs 4 --luns-per-ch 13 --blks-per-pl 56 --namespace-mb 2388 --gc-thres-pcent 55 --program-ns 3800000
    run femu-60lun-46blk-thres54-3300us-ns80 39,41,43,46,50 --nchs 5 --luns-per-ch 12 --blks-per-pl 46 --namespace-mb 2208 --gc-thres-pcent 54 --program-ns 3300000
    echo DONE
    exit 0
fi
SUFFIX=
run femu-52lun-56blk-thres55-3800us-ns82 32,34,36,38 --nchs 4 --luns-per-ch 13 --blks-per-pl 56 --namespace-mb 2388 --gc-thres-pcent 55 --program-ns 3800000
run femu-60lun-46blk-thres54-3300us-ns80 32,34,36,38 --nchs 5 --luns-per-ch 12 --blks-per-pl 46 --namespace-mb 2208 --gc-thres-pcent 54 --program-ns 3300000
run femu-56lun-50blk-thres52-4300us-ns84 42,44,46,48 --nchs 7 --luns-per-ch 8 --blks-per-pl 50 --namespace-mb 2352 --gc-thres-pcent 52 --program-ns 4300000
run femu-37lun-74blk-thres53-3450us-ns84 42,44,46 --nchs 1 --luns-per-ch 37 --blks-per-pl 74 --namespace-mb 2300 --gc-thres-pcent 53 --program-ns 3450000
echo DONE
