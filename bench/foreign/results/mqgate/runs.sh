#!/bin/sh
# The runs of bench/foreign/results/mqgate/RULE.md, one at a time, each timed to runs.log
# (user + system CPU s by /usr/bin/time; the MQSim driver logs its own in fresh/runs.log).
#   sh bench/foreign/results/mqgate/runs.sh truths|fresh|seen
# from the worktree root (the shared venv; PYTHONPATH=python).
set -u
. bench/foreign/timed.sh  # PY, PYTHONPATH, timed NAME COMMAND... (CPU s into $LOG)
HERE=bench/foreign/results/mqgate LOG=bench/foreign/results/mqgate/runs.log
GATE="bend_between.LINE_BETWEEN=True; bend_between.LINE_GATE=True"
one() {  # the arm's cases folder, its flags, the truth's folder, its stem: one plan case
    SCOREBOARD_CASES=$PWD/$HERE/$1 EVALUATE_FLAGS="$2" timed "$1 $4" \
        $PY bench/foreign/results/scoreboard/run.py one "$3" "$4" MQSim
}
case $1 in
truths)  # as bench/foreign/results/mqline/runs.sh: mqskip's run_fresh.py into fresh/ here
    mkdir -p $HERE/fresh
    for stem in u256x32 u544x32 u1120x16 u1312x16; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY \
            bench/foreign/results/mqskip/run_fresh.py --out-dir $HERE/fresh \
            --binary /work/foreign-build/mqsim/patched/MQSim --work /tmp/mqgate-mqsim $stem
    done
    ;;
fresh)
    for stem in u256x32 u544x32 u1120x16 u1312x16; do one fresh-off "" $HERE/fresh $stem; done
    for stem in u256x32 u544x32 u1120x16 u1312x16; do one fresh-on "$GATE" $HERE/fresh $stem; done
    ;;
seen)
    for stem in u1536x16 u320x32 u384x64 u512x32 u640x16 u768x32; do
        one seen-off "" bench/foreign/results/mqsim-retry/unseen $stem
        one seen-on "$GATE" bench/foreign/results/mqsim-retry/unseen $stem
    done
    ;;
esac
