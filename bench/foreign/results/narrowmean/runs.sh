#!/bin/sh
# The runs of bench/foreign/results/narrowmean/RULE.md, one at a time, each timed to runs.log
# (user + system CPU s by /usr/bin/time):
#   sh bench/foreign/results/narrowmean/runs.sh erase72 rest72     (the 72, the long pole)
#   sh bench/foreign/results/narrowmean/runs.sh truths fresh        (the fresh truths, then arms)
# from the worktree root (the shared venv; PYTHONPATH=python). narrowtwo's `arm` and its case
# order (bench/foreign/results/narrowtwo/runs.sh, cases.py); `flags` and `on72` redefined here:
# the hull off, each family of the 72 on conformal_scale.SCALE_MEAN_WITHOUT_FAMILY, the fresh
# truths on conformal_scale.SCALE_MEAN. (The truths' step refactored after the runs onto
# bench/foreign/timed.sh's nvmevirt_truth and femu_truth: the same commands but the --work
# folder's name, checked by a dry run.)
set -u
steps="$*"
set --
. bench/foreign/results/narrowtwo/runs.sh  # defines flags, arm, on72 (no step given: runs none)
HERE=bench/foreign/results/narrowmean
LOG=$HERE/runs.log
flags() {  # the arm's flags with scale $1 (the hull off)
    echo "conformal_scale.ON=True; conformal_scale.SCALE=$1"
}
on72() {  # the 72 in narrowtwo's order; $1 = erase or rest
    $PY bench/foreign/results/narrowtwo/cases.py $1 > /tmp/narrowmean-$1.txt
    while read folder stem family; do
        s=$($PY -c "from overprov.calibrate import conformal_scale as c; print(c.SCALE_MEAN_WITHOUT_FAMILY['$family'])" </dev/null)
        arm arm-72 "$(flags $s)" "$folder $stem $family"
    done < /tmp/narrowmean-$1.txt
}
FRESH="$HERE/fresh nvmevirt-ai NVMeVirt
$HERE/fresh nvmevirt-aj NVMeVirt
$HERE/fresh femu-74lun-41blk-thres63 FEMU
$HERE/fresh femu-75lun-43blk-thres66 FEMU"
NVMEVIRT="nvmevirt-ai 944 --partitions 1 --nchs 2 --luns-per-ch 4 --blks-per-pln 288 --flash-page-kb 16 --oneshot-page-kb 16 --prog-ns 220000 --erase-ns 3600000 --op-area 0.09
nvmevirt-aj 976 --partitions 1 --nchs 4 --luns-per-ch 2 --blks-per-pln 256 --flash-page-kb 16 --oneshot-page-kb 16 --prog-ns 260000 --erase-ns 3000000 --op-area 0.12"
FEMU="femu-74lun-41blk-thres63 --nchs 1 --luns-per-ch 74 --blks-per-pl 41 --namespace-mb 2123 --gc-thres-pcent 63
femu-75lun-43blk-thres66 --nchs 1 --luns-per-ch 75 --blks-per-pl 43 --namespace-mb 2257 --gc-thres-pcent 66"
for step in $steps; do
    case $step in
    truths)
        mkdir -p $HERE/fresh
        echo "$NVMEVIRT" | while read stem mb opts; do nvmevirt_truth $HERE/fresh $stem $mb "$opts"; done
        echo "$FEMU" | while read stem opts; do femu_truth $HERE/fresh $stem $opts; done
        ;;
    fresh)
        arm fresh-defaults "" "$FRESH"
        arm fresh-arm "$(flags $($PY -c "from overprov.calibrate import conformal_scale as c; print(c.SCALE_MEAN)"))" "$FRESH"
        ;;
    erase72) on72 erase ;;
    rest72) on72 rest ;;
    esac
done
