#!/bin/sh
# The fresh truths' arms (RULE.md: off, on) and the off check on three seen cases, one case at
# a time by scoreboard run.py `one`; CPU s (user+sys, children included) to runs-arms.log.
set -eu
O=bench/foreign/results/wisctiming
PY=/work/main/.venv/bin/python
one() {  # ARM FOLDER STEM FAMILY [FLAGS]
    arm=$1; folder=$2; stem=$3; family=$4; flags=${5:-}
    SCOREBOARD_CASES=$PWD/$O/$arm EVALUATE_FLAGS="$flags" PYTHONPATH=python \
        /usr/bin/time -a -o $O/runs-arms.log -f "$arm $stem: %U+%S CPU s" \
        nice -n 10 $PY bench/foreign/results/scoreboard/run.py one $folder $stem $family
}
ON="evidence.WAF_WEIGHTS=True; blocking_erase_form.ON=True"
for arm in fresh-off fresh-on; do
    flags=""; [ $arm = fresh-on ] && flags=$ON
    one $arm $O nvmevirt-aa NVMeVirt "$flags"
    one $arm $O disksim-3pkg-4pl DiskSim "$flags"
    one $arm $O wiscsee-o WiscSim "$flags"
    one $arm $O wiscsee-p WiscSim "$flags"
done
R=bench/foreign/results
one check-off $R/wiscsee3 wiscsee-e WiscSim
one check-off $R/erasecost nvmevirt-e NVMeVirt
one check-off $R/ssdsim ssdsim-b SSDsim
echo ARMS-DONE >> $O/runs-arms.log
