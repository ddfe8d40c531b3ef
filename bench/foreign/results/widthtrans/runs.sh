#!/bin/sh
# The fresh drives of bench/intervals/RULE-widthtrans.md, one at a time (femufix's timed.sh), from
# the worktree's root; each: its truth (gatefix's command) and calibrate's plan measured through
# the harness (femu_target's default sizing; the measure's own prediction is flag off), then
# predicted again flag off and on (bench/intervals/widthtrans_judge.py predict):
#   sh bench/foreign/results/widthtrans/runs.sh HARNESS WORK NAME... >> bench/foreign/results/widthtrans/runs.log 2>&1
set -u
H=$1 W=$2; shift 2
R=bench/foreign/results/widthtrans PY=${PY:-/work/main/.venv/bin/python}
E="$PY bench/foreign/femu_end_to_end.py" T=bench/foreign/results/femufix/timed.sh
mkdir -p $W
for n in "$@"; do
    opts=$(PYTHONPATH=python $PY bench/intervals/widthtrans_judge.py options $n)
    sh $T truth-$n $W $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 \
        --qd 32 --qd-sweep '' --drive-writes 30 $opts --out $R/$n.json
    sh $T plan-$n $W $E measure --binary $H --out $R/$n-plan --onset-from-empty --spare-from-onset \
        --reserve-gate $opts
    sh $T predict-$n $W $PY bench/intervals/widthtrans_judge.py predict $n
done
echo DONE "$@"; date -u
