#!/bin/sh
# The runs of bench/foreign/results/mqline/RULE.md, one at a time, each timed to runs.log
# (user + system CPU s by /usr/bin/time; the MQSim driver logs its own in fresh/runs.log).
#   sh bench/foreign/results/mqline/runs.sh truths|seen|fresh
# from the worktree root (the shared venv; PYTHONPATH=python).
set -u
. bench/foreign/timed.sh  # PY, PYTHONPATH, timed NAME COMMAND... (CPU s into $LOG)
HERE=bench/foreign/results/mqline LOG=bench/foreign/results/mqline/runs.log
R=bench/foreign/results ON="bend_between.LINE_BETWEEN=True"
MQSIM="u288x32 u608x32 u1184x16 u1472x16"
SEEN="u1536x16 u320x32 u384x64 u512x32 u640x16 u768x32"
arm() {  # cases-folder, flags, truth folder, stems
    for stem in $4; do
        SCOREBOARD_CASES=$PWD/$HERE/$1 EVALUATE_FLAGS="$2" timed "$1 $stem" \
            $PY bench/foreign/results/scoreboard/run.py one $3 $stem MQSim
    done
}
mkdir -p $HERE/fresh
case $1 in
truths)  # run as bench/foreign/results/mqskip/run_fresh.py loaded with its HERE set here, as --out-dir does
    for stem in $MQSIM; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY \
            bench/foreign/results/mqskip/run_fresh.py --out-dir $HERE/fresh \
            --binary /work/foreign-build/mqsim/patched/MQSim --work /tmp/mqline-mqsim $stem
    done
    ;;
seen) arm seen-off "" $R/mqsim-retry/unseen "$SEEN"; arm seen-on "$ON" $R/mqsim-retry/unseen "$SEEN" ;;
fresh) arm fresh-off "" $HERE/fresh "$MQSIM"; arm fresh-on "$ON" $HERE/fresh "$MQSIM" ;;
esac
