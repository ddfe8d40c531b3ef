#!/bin/sh
# FEMU's two "units" drives (figure cases: IOPS+WAF 0+40 QD32 + 40 QD4, FOB), evaluated again
# with the code as it is by bench/foreign/results/retally/run2.sh's command, into
# tally-now/femu-units (the retally's 68-figure femu block, about 650 CPU s, is not re-run).
#   sh bench/intervals/tally-now/figures.sh >> bench/intervals/tally-now/runs.log 2>&1
set -u
O=bench/intervals/tally-now/femu-units
PY=${PY:-/work/main/.venv/bin/python}
mkdir -p $O; date -u
PYTHONPATH=python /usr/bin/time -f "%U+%S CPU s, %e s wall: femu-units" nice -n 10 \
    $PY bench/foreign/evaluate.py --results bench/foreign/results/femu-units \
    --cases "IOPS+WAF 0+40 QD32 + 40 QD4" --out $O > $O/stdout.txt 2> $O/stderr.txt
echo "exit $?: femu-units"; tail -1 $O/stderr.txt; date -u
