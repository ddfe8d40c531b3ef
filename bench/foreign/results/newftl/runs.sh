#!/bin/sh
# bench/foreign/results/newftl/PLAN.md's truths, one at a time, from the repository's root;
# each logged with its CPU s (bench/cpu_clock.py) by tally.py `timed` into runs.log.
set -e
PY=${PY:-/work/main/.venv/bin/python}
export PYTHONPATH=python TALLY_DIR=bench/foreign/results/newftl
R=bench/foreign/results/newftl
BIN=${VSSIM_HARNESS:-/work/foreign-build/vssim/vssim-harness}
W=${VSSIM_WORK:-/tmp/vssim-work}
T=bench/foreign/results/freshtally/tally.py
truth() {  # STEM OPTIONS...
    stem=$1; shift
    [ -e $R/$stem.json ] && return 0
    $PY $T timed "truth $stem" -- $PY bench/foreign/vssim.py --binary $BIN --work $W/$stem \
        --out $R/$stem.json "$@"
}
truth vssim-a --flashes 8 --channels 4 --blocks 64 --block-pages 64 --spare 0.07 --ovp 0 \
    --drive-writes 10
truth vssim-b --flashes 16 --channels 8 --blocks 32 --block-pages 128 --spare 0.12 --ovp 0 \
    --timings-us 50,300,50,60,1500,10,20 --drive-writes 10
truth vssim-c --flashes 4 --channels 2 --blocks 128 --block-pages 32 --spare 0.20 --ovp 5 \
    --timings-us 60,600,60,100,3000,12,25 --drive-writes 12
# drive D: PLAN.md's "only if the CPU budget allows after A–C's cases" (A–C's truths and cases
# with the harness checks came to ≈ 525 CPU s of 900)
truth vssim-d --flashes 8 --channels 8 --blocks 96 --block-pages 64 --spare 0.10 --ovp 1 \
    --drive-writes 10
