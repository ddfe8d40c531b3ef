#!/bin/sh
# FEMU's four by-figure drives (bench/foreign/results/byfig5/: each truth's figures as
# calibrate's plan keeps them, its onset from empty) predicted again with the code as it is
# (by_figure_reserve.py twin, evidence.REPRODUCED_BY_FIGURE on as by default; off only where
# it did not fire), into tally-now/byfig5.
#   sh bench/intervals/tally-now/byfig5.sh >> bench/intervals/tally-now/runs.log 2>&1
set -u
O=bench/intervals/tally-now/byfig5; S=bench/foreign/results/byfig5
PY=${PY:-/work/main/.venv/bin/python}
mkdir -p $O; date -u
PYTHONPATH=python /usr/bin/time -f "%U+%S CPU s, %e s wall: byfig5 twin (4 drives)" nice -n 10 \
    $PY bench/foreign/by_figure_reserve.py twin --truth $S/unseen/femu-14lun-136blk-thres84-180us.json \
    --truth $S/unseen/femu-18lun-88blk-thres86-220us.json \
    --truth $S/unseen/femu-36lun-72blk-thres78-300us.json \
    --truth $S/unseen/femu-6lun-240blk-thres68.json \
    --onsets $S/unseen-onsets.json --out $O > $O/stdout.txt 2> $O/stderr.txt
echo "exit $?: byfig5"; tail -1 $O/stderr.txt; date -u
