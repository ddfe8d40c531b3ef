#!/bin/sh
# The runs of bench/foreign/results/onset-tolerant/RULE.md, one at a time, from the worktree's
# root: sh bench/foreign/results/onset-tolerant/runs.sh HARNESS WORK >> .../runs.log 2>&1
set -u
H=$1; W=$2; R=bench/foreign/results/onset-tolerant; S=bench/foreign/results
PY=${PY:-/work/main/.venv/bin/python}
F1="--nchs 1 --luns-per-ch 11 --blks-per-pl 290 --namespace-mb 2392 --gc-thres-pcent 69 --program-ns 3200000"
F2="--nchs 1 --luns-per-ch 5 --blks-per-pl 400 --namespace-mb 1500 --gc-thres-pcent 86 --program-ns 2800000"
run() { name=$1; shift; date -u; uptime
    PYTHONPATH=python /usr/bin/time -f "%U+%S CPU s, %e s wall: $name" nice -n 15 "$@" > "$W/$name.out" 2>&1
    echo "exit $?: $name"; tail -1 "$W/$name.out"; }
for d in F1 F2; do
    eval opts=\$$d
    case $d in F1) n=femu-11lun-290blk-thres69-3200us;; F2) n=femu-5lun-400blk-thres86-2800us;; esac
    run truth-$n $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 --qd 32 --qd-sweep '' --drive-writes 12 $opts --out $R/$n.json
    run off-$n $PY bench/foreign/femu_end_to_end.py measure --binary $H --out $R/$n-off $opts
    run on-$n $PY bench/foreign/femu_end_to_end.py measure --binary $H --out $R/$n-on --onset-from-empty --spare-from-onset $opts
    run onsetonly-$n $PY bench/foreign/femu_end_to_end.py repredict --case $R/$n-on --out $R/$n-onsetonly --truth $R/$n.json
done
echo DONE; date -u
