#!/bin/sh
# The runs of bench/results/burstplain/RULE.md, one at a time (femufix's timed.sh), from the
# worktree's root:
#   sh bench/results/burstplain/runs.sh HARNESS WORK >> bench/results/burstplain/runs.log 2>&1
set -u
H=$1 W=$2 R=bench/results/burstplain PY=${PY:-/work/main/.venv/bin/python}
E="$PY bench/foreign/femu_end_to_end.py" T=bench/foreign/results/femufix/timed.sh
BOTH="--late-start --plain-without-cycle"
mkdir -p $W $R/femu $R/stored $R/guard $R/check
lean() { rm -rf "$1/fit" "$1/progress.log"; }
for drive in "femu-52lun-56blk-thres55-3800us-ns82 --nchs 4 --luns-per-ch 13 --blks-per-pl 56 --namespace-mb 2388 --gc-thres-pcent 55 --program-ns 3800000" \
        "femu-56lun-50blk-thres52-4300us-ns84 --nchs 7 --luns-per-ch 8 --blks-per-pl 50 --namespace-mb 2352 --gc-thres-pcent 52 --program-ns 4300000" \
        "femu-60lun-46blk-thres54-3300us-ns80 --nchs 5 --luns-per-ch 12 --blks-per-pl 46 --namespace-mb 2208 --gc-thres-pcent 54 --program-ns 3300000"; do
    set -- $drive; n=$1; shift
    [ -e $R/femu/$n-both/run.json ] && continue
    sh $T truth-$n $W $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 \
        --qd 32 --qd-sweep '' --drive-writes 30 "$@" --out $R/femu/$n.json
    sh $T off-$n $W $E measure --binary $H --out $R/femu/$n-off --onset-from-empty \
        --spare-from-onset --reserve-gate "$@"
    for arm in late plain both; do
        case $arm in late) f=--late-start;; plain) f=--plain-without-cycle;; both) f=$BOTH;; esac
        sh $T $arm-$n $W $E repredict --case $R/femu/$n-off --out $R/femu/$n-$arm \
            --spare-from-onset --reserve-gate $f --truth $R/femu/$n.json
    done
    for arm in off late plain both; do lean $R/femu/$n-$arm; done
done
[ -e $R/sim.jsonl ] || sh $T sim $W $PY bench/results/burstplain/sim_runs.py --seeds 9623,9624 --out $R/sim.jsonl
# the stored off arms' check: predicted again with this commit's code
B=bench/results/burststart F=bench/foreign/results/femuwin
c=femu-37lun-74blk-thres53-3450us-ns84
sh $T check-$c $W $E repredict --case bench/foreign/results/femudeadline/$c --out $R/check/stored-$c-off \
    --truth bench/foreign/results/gatefix/$c.json
c=femu-33lun-82blk-thres56-3750us-ns81
sh $T check-$c $W $E repredict --case bench/foreign/results/gatefix/$c-on --out $R/check/guard-$c-off \
    --spare-from-onset --reserve-gate --truth bench/foreign/results/gatefix/$c.json
while read case truth cname; do
    [ -e $R/stored/$cname-both/run.json ] && continue
    sh $T stored-$cname-both $W $E repredict --case $case --out $R/stored/$cname-both \
        --truth $truth $BOTH
    lean $R/stored/$cname-both
done < $B/stored_half.txt
PYTHONPATH=python $PY bench/foreign/results/femuwin/judge.py --list > $W/list.txt
grep '^guard ' $W/list.txt | while read _ gname folder truth; do
    [ -e $R/guard/$gname-both/run.json ] && continue
    sh $T guard-$gname-both $W $E repredict --case $folder --out $R/guard/$gname-both \
        --spare-from-onset --reserve-gate $BOTH --truth $truth
    lean $R/guard/$gname-both
done
for d in $R/check/*; do lean $d; done
echo DONE; date -u
