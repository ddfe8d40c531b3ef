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
            $PY bench/foreign/results/scoreboard/run.py one $2 $3 FEMU || return 1
    done
}
truth() {  # STEM OPTIONS...: one fresh FEMU truth, unless stored
    stem=$1; shift
    [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY bench/foreign/femu.py \
        --binary /work/foreign-build/femu/femu-bbssd-harness --work /tmp/femutwin-$stem \
        "$@" --qd-sweep 4@40 --out $HERE/fresh/$stem.json
}
# truths: drives.txt (stem, bench/foreign/femu.py options); fresh: each truth in both arms;
# seen: seen.txt, the 3 of the 72 READ_AS_FLOOR reads (the only ones offering a reserve twin).
# Reshaped after the runs (seen list to seen.txt, the truth loop a function; same commands).
case $1 in
truths) while read stem opts; do truth $stem $opts; done < $HERE/drives.txt ;;
fresh) while read stem opts; do arms fresh $HERE/fresh $stem; done < $HERE/drives.txt ;;
seen) while read folder stem; do arms seen $folder $stem; done < $HERE/seen.txt ;;
esac
