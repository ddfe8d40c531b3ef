#!/bin/sh
# The runs of bench/intervals/RULE-hullgate.md, one at a time, from the worktree's root:
#   sh bench/intervals/hullgate/runs.sh HARNESS WORK >> bench/intervals/hullgate/runs.log 2>&1
# (femufix's timed.sh: nice -n 10, PYTHONPATH=python, /usr/bin/time CPU seconds of each run)
set -u
H=$1 W=$2 R=bench/intervals/hullgate PY=${PY:-/work/main/.venv/bin/python}
T=bench/foreign/results/femufix/timed.sh J="$PY bench/intervals/hullgate_judge.py"
mkdir -p $W $R/femu
PYTHONPATH=python $PY -c "
import sys; sys.path.insert(0, 'bench/intervals'); import hullgate_judge as j
for n, o in j.FEMU.items(): print(n, o)" > $W/femu.txt
while read n opts; do
    # a truth already run (all five levels) is not run again
    grep -q '"extra_op_percent": 40' $R/femu/$n.json 2>/dev/null || \
    sh $T truth-$n $W $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 \
        --qd 32 --qd-sweep '' --drive-writes 30 $opts --out $R/femu/$n.json
    # calibrate's plan as calibrate runs it (plan.ONSET_FROM_EMPTY on, calibrate's default; the
    # script's own default is off: the first F1 run, femu/first-run/, was measured so, by mistake)
    sh $T dated-$n $W $PY bench/foreign/femu_end_to_end.py measure --binary $H \
        --out $R/femu/$n-dated --onset-from-empty $opts
    for arm in off on; do
        sh $T $arm-$n $W $J undated --arm $arm --case $R/femu/$n-dated --out $R/femu/$n-$arm
        sh $T typed-$arm-$n $W $J undated --typed --arm $arm --case $R/femu/$n-dated \
            --out $R/femu/$n-typed-$arm
    done
done < $W/femu.txt
GEN="gen-R13-reserve-sf081-floor8.5 gen-R14-reserve-sf089-floor5.8 gen-N9-greedy-op018 gen-N10-greedy-op027"
sh $T gen $W $J gen $GEN
for n in $GEN; do
    for arm in off on; do
        sh $T run-$arm-$n $W $J run --arm $arm bench/intervals/hullgate/generated/$n.json
    done
done
echo DONE; date -u
