#!/bin/sh
# bench/foreign/results/wafrefine/RULE.md's fresh truths and cases, one at a time, from the
# repository's root, each logged with its CPU s (bench/cpu_clock.py) by tally.py `timed` into
# runs.log: `runs.sh truths` the truths only, `runs.sh` the truths and the rule's cases.
set -e
R=bench/foreign/results/wafrefine
. bench/foreign/results/freshtally/dhara_runs.sh  # logged, drive
arm() {  # ARM TRUTH
    out=$R/$1/$(basename $2)
    [ -e $out ] || logged "case $1 $(basename $2 .json)" bench/foreign/results/wafrefine/case.py run $1 $2
}
drive dhara-r --log2-ppb 6 --blocks 448 --gc-ratio 13 --seed 18
drive dhara-s --log2-ppb 8 --blocks 160 --gc-ratio 19 --seed 19
drive dhara-t --log2-ppb 7 --blocks 224 --gc-ratio 22 --seed 20
drive dhara-u --log2-ppb 9 --blocks 80 --gc-ratio 26 --seed 21
[ "$1" = truths ] && exit 0
for s in r s t u; do arm today $R/dhara-$s.json; arm refine $R/dhara-$s.json; done
for t in bench/foreign/results/sssl-ftlsim-*.json; do arm today $t; arm refine $t; done
[ -e $R/core-d4-spare3.json ] || logged "truth core-d4-spare3" bench/foreign/results/wafrefine/coredrive.py $R/core-d4-spare3.json
arm today $R/core-d4-spare3.json; arm refine $R/core-d4-spare3.json
