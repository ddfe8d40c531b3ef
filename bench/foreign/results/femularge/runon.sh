#!/bin/sh
# Diagnosis (c) (seen drives only, nothing predicted): gate14's J1-J3 measured again by
# calibrate's plan as gate14's runs.sh measured them (the same options, the harness's seed 1),
# then 3 drive writes more of uniform random writes at QD32 at 0% after the plan's 0% level, the
# WAF and IOPS of every 0.025 (run_on-0.json): FEMU's long run-on figure after the window the
# burst cycle reads (as bench/foreign/results/femu0/runon.sh did for the 75% drives). From the
# worktree's root (restructured after the runs for the duplicates check: the same commands):
#   sh bench/foreign/results/femularge/runon.sh HARNESS WORK >> bench/foreign/results/femularge/runs.log 2>&1
set -u
H=$1; W=$2; R=bench/foreign/results/femularge/runon
PY=${PY:-/work/main/.venv/bin/python}
mkdir -p $R
grep '^drive femu-' bench/foreign/results/gate14/runs.sh | while read _ name opts; do
    out=$W/$name; date -u; uptime
    PYTHONPATH=python /usr/bin/time -f "%U+%S CPU s, %e s wall: run-on $name" nice -n 10 \
        $PY bench/foreign/femu_end_to_end.py measure --binary $H --out $out --onset-from-empty \
        --spare-from-onset $opts --run-on 3 --run-on-levels 0 --run-on-step 0.025 > $out.out 2>&1
    echo "exit $?: $name"
    for f in run_on-0.json:.json progress.log:.progress.log measurement.json:.measurement.json; do
        cp $out/${f%%:*} $R/$name${f#*:}
    done
done
echo DONE; date -u
