#!/bin/sh
# The runs of bench/foreign/results/femu40/RULE.md, one at a time, from the worktree's root:
#   sh bench/foreign/results/femu40/runs.sh HARNESS WORK >> bench/foreign/results/femu40/runs.log 2>&1
set -u
H=$1; W=$2; R=bench/foreign/results/femu40; S=bench/foreign/results
PY=${PY:-/work/main/.venv/bin/python}
run() { name=$1; shift; date -u; uptime
    PYTHONPATH=python /usr/bin/time -o "$W/$name.time" -f "%U+%S CPU s, %e s wall: $name" nice -n 10 "$@" > "$W/$name.out" 2>&1
    echo "exit $?: $name"; cat "$W/$name.time"; }
# the fresh drives (as run at 23:46 UTC a `while read` over a here-document; the same commands)
for drive in "femu-17lun-210blk-thres61-3400us --nchs 1 --luns-per-ch 17 --blks-per-pl 210 --namespace-mb 2678 --gc-thres-pcent 61 --program-ns 3400000" \
        "femu-3lun-430blk-thres73-4200us --nchs 3 --luns-per-ch 1 --blks-per-pl 430 --namespace-mb 968 --gc-thres-pcent 73 --program-ns 4200000"; do
    set -- $drive; n=$1; shift
    run truth-$n $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 --qd 32 --qd-sweep '' --drive-writes 12 "$@" --out $R/$n.json
    run on-$n $PY bench/foreign/femu_end_to_end.py measure --binary $H --out $R/$n-on --onset-from-empty --spare-from-onset --discard-iops "$@"
    run off-$n $PY bench/foreign/femu_end_to_end.py repredict --case $R/$n-on --out $R/$n-off --spare-from-onset --truth $R/$n.json
done
# condition 3: the stored cases predicted again without and with the flag: femu0's eight
# (read from bench/foreign/results/femu0/runs.sh; as run at 23:46 UTC they stood here, moved for
# the duplicates check: the same commands) and femu0's G1 and G2
{ sed -n '/^onset-default5\/femu\//,/^onset-tolerant\/femu-5lun/p' $S/femu0/runs.sh
  echo "femu0/femu-13lun-270blk-thres71-3300us-on femu0/femu-13lun-270blk-thres71-3300us.json"
  echo "femu0/femu-4lun-410blk-thres63-3800us-on femu0/femu-4lun-410blk-thres63-3800us.json"
} | while read case truth; do
    n=$(basename $case)
    for arm in off on; do
        flag=$([ $arm = on ] && echo --discard-iops)
        run stored-$n-$arm $PY bench/foreign/femu_end_to_end.py repredict --case $S/$case --out $R/stored/$n-$arm --spare-from-onset $flag --truth $S/$truth
    done
done
echo DONE; date -u
