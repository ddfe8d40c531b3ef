#!/bin/sh
# The runs of bench/foreign/results/femu40/RULE.md, one at a time, from the worktree's root:
#   sh bench/foreign/results/femu40/runs.sh HARNESS WORK >> bench/foreign/results/femu40/runs.log 2>&1
set -u
H=$1; W=$2; R=bench/foreign/results/femu40; S=bench/foreign/results
PY=${PY:-/work/main/.venv/bin/python}
run() { name=$1; shift; date -u; uptime
    PYTHONPATH=python /usr/bin/time -o "$W/$name.time" -f "%U+%S CPU s, %e s wall: $name" nice -n 10 "$@" > "$W/$name.out" 2>&1
    echo "exit $?: $name"; cat "$W/$name.time"; }
while read n opts; do
    run truth-$n $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 --qd 32 --qd-sweep '' --drive-writes 12 $opts --out $R/$n.json
    run on-$n $PY bench/foreign/femu_end_to_end.py measure --binary $H --out $R/$n-on --onset-from-empty --spare-from-onset --discard-iops $opts
    run off-$n $PY bench/foreign/femu_end_to_end.py repredict --case $R/$n-on --out $R/$n-off --spare-from-onset --truth $R/$n.json
done <<LIST
femu-17lun-210blk-thres61-3400us --nchs 1 --luns-per-ch 17 --blks-per-pl 210 --namespace-mb 2678 --gc-thres-pcent 61 --program-ns 3400000
femu-3lun-430blk-thres73-4200us --nchs 3 --luns-per-ch 1 --blks-per-pl 430 --namespace-mb 968 --gc-thres-pcent 73 --program-ns 4200000
LIST
# condition 3: the stored cases predicted again without and with the flag
while read case truth; do
    n=$(basename $case)
    run stored-$n-off $PY bench/foreign/femu_end_to_end.py repredict --case $S/$case --out $R/stored/$n-off --spare-from-onset --truth $S/$truth
    run stored-$n-on $PY bench/foreign/femu_end_to_end.py repredict --case $S/$case --out $R/stored/$n-on --spare-from-onset --discard-iops --truth $S/$truth
done <<LIST
onset-default5/femu/femu-10lun-260blk-thres66-3500us-flag-s1 onset-default5/femu/femu-10lun-260blk-thres66-3500us.json
onset-default3/femu/femu-8lun-300blk-thres70-4ms-on onset-default3/femu/femu-8lun-300blk-thres70-4ms.json
femu-end-to-end/femu-6lun-372blk-thres68-3ms-on femu-end-to-end/femu-6lun-372blk-thres68-3ms.json
femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80-on femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80.json
settle40/femu-7lun-320blk-thres67-3ms-on settle40/femu-7lun-320blk-thres67-3ms.json
settle40/femu-9lun-250blk-thres64-4ms-on settle40/femu-9lun-250blk-thres64-4ms.json
onset-tolerant/femu-11lun-290blk-thres69-3200us-on onset-tolerant/femu-11lun-290blk-thres69-3200us.json
onset-tolerant/femu-5lun-400blk-thres86-2800us-on onset-tolerant/femu-5lun-400blk-thres86-2800us.json
femu0/femu-13lun-270blk-thres71-3300us-on femu0/femu-13lun-270blk-thres71-3300us.json
femu0/femu-4lun-410blk-thres63-3800us-on femu0/femu-4lun-410blk-thres63-3800us.json
LIST
echo DONE; date -u
