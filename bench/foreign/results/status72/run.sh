#!/bin/sh
# bench/foreign/results/status72/PLAN.md's cases, one at a time, from the repository's root.
# TALLY_DIR: where the case files and table.md go (default this folder; a later status report
# names its own, e.g. bench/foreign/results/statusfloor/PLAN.md).
set -e
PY=${PY:-.venv/bin/python}
export PYTHONPATH=python TALLY_DIR=${TALLY_DIR:-bench/foreign/results/status72}
for part in erase rest; do
    $PY bench/foreign/results/narrowtwo/cases.py $part > /tmp/status72-$part.txt
    while read folder stem family; do
        $PY bench/foreign/results/freshtally/tally.py case $folder $stem $family </dev/null
    done < /tmp/status72-$part.txt
done
$PY bench/foreign/results/freshtally/tally.py table | (cd "$TALLY_DIR" && cat > table.md)
