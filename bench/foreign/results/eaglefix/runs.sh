#!/bin/sh
# eaglefix's runs, one at a time, from the worktree root, each logged with its CPU s
# (bench/cpu_clock.py, by freshtally's tally.py `timed` / `case`) into runs.log here:
#   1. freshnow's EagleTree drive et-fn-2pkg2die-r35p220 (bench/foreign/results/freshnow/PLAN.md,
#      its runs.sh's command) on the patched build, into truths/, and its plan case into cases/;
#   2. the four stored EagleTree truths rerun by their own `command` on the patched build, into
#      reruns/ (compare.py checks them against the stored ones), and their plan cases.
# The patched build: bench/foreign/eagletree_harness/build_patched.sh
#   /work/.mirror/ClydeProjects+EagleTree/repo /work/foreign-build/eagletree-fix
#   sh bench/foreign/results/eaglefix/runs.sh [fresh|reruns|cases]   (default: all three)
set -u
PY=${PY:-/work/main/.venv/bin/python}
R=bench/foreign/results/eaglefix
export PYTHONPATH=python TALLY_DIR=$R
TALLY=bench/foreign/results/freshtally/tally.py
BIN=/work/foreign-build/eagletree-fix/eagletree-harness
PATCH="01-noop-transfer-names-no-block.patch sha256 $(cut -d' ' -f1 /work/foreign-build/eagletree-fix/PATCHES)"
COMMIT=$(cat /work/foreign-build/eagletree-fix/COMMIT)
timed() { label=$1; shift; $PY $TALLY timed "$label" -- "$@"; }
et() {  # OUT WORK ARGS...: bench/foreign/eagletree.py on the patched build into OUT
    out=$1; work=$2; shift 2
    [ -e $out ] || timed "truth $out" $PY bench/foreign/eagletree.py --binary $BIN --work $work \
        --commit $COMMIT --patch "$PATCH" --out $out "$@"
}
case_of() {  # FOLDER STEM: the scoreboard's plan case into cases/
    tag=$(echo "${1#bench/foreign/results}" | sed 's,^/,,;s,/$,,;s,/,_,g')
    [ -e "$R/cases/EagleTree--${tag:-top}--$2.json" ] || $PY $TALLY case $1 $2 EagleTree
}
fresh() {
    et $R/truths/et-fn-2pkg2die-r35p220.json /tmp/eaglefix-et-fn-2pkg2die-r35p220 \
        --geometry 2,2,20,64 --timings-us 35,220,1300,1,10 --qd-sweep 4@40
    case_of $R/truths et-fn-2pkg2die-r35p220
}
reruns() {
    for g in "et-4die-r50p200 2,2,32,128 50,200,1500,1,10" "et-8die-bus4-r10p40 2,4,32,64 10,40,100,1,10" \
             "et-8die-r25p300 8,1,32,64 25,300,2000,1,10"; do
        set -- $g
        et $R/reruns/$1.json /tmp/eaglefix-$1 --geometry $2 --timings-us $3 --qd-sweep 4@40
    done
    et $R/reruns/eagletree.json /tmp/eaglefix-eagletree
}
cases() {
    for s in et-4die-r50p200 et-8die-bus4-r10p40 et-8die-r25p300; do
        case_of bench/foreign/results/iops-form $s
    done
    case_of bench/foreign/results eagletree
}
for step in ${@:-fresh reruns cases}; do $step; done
