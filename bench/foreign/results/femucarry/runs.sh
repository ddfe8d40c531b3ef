#!/bin/sh
# The runs of bench/foreign/results/femucarry/RULE.md, one at a time, each timed to runs.log.
#   sh bench/foreign/results/femucarry/runs.sh seen|truths|fresh|stored
# from the worktree root (PYTHONPATH=python, the shared venv).
set -u
HERE=bench/foreign/results/femucarry
LOG=$HERE/runs.log
B="steep_pair.READ_AS_FLOOR=True; reserve_held_out.SAME_FORM_ONLY=True; reserve_plateau.ON=True"
B="$B; reserve_held_out.WAF_TERMS_TOO=True; reserve_hull.FLOOR_NEEDS_SELECTIVE=True"
B="$B; reserve_hull.NONE_LINKS=True"
. bench/foreign/timed.sh  # PY, PYTHONPATH=python and timed (to $LOG)
case_in() {  # ARM PREFIX TRUTH-FOLDER STEM: the scoreboard's FEMU case in ARM (a: today's
    # defaults, b: the candidate) into PREFIX-ARM/
    [ $1 = a ] && flags="" || flags=$B
    SCOREBOARD_CASES=../femucarry/$2-$1 EVALUATE_FLAGS="$flags" timed "$2-$1 $4" \
        $PY bench/foreign/results/scoreboard/run.py one $3 $4 FEMU
}
# seen: seen.txt (seen fresh FEMU drives of earlier rules, arm b, before the rule: disclosed);
# truths: drives.txt; fresh: each fresh truth in both arms; stored: stored.txt (the cases of the
# 72 the flags can change, fires.py) in both arms. After the runs the truth step was moved
# inline from a function (the duplicates check: femutwin's had its shape); the same command.
case $1 in
seen) while read folder stem; do case_in b seen $folder $stem; done < $HERE/seen.txt ;;
truths) while read stem opts; do [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" \
    $PY bench/foreign/femu.py --binary /work/foreign-build/femu/femu-bbssd-harness \
    --work /tmp/femucarry-$stem $opts --qd-sweep 4@40 --out $HERE/fresh/$stem.json; \
    done < $HERE/drives.txt ;;  # one fresh FEMU truth a line, unless stored
fresh) while read stem opts; do for arm in a b; do case_in $arm fresh $HERE/fresh $stem; \
    done; done < $HERE/drives.txt ;;
stored) while read folder stem; do for arm in a b; do case_in $arm stored $folder $stem; \
    done; done < $HERE/stored.txt ;;
esac
