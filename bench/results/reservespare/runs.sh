#!/bin/sh
# The runs of bench/results/reservespare/RULE.md, one at a time (femufix's timed.sh), from the
# worktree's root:
#   sh bench/results/reservespare/runs.sh HARNESS WORK measure >> bench/results/reservespare/runs.log 2>&1
#   sh bench/results/reservespare/runs.sh HARNESS WORK predict >> bench/results/reservespare/runs.log 2>&1
# measure: the two fresh drives' truths and measurements (no flag of the candidate involved);
# predict: every repredict with the candidate's flags, the off-arm check and the generated drives.
set -u
H=$1 W=$2 STAGE=$3 R=bench/results/reservespare PY=${PY:-/work/main/.venv/bin/python}
T=bench/foreign/results/femufix/timed.sh
BP=bench/results/burstplain
BOTH="--late-start --spare-near-onset"
FRESH="femu-64lun-44blk-thres53-3600us-ns83 --nchs 8 --luns-per-ch 8 --blks-per-pl 44 --namespace-mb 2337 --gc-thres-pcent 53 --program-ns 3600000
femu-66lun-42blk-thres56-4000us-ns81 --nchs 6 --luns-per-ch 11 --blks-per-pl 42 --namespace-mb 2245 --gc-thres-pcent 56 --program-ns 4000000"
if [ "$STAGE" = measure ]; then
    echo "$FRESH" | PY=$PY sh bench/flag_fresh_measure.sh $R $W $H; exit 0
fi
# the fresh drives, new (femu/) and burstplain's (its NAME-off, NAME-late kept there)
for n in $(echo "$FRESH" | cut -d' ' -f1) femu-52lun-56blk-thres55-3800us-ns82 \
        femu-56lun-50blk-thres52-4300us-ns84 femu-60lun-46blk-thres54-3300us-ns80; do
    case $n in femu-6[46]lun*) echo "$n $R/femu late --late-start"; src=$R/femu;; *) src=$BP/femu;; esac
    echo "$n $src near --spare-near-onset"; echo "$n $src both $BOTH"
done | PY=$PY sh bench/flag_fresh_runs.sh $R $W
[ -e $R/sim.jsonl ] || sh $T sim $W $PY bench/results/reservespare/sim_runs.py --seeds 9651,9652 --out $R/sim.jsonl
# the off-arm check, burststart's half B and femuwin's guards, with the flags (their runs)
PY=$PY sh bench/flag_stored_runs.sh $R $W both $BOTH
echo DONE predict; date -u
