#!/bin/sh
# The runs of bench/foreign/results/narrowband/RULE.md, one at a time, each timed to runs.log
# (user + system CPU s by /usr/bin/time).
#   sh bench/foreign/results/narrowband/runs.sh joint72|truths|fresh|alone
# from the worktree root (the shared venv; PYTHONPATH=python).
set -u
HERE=bench/foreign/results/narrowband
LOG=$HERE/runs.log
. bench/foreign/timed.sh  # PY, PYTHONPATH=python and timed (to $LOG)
OTHERS="own_erase_residual.ON=True; steep_pair.HULL_WHERE_AMBIGUOUS=True"
NVMEVIRT="nvmevirt-ae 896 --partitions 1 --nchs 4 --luns-per-ch 2 --blks-per-pln 288 --flash-page-kb 16 --oneshot-page-kb 16 --prog-ns 220000 --erase-ns 4000000 --op-area 0.09"
FEMU="femu-58lun-40blk-thres66 --nchs 2 --luns-per-ch 29 --blks-per-pl 40 --namespace-mb 1624 --gc-thres-pcent 66
femu-62lun-38blk-thres63 --nchs 2 --luns-per-ch 31 --blks-per-pl 38 --namespace-mb 1649 --gc-thres-pcent 63"
FRESH="$HERE/fresh nvmevirt-ae NVMeVirt
$HERE/fresh ssdsim-nb-t SSDsim
$HERE/fresh femu-58lun-40blk-thres66 FEMU
$HERE/fresh femu-62lun-38blk-thres63 FEMU"
joint() {  # the joint arm's flags with scale $1
    echo "conformal_scale.ON=True; conformal_scale.SCALE=$1; $OTHERS"
}
arm() {  # cases-folder, flags, "folder stem family" lines
    echo "$3" | while read folder stem family; do
        [ -f "$HERE/$1/$family--$(echo $folder | sed 's|^bench/foreign/results/*||; s|/|_|g; s|^$|top|')--$stem.json" ] \
            && continue
        SCOREBOARD_CASES=$PWD/$HERE/$1 EVALUATE_FLAGS="$2" timed "$1 $stem" \
            $PY bench/foreign/results/scoreboard/run.py one $folder $stem $family </dev/null
    done
}
case $1 in
joint72)  # the 72 in the scoreboard's order, each with the scale measured without its family
    $PY -c "
import sys; sys.path.insert(0, 'bench/foreign'); sys.path.insert(0, 'bench')
from common import load_script
run = load_script('scoreboard_run', 'bench/foreign/results/scoreboard/run.py')
for fam, folder, stem in run.order(): print(folder, stem, fam)" > /tmp/narrowband-72.txt
    while read folder stem family; do
        s=$($PY -c "from overprov.calibrate import conformal_scale as c; print(c.SCALE_WITHOUT_FAMILY['$family'])" </dev/null)
        arm joint-72 "$(joint $s)" "$folder $stem $family"
    done < /tmp/narrowband-72.txt
    ;;
truths)
    mkdir -p $HERE/fresh
    echo "$NVMEVIRT" | while read stem mb opts; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY bench/foreign/nvmevirt.py \
            --binary /work/foreign-build/nvmevirt/nvmevirt-conv-harness \
            --work /tmp/narrowband-$stem --capacity-mb $mb --drive "$opts" \
            --out $HERE/fresh/$stem.json
    done
    [ -f $HERE/fresh/ssdsim-nb-t.json ] || timed "truth ssdsim-nb-t" $PY bench/foreign/ssdsim.py \
        --binary /work/foreign-build/ssdsim/ssdsim-harness --work /tmp/narrowband-ssdsim-nb-t \
        --geometry 2,1,2,1,168,64 --overprovide 0.15 --gc-hard-threshold 0.05 \
        --t-prog-ns 280000 --seed 2929 --pattern uniform --details '' \
        --extra-op 0,10,20,30,40 --qd-sweep 4@0,40 --drive-writes 12 \
        --out $HERE/fresh/ssdsim-nb-t.json
    echo "$FEMU" | while read stem opts; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY bench/foreign/femu.py \
            --binary /work/foreign-build/femu/femu-bbssd-harness --work /tmp/narrowband-$stem \
            $opts --qd-sweep 4@40 --out $HERE/fresh/$stem.json
    done
    ;;
fresh)
    arm fresh-defaults "" "$FRESH"
    s=$($PY -c "from overprov.calibrate import conformal_scale as c; print(c.SCALE)")
    arm fresh-joint "$(joint $s)" "$FRESH"
    ;;
alone)
    s=$($PY -c "from overprov.calibrate import conformal_scale as c; print(c.SCALE)")
    arm fresh-alone "conformal_scale.ON=True; conformal_scale.SCALE=$s" "$FRESH"
    ;;
esac
