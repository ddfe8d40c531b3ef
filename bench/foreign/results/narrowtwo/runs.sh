#!/bin/sh
# The runs of bench/foreign/results/narrowtwo/RULE.md, one at a time, each timed to runs.log
# (user + system CPU s by /usr/bin/time), in the rule's order:
#   sh bench/foreign/results/narrowtwo/runs.sh truths fresh erase72 rest72
# from the worktree root (the shared venv; PYTHONPATH=python).
set -u
HERE=bench/foreign/results/narrowtwo
LOG=$HERE/runs.log
. bench/foreign/timed.sh  # PY, PYTHONPATH=python and timed (to $LOG)
HULL="steep_pair.HULL_WHERE_AMBIGUOUS=True"
NVMEVIRT="nvmevirt-af 960 --partitions 1 --nchs 2 --luns-per-ch 4 --blks-per-pln 272 --flash-page-kb 16 --oneshot-page-kb 16 --prog-ns 240000 --erase-ns 3500000 --op-area 0.10"
FEMU="femu-41lun-36blk-thres64 --nchs 1 --luns-per-ch 41 --blks-per-pl 36 --namespace-mb 1033 --gc-thres-pcent 64
femu-67lun-42blk-thres61 --nchs 1 --luns-per-ch 67 --blks-per-pl 42 --namespace-mb 1969 --gc-thres-pcent 61"
FRESH="$HERE/fresh nvmevirt-af NVMeVirt
$HERE/fresh ssdsim-nt-u SSDsim
$HERE/fresh femu-41lun-36blk-thres64 FEMU
$HERE/fresh femu-67lun-42blk-thres61 FEMU
$HERE/fresh u1056x16 MQSim"
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
    $PY bench/foreign/results/narrowtwo/cases.py $1 > /tmp/narrowtwo-$1.txt
    while read folder stem family; do
        s=$($PY -c "from overprov.calibrate import conformal_scale as c; print(c.SCALE_WITHOUT_FAMILY['$family'])" </dev/null)
        arm arm-72 "$(flags $s)" "$folder $stem $family"
    done < /tmp/narrowtwo-$1.txt
}
for step in "$@"; do
case $step in
truths)
    mkdir -p $HERE/fresh
    echo "$NVMEVIRT" | while read stem mb opts; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY bench/foreign/nvmevirt.py \
            --binary /work/foreign-build/nvmevirt/nvmevirt-conv-harness \
            --work /tmp/narrowtwo-$stem --capacity-mb $mb --drive "$opts" \
            --out $HERE/fresh/$stem.json
    done
    [ -f $HERE/fresh/ssdsim-nt-u.json ] || timed "truth ssdsim-nt-u" $PY bench/foreign/ssdsim.py \
        --binary /work/foreign-build/ssdsim/ssdsim-harness --work /tmp/narrowtwo-ssdsim-nt-u \
        --geometry 2,1,2,1,176,64 --overprovide 0.14 --gc-hard-threshold 0.05 \
        --t-prog-ns 260000 --seed 3131 --pattern uniform --details '' \
        --extra-op 0,10,20,30,40 --qd-sweep 4@0,40 --drive-writes 12 \
        --out $HERE/fresh/ssdsim-nt-u.json
    echo "$FEMU" | while read stem opts; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY bench/foreign/femu.py \
            --binary /work/foreign-build/femu/femu-bbssd-harness --work /tmp/narrowtwo-$stem \
            $opts --qd-sweep 4@40 --out $HERE/fresh/$stem.json
    done
    [ -f $HERE/fresh/u1056x16.json ] || timed "truth u1056x16" $PY \
        bench/foreign/results/mqskip/run_fresh.py --binary /work/foreign-build/mqsim/patched/MQSim \
        --work /tmp/narrowtwo-mqsim --out-dir $HERE/fresh u1056x16
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
