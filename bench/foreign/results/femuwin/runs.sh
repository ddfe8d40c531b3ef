#!/bin/sh
# The runs of bench/foreign/results/femuwin/RULE.md, one at a time (femufix's timed.sh), from the
# worktree's root:
#   sh bench/foreign/results/femuwin/runs.sh HARNESS WORK [fresh|guard] >> bench/foreign/results/femuwin/runs.log 2>&1
set -u
H=$1 W=$2 PART=${3:-all} R=bench/foreign/results/femuwin PY=${PY:-/work/main/.venv/bin/python}
E="$PY bench/foreign/femu_end_to_end.py" T=bench/foreign/results/femufix/timed.sh
mkdir -p $W $R/guard
PYTHONPATH=python $PY bench/foreign/results/femuwin/judge.py --list > $W/list.txt
[ "$PART" = guard ] || grep '^fresh ' $W/list.txt | while read _ n opts; do
    [ -e $R/$n-off/run.json ] && continue
    sh $T truth-$n $W $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 \
        --qd 32 --qd-sweep '' --drive-writes 30 $opts --out $R/$n.json
    sh $T on-$n $W $E measure --binary $H --out $R/$n-on --onset-from-empty --spare-from-onset \
        --reserve-gate --plain-without-cycle $opts
    sh $T off-$n $W $E repredict --case $R/$n-on --out $R/$n-off --spare-from-onset \
        --reserve-gate --truth $R/$n.json
done
[ "$PART" = fresh ] || grep '^guard ' $W/list.txt | while read _ n folder truth; do
    [ -e $R/guard/$n-on/run.json ] && continue
    sh $T guard-off-$n $W $E repredict --case $folder --out $R/guard/$n-off --spare-from-onset \
        --reserve-gate --truth $truth
    sh $T guard-on-$n $W $E repredict --case $folder --out $R/guard/$n-on --spare-from-onset \
        --reserve-gate --plain-without-cycle --truth $truth
done
echo DONE $PART; date -u
