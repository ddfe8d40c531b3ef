#!/bin/sh
# The runs of bench/results/reservenarrow/RULE.md, one at a time (femufix's timed.sh), from the
# worktree's root:
#   sh bench/results/reservenarrow/runs.sh HARNESS WORK measure >> bench/results/reservenarrow/runs.log 2>&1
#   sh bench/results/reservenarrow/runs.sh HARNESS WORK predict >> bench/results/reservenarrow/runs.log 2>&1
# measure: the two new fresh drives' truths and measurements (no flag of the candidate involved);
# predict: every repredict with the three flags (and late alone on the new drives), the off-arm
# check and the generated drives (reservespare's runs.sh with one arm).
set -u
H=$1 W=$2 STAGE=$3 R=bench/results/reservenarrow PY=${PY:-/work/main/.venv/bin/python}
T=bench/foreign/results/femufix/timed.sh
BP=bench/results/burstplain RS=bench/results/reservespare
NARROW="--late-start --spare-near-onset --only-where-none-pinned"
FRESH="femu-68lun-40blk-thres54-3900us-ns84 --nchs 4 --luns-per-ch 17 --blks-per-pl 40 --namespace-mb 2284 --gc-thres-pcent 54 --program-ns 3900000
femu-70lun-39blk-thres55-3700us-ns82 --nchs 7 --luns-per-ch 10 --blks-per-pl 39 --namespace-mb 2238 --gc-thres-pcent 55 --program-ns 3700000"
if [ "$STAGE" = measure ]; then
    echo "$FRESH" | PY=$PY sh bench/flag_fresh_measure.sh $R $W $H; exit 0
fi
# the fresh drives: this rule's (late reported), reservespare's and burstplain's (narrow only)
{ for n in $(echo "$FRESH" | cut -d' ' -f1); do
      echo "$n $R/femu narrow $NARROW"; echo "$n $R/femu late --late-start"; done
  for n in femu-64lun-44blk-thres53-3600us-ns83 femu-66lun-42blk-thres56-4000us-ns81; do
      echo "$n $RS/femu narrow $NARROW"; done
  for n in femu-52lun-56blk-thres55-3800us-ns82 femu-56lun-50blk-thres52-4300us-ns84 \
      femu-60lun-46blk-thres54-3300us-ns80; do echo "$n $BP/femu narrow $NARROW"; done
} | PY=$PY sh bench/flag_fresh_runs.sh $R $W
[ -e $R/sim.jsonl ] || sh $T sim $W $PY bench/results/reservenarrow/sim_runs.py --seeds 9671,9672 --out $R/sim.jsonl
# the off-arm check, burststart's half B and femuwin's guards, with the flags (their runs)
PY=$PY sh bench/flag_stored_runs.sh $R $W narrow $NARROW
echo DONE predict; date -u
