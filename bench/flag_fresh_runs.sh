#!/bin/sh
# A flag rule's arms on fresh FEMU drives (reservespare's, reservenarrow's), one run at a time
# (femufix's timed.sh), from the worktree's root: each line "NAME SOURCE ARM FLAG..." on stdin
# predicts SOURCE/NAME-off's measurement again (`repredict --spare-from-onset --reserve-gate`
# with FLAG...) into RESULTS/femu/NAME-ARM, judged against SOURCE/NAME.json; a folder already
# run is kept.
#   printf '%s\n' "NAME SOURCE ARM FLAG..." ... | sh bench/flag_fresh_runs.sh RESULTS WORK
set -u
R=$1 W=$2 PY=${PY:-/work/main/.venv/bin/python}
E="$PY bench/foreign/femu_end_to_end.py" T=bench/foreign/results/femufix/timed.sh
mkdir -p $W $R/femu
while read n src arm flags; do
    [ -e $R/femu/$n-$arm/run.json ] && continue
    sh $T $arm-$n $W $E repredict --case $src/$n-off --out $R/femu/$n-$arm \
        --spare-from-onset --reserve-gate $flags --truth $src/$n.json
    rm -rf "$R/femu/$n-$arm/fit" "$R/femu/$n-$arm/progress.log"
done
