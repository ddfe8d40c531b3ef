#!/bin/sh
# The runs of bench/results/reservespare/RULE.md, one at a time (femufix's timed.sh), from the
# worktree's root:
#   sh bench/results/reservespare/runs.sh HARNESS WORK measure >> bench/results/reservespare/runs.log 2>&1
#   sh bench/results/reservespare/runs.sh HARNESS WORK predict >> bench/results/reservespare/runs.log 2>&1
# measure: the two fresh drives' truths and measurements (no flag of the candidate involved);
# predict: every repredict with the candidate's flags, the off-arm check and the generated drives.
set -u
H=$1 W=$2 STAGE=$3 R=bench/results/reservespare PY=${PY:-/work/main/.venv/bin/python}
E="$PY bench/foreign/femu_end_to_end.py" T=bench/foreign/results/femufix/timed.sh
BP=bench/results/burstplain BS=bench/results/burststart
BOTH="--late-start --spare-near-onset"
mkdir -p $W $R/femu $R/stored $R/guard $R/check
lean() { rm -rf "$1/fit" "$1/progress.log"; }
FRESH="femu-64lun-44blk-thres53-3600us-ns83 --nchs 8 --luns-per-ch 8 --blks-per-pl 44 --namespace-mb 2337 --gc-thres-pcent 53 --program-ns 3600000
femu-66lun-42blk-thres56-4000us-ns81 --nchs 6 --luns-per-ch 11 --blks-per-pl 42 --namespace-mb 2245 --gc-thres-pcent 56 --program-ns 4000000"
if [ "$STAGE" = measure ]; then
    echo "$FRESH" | while read n args; do
        [ -e $R/femu/$n-off/run.json ] && continue
        sh $T truth-$n $W $PY bench/foreign/femu.py --binary $H --work $W/$n --extra-op 0,10,20,30,40 \
            --qd 32 --qd-sweep '' --drive-writes 30 $args --out $R/femu/$n.json
        sh $T off-$n $W $E measure --binary $H --out $R/femu/$n-off --onset-from-empty \
            --spare-from-onset --reserve-gate $args
        lean $R/femu/$n-off
    done
    echo DONE measure; date -u; exit 0
fi
# the fresh drives, new (femu/) and burstplain's (its NAME-off, NAME-late kept there)
for n in $(echo "$FRESH" | cut -d' ' -f1) femu-52lun-56blk-thres55-3800us-ns82 \
        femu-56lun-50blk-thres52-4300us-ns84 femu-60lun-46blk-thres54-3300us-ns80; do
    case $n in femu-6[46]lun*) src=$R/femu; arms="late near both";; *) src=$BP/femu; arms="near both";; esac
    for arm in $arms; do
        [ -e $R/femu/$n-$arm/run.json ] && continue
        case $arm in late) f=--late-start;; near) f=--spare-near-onset;; both) f=$BOTH;; esac
        sh $T $arm-$n $W $E repredict --case $src/$n-off --out $R/femu/$n-$arm \
            --spare-from-onset --reserve-gate $f --truth $src/$n.json
        lean $R/femu/$n-$arm
    done
done
[ -e $R/sim.jsonl ] || sh $T sim $W $PY bench/results/reservespare/sim_runs.py --seeds 9651,9652 --out $R/sim.jsonl
# the stored off arms' check: predicted again with this commit's code (burstplain's)
while read kind c src flags; do
    [ -e $R/check/$kind-$c-off/run.json ] || sh $T check-$c $W $E repredict --case $src \
        --out $R/check/$kind-$c-off $flags --truth bench/foreign/results/gatefix/$c.json
done <<LIST
stored femu-37lun-74blk-thres53-3450us-ns84 bench/foreign/results/femudeadline/femu-37lun-74blk-thres53-3450us-ns84
guard femu-33lun-82blk-thres56-3750us-ns81 bench/foreign/results/gatefix/femu-33lun-82blk-thres56-3750us-ns81-on --spare-from-onset --reserve-gate
LIST
# burststart's half B, then femuwin's guards (--spare-from-onset --reserve-gate), with both flags
{ while read case truth cname; do echo "stored $cname $case $truth"; done < $BS/stored_half.txt
  PYTHONPATH=python $PY bench/foreign/results/femuwin/judge.py --list | grep '^guard ' |
      while read _ g folder truth; do
      echo "guard $g $folder $truth --spare-from-onset --reserve-gate"; done
} | while read kind name case truth flags; do
    [ -e $R/$kind/$name-both/run.json ] && continue
    sh $T $kind-$name-both $W $E repredict --case $case --out $R/$kind/$name-both $flags \
        $BOTH --truth $truth
    lean $R/$kind/$name-both
done
for d in $R/check/*; do lean $d; done
echo DONE predict; date -u
