#!/bin/sh
# bench/foreign/results/metafactor/RULE.md's fresh truths and cases, one at a time, from the
# repository's root; each logged with its CPU s (bench/cpu_clock.py) by tally.py `timed` into
# runs.log.
set -e
PY=${PY:-/work/main/.venv/bin/python}
export PYTHONPATH=python TALLY_DIR=bench/foreign/results/metafactor
R=bench/foreign/results/metafactor
BIN=${DHARA_HARNESS:-/work/foreign-build/dhara/dhara-harness}
W=${DHARA_WORK:-/tmp/dhara-work-metafactor}
T=bench/foreign/results/freshtally/tally.py
C=bench/foreign/results/metafactor/case.py
truth() {  # STEM OPTIONS...
    stem=$1; shift
    [ -e $R/$stem.json ] && return 0
    nice -n 10 $PY $T timed "truth $stem" -- $PY bench/foreign/dhara.py --binary $BIN \
        --work $W/$stem --out $R/$stem.json "$@"
}
case_() {  # ARM TRUTH [seen]
    stem=$(basename $2 .json)
    [ -e $R/${3:+seen/}$1/$stem.json ] && return 0
    nice -n 10 $PY $T timed "case ${3:+seen }$1 $stem" -- $PY $C run $1 $2 $3
}
truth dhara-j --log2-ppb 4 --blocks 2048 --gc-ratio 7 --seed 10
truth dhara-k --log2-ppb 6 --blocks 384 --gc-ratio 10 --seed 11
truth dhara-l --log2-ppb 9 --blocks 64 --gc-ratio 20 --seed 12
truth dhara-m --log2-ppb 7 --blocks 160 --gc-ratio 24 --seed 13
[ "$1" = truths ] && exit 0
for s in dhara-j dhara-k dhara-l dhara-m; do
    for a in today factor; do case_ $a $R/$s.json; done
done
[ "$1" = seen ] || exit 0
# the diagnosis after the verdict (verdict.md): the nine seen drives, both arms
for t in bench/foreign/results/newftl2/dhara-?.json bench/foreign/results/fifogc/dhara-?.json; do
    for a in today factor; do case_ $a $t seen; done
done
