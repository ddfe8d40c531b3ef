#!/bin/sh
# The runs of bench/foreign/results/steephull/RULE.md, one at a time, each timed to runs.log.
#   sh bench/foreign/results/steephull/runs.sh truths|off|on|check
# from the worktree root (PYTHONPATH=python, the shared venv).
set -u
HERE=bench/foreign/results/steephull
R=bench/foreign/results
HARNESS=/work/foreign-build/femu/femu-bbssd-harness
LOG=$HERE/runs.log
FLAG="steep_pair.HULL_WHERE_AMBIGUOUS=True"
. bench/foreign/timed.sh  # PY, PYTHONPATH=python and timed (to $LOG); sourced since 2026-11-29 12:35 UTC, after the runs (the same function and settings the runs had inline)
# the fresh FEMU drives (RULE.md): stem, bench/foreign/femu.py options
DRIVES="femu-51lun-38blk-thres67 --nchs 3 --luns-per-ch 17 --blks-per-pl 38 --namespace-mb 1377 --gc-thres-pcent 67
femu-55lun-37blk-thres61 --nchs 5 --luns-per-ch 11 --blks-per-pl 37 --namespace-mb 1320 --gc-thres-pcent 61"
# the cases the flag reads (fires.txt) and the fresh ones: folder stem family
READ="$R/byfig5/unseen femu-6lun-240blk-thres68 FEMU
$R/femufix femu-11lun-290blk-thres69-3200us-on FEMU
$R/gatefix femu-33lun-82blk-thres56-3750us-ns81 FEMU
$R/femutyped/fresh femu-39lun-40blk-thres66 FEMU
$R/femutyped/fresh femu-45lun-36blk-thres71 FEMU
$R/femutyped/fresh femu-49lun-34blk-thres62 FEMU
$HERE/fresh femu-51lun-38blk-thres67 FEMU
$HERE/fresh femu-55lun-37blk-thres61 FEMU"
# cases the flag does not read (fires.txt), run with it on against cases-final
CHECK="$R femu FEMU
$R/mqsim-reserve/unseen u1024x32-op12 MQSim
$R/erasegreedy nvmevirt-p NVMeVirt
$R/ssdsim ssdsim-a SSDsim"
arm() {  # cases-folder, flags, list
    echo "$3" | while read folder stem family; do
        SCOREBOARD_CASES=../steephull/$1 EVALUATE_FLAGS="$2" timed "$1 $stem" \
            $PY bench/foreign/results/scoreboard/run.py one $folder $stem $family
    done
}
case $1 in
truths)
    echo "$DRIVES" | while read stem opts; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY bench/foreign/femu.py \
            --binary $HARNESS --work /tmp/steephull-$stem $opts --qd-sweep 4@40 \
            --out $HERE/fresh/$stem.json
    done
    ;;
fires)
    $PY bench/foreign/results/steephull/fires.py > $HERE/fires.txt
    $PY bench/foreign/results/steephull/fires.py $R/femutyped/fresh-off/*.json $HERE/off/*steephull_fresh*.json > $HERE/fires-fresh.txt
    ;;
off) arm off "" "$READ" ;;
on) arm on "$FLAG" "$READ" ;;
check) arm check-on "$FLAG" "$CHECK" ;;
esac
