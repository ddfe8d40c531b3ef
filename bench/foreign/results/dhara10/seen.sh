#!/bin/sh
# The diagnosis's scratch cases on the 21 seen Dhara drives (no clause reads them): `seen.sh ARM`
# runs case.py's ARM on each (into seen/ARM/), one at a time, each logged with its CPU s
# (bench/cpu_clock.py through tally.py `timed`) into runs.log. From the repository's root.
set -e
R=bench/foreign/results/dhara10
. bench/foreign/results/freshtally/dhara_runs.sh  # logged
for t in bench/foreign/results/newftl2/dhara-[a-e].json bench/foreign/results/fifogc/dhara-*.json \
         bench/foreign/results/metafactor/dhara-*.json bench/foreign/results/dharafloor/dhara-*.json \
         bench/foreign/results/wafrefine/dhara-*.json; do
    out=$R/seen/$1/$(basename $t)
    [ -e $out ] || logged "seen $1 $(basename $t .json)" bench/foreign/results/dhara10/case.py run $1 $t seen
done
