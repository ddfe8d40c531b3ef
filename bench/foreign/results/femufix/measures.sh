#!/bin/sh
# PLAN.md's measurements: calibrate's default plan through the fixed harness (femu_target's
# default round sizing), then (if the budget allows) each predicted again with the 0% level read
# plain; one at a time, from the worktree's root:
#   sh bench/foreign/results/femufix/measures.sh HARNESS WORK >> bench/foreign/results/femufix/runs.log 2>&1
set -u
H=$1 W=$2 R=bench/foreign/results/femufix PY=${PY:-/work/main/.venv/bin/python}
E="$PY bench/foreign/femu_end_to_end.py"
mkdir -p $W $R/plain
PYTHONPATH=python $PY bench/foreign/results/femufix/judge.py --list > $W/list.txt
grep '^measure ' $W/list.txt | while read _ n opts; do
    sh $R/timed.sh measure-$n $W $E measure --binary $H --out $R/$n --onset-from-empty \
        --spare-from-onset $opts
done
grep '^measure ' $W/list.txt | while read _ n opts; do
    sh $R/timed.sh plain-$n $W $E repredict --case $R/$n --out $R/plain/$n --spare-from-onset \
        --no-through-cycle
done
echo DONE measures; date -u
