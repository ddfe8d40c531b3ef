#!/bin/sh
# bench/foreign/results/fifogc/RULE.md's fresh truths and cases, one at a time, from the
# repository's root; each logged with its CPU s (bench/cpu_clock.py) by tally.py `timed` into
# runs.log.
set -e
PY=${PY:-/work/main/.venv/bin/python}
export PYTHONPATH=python TALLY_DIR=bench/foreign/results/fifogc
R=bench/foreign/results/fifogc
BIN=${DHARA_HARNESS:-/work/foreign-build/dhara/dhara-harness}
W=${DHARA_WORK:-/tmp/dhara-work-fifogc}
T=bench/foreign/results/freshtally/tally.py
C=bench/foreign/results/fifogc/case.py
truth() {  # STEM OPTIONS...
    stem=$1; shift
    [ -e $R/$stem.json ] && return 0
    nice -n 10 $PY $T timed "truth $stem" -- $PY bench/foreign/dhara.py --binary $BIN \
        --work $W/$stem --out $R/$stem.json "$@"
}
case_() {  # ARM TRUTH
    stem=$(basename $2 .json)
    [ -e $R/$1/$stem.json ] && return 0
    nice -n 10 $PY $T timed "case $1 $stem" -- $PY $C run $1 $2
}
truth dhara-f --log2-ppb 5 --blocks 1024 --gc-ratio 3 --seed 6
truth dhara-g --log2-ppb 6 --blocks 512 --gc-ratio 6 --seed 7
truth dhara-h --log2-ppb 8 --blocks 96 --gc-ratio 12 --seed 8
truth dhara-i --log2-ppb 7 --blocks 192 --gc-ratio 5 --seed 9
for s in dhara-f dhara-g dhara-h dhara-i; do
    for a in today fifo; do case_ $a $R/$s.json; done
done
for s in sssl-ftlsim-lru-spare007 sssl-ftlsim-lru-spare025; do
    for a in today fifo; do case_ $a bench/foreign/results/$s.json; done
done
