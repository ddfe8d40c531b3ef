#!/bin/sh
# PLAN.md's settled truths (the 15 seen drives; K1-K4's are femularge's), one at a time, from
# the worktree's root:
#   sh bench/foreign/results/femufix/truths.sh HARNESS WORK >> bench/foreign/results/femufix/runs.log 2>&1
set -u
H=$1 W=$2 R=bench/foreign/results/femufix PY=${PY:-/work/main/.venv/bin/python}
mkdir -p $W
PYTHONPATH=python $PY bench/foreign/results/femufix/judge.py --list > $W/list.txt
grep '^truth ' $W/list.txt | while read _ n opts; do
    sh $R/timed.sh truth-$n $W $PY bench/foreign/femu.py --binary $H --work $W/$n \
        --extra-op 0,10,20,30,40 --qd 32 --qd-sweep '' --drive-writes 30 $opts --out $R/$n.json
done
echo DONE truths; date -u
