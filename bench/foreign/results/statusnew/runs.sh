#!/bin/sh
# bench/foreign/results/statusnew/PLAN.md's cases, one at a time, from the repository's root,
# each logged with its CPU s (bench/cpu_clock.py) by tally.py `timed` / `case` into runs.log.
set -e
PY=${PY:-/work/main/.venv/bin/python}
R=bench/foreign/results/statusnew
export PYTHONPATH=python TALLY_DIR=$R
T=bench/foreign/results/freshtally/tally.py
F=bench/foreign/results
vssim() {  # FOLDER STEM: the plan case into $R/cases/
    [ -e $R/cases/VSSIM--$1--$2.json ] || $PY $T case $F/$1 $2 VSSIM
}
dhara() {  # TRUTH.json: "WAF 0+40" into $R/today/
    [ -e $R/today/$(basename $1) ] ||
        $PY $T timed "case dhara $(basename $1 .json)" -- $PY bench/foreign/results/statusnew/case.py run $1
}
for s in a b c d; do vssim newftl vssim-$s; done
for s in e f g; do vssim readshare vssim-$s; done
for t in $F/newftl2/dhara-*.json $F/fifogc/dhara-*.json $F/metafactor/dhara-*.json \
    $F/dharafloor/dhara-*.json $F/wafrefine/dhara-*.json; do dhara $t; done
