#!/bin/sh
# The runs of bench/results/probe40/RULE.md, one at a time, from the worktree's root:
#   sh bench/results/probe40/runs.sh HARNESS WORK >> bench/results/probe40/runs.log 2>&1
set -u
H=$1; W=$2; R=bench/results/probe40; PY=${PY:-/work/main/.venv/bin/python}
mkdir -p $W $R/femu
# one run through femufix's timed.sh (as run at 03:59 UTC an inline copy of its lines; the same
# commands and output)
run() { name=$1; shift; sh bench/foreign/results/femufix/timed.sh "$name" "$W" "$@"; }
for drive in "femu-54lun-62blk-thres72-3300us --nchs 6 --luns-per-ch 9 --blks-per-pl 62 --namespace-mb 2678 --gc-thres-pcent 72 --program-ns 3300000" \
        "femu-58lun-66blk-thres60-3900us --nchs 2 --luns-per-ch 29 --blks-per-pl 66 --namespace-mb 3062 --gc-thres-pcent 60 --program-ns 3900000"; do
    set -- $drive; n=$1; shift
    run truth-$n $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 --qd 32 --qd-sweep 4@40 --drive-writes 12 "$@" --out $R/femu/$n.json
    for seed in 31 32 33; do
        for arm in off on; do
            flag=--no-whole-cycles; [ $arm = on ] && flag=--whole-cycles
            run $n-s$seed-$arm $PY bench/results/probe40/measure_flagged.py $flag measure --binary $H --out $R/femu/$n-s$seed-$arm --onset-from-empty --spare-from-onset --chunk-sizing deadline --seed $seed "$@"
        done
    done
done
run sim $PY bench/results/probe40/sim_runs.py --seeds 9413,9414 --out $R/sim.jsonl
echo DONE; date -u
