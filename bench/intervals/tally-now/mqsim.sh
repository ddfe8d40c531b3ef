#!/bin/sh
# MQSim with the lost GC check retried: the two drives bench/foreign/results/mqsim-retry/RULE.md's
# R3 evaluated, evaluated again (same command) with the code as it is, into tally-now/mqsim/NAME.
#   sh bench/intervals/tally-now/mqsim.sh >> bench/intervals/tally-now/runs.log 2>&1
set -u
O=bench/intervals/tally-now/mqsim; S=bench/foreign/results/mqsim-retry
PY=${PY:-/work/main/.venv/bin/python}
for n in u320x32 u640x16; do
    [ -s $O/$n/evaluation.json ] && continue
    mkdir -p $O/$n/truth && cp $S/unseen/$n.json $O/$n/truth/mqsim.json
    date -u
    PYTHONPATH=python /usr/bin/time -f "%U+%S CPU s, %e s wall: mqsim $n" nice -n 10 \
        $PY bench/foreign/evaluate.py --results $O/$n/truth --only mqsim \
        --cases "IOPS+WAF 0+40, FOB" --out $O/$n > $O/$n/stdout.txt 2>$O/$n/stderr.txt
    echo "exit $?: mqsim $n"; tail -1 $O/$n/stderr.txt
done
echo DONE mqsim; date -u
