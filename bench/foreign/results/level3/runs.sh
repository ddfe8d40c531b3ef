#!/bin/sh
# The runs of bench/foreign/results/level3/RULE.md, one at a time, each timed to runs.log:
#   sh bench/foreign/results/level3/runs.sh truths|cases|seen
# from the worktree root (the shared venv; PYTHONPATH=python). Laid out again after the runs
# (the duplicates check: midlevel/runs.sh had the same header), the same commands.
set -u
LOG=bench/foreign/results/level3/runs.log
. bench/foreign/timed.sh  # PY, PYTHONPATH, timed NAME COMMAND... (CPU s into $LOG)
D=bench/foreign/results/level3
CASES=bench/foreign/results/level3/cases.py
case $1 in
truths)  # FEMU's older defaults (gc_thres_pcent 75), then MQSim's patched build
    mkdir -p $D/fresh
    femu_truth $D/fresh femu-72lun-40blk-thres75 --nchs 1 --luns-per-ch 72 --blks-per-pl 40 \
        --namespace-mb 2160 --gc-thres-pcent 75
    femu_truth $D/fresh femu-78lun-36blk-thres75 --nchs 1 --luns-per-ch 78 --blks-per-pl 36 \
        --namespace-mb 2106 --gc-thres-pcent 75
    for stem in u928x32 u1856x16; do mqsim_truth $D/fresh $stem; done
    ;;
cases)
    for pair in femu-72lun-40blk-thres75:FEMU femu-78lun-36blk-thres75:FEMU u928x32:MQSim \
                u1856x16:MQSim; do
        stem=${pair%%:*}
        [ -f $D/fresh/$stem.json ] && timed "cases $stem" $PY $CASES fresh \
            $D/fresh $stem ${pair#*:}
    done
    ;;
seen)  # midlevel's ten seen truths where its plan test fired and femud4's four (a report)
    timed "seen" $PY $CASES seen \
        MQSim--mqsim-retry_unseen--u512x32 MQSim--mqsim-retry_unseen--u640x16 \
        MQSim--mqsim-retry_unseen--u768x32 MQSim--mqsim-retry_unseen--u1536x16 \
        MQSim--mqsim-retry_unseen--u320x32 MQSim--mqsim-retry_unseen--u384x64 \
        MQSim--mqsim-reserve_unseen--u1024x32-op12 FEMU--byfig5_unseen--femu-6lun-240blk-thres68 \
        FEMU--femufix--femu-11lun-290blk-thres69-3200us-on \
        FEMU--gatefix--femu-33lun-82blk-thres56-3750us-ns81 FEMU--top--femu \
        FEMU--femu-midlevel--femu-8luns FEMU--femu-units--femu-16luns \
        FEMU--femu-units--femu-32luns-400us
    ;;
esac
