#!/bin/sh
# The runs of bench/foreign/results/mqfixed/RULE.md, one at a time, each timed to runs.log
# (user + system CPU s by /usr/bin/time; the MQSim driver logs its own in fresh/runs.log).
#   sh bench/foreign/results/mqfixed/runs.sh truths|fresh|seen
# from the worktree root (the shared venv; PYTHONPATH=python).
set -u
. bench/foreign/timed.sh  # PY, PYTHONPATH, timed NAME COMMAND... (CPU s into $LOG)
HERE=bench/foreign/results/mqfixed LOG=bench/foreign/results/mqfixed/runs.log
ON="bend_between.GATE_AT_ONE_LEVEL=True"
FRESH="u704x16 u1248x16 u672x32 u928x16"
SEEN="mqsim-retry/unseen/u1536x16 mqsim-retry/unseen/u320x32 mqsim-retry/unseen/u384x64
mqsim-retry/unseen/u512x32 mqsim-retry/unseen/u640x16 mqsim-retry/unseen/u768x32
jointband/fresh/u1344x16 jointband/fresh/u480x32 mqbend/fresh/u1088x16 mqbend/fresh/u352x32
mqline/fresh/u1184x16 mqline/fresh/u1472x16 mqline/fresh/u288x32 mqline/fresh/u608x32"
one() {  # the arm's folder, its flags, the levels asked, the truth
    EVALUATE_FLAGS="$2" timed "$1 $4" $PY bench/foreign/results/mqfixed/arms.py "$1" "$3" "$4"
}
case $1 in
truths)  # as bench/foreign/results/mqgate/runs.sh: mqskip's run_fresh.py into fresh/ here
    mkdir -p $HERE/fresh
    for stem in $FRESH; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY \
            bench/foreign/results/mqskip/run_fresh.py --out-dir $HERE/fresh \
            --binary /work/foreign-build/mqsim/patched/MQSim --work /tmp/mqfixed-mqsim $stem
    done
    ;;
fresh)
    for stem in $FRESH; do
        t=$HERE/fresh/$stem.json
        [ -f "$t" ] || continue
        one fresh-off-plan "" plan "$t"
        one fresh-on-plan "$ON" plan "$t"
        one fresh-off-few "" 0,20,40 "$t"
        one fresh-on-few "$ON" 0,20,40 "$t"
    done
    ;;
seen)
    for t in $SEEN; do one seen-on-few "$ON" 0,20,40 bench/foreign/results/$t.json; done
    ;;
esac
