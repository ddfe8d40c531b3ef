#!/bin/sh
# The runs of bench/foreign/results/midlevel/RULE.md, one at a time, each timed to runs.log.
#   sh bench/foreign/results/midlevel/runs.sh truths|cases
# from the worktree root (the shared venv; PYTHONPATH=python).
set -u
HERE=bench/foreign/results/midlevel
LOG=$HERE/runs.log
. bench/foreign/timed.sh  # PY, PYTHONPATH, timed NAME COMMAND... (CPU s into $LOG)
MQSIM="u1664x16 u864x32 u1760x16"
FEMU="femu-71lun-45blk-thres65 --nchs 1 --luns-per-ch 71 --blks-per-pl 45 --namespace-mb 2272 --gc-thres-pcent 65
femu-73lun-40blk-thres62 --nchs 1 --luns-per-ch 73 --blks-per-pl 40 --namespace-mb 1971 --gc-thres-pcent 62"
case $1 in
truths)
    mkdir -p $HERE/fresh
    echo "$FEMU" | while read stem opts; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY bench/foreign/femu.py \
            --binary /work/foreign-build/femu/femu-bbssd-harness --work /tmp/midlevel-$stem \
            $opts --qd-sweep 4@40 --out $HERE/fresh/$stem.json
    done
    for stem in $MQSIM; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY \
            bench/foreign/results/mqskip/run_fresh.py --out-dir $HERE/fresh \
            --binary /work/foreign-build/mqsim/patched/MQSim --work /tmp/midlevel-mqsim $stem
    done
    ;;
cases)
    for stem in femu-71lun-45blk-thres65 femu-73lun-40blk-thres62; do
        [ -f $HERE/fresh/$stem.json ] && timed "cases $stem" $PY bench/foreign/results/midlevel/typed.py fresh \
            $HERE/fresh $stem FEMU
    done
    for stem in $MQSIM; do
        [ -f $HERE/fresh/$stem.json ] && timed "cases $stem" $PY bench/foreign/results/midlevel/typed.py fresh \
            $HERE/fresh $stem MQSim
    done
    ;;
esac
