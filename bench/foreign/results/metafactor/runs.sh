#!/bin/sh
# bench/foreign/results/metafactor/RULE.md's fresh truths and cases, one at a time, from the
# repository's root, each logged with its CPU s (bench/cpu_clock.py) by tally.py `timed` into
# runs.log: `runs.sh truths` the truths only, `runs.sh` the truths and the rule's cases,
# `runs.sh seen` those and the verdict's diagnosis on the nine seen drives (seen/).
set -e
R=bench/foreign/results/metafactor
. bench/foreign/results/freshtally/dhara_runs.sh  # logged, drive
arm() {  # ARM TRUTH [seen]
    out=$R/${3:+seen/}$1/$(basename $2)
    [ -e $out ] || logged "case ${3:+seen }$1 $(basename $2 .json)" bench/foreign/results/metafactor/case.py run $1 $2 $3
}
drive dhara-j --log2-ppb 4 --blocks 2048 --gc-ratio 7 --seed 10
drive dhara-k --log2-ppb 6 --blocks 384 --gc-ratio 10 --seed 11
drive dhara-l --log2-ppb 9 --blocks 64 --gc-ratio 20 --seed 12
drive dhara-m --log2-ppb 7 --blocks 160 --gc-ratio 24 --seed 13
[ "$1" = truths ] && exit 0
for s in dhara-j dhara-k dhara-l dhara-m; do
    for a in today factor; do arm $a $R/$s.json; done
done
[ "$1" = seen ] || exit 0
# the diagnosis after the verdict (verdict.md): the nine seen drives, both arms
for t in bench/foreign/results/newftl2/dhara-?.json bench/foreign/results/fifogc/dhara-?.json; do
    for a in today factor; do arm $a $t seen; done
done
