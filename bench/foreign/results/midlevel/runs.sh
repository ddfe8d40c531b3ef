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
truths)  # run 2026-11-29 16:45-16:55 UTC as the same commands inline (work dirs /tmp/midlevel-*)
    mkdir -p $HERE/fresh
    echo "$FEMU" | while read stem opts; do femu_truth $HERE/fresh $stem $opts; done
    for stem in $MQSIM; do mqsim_truth $HERE/fresh $stem; done
    ;;
cases)
    for pair in femu-71lun-45blk-thres65:FEMU femu-73lun-40blk-thres62:FEMU u1664x16:MQSim \
                u864x32:MQSim u1760x16:MQSim; do
        stem=${pair%%:*}
        [ -f $HERE/fresh/$stem.json ] && timed "cases $stem" $PY \
            bench/foreign/results/midlevel/typed.py fresh $HERE/fresh $stem ${pair#*:}
    done
    ;;
esac
