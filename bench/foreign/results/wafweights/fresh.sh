#!/bin/sh
# The fresh truths of bench/foreign/results/wafweights/RULE.md, one after the other; CPU s
# from /usr/bin/time (user+sys), appended to runs.log. Run from the worktree root; a truth
# whose file exists is skipped.
set -eu
O=bench/foreign/results/wafweights
B=/work/foreign-build/wiscsee/src/wiscsim-harness-wafweights  # build.sh's wrapper, this harness.py
W=/work/foreign-build/wiscsee/runs/wafweights
NV=/work/foreign-build/nvmevirt/nvmevirt-conv-harness
PY=/work/main/.venv/bin/python
nvme() {
    name=$1; mb=$2; shift 2
    [ -e $O/nvmevirt-$name.json ] && return 0
    date -u >> $O/runs.log
    /usr/bin/time -a -o $O/runs.log -f "$name: %U+%S CPU s" nice -n 10 \
        $PY bench/foreign/nvmevirt.py --binary $NV --work /tmp/wafweights-runs/$name \
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
nvme y 896 --partitions 1 --nchs 2 --luns-per-ch 2 --blks-per-pln 448 --flash-page-kb 16 \
    --oneshot-page-kb 32 --prog-ns 380000 --erase-ns 3800000 --op-area 0.10
nvme z 512 --partitions 2 --nchs 4 --luns-per-ch 1 --blks-per-pln 256 --flash-page-kb 16 \
    --oneshot-page-kb 16 --prog-ns 210000 --erase-ns 5500000 --op-area 0.09
wisc m --geometry 4,26,32 --over-provisioning 1.46 --gc 0.90,0.81 --gc-procs 2 --t-prog-ns 300000
wisc n --geometry 7,16,32 --over-provisioning 1.52 --gc 0.89,0.80 --gc-procs 5 --t-prog-ns 240000
echo TRUTHS-DONE >> $O/runs.log
