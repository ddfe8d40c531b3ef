#!/bin/sh
# The runs of bench/foreign/results/femularge/RULE.md, one at a time, from the worktree's root:
#   sh bench/foreign/results/femularge/runs.sh HARNESS WORK >> bench/foreign/results/femularge/runs.log 2>&1
set -u
H=$1 W=$2 R=bench/foreign/results/femularge PY=${PY:-/work/main/.venv/bin/python}
E="$PY bench/foreign/femu_end_to_end.py"
M="--onset-from-empty --spare-from-onset --reserve-gate"
run() {  # NAME COMMAND...: one run, its exit status and CPU seconds (/usr/bin/time) to stdout
    name=$1; shift; date -u; uptime
    PYTHONPATH=python /usr/bin/time -o "$W/$name.time" -f "%U+%S CPU s, %e s wall: $name" nice -n 10 "$@" > "$W/$name.out" 2>&1
    echo "exit $?: $name"; cat "$W/$name.time"
}
mkdir -p $W $R/stored
PYTHONPATH=python $PY bench/foreign/results/femularge/judge.py --list > $W/list.txt
# the fresh drives: FEMU's truth (30 span writes), the gate's arm, the default, the round rate's
grep '^fresh ' $W/list.txt | while read _ n opts; do
    run truth-$n $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 --qd 32 --qd-sweep '' --drive-writes 30 $opts --out $R/$n.json
    run on-$n $E measure --binary $H --out $R/$n-on --no-round-rate $M $opts
    run off-$n $E repredict --case $R/$n-on --out $R/$n-off --spare-from-onset --truth $R/$n.json
    run rate-$n $E measure --binary $H --out $R/$n-rate --round-rate $M $opts
    run rateoff-$n $E repredict --case $R/$n-rate --out $R/$n-rateoff --spare-from-onset --truth $R/$n.json
done
# the seen drives: the stored default with the gate; measured again with and without the round rate
grep '^seen ' $W/list.txt | while read _ n default opts; do
    run gate-$n $E repredict --case $default --out $R/stored/$n-on --spare-from-onset --reserve-gate
    run base-$n $E measure --binary $H --out $R/stored/$n-base --no-round-rate $M $opts
    run baseoff-$n $E repredict --case $R/stored/$n-base --out $R/stored/$n-baseoff --spare-from-onset
    run rate-$n $E measure --binary $H --out $R/stored/$n-rate --round-rate $M $opts
    run rateoff-$n $E repredict --case $R/stored/$n-rate --out $R/stored/$n-rateoff --spare-from-onset
done
echo DONE; date -u
