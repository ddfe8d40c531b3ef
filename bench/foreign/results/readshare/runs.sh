#!/bin/sh
# bench/foreign/results/readshare/RULE.md's runs, one at a time, from the repository's root;
# each logged with its CPU s (bench/cpu_clock.py) by tally.py `timed` / `case` into runs.log.
#   sh bench/foreign/results/readshare/runs.sh truths|fresh|stored|seen
set -e
PY=${PY:-/work/main/.venv/bin/python}
export PYTHONPATH=python
R=bench/foreign/results/readshare
BIN=${VSSIM_HARNESS:-/work/foreign-build/vssim/vssim-harness}
W=${VSSIM_WORK:-/tmp/readshare-vssim}
T=bench/foreign/results/freshtally/tally.py
ARM="fit.CMD_FLOOR_FOB_SHARE=0.5"
truth() {  # STEM OPTIONS...
    stem=$1; shift
    [ -e $R/$stem.json ] && return 0
    TALLY_DIR=$R $PY $T timed "truth $stem" -- $PY bench/foreign/vssim.py --binary $BIN \
        --work $W/$stem --out $R/$stem.json "$@"
}
case_in() {  # DIR FLAGS FOLDER STEM FAMILY: tally.py `case` writing DIR/cases/
    dir=$1 flags=$2; shift 2
    [ -e $dir/cases/$3--$(echo $1 | sed "s#^bench/foreign/results/##; s#/#_#g")--$2.json ] && return 0
    mkdir -p $dir
    TALLY_DIR=$dir EVALUATE_FLAGS="$flags" $PY $T case "$@"
}
case ${1:-} in
truths)
    truth vssim-e --flashes 32 --channels 8 --blocks 32 --block-pages 64 --spare 0.15 --ovp 0 \
        --timings-us 40,200,40,50,1500,10,20 --drive-writes 10
    truth vssim-f --flashes 24 --channels 6 --blocks 32 --block-pages 64 --spare 0.09 --ovp 0 \
        --drive-writes 10
    truth vssim-g --flashes 12 --channels 3 --blocks 48 --block-pages 96 --spare 0.16 --ovp 2 \
        --timings-us 70,450,70,90,2500,14,28 --drive-writes 10
    ;;
fresh)
    for s in vssim-e vssim-f vssim-g; do
        case_in $R/defaults "" $R $s VSSIM
        case_in $R/arm "$ARM" $R $s VSSIM
    done
    ;;
stored)
    case_in $R/arm-72 "$ARM" bench/foreign/results/tcmd-bound ssdsim-c SSDsim
    case_in $R/arm-72 "$ARM" bench/foreign/results/tcmd-bound2 ssdsim-f SSDsim
    case_in $R/arm-72 "$ARM" bench/foreign/results/tcmd-bound2 ssdsim-g SSDsim
    case_in $R/arm-72 "$ARM" bench/foreign/results/flashsim flashsim-b FlashSim
    ;;
seen)
    for s in vssim-a vssim-b vssim-c vssim-d; do
        case_in $R/seen-arm "$ARM" bench/foreign/results/newftl $s VSSIM
    done
    ;;
*) echo "usage: runs.sh truths|fresh|stored|seen" >&2; exit 2 ;;
esac
