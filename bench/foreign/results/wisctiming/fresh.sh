#!/bin/sh
# The fresh truths of bench/foreign/results/wisctiming/RULE.md, one after the other; CPU s
# from /usr/bin/time (user+sys, children included), appended to runs.log. Run from the
# worktree root; a truth whose file exists is skipped.
set -eu
O=bench/foreign/results/wisctiming
B=/work/foreign-build/wiscsee/src/wiscsim-harness-wisctiming  # build.sh's wrapper, this harness.py
W=/work/foreign-build/wiscsee/runs/wisctiming
NV=/work/foreign-build/nvmevirt/nvmevirt-conv-harness
DS=/work/foreign-build/disksim/src/src/disksim
PY=/work/main/.venv/bin/python
nvme() {
    name=$1; mb=$2; shift 2
    [ -e $O/nvmevirt-$name.json ] && return 0
    date -u >> $O/runs.log
    /usr/bin/time -a -o $O/runs.log -f "$name: %U+%S CPU s" nice -n 10 \
        $PY bench/foreign/nvmevirt.py --binary $NV --work /tmp/wisctiming-runs/$name \
        --capacity-mb "$mb" --drive "$*" --out $O/nvmevirt-$name.json >> $O/runs.log 2>&1
}
wisc() {
    name=$1; shift
    [ -e $O/wiscsee-$name.json ] && return 0
    date -u >> $O/runs.log
    /usr/bin/time -a -o $O/runs.log -f "$name: %U+%S CPU s" nice -n 10 \
        $PY bench/foreign/wiscsee.py --binary $B --work $W/$name \
        --out $O/wiscsee-$name.json --drive-writes 24 --reports-per-round 4 --fix-move-race "$@" \
        >> $O/runs.log 2>&1
}
disksim() {
    name=$1; shift
    [ -e $O/$name.json ] && return 0
    date -u >> $O/runs.log
    /usr/bin/time -a -o $O/runs.log -f "$name: %U+%S CPU s" nice -n 10 \
        $PY bench/foreign/disksim_ssd.py --binary $DS --work /tmp/wisctiming-runs/$name \
        --commit e0d4cc91371b3c7715b958b17999fe599d00c11f \
        --patch 'none (built with its own Makefiles; gcc 12: -fgnu89-inline and -lm at the end of the link lines, compiler and linker flags only)' \
        "$@" --out $O/$name.json >> $O/runs.log 2>&1
}
nvme aa 768 --partitions 1 --nchs 3 --luns-per-ch 1 --blks-per-pln 512 --flash-page-kb 16 \
    --oneshot-page-kb 32 --prog-ns 330000 --erase-ns 4400000 --op-area 0.08
disksim disksim-3pkg-4pl --packages 3 --planes-per-package 4 --qd-sweep 4@40
wisc o --geometry 3,26,32 --over-provisioning 1.44 --gc 0.92,0.84 --gc-procs 3 --t-prog-ns 260000
wisc p --geometry 5,16,32 --over-provisioning 1.48 --gc 0.88,0.78 --gc-procs 4 --t-prog-ns 220000
echo TRUTHS-DONE >> $O/runs.log
