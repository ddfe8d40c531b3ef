#!/bin/sh
# Diagnosis (a) (seen drives, nothing predicted): each seen reserve-bound drive of
# bench/foreign/results/femu0/runon.sh (its list, read from there) measured again by calibrate's
# plan (both switches on, as stored), then 3 drive writes more of uniform random writes at QD32
# over the 40% level's span after that level, the WAF and IOPS of every 0.025 (run_on-40.json):
# how FEMU's IOPS move after the plan's 40% window. From the worktree's root:
#   sh bench/foreign/results/femu40/runon.sh HARNESS WORK >> bench/foreign/results/femu40/runs.log 2>&1
# (As run at 23:41 UTC the list stood here and each run's time went to WORK/NAME.out; reading
# the list from femu0's script, for the duplicates check, runs the same commands.)
set -u
H=$1; W=$2; R=bench/foreign/results/femu40/runon
PY=${PY:-/work/main/.venv/bin/python}
mkdir -p $R
sed -n '/^F1-11x290 /,/^9x250 /p' bench/foreign/results/femu0/runon.sh | while read name carry opts; do
    date -u; uptime
    PYTHONPATH=python /usr/bin/time -f "%U+%S CPU s, %e s wall: run-on $name" nice -n 10 \
        $PY bench/foreign/femu_end_to_end.py measure --binary $H --out $W/$name \
        --onset-from-empty --spare-from-onset $carry $opts \
        --run-on 3 --run-on-levels 40 --run-on-step 0.025 > $W/$name.out 2>&1
    echo "exit $?: $name"; tail -1 $W/$name.out
    cp $W/$name/run_on-40.json $R/$name.json; cp $W/$name/progress.log $R/$name.progress.log
    cp $W/$name/measurement.json $R/$name.measurement.json
done
echo DONE; date -u
