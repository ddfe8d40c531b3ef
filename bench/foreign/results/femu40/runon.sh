#!/bin/sh
# Diagnosis (a) (seen drives, nothing predicted): each seen reserve-bound drive measured again by
# calibrate's plan (both switches on, as stored), then 3 drive writes more of uniform random
# writes at QD32 over the 40% level's span after that level, the WAF and IOPS of every 0.025
# (run_on-40.json): how FEMU's IOPS move after the plan's 40% window. From the worktree's root:
#   sh bench/foreign/results/femu40/runon.sh HARNESS WORK >> bench/foreign/results/femu40/runs.log 2>&1
set -u
H=$1; W=$2; R=bench/foreign/results/femu40/runon
PY=${PY:-/work/main/.venv/bin/python}
mkdir -p $R
while read name carry opts; do
    date -u; uptime
    PYTHONPATH=python /usr/bin/time -f "%U+%S CPU s, %e s wall: run-on $name" nice -n 10 \
        $PY bench/foreign/femu_end_to_end.py measure --binary $H --out $W/$name \
        --onset-from-empty --spare-from-onset $carry $opts \
        --run-on 3 --run-on-levels 40 --run-on-step 0.025 > $W/$name.out 2>&1
    echo "exit $?: $name"; cp $W/$name/run_on-40.json $R/$name.json; cp $W/$name/progress.log $R/$name.progress.log
    cp $W/$name/measurement.json $R/$name.measurement.json 2>/dev/null || true
done <<LIST
F1-11x290 --carry --nchs 1 --luns-per-ch 11 --blks-per-pl 290 --namespace-mb 2392 --gc-thres-pcent 69 --program-ns 3200000
10x260 --no-carry --nchs 2 --luns-per-ch 5 --blks-per-pl 260 --namespace-mb 1950 --gc-thres-pcent 66 --program-ns 3500000
8x300 --no-carry --nchs 2 --luns-per-ch 4 --blks-per-pl 300 --namespace-mb 1800 --gc-thres-pcent 70 --program-ns 4000000
6x372 --no-carry --nchs 3 --luns-per-ch 2 --blks-per-pl 372 --namespace-mb 1674 --gc-thres-pcent 68 --program-ns 3000000
14x224 --no-carry --nchs 2 --luns-per-ch 7 --blks-per-pl 224 --namespace-mb 2508 --gc-thres-pcent 60 --program-ns 5000000
7x320 --carry --nchs 1 --luns-per-ch 7 --blks-per-pl 320 --namespace-mb 1680 --gc-thres-pcent 67 --program-ns 3000000
9x250 --carry --nchs 3 --luns-per-ch 3 --blks-per-pl 250 --namespace-mb 1688 --gc-thres-pcent 64 --program-ns 4000000
LIST
echo DONE; date -u
