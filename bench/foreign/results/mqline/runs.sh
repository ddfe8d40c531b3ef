#!/bin/sh
# The runs of bench/foreign/results/mqline/RULE.md, one at a time, each timed to runs.log
# (user + system CPU s by /usr/bin/time; the MQSim driver logs its own in fresh/runs.log).
#   sh bench/foreign/results/mqline/runs.sh truths|seen|fresh
# from the worktree root (the shared venv; PYTHONPATH=python).
set -u
HERE=bench/foreign/results/mqline
R=bench/foreign/results
PY=/work/main/.venv/bin/python
LOG=$HERE/runs.log
ON="bend_between.LINE_BETWEEN=True"
export PYTHONPATH=python
timed() {  # name, command...
    name=$1; shift
    /usr/bin/time -f "%U+%S CPU s, %e s wall: $name" -a -o $LOG nice -n 10 "$@"
}
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
truths)
    for stem in $MQSIM; do
        [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" $PY -c "
import importlib.util, pathlib
p = pathlib.Path('bench/foreign/results/mqskip/run_fresh.py')
s = importlib.util.spec_from_file_location('mqskip_run_fresh', p)
m = importlib.util.module_from_spec(s); s.loader.exec_module(m)
m.HERE = pathlib.Path('$HERE').resolve()
raise SystemExit(m.main(['--binary', '/work/foreign-build/mqsim/patched/MQSim',
                         '--work', '/tmp/mqline-mqsim', '$stem']))"
    done
    ;;
seen) arm seen-off "" $R/mqsim-retry/unseen "$SEEN"; arm seen-on "$ON" $R/mqsim-retry/unseen "$SEEN" ;;
fresh) arm fresh-off "" $HERE/fresh "$MQSIM"; arm fresh-on "$ON" $HERE/fresh "$MQSIM" ;;
esac
