#!/bin/sh
# bench/foreign/results/femustatus/PLAN.md's cases, one at a time, from the repository's root.
set -e
PY=${PY:-.venv/bin/python}
export PYTHONPATH=python TALLY_DIR=bench/foreign/results/femustatus
T=bench/foreign/results/freshtally/tally.py
R=bench/foreign/results
for stem in femu-40lun-41blk-thres65 femu-57lun-35blk-thres68 femu-63lun-33blk-thres63 \
            femu-69lun-43blk-thres60; do
    $PY $T case $R/femunext/fresh $stem FEMU
done
for stem in femu-48lun-42blk-thres66 femu-50lun-44blk-thres64 femu-54lun-45blk-thres69 \
            femu-60lun-46blk-thres62; do
    $PY $T case $R/femuweight/fresh $stem FEMU
done
$PY $T case $R/jointband/fresh femu-42lun-39blk-thres65 FEMU
for stem in femu-44lun-43blk-thres67 femu-52lun-41blk-thres63 femu-56lun-39blk-thres66 \
            femu-65lun-37blk-thres64; do
    $PY $T case $R/femutwin/fresh $stem FEMU
done
$PY $T table > bench/foreign/results/femustatus/table.md
