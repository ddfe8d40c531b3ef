# Sourced by a Dhara rule's runs.sh (bench/foreign/results/metafactor/, dharafloor/) from the
# repository's root, with R (its results folder) set: `logged` runs a script under
# tally.py `timed` (its CPU s by bench/cpu_clock.py into $R/runs.log), `drive` makes one truth
# with bench/foreign/dhara.py unless $R/STEM.json exists.
PY=${PY:-/work/main/.venv/bin/python}
export PYTHONPATH=python TALLY_DIR=$R
logged() {  # LABEL SCRIPT ARGS...
    label=$1; shift
    nice -n 10 $PY bench/foreign/results/freshtally/tally.py timed "$label" -- $PY "$@"
}
drive() {  # STEM DHARA-OPTIONS...
    stem=$1; shift
    [ -e $R/$stem.json ] || logged "truth $stem" bench/foreign/dhara.py --out $R/$stem.json \
        --binary ${DHARA_HARNESS:-/work/foreign-build/dhara/dhara-harness} \
        --work ${DHARA_WORK:-/tmp/dhara-work-$(basename $R)}/$stem "$@"
}
