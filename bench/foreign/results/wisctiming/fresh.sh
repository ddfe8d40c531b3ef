#!/bin/sh
# The fresh truths of bench/foreign/results/wisctiming/RULE.md, one after the other; CPU s
# from /usr/bin/time (user+sys, children included), appended to runs.log. Run from the
# worktree root; a truth whose file exists is skipped. Restructured after the truths were made
# (one function for the three harnesses, the same arguments): they were made by 691257cf's
# version, WiscSim's work folder /work/foreign-build/wiscsee/runs/wisctiming; each truth's
# `command` says how.
set -eu
O=bench/foreign/results/wisctiming
B=/work/foreign-build/wiscsee/src/wiscsim-harness-wisctiming  # build.sh's wrapper, this harness.py
NV=/work/foreign-build/nvmevirt/nvmevirt-conv-harness
DS=/work/foreign-build/disksim/src/src/disksim
DS_PATCH='none (built with its own Makefiles; gcc 12: -fgnu89-inline and -lm at the end of the link lines, compiler and linker flags only)'
truth() {  # NAME HARNESS ARGS...: bench/foreign/<harness>.py into $O/NAME.json, logged
    name=$1; harness=$2; shift 2
    [ -e $O/$name.json ] && return 0
    date -u >> $O/runs.log
    /usr/bin/time -a -o $O/runs.log -f "$name: %U+%S CPU s" nice -n 10 \
        /work/main/.venv/bin/python bench/foreign/$harness.py --work /tmp/wisctiming-runs/$name \
        --out $O/$name.json "$@" >> $O/runs.log 2>&1
}
truth nvmevirt-aa nvmevirt --binary $NV --capacity-mb 768 --drive "--partitions 1 --nchs 3 \
--luns-per-ch 1 --blks-per-pln 512 --flash-page-kb 16 --oneshot-page-kb 32 --prog-ns 330000 \
--erase-ns 4400000 --op-area 0.08"
truth disksim-3pkg-4pl disksim_ssd --binary $DS --commit e0d4cc91371b3c7715b958b17999fe599d00c11f \
    --patch "$DS_PATCH" --packages 3 --planes-per-package 4 --qd-sweep 4@40
WISC="--binary $B --drive-writes 24 --reports-per-round 4 --fix-move-race"
truth wiscsee-o wiscsee $WISC --geometry 3,26,32 --over-provisioning 1.44 --gc 0.92,0.84 \
    --gc-procs 3 --t-prog-ns 260000
truth wiscsee-p wiscsee $WISC --geometry 5,16,32 --over-provisioning 1.48 --gc 0.88,0.78 \
    --gc-procs 4 --t-prog-ns 220000
echo TRUTHS-DONE >> $O/runs.log
