#!/bin/sh
# The runs of bench/foreign/results/femunext/RULE.md, one at a time, each timed to runs.log.
#   sh bench/foreign/results/femunext/runs.sh seen|check|truths|fresh|on
# from the worktree root (PYTHONPATH=python, the shared venv).
set -u
HERE=bench/foreign/results/femunext
R=bench/foreign/results
RUN=bench/foreign/results/scoreboard/run.py
HARNESS=/work/foreign-build/femu/femu-bbssd-harness
LOG=$HERE/runs.log
ON="steep_pair.READ_AS_FLOOR=True; reserve_next.NEXT_READING=True"
. bench/foreign/timed.sh  # PY, PYTHONPATH=python and timed (to $LOG); sourced since 2026-11-29 12:35 UTC, after the runs (the same function and settings the runs had inline)
one() {  # cases folder (under scoreboard/), flags, truth folder, stem
    SCOREBOARD_CASES=../femunext/$1 EVALUATE_FLAGS="$2" timed "$1 $4" \
        $PY $RUN one $3 $4 FEMU
}
case $1 in
seen)  # the seen FEMU truths (8 of the 72, 5 fresh of femutyped and steephull), both flags on
    while read folder stem; do
        [ -f $HERE/seen-on/FEMU--*--$stem.json ] && continue
        one seen-on "$ON" $folder $stem
    done <<LIST
$R femu
$R/femu-units femu-16luns
$R/femu-units femu-32luns-400us
$R/femu-midlevel femu-8luns
$R/byfig5/unseen femu-14lun-136blk-thres84-180us
$R/byfig5/unseen femu-6lun-240blk-thres68
$R/femufix femu-11lun-290blk-thres69-3200us-on
$R/gatefix femu-33lun-82blk-thres56-3750us-ns81
$R/femutyped/fresh femu-39lun-40blk-thres66
$R/femutyped/fresh femu-45lun-36blk-thres71
$R/femutyped/fresh femu-49lun-34blk-thres62
$R/steephull/fresh femu-51lun-38blk-thres67
$R/steephull/fresh femu-55lun-37blk-thres61
LIST
    ;;
check)  # the off arm of the 72 is scoreboard/cases-mix: three of them re-run off
    while read folder stem family; do
        SCOREBOARD_CASES=../femunext/check-off timed "check-off $stem" \
            $PY $RUN one $folder $stem $family
    done <<LIST
$R femu FEMU
$R/byfig5/unseen femu-6lun-240blk-thres68 FEMU
$R/ssdsim ssdsim-a SSDsim
LIST
    ;;
truths)  # the fresh FEMU drives of RULE.md (drives.txt: stem, bench/foreign/femu.py options)
    while read stem opts; do
        [ -f $HERE/fresh/$stem.json ] && continue
        timed "truth $stem" $PY bench/foreign/femu.py --binary $HARNESS --work /tmp/femunext-$stem \
            $opts --qd-sweep 4@40 --out $HERE/fresh/$stem.json
    done < $HERE/drives.txt
    ;;
fresh)  # each fresh truth off and with both flags on
    while read stem opts; do
        one fresh-off "" $HERE/fresh $stem
        one fresh-on "$ON" $HERE/fresh $stem
    done < $HERE/drives.txt
    ;;
on)  # the 72 with both flags on
    SCOREBOARD_CASES=../femunext/cases-on SCOREBOARD_BUDGET_CPU_S=1000 SCOREBOARD_STOP_UTC=12:35 \
        EVALUATE_FLAGS="$ON" timed "on arm, the 72" $PY $RUN all
    ;;
esac
