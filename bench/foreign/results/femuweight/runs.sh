#!/bin/sh
# The runs of bench/foreign/results/femuweight/RULE.md, one at a time, each timed to runs.log.
#   sh bench/foreign/results/femuweight/runs.sh truths|fresh|seen
# from the worktree root (PYTHONPATH=python, the shared venv).
set -u
HERE=bench/foreign/results/femuweight
R=bench/foreign/results
PY=/work/main/.venv/bin/python
RUN=bench/foreign/results/scoreboard/run.py
HARNESS=/work/foreign-build/femu/femu-bbssd-harness
LOG=$HERE/runs.log
A="steep_pair.READ_AS_FLOOR=True"
B="steep_pair.READ_AS_FLOOR=True; reserve_held_out.SAME_FORM_ONLY=True"
export PYTHONPATH=python
timed() {  # name, command...
    name=$1; shift
    /usr/bin/time -f "%U+%S CPU s, %e s wall: $name" -a -o $LOG nice -n 10 "$@"
}
one() {  # cases folder (under scoreboard/), flags, truth folder, stem
    SCOREBOARD_CASES=../femuweight/$1 EVALUATE_FLAGS="$2" timed "$1 $4" \
        $PY $RUN one $3 $4 FEMU
}
case $1 in
truths)  # the fresh FEMU drives of RULE.md (drives.txt: stem, bench/foreign/femu.py options)
    while read stem opts; do
        [ -f $HERE/fresh/$stem.json ] && continue
        timed "truth $stem" $PY bench/foreign/femu.py --binary $HARNESS \
            --work /tmp/femuweight-$stem $opts --qd-sweep 4@40 --out $HERE/fresh/$stem.json
    done < $HERE/drives.txt
    ;;
fresh)  # each fresh truth in arm A and arm B
    while read stem opts; do
        one fresh-a "$A" $HERE/fresh $stem
        one fresh-b "$B" $HERE/fresh $stem
    done < $HERE/drives.txt
    ;;
seen)  # the 3 of the 72 READ_AS_FLOOR reads (the only ones the flag can change), both arms
    while read folder stem; do
        one seen-a "$A" $folder $stem
        one seen-b "$B" $folder $stem
    done <<LIST
$R/byfig5/unseen femu-6lun-240blk-thres68
$R/femufix femu-11lun-290blk-thres69-3200us-on
$R/gatefix femu-33lun-82blk-thres56-3750us-ns81
LIST
    ;;
esac
