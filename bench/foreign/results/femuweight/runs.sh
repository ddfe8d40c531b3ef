#!/bin/sh
# The runs of bench/foreign/results/femuweight/RULE.md, one at a time, each timed to runs.log.
#   sh bench/foreign/results/femuweight/runs.sh truths|fresh|seen
# from the worktree root (PYTHONPATH=python, the shared venv).
set -u
HERE=bench/foreign/results/femuweight R=bench/foreign/results
A="steep_pair.READ_AS_FLOOR=True"
B="$A; reserve_held_out.SAME_FORM_ONLY=True"
# logged NAME COMMAND...: the command under nice -n 10, its CPU s (user + system) into runs.log
logged() {
    label=$1; shift
    PYTHONPATH=python /usr/bin/time -f "%U+%S CPU s, %e s wall: $label" -a -o $HERE/runs.log \
        nice -n 10 "$@"
}
# one ARM-FOLDER FLAGS TRUTH-FOLDER STEM: the scoreboard's FEMU case for that truth, in that arm
one() {
    SCOREBOARD_CASES=../femuweight/$1 EVALUATE_FLAGS="$2" logged "$1 $4" \
        /work/main/.venv/bin/python bench/foreign/results/scoreboard/run.py one $3 $4 FEMU
}
# arms PREFIX TRUTH-FOLDER STEM: the case in arm A (PREFIX-a/) then arm B (PREFIX-b/)
arms() {
    one $1-a "$A" $2 $3 && one $1-b "$B" $2 $3
}
case $1 in
truths)  # the fresh FEMU drives of RULE.md (drives.txt: stem, bench/foreign/femu.py options)
    while read stem opts; do
        [ -f $HERE/fresh/$stem.json ] && continue
        logged "truth $stem" /work/main/.venv/bin/python bench/foreign/femu.py \
            --binary /work/foreign-build/femu/femu-bbssd-harness --work /tmp/femuweight-$stem \
            $opts --qd-sweep 4@40 --out $HERE/fresh/$stem.json
    done < $HERE/drives.txt
    ;;
fresh)  # each fresh truth in arm A and arm B
    while read stem opts; do arms fresh $HERE/fresh $stem; done < $HERE/drives.txt
    ;;
seen)  # the 3 of the 72 READ_AS_FLOOR reads (the only ones the flag can change), both arms
    while read folder stem; do arms seen $folder $stem; done <<LIST
$R/byfig5/unseen femu-6lun-240blk-thres68
$R/femufix femu-11lun-290blk-thres69-3200us-on
$R/gatefix femu-33lun-82blk-thres56-3750us-ns81
LIST
    ;;
esac
