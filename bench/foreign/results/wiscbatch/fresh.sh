#!/bin/sh
# The fresh WiscSim truths of bench/foreign/results/wiscbatch/RULE.md, one after the other;
# CPU s from /usr/bin/time (user+sys), appended to runs.log. Run from the worktree root.
set -eu
B=/work/foreign-build/wiscsee/src/wiscsim-harness-wiscbatch
W=/work/foreign-build/wiscsee/runs/wiscbatch
O=bench/foreign/results/wiscbatch
run() {
    name=$1; shift
    date -u >> $O/runs.log
    /usr/bin/time -a -o $O/runs.log -f "$name: %U+%S CPU s" nice -n 10 \
        /work/main/.venv/bin/python bench/foreign/wiscsee.py --binary $B --work $W/$name \
        --out $O/wiscsee-$name.json --drive-writes 24 --reports-per-round 4 --fix-move-race "$@" \
        >> $O/runs.log 2>&1
}
run k --geometry 6,18,32 --over-provisioning 1.5 --gc 0.89,0.79 --gc-procs 4 --t-prog-ns 260000
run l --geometry 5,20,32 --over-provisioning 1.42 --gc 0.91,0.83 --gc-procs 3 --t-prog-ns 340000
echo TRUTHS-DONE >> $O/runs.log
