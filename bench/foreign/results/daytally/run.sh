#!/bin/sh
# The day tally's cases (bench/foreign/results/daytally/PLAN.md), one at a time, from the
# repository's root: each truth's plan case with the defaults of this commit, logged with its
# CPU seconds into bench/foreign/results/daytally/runs.log; then REPORT.md's tables.
set -e
PY=${PY:-.venv/bin/python}
export PYTHONPATH=python TALLY_DIR=bench/foreign/results/daytally
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
for stem in u352x32 u1088x16 u256x64; do $PY $T case $R/mqbend/fresh $stem MQSim; done
for stem in u480x32 u1344x16; do $PY $T case $R/jointband/fresh $stem MQSim; done
for stem in u288x32 u608x32 u1184x16 u1472x16; do $PY $T case $R/mqline/fresh $stem MQSim; done
for stem in nvmevirt-ac nvmevirt-ad; do $PY $T case $R/jointband/fresh $stem NVMeVirt; done
# judged in wisctiming's rule (its adopted defaults were chosen with these): reported apart
$PY $T case $R/wisctiming nvmevirt-aa NVMeVirt
$PY $T case $R/wisctiming disksim-3pkg-4pl DiskSim
for stem in wiscsee-o wiscsee-p; do $PY $T case $R/wisctiming $stem WiscSim; done
$PY $T table > bench/foreign/results/daytally/table.md
