#!/bin/sh
# A flag rule's fresh FEMU drives (reservespare's, reservenarrow's), one run at a time (femufix's
# timed.sh), from the worktree's root: each line "NAME FEMU-ARGS..." on stdin is FEMU's truth
# (femu.py at 0-40% extra OP, QD32, 30 drive writes) into RESULTS/femu/NAME.json, then calibrate's
# measurement with the off arm's options into RESULTS/femu/NAME-off; a drive already measured is
# kept.
#   echo "$FRESH" | sh bench/flag_fresh_measure.sh RESULTS WORK HARNESS
set -u
R=$1 W=$2 H=$3 PY=${PY:-/work/main/.venv/bin/python}
E="$PY bench/foreign/femu_end_to_end.py" T=bench/foreign/results/femufix/timed.sh
mkdir -p $W $R/femu
while read n args; do
    [ -e $R/femu/$n-off/run.json ] && continue
    sh $T truth-$n $W $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 \
        --qd 32 --qd-sweep '' --drive-writes 30 $args --out $R/femu/$n.json
    sh $T off-$n $W $E measure --binary $H --out $R/femu/$n-off --onset-from-empty \
        --spare-from-onset --reserve-gate $args
    rm -rf "$R/femu/$n-off/fit" "$R/femu/$n-off/progress.log"
done
echo DONE measure; date -u
