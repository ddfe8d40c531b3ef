#!/bin/sh
# bench/foreign/results/newftl2/PLAN.md's truths and cases, one at a time, from the repository's
# root; each logged with its CPU s (bench/cpu_clock.py) by tally.py `timed` into runs.log.
set -e
PY=${PY:-/work/main/.venv/bin/python}
export PYTHONPATH=python TALLY_DIR=bench/foreign/results/newftl2
R=bench/foreign/results/newftl2
BIN=${DHARA_HARNESS:-/work/foreign-build/dhara/dhara-harness}
W=${DHARA_WORK:-/tmp/dhara-work}
T=bench/foreign/results/freshtally/tally.py
C=bench/foreign/results/newftl2/case.py
truth() {  # STEM OPTIONS...
    stem=$1; shift
    [ -e $R/$stem.json ] && return 0
    $PY $T timed "truth $stem" -- $PY bench/foreign/dhara.py --binary $BIN --work $W/$stem \
        --out $R/$stem.json "$@"
}
cases() {  # STEM
    [ -e $R/cases/$1.json ] && return 0
    $PY $T timed "cases $1" -- $PY $C run $R/$1.json
}
truth dhara-a --log2-ppb 6 --blocks 256 --gc-ratio 4 --seed 1
truth dhara-b --log2-ppb 7 --blocks 128 --gc-ratio 8 --seed 2
truth dhara-c --log2-ppb 5 --blocks 512 --gc-ratio 2 --seed 3
truth dhara-d --log2-ppb 7 --blocks 256 --gc-ratio 16 --seed 4
for s in dhara-a dhara-b dhara-c dhara-d; do cases $s; done
# drive E: PLAN.md's "only if the CPU budget and the time allow after A–D's cases" (A–D's truths
# and cases came to ≈ 41 CPU s of 700, at 17:03 UTC)
truth dhara-e --log2-ppb 6 --blocks 256 --gc-ratio 1 --seed 5
cases dhara-e
