#!/bin/sh
# Condition 3 of bench/foreign/results/onset-tolerant/RULE.md: the six stored FEMU cases with a
# binding reserve predicted again with discard_transient.SPARE_FROM_ONSET off and on, one at a
# time: sh bench/foreign/results/onset-tolerant/stored.sh WORK >> .../runs.log 2>&1
set -u
W=$1; R=bench/foreign/results/onset-tolerant/stored; S=bench/foreign/results
PY=${PY:-/work/main/.venv/bin/python}
mkdir -p $R
for pair in \
    onset-default5/femu/femu-10lun-260blk-thres66-3500us-flag-s1=onset-default5/femu/femu-10lun-260blk-thres66-3500us.json \
    onset-default3/femu/femu-8lun-300blk-thres70-4ms-on=onset-default3/femu/femu-8lun-300blk-thres70-4ms.json \
    femu-end-to-end/femu-6lun-372blk-thres68-3ms-on=femu-end-to-end/femu-6lun-372blk-thres68-3ms.json \
    femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80-on=femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80.json \
    settle40/femu-7lun-320blk-thres67-3ms-on=settle40/femu-7lun-320blk-thres67-3ms.json \
    settle40/femu-9lun-250blk-thres64-4ms-on=settle40/femu-9lun-250blk-thres64-4ms.json; do
    case=${pair%%=*}; truth=${pair#*=}; n=$(basename $case)
    for arm in off on; do
        flag=""; [ $arm = on ] && flag=--spare-from-onset
        date -u; uptime
        PYTHONPATH=python /usr/bin/time -f "%U+%S CPU s, %e s wall: stored $n $arm" nice -n 15 \
            $PY bench/foreign/femu_end_to_end.py repredict --case $S/$case --out $R/$n-$arm \
            --truth $S/$truth $flag > $W/stored-$n-$arm.json 2>$W/stored-$n-$arm.err
        echo "exit $?: stored $n $arm"; tail -1 $W/stored-$n-$arm.err
    done
done
echo DONE; date -u
