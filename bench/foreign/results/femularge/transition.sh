#!/bin/sh
# Diagnosis (b) (seen drives only, nothing predicted): the transition levels the seen FEMU
# drives' truths flag unsettled (femu.py's own rule) and the twin missed or nearly missed
# (J2 20%, H2 10%, J1 30%, 14 x 224 30%), each run again by femu.py from empty for 30 span writes
# instead of 12 (the same drive, the same seed: its first 12 are the truth's series). From the
# worktree's root:
#   sh bench/foreign/results/femularge/transition.sh HARNESS WORK >> bench/foreign/results/femularge/runs.log 2>&1
set -u
H=$1; W=$2; S=bench/foreign/results; R=$S/femularge/transition
PY=${PY:-/work/main/.venv/bin/python}
while read truth level; do
    n=$(basename $truth .json)-op$level
    opts=$($PY -c "import json,sys; c=json.load(open(sys.argv[1]))['command']; print(c.split('--drive-writes 12 ')[1].split(' --out')[0])" $S/$truth)
    date -u; uptime
    PYTHONPATH=python /usr/bin/time -f "%U+%S CPU s, %e s wall: $n" nice -n 10 \
        $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op $level --qd 32 --qd-sweep '' \
        --drive-writes 30 $opts --out $R/$n.json > $W/$n.out 2>&1
    echo "exit $?: $n"
done <<LIST
gate14/femu-21lun-130blk-thres74-3700us-ns85.json 20
femu40/femu-3lun-430blk-thres73-4200us.json 10
gate14/femu-19lun-150blk-thres62-4600us-ns80.json 30
femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80.json 30
LIST
echo DONE; date -u
