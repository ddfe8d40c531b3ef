#!/bin/sh
# The drives runs.sh measured before femu_target logged each timed round's seconds to its last
# write submitted (timed_rounds_issued_s, a log only): measured again, the same command, each
# measurement.json compared with the first (the harness and calibrate are deterministic):
#   sh bench/foreign/results/femudeadline/issued.sh HARNESS WORK >> bench/foreign/results/femudeadline/runs.log 2>&1
set -u
H=$1 W=$2 R=bench/foreign/results/femudeadline PY=${PY:-/work/main/.venv/bin/python}
E="$PY bench/foreign/femu_end_to_end.py" T=bench/foreign/results/femufix/timed.sh
grep '^measure ' $W/list.txt | while read _ n opts; do
    grep -q timed_rounds_issued_s $R/$n/run.json && continue
    mkdir -p $W/first && rm -rf $W/first/$n && mv $R/$n $W/first/$n
    sh $T issued-$n $W $E measure --binary $H --out $R/$n --onset-from-empty \
        --spare-from-onset --chunk-sizing deadline $opts
    if cmp -s $W/first/$n/measurement.json $R/$n/measurement.json; then
        echo "same measurement.json: $n"
    else
        echo "DIFFERENT measurement.json: $n"
    fi
done
echo DONE issued; date -u
