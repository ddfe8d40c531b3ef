#!/bin/sh
# PLAN.md's measurements: calibrate's default plan through the fixed harness (femu_target's
# default round sizing), then (if the budget allows) each predicted again with the 0% level read
# plain; one at a time, from the worktree's root:
#   sh bench/foreign/results/femufix/measures.sh HARNESS WORK >> bench/foreign/results/femufix/runs.log 2>&1
set -u
H=$1 W=$2 R=bench/foreign/results/femufix PY=${PY:-/work/main/.venv/bin/python}
E="$PY bench/foreign/femu_end_to_end.py"
run() {  # NAME COMMAND...: one run, its exit status and CPU seconds (/usr/bin/time) to stdout
    name=$1; shift; date -u; uptime
    PYTHONPATH=python /usr/bin/time -o "$W/$name.time" -f "%U+%S CPU s, %e s wall: $name" nice -n 10 "$@" > "$W/$name.out" 2>&1
    echo "exit $?: $name"; cat "$W/$name.time"
}
mkdir -p $W $R/plain
PYTHONPATH=python $PY bench/foreign/results/femufix/judge.py --list > $W/list.txt
grep '^measure ' $W/list.txt | while read _ n opts; do
    run measure-$n $E measure --binary $H --out $R/$n --onset-from-empty --spare-from-onset $opts
done
grep '^measure ' $W/list.txt | while read _ n opts; do
    run plain-$n $E repredict --case $R/$n --out $R/plain/$n --spare-from-onset --no-through-cycle
done
echo DONE measures; date -u
