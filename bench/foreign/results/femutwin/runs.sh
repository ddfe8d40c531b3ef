#!/bin/sh
# The runs of bench/foreign/results/femutwin/RULE.md, one at a time, each timed to runs.log.
#   sh bench/foreign/results/femutwin/runs.sh truths|fresh|seen
# from the worktree root (PYTHONPATH=python, the shared venv).
set -u
HERE=bench/foreign/results/femutwin
R=bench/foreign/results
LOG=$HERE/runs.log
A="steep_pair.READ_AS_FLOOR=True; reserve_held_out.SAME_FORM_ONLY=True"
B="$A; reserve_plateau.ON=True"
. bench/foreign/timed.sh  # PY, PYTHONPATH=python and timed (to $LOG)
arms() {  # PREFIX TRUTH-FOLDER STEM: the scoreboard's FEMU case in arm A (PREFIX-a/), then B
    for arm in a b; do
        [ $arm = a ] && flags=$A || flags=$B
        SCOREBOARD_CASES=../femutwin/$1-$arm EVALUATE_FLAGS="$flags" timed "$1-$arm $3" \
            $PY $R/scoreboard/run.py one $2 $3 FEMU || return 1
    done
}
case $1 in
truths)  # the fresh FEMU drives of RULE.md (drives.txt: stem, bench/foreign/femu.py options)
    while read stem opts; do
        [ -f $HERE/fresh/$stem.json ] && continue
        timed "truth $stem" $PY bench/foreign/femu.py \
            --binary /work/foreign-build/femu/femu-bbssd-harness --work /tmp/femutwin-$stem \
            $opts --qd-sweep 4@40 --out $HERE/fresh/$stem.json
    done < $HERE/drives.txt
    ;;
fresh)  # each fresh truth in arm A and arm B
    while read stem opts; do arms fresh $HERE/fresh $stem; done < $HERE/drives.txt
    ;;
seen)  # the 3 of the 72 READ_AS_FLOOR reads (the only ones offering a reserve twin), both arms
    while read folder stem; do arms seen $folder $stem; done <<LIST
$R/byfig5/unseen femu-6lun-240blk-thres68
$R/femufix femu-11lun-290blk-thres69-3200us-on
$R/gatefix femu-33lun-82blk-thres56-3750us-ns81
LIST
    ;;
esac
