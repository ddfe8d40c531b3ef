#!/bin/sh
# The runs of bench/foreign/results/narrowsix/RULE.md, one at a time, each timed to runs.log
# (user + system CPU s by /usr/bin/time), in the rule's order:
#   sh bench/foreign/results/narrowsix/runs.sh truths fresh erase72 rest72
# from the worktree root (the shared venv; PYTHONPATH=python). The arms are narrowtwo's
# (bench/foreign/results/narrowtwo/runs.sh's `flags`, `arm`, `on72`: the 72 in
# bench/foreign/results/narrowtwo/cases.py's order, each family on the scale measured without
# it), pointed at this folder; only the fresh truths are this rule's. (Refactored after the runs
# to reuse narrowtwo's functions; the commands are those that ran: checked by a dry run.)
set -u
steps="$*"
set --
. bench/foreign/results/narrowtwo/runs.sh  # defines flags, arm, on72 (no step given: runs none)
HERE=bench/foreign/results/narrowsix
LOG=$HERE/runs.log
FRESH="$HERE/fresh nvmevirt-ag NVMeVirt
$HERE/fresh nvmevirt-ah NVMeVirt
$HERE/fresh femu-68lun-39blk-thres65 FEMU
$HERE/fresh femu-70lun-44blk-thres62 FEMU
$HERE/fresh u800x32 MQSim"
NVMEVIRT="nvmevirt-ag 928 --partitions 1 --nchs 2 --luns-per-ch 4 --blks-per-pln 280 --flash-page-kb 16 --oneshot-page-kb 16 --prog-ns 230000 --erase-ns 3800000 --op-area 0.11
nvmevirt-ah 992 --partitions 1 --nchs 4 --luns-per-ch 2 --blks-per-pln 264 --flash-page-kb 16 --oneshot-page-kb 16 --prog-ns 250000 --erase-ns 3200000 --op-area 0.08"
FEMU="femu-68lun-39blk-thres65 --nchs 1 --luns-per-ch 68 --blks-per-pl 39 --namespace-mb 1856 --gc-thres-pcent 65
femu-70lun-44blk-thres62 --nchs 1 --luns-per-ch 70 --blks-per-pl 44 --namespace-mb 2156 --gc-thres-pcent 62"
for step in $steps; do
    case $step in
    truths)
        mkdir -p $HERE/fresh
        echo "$NVMEVIRT" | while read stem mb opts; do
            [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY bench/foreign/nvmevirt.py \
                --binary /work/foreign-build/nvmevirt/nvmevirt-conv-harness \
                --work /tmp/narrowsix-$stem --capacity-mb $mb --drive "$opts" \
                --out $HERE/fresh/$stem.json
        done
        echo "$FEMU" | while read stem opts; do
            [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY bench/foreign/femu.py \
                --binary /work/foreign-build/femu/femu-bbssd-harness --work /tmp/narrowsix-$stem \
                $opts --qd-sweep 4@40 --out $HERE/fresh/$stem.json
        done
        [ -f $HERE/fresh/u800x32.json ] || timed "truth u800x32" $PY \
            bench/foreign/results/mqskip/run_fresh.py --binary /work/foreign-build/mqsim/patched/MQSim \
            --work /tmp/narrowsix-mqsim --out-dir $HERE/fresh u800x32
        ;;
    fresh)
        arm fresh-defaults "" "$FRESH"
        arm fresh-arm "$(flags $($PY -c "from overprov.calibrate import conformal_scale as c; print(c.SCALE)"))" "$FRESH"
        ;;
    erase72) on72 erase ;;
    rest72) on72 rest ;;
    esac
done
