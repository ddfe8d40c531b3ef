#!/bin/sh
# The runs of bench/foreign/results/narrowsix/RULE.md, one at a time, each timed to runs.log
# (user + system CPU s by /usr/bin/time), in the rule's order:
#   sh bench/foreign/results/narrowsix/runs.sh truths fresh erase72 rest72
# from the worktree root (the shared venv; PYTHONPATH=python).
set -u
HERE=bench/foreign/results/narrowsix
LOG=$HERE/runs.log
. bench/foreign/timed.sh  # PY, PYTHONPATH=python and timed (to $LOG)
HULL="steep_pair.HULL_WHERE_AMBIGUOUS=True"
NVMEVIRT="nvmevirt-ag 928 --partitions 1 --nchs 2 --luns-per-ch 4 --blks-per-pln 280 --flash-page-kb 16 --oneshot-page-kb 16 --prog-ns 230000 --erase-ns 3800000 --op-area 0.11
nvmevirt-ah 992 --partitions 1 --nchs 4 --luns-per-ch 2 --blks-per-pln 264 --flash-page-kb 16 --oneshot-page-kb 16 --prog-ns 250000 --erase-ns 3200000 --op-area 0.08"
FEMU="femu-68lun-39blk-thres65 --nchs 1 --luns-per-ch 68 --blks-per-pl 39 --namespace-mb 1856 --gc-thres-pcent 65
femu-70lun-44blk-thres62 --nchs 1 --luns-per-ch 70 --blks-per-pl 44 --namespace-mb 2156 --gc-thres-pcent 62"
FRESH="$HERE/fresh nvmevirt-ag NVMeVirt
$HERE/fresh nvmevirt-ah NVMeVirt
$HERE/fresh femu-68lun-39blk-thres65 FEMU
$HERE/fresh femu-70lun-44blk-thres62 FEMU
$HERE/fresh u800x32 MQSim"
flags() {  # the arm's flags with scale $1
    echo "conformal_scale.ON=True; conformal_scale.SCALE=$1; $HULL"
}
arm() {  # cases-folder, flags, "folder stem family" lines
    echo "$3" | while read folder stem family; do
        [ -f "$HERE/$1/$family--$(echo $folder | sed 's|^bench/foreign/results/*||; s|/|_|g; s|^$|top|')--$stem.json" ] \
            && continue
        SCOREBOARD_CASES=$PWD/$HERE/$1 EVALUATE_FLAGS="$2" timed "$1 $stem" \
            $PY bench/foreign/results/scoreboard/run.py one $folder $stem $family </dev/null
    done
}
on72() {  # the 72 in the scoreboard's order; $1 = erase (the 20 an erase-cost reading carries) or rest
    $PY bench/foreign/results/narrowtwo/cases.py $1 > /tmp/narrowsix-$1.txt
    while read folder stem family; do
        s=$($PY -c "from overprov.calibrate import conformal_scale as c; print(c.SCALE_WITHOUT_FAMILY['$family'])" </dev/null)
        arm arm-72 "$(flags $s)" "$folder $stem $family"
    done < /tmp/narrowsix-$1.txt
}
for step in "$@"; do
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
    s=$($PY -c "from overprov.calibrate import conformal_scale as c; print(c.SCALE)")
    arm fresh-arm "$(flags $s)" "$FRESH"
    ;;
erase72) on72 erase ;;
rest72) on72 rest ;;
esac
done
