#!/bin/sh
# bench/foreign/results/dharafloor/RULE.md's fresh truths and cases, one at a time, from the
# repository's root, each logged with its CPU s (bench/cpu_clock.py) by tally.py `timed` into
# runs.log: `runs.sh truths` the truths only, `runs.sh` the truths and the rule's cases.
set -e
R=bench/foreign/results/dharafloor
. bench/foreign/results/freshtally/dhara_runs.sh  # logged, drive
arm() {  # ARM TRUTH
    out=$R/$1/$(basename $2)
    [ -e $out ] || logged "case $1 $(basename $2 .json)" bench/foreign/results/dharafloor/case.py run $1 $2
}
drive dhara-n --log2-ppb 5 --blocks 768 --gc-ratio 9 --seed 14
drive dhara-o --log2-ppb 8 --blocks 128 --gc-ratio 14 --seed 15
drive dhara-p --log2-ppb 6 --blocks 320 --gc-ratio 18 --seed 16
drive dhara-q --log2-ppb 9 --blocks 96 --gc-ratio 28 --seed 17
[ "$1" = truths ] || for s in n o p q; do arm today $R/dhara-$s.json; arm floor $R/dhara-$s.json; done
