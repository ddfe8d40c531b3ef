#!/bin/sh
# Diagnosis only: FEMU's truth at levels between and past the stored truths' 0,10,20,30,40%, to
# read where each deep-onset drive's WAF leaves its floor (same drives and harness as the stored
# truths, femu.py's QD32 truth method). Usage from the repository root:
#   sh bench/results/reserveflat/runs_past.sh /work/foreign-build/femu/femu-bbssd-harness WORK >> bench/results/reserveflat/runs.log
set -e
BIN=$1
WORK=$2
OUT=bench/results/reserveflat/truth
PY="nice -n 10 env PYTHONPATH=python /work/main/.venv/bin/python"
run() {  # name levels drive-options...
    name=$1; levels=$2; shift 2
    echo "== $name at $levels: $(date -u +%H:%M:%S)"
    /usr/bin/time -f "$name CPU s %U user %S system" $PY bench/foreign/femu.py --binary "$BIN" \
        --work "$WORK/$name" --extra-op "$levels" --qd 32 --qd-sweep '' --drive-writes 30 "$@" \
        --out "$OUT/$name-past.json" 2>&1 | tail -3
}
run femu-52lun-56blk-thres55-3800us-ns82 39,41,43,46,50 --nchs 4 --luns-per-ch 13 --blks-per-pl 56 --namespace-mb 2388 --gc-thres-pcent 55 --program-ns 3800000
run femu-60lun-46blk-thres54-3300us-ns80 39,41,43,46,50 --nchs 5 --luns-per-ch 12 --blks-per-pl 46 --namespace-mb 2208 --gc-thres-pcent 54 --program-ns 3300000
echo DONE
