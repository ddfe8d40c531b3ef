#!/bin/sh
# Every stored FEMU end-to-end measurement predicted again with the code as it is (calibrate's
# defaults, no option): one measurement per drive, the one measured under the plan nearest
# today's (plan.ONSET_FROM_EMPTY on; graded_run.CARRY_GRADED_SURPLUS on where a carry run
# exists), judged against the drive's stored femu.py truth. Stored results are not touched;
# a case already predicted (or refused) is not run again.
#   sh bench/intervals/tally-now/repredict.sh >> bench/intervals/tally-now/runs.log 2>&1
set -u
O=bench/intervals/tally-now/femu; S=bench/foreign/results
PY=${PY:-/work/main/.venv/bin/python}
mkdir -p $O
: > $O/truths.txt  # NAME TRUTH, one case a line (bench/intervals/tally.py --now reads it)
for pair in \
    femu-end-to-end/femu-6lun-372blk-thres68-3ms-on=femu-end-to-end/femu-6lun-372blk-thres68-3ms.json \
    femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80-on=femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80.json \
    femu-end-to-end/femu-9lun-448blk-thres88-2500us-on=femu-end-to-end/femu-9lun-448blk-thres88-2500us.json \
    onset-default3/femu/femu-8lun-300blk-thres70-4ms-on=onset-default3/femu/femu-8lun-300blk-thres70-4ms.json \
    onset-default3/femu/femu-12lun-256blk-thres85-2ms-on=onset-default3/femu/femu-12lun-256blk-thres85-2ms.json \
    onset-default5/femu/femu-10lun-260blk-thres66-3500us-carryflag-s1=onset-default5/femu/femu-10lun-260blk-thres66-3500us.json \
    onset-tolerant/femu-11lun-290blk-thres69-3200us-on=onset-tolerant/femu-11lun-290blk-thres69-3200us.json \
    onset-tolerant/femu-5lun-400blk-thres86-2800us-on=onset-tolerant/femu-5lun-400blk-thres86-2800us.json \
    settle40/femu-7lun-320blk-thres67-3ms-on=settle40/femu-7lun-320blk-thres67-3ms.json \
    settle40/femu-9lun-250blk-thres64-4ms-on=settle40/femu-9lun-250blk-thres64-4ms.json \
    femu0/femu-13lun-270blk-thres71-3300us-on=femu0/femu-13lun-270blk-thres71-3300us.json \
    femu0/femu-4lun-410blk-thres63-3800us-on=femu0/femu-4lun-410blk-thres63-3800us.json; do
    case=${pair%%=*}; truth=${pair#*=}; n=$(basename $case)
    echo "$n $S/$truth" >> $O/truths.txt
    [ -s $O/$n/prediction.json ] && continue
    [ -s $O/$n/calibrate.out ] && continue  # calibrate ran and refused
    date -u
    PYTHONPATH=python /usr/bin/time -f "%U+%S CPU s, %e s wall: $n" nice -n 10 \
        $PY bench/foreign/femu_end_to_end.py repredict --case $S/$case --out $O/$n \
        --truth $S/$truth > $O/$n.verdict.json 2>$O/$n.err
    echo "exit $?: $n"; tail -1 $O/$n.err
done
echo DONE; date -u
