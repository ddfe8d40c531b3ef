#!/bin/bash
# RULE.md's cases on the fresh drives, one at a time (run from the worktree root): the plan case
# off and on by the scoreboard's `one`, then the third-level cases (third_level.py); CPU s of
# each `one` by /usr/bin/time (user + system) into runs.log, third_level.py logs its own.
set -u
HERE=bench/foreign/results/mqbend
PY="nice -n 10 /work/main/.venv/bin/python"
export PYTHONPATH=python
for stem in "$@"; do
  for arm in off on; do
    flags=""; [ "$arm" = on ] && flags="bend_between.WARN_WHERE_BENT=True"
    /usr/bin/time -f "plan case $arm $stem: CPU %U+%S rc %x" -a -o $HERE/runs.log \
      env SCOREBOARD_CASES="$PWD/$HERE/fresh-$arm" EVALUATE_FLAGS="$flags" \
      $PY bench/foreign/results/scoreboard/run.py one $HERE/fresh "$stem" MQSim
  done
  $PY bench/foreign/results/mqbend/third_level.py 20+40 $HERE/fresh-20-40 $HERE/fresh/"$stem".json
  $PY bench/foreign/results/mqbend/third_level.py 0+20+40 $HERE/fresh-0-20-40 $HERE/fresh/"$stem".json
done
