#!/bin/sh
# The runs of bench/foreign/results/femutyped/RULE.md, one at a time, each timed to runs.log.
#   sh bench/foreign/results/femutyped/runs.sh truths|fresh|check|on
# from the worktree root (PYTHONPATH=python, the shared venv).
set -u
HERE=bench/foreign/results/femutyped
PY=/work/main/.venv/bin/python
HARNESS=/work/foreign-build/femu/femu-bbssd-harness
LOG=$HERE/runs.log
export PYTHONPATH=python
timed() {  # name, command...
    name=$1; shift
    /usr/bin/time -f "%U+%S CPU s, %e s wall: $name" -a -o $LOG nice -n 10 "$@"
}
case $1 in
truths)
    while read stem opts; do
        [ -f $HERE/fresh/$stem.json ] && continue
        timed "truth $stem" $PY bench/foreign/femu.py --binary $HARNESS --work /tmp/femutyped-$stem \
            $opts --qd-sweep 4@40 --out $HERE/fresh/$stem.json
    done <<'LIST'
femu-39lun-40blk-thres66 --nchs 3 --luns-per-ch 13 --blks-per-pl 40 --namespace-mb 1092 --gc-thres-pcent 66
femu-45lun-36blk-thres71 --nchs 5 --luns-per-ch 9 --blks-per-pl 36 --namespace-mb 1170 --gc-thres-pcent 71
femu-49lun-34blk-thres62 --nchs 7 --luns-per-ch 7 --blks-per-pl 34 --namespace-mb 1176 --gc-thres-pcent 62
LIST
    ;;
fresh)
    for f in $HERE/fresh/*.json; do
        stem=$(basename $f .json)
        SCOREBOARD_CASES=../femutyped/fresh-off timed "off $stem" \
            $PY bench/foreign/results/scoreboard/run.py one $HERE/fresh $stem FEMU
        SCOREBOARD_CASES=../femutyped/fresh-on EVALUATE_FLAGS="steep_pair.READ_AS_FLOOR=True" \
            timed "on $stem" $PY bench/foreign/results/scoreboard/run.py one $HERE/fresh $stem FEMU
    done
    ;;
check)
    R=bench/foreign/results
    for a in "$R femu FEMU" "$R/byfig5/unseen femu-6lun-240blk-thres68 FEMU" "$R/ssdsim ssdsim-a SSDsim"; do
        set -- $a
        SCOREBOARD_CASES=../femutyped/check-off timed "check-off $2" \
            $PY bench/foreign/results/scoreboard/run.py one $1 $2 $3
    done
    ;;
on)
    SCOREBOARD_CASES=../femutyped/cases-on SCOREBOARD_BUDGET_CPU_S=1000 SCOREBOARD_STOP_UTC=10:05 \
        EVALUATE_FLAGS="steep_pair.READ_AS_FLOOR=True" \
        timed "on arm, the 72" $PY bench/foreign/results/scoreboard/run.py all
    ;;
esac
