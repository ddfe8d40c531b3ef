#!/bin/sh
# The runs of bench/foreign/results/gate14/RULE.md, one at a time, from the worktree's root:
#   sh bench/foreign/results/gate14/runs.sh HARNESS WORK >> bench/foreign/results/gate14/runs.log 2>&1
# (restructured after the runs for the duplicates check: the same commands, in the same order)
set -u
H=$1 W=$2 R=bench/foreign/results/gate14 S=bench/foreign/results PY=${PY:-/work/main/.venv/bin/python}
run() {  # NAME COMMAND...: one run, its exit status and CPU seconds (/usr/bin/time) to stdout
    name=$1; shift; date -u; uptime
    PYTHONPATH=python /usr/bin/time -o "$W/$name.time" -f "%U+%S CPU s, %e s wall: $name" nice -n 10 "$@" > "$W/$name.out" 2>&1
    echo "exit $?: $name"; cat "$W/$name.time"
}
drive() {  # NAME OPTIONS...: FEMU's truth, the case measured with the flag on, the default
    n=$1; shift
    run truth-$n $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 --qd 32 --qd-sweep '' --drive-writes 12 "$@" --out $R/$n.json
    run on-$n $PY bench/foreign/femu_end_to_end.py measure --binary $H --out $R/$n-on --onset-from-empty --spare-from-onset --reserve-gate "$@"
    run off-$n $PY bench/foreign/femu_end_to_end.py repredict --case $R/$n-on --out $R/$n-off --spare-from-onset --truth $R/$n.json
}
drive femu-19lun-150blk-thres62-4600us-ns80 --nchs 1 --luns-per-ch 19 --blks-per-pl 150 --namespace-mb 2280 --gc-thres-pcent 62 --program-ns 4600000
drive femu-21lun-130blk-thres74-3700us-ns85 --nchs 3 --luns-per-ch 7 --blks-per-pl 130 --namespace-mb 2320 --gc-thres-pcent 74 --program-ns 3700000
drive femu-23lun-118blk-thres58-4300us-ns85 --nchs 1 --luns-per-ch 23 --blks-per-pl 118 --namespace-mb 2306 --gc-thres-pcent 58 --program-ns 4300000
# conditions 2-3: femu40's stored cases (their -off folders are today's defaults) and its H1, H2
for case in $(ls -d $S/femu40/stored/*-off | sed 's/-off$//') $S/femu40/femu-17lun-210blk-thres61-3400us $S/femu40/femu-3lun-430blk-thres73-4200us; do
    n=$(basename $case)
    run stored-$n $PY bench/foreign/femu_end_to_end.py repredict --case $case-off --out $R/stored/$n-on --spare-from-onset --reserve-gate
done
echo DONE; date -u
