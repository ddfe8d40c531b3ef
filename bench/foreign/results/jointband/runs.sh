#!/bin/sh
# The runs of bench/foreign/results/jointband/RULE.md, one at a time, each timed to runs.log
# (user + system CPU s by /usr/bin/time; the MQSim driver logs its own in fresh/runs.log).
#   sh bench/foreign/results/jointband/runs.sh truths|check|arms
# from the worktree root (the shared venv; PYTHONPATH=python).
set -u
HERE=bench/foreign/results/jointband
R=bench/foreign/results
LOG=$HERE/runs.log
JOINT="own_erase_residual.ON=True; steep_pair.HULL_WHERE_AMBIGUOUS=True; bend_between.SPAN_TO_LINE=True"
. bench/foreign/timed.sh  # PY, PYTHONPATH=python and timed (to $LOG); sourced since 2026-11-29 12:35 UTC, after the runs (the same function and settings the runs had inline)
# RULE.md's fresh NVMeVirt drives: stem, capacity MB, harness options
NVMEVIRT="nvmevirt-ac 1024 --partitions 1 --nchs 2 --luns-per-ch 4 --blks-per-pln 256 --flash-page-kb 16 --oneshot-page-kb 16 --prog-ns 300000 --erase-ns 5000000 --op-area 0.08
nvmevirt-ad 768 --partitions 2 --nchs 4 --luns-per-ch 1 --blks-per-pln 320 --flash-page-kb 16 --oneshot-page-kb 32 --prog-ns 250000 --erase-ns 3000000 --op-area 0.11"
FEMU="femu-42lun-39blk-thres65 --nchs 6 --luns-per-ch 7 --blks-per-pl 39 --namespace-mb 1134 --gc-thres-pcent 65"
MQSIM="u480x32 u1344x16"
# RULE.md's C4 cases: folder stem family
CHECK="$R/mqsim-retry/unseen u768x32 MQSim
$R/erasecost nvmevirt-c NVMeVirt
$R/byfig5/unseen femu-6lun-240blk-thres68 FEMU
$R/ssdsim ssdsim-a SSDsim"
FRESH="$HERE/fresh nvmevirt-ac NVMeVirt
$HERE/fresh nvmevirt-ad NVMeVirt
$HERE/fresh u480x32 MQSim
$HERE/fresh u1344x16 MQSim
$HERE/fresh femu-42lun-39blk-thres65 FEMU"
arm() {  # cases-folder, flags, list
    echo "$3" | while read folder stem family; do
        SCOREBOARD_CASES=$PWD/$HERE/$1 EVALUATE_FLAGS="$2" timed "$1 $stem" \
            $PY bench/foreign/results/scoreboard/run.py one $folder $stem $family
    done
}
mkdir -p $HERE/fresh
case $1 in
truths)
    echo "$NVMEVIRT" | while read stem mb opts; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY bench/foreign/nvmevirt.py \
            --binary /work/foreign-build/nvmevirt/nvmevirt-conv-harness \
            --work /tmp/jointband-$stem --capacity-mb $mb --drive "$opts" \
            --out $HERE/fresh/$stem.json
    done
    echo "$FEMU" | while read stem opts; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY bench/foreign/femu.py \
            --binary /work/foreign-build/femu/femu-bbssd-harness --work /tmp/jointband-$stem \
            $opts --qd-sweep 4@40 --out $HERE/fresh/$stem.json
    done
    for stem in $MQSIM; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY -c "
import importlib.util, pathlib
p = pathlib.Path('bench/foreign/results/mqskip/run_fresh.py')
s = importlib.util.spec_from_file_location('mqskip_run_fresh', p)
m = importlib.util.module_from_spec(s); s.loader.exec_module(m)
m.HERE = pathlib.Path('$HERE').resolve()
raise SystemExit(m.main(['--binary', '/work/foreign-build/mqsim/patched/MQSim',
                         '--work', '/tmp/jointband-mqsim', '$stem']))"
    done
    ;;
check) arm check-joint "$JOINT" "$CHECK" ;;
arms) arm fresh-defaults "" "$FRESH"; arm fresh-joint "$JOINT" "$FRESH" ;;
esac
