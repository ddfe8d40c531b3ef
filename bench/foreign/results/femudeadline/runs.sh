#!/bin/sh
# The runs of bench/foreign/results/femudeadline/PLAN.md, one at a time (femufix's timed.sh),
# from the worktree's root:
#   sh bench/foreign/results/femudeadline/runs.sh HARNESS WORK >> bench/foreign/results/femudeadline/runs.log 2>&1
set -u
H=$1 W=$2 R=bench/foreign/results/femudeadline PY=${PY:-/work/main/.venv/bin/python}
E="$PY bench/foreign/femu_end_to_end.py" T=bench/foreign/results/femufix/timed.sh
mkdir -p $W
PYTHONPATH=python $PY bench/foreign/results/femudeadline/judge.py --list > $W/list.txt
grep '^measure ' $W/list.txt | while read _ n opts; do
    [ -e $R/$n/run.json ] && continue
    sh $T measure-$n $W $E measure --binary $H --out $R/$n --onset-from-empty \
        --spare-from-onset --chunk-sizing deadline $opts
done
echo DONE; date -u
