#!/bin/sh
# Diagnosis (c) (seen drives only, nothing predicted): gate14's J1-J3 measured again by
# calibrate's plan as gate14's runs.sh measured them (the same options, the harness's seed 1),
# then 3 drive writes more of uniform random writes at QD32 at 0% after the plan's 0% level, the
# WAF and IOPS of every 0.025 (run_on-0.json): FEMU's long run-on figure after the window the
# burst cycle reads (as bench/foreign/results/femu0/runon.sh did for the 75% drives). From the
# worktree's root:
#   sh bench/foreign/results/femularge/runon.sh HARNESS WORK >> bench/foreign/results/femularge/runs.log 2>&1
set -u
H=$1; W=$2; R=bench/foreign/results/femularge/runon
PY=${PY:-/work/main/.venv/bin/python}
mkdir -p $R
grep '^drive femu-' bench/foreign/results/gate14/runs.sh | while read _ name opts; do
    date -u; uptime
    PYTHONPATH=python /usr/bin/time -f "%U+%S CPU s, %e s wall: run-on $name" nice -n 10 \
        $PY bench/foreign/femu_end_to_end.py measure --binary $H --out $W/$name \
        --onset-from-empty --spare-from-onset $opts \
        --run-on 3 --run-on-levels 0 --run-on-step 0.025 > $W/$name.out 2>&1
    echo "exit $?: $name"; tail -1 $W/$name.out
    cp $W/$name/run_on-0.json $R/$name.json; cp $W/$name/progress.log $R/$name.progress.log
    cp $W/$name/measurement.json $R/$name.measurement.json
done
echo DONE; date -u
