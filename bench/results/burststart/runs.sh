#!/bin/sh
# The runs of bench/results/burststart/RULE.md, one at a time, from the worktree's root:
#   sh bench/results/burststart/runs.sh HARNESS WORK >> bench/results/burststart/runs.log 2>&1
set -u
H=$1; W=$2; R=bench/results/burststart; PY=${PY:-/work/main/.venv/bin/python}
mkdir -p $W $R/femu $R/stored
run() { name=$1; shift; sh bench/foreign/results/femufix/timed.sh "$name" "$W" "$@"; }
seed=41
for drive in "femu-46lun-70blk-thres70-3600us --nchs 2 --luns-per-ch 23 --blks-per-pl 70 --namespace-mb 2576 --gc-thres-pcent 70 --program-ns 3600000" \
        "femu-50lun-66blk-thres58-4100us --nchs 5 --luns-per-ch 10 --blks-per-pl 66 --namespace-mb 2706 --gc-thres-pcent 58 --program-ns 4100000" \
        "femu-62lun-52blk-thres74-3000us --nchs 2 --luns-per-ch 31 --blks-per-pl 52 --namespace-mb 2579 --gc-thres-pcent 74 --program-ns 3000000"; do
    set -- $drive; n=$1; shift
    run truth-$n $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 --qd 32 --drive-writes 12 "$@" --out $R/femu/$n.json
    run $n-measure $PY bench/foreign/femu_end_to_end.py measure --binary $H --out $R/femu/$n-measure --onset-from-empty --spare-from-onset --chunk-sizing deadline --seed $seed "$@"
    run $n-off $PY bench/foreign/femu_end_to_end.py repredict --case $R/femu/$n-measure --out $R/femu/$n-off --truth $R/femu/$n.json
    run $n-on $PY bench/foreign/femu_end_to_end.py repredict --case $R/femu/$n-measure --out $R/femu/$n-on --truth $R/femu/$n.json --late-start
    seed=$((seed + 1))
done
run sim $PY bench/results/burststart/sim_runs.py --seeds 9517,9518 --out $R/sim.jsonl
PYTHONPATH=python $PY bench/results/burststart/stored_half.py > bench/results/burststart/stored_half.txt
# (as run at 06:10 UTC the loop's variable was `name`, which run() overwrites: the on arm's
# folder came out as stored/stored-NAME-off-on, renamed to stored/NAME-on after the run; verdict.md)
while read case truth cname; do
    run stored-$cname-off $PY bench/foreign/femu_end_to_end.py repredict --case $case --out $R/stored/$cname-off --truth $truth
    run stored-$cname-on $PY bench/foreign/femu_end_to_end.py repredict --case $case --out $R/stored/$cname-on --truth $truth --late-start
done < $R/stored_half.txt
echo DONE; date -u
