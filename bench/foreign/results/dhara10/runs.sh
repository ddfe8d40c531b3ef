#!/bin/sh
# bench/foreign/results/dhara10/RULE.md's fresh truths and cases, one at a time, from the
# repository's root, each logged with its CPU s (bench/cpu_clock.py) by tally.py `timed` into
# runs.log: `runs.sh truths` the truths only, `runs.sh` the truths and the rule's cases.
set -e
R=bench/foreign/results/dhara10
. bench/foreign/results/freshtally/dhara_runs.sh  # logged, drive
PACED="metadata_factor.ENABLED=True;paced_journal.ON=True"
arm() {  # ARM TRUTH
    out=$R/$1/$(basename $2)
    [ -e $out ] || logged "case $1 $(basename $2 .json)" bench/foreign/results/dhara10/case.py run $1 $2
}
sample() {  # ARM FLAGS FAMILY FOLDER STEM: the scoreboard's plan case into $R/sample-ARM/
    tag=$(echo "${4#bench/foreign/results}" | sed 's|^/||; s|/|_|g'); tag=${tag:-top}
    [ -e $R/sample-$1/$3--$tag--$5.json ] || SCOREBOARD_CASES=../dhara10/sample-$1 \
        EVALUATE_FLAGS="$2" logged "sample $1 $3 $4/$5" bench/foreign/results/scoreboard/run.py one $4 $5 $3
}
drive dhara-v --log2-ppb 5 --blocks 640 --gc-ratio 11 --seed 22
drive dhara-w --log2-ppb 6 --blocks 288 --gc-ratio 15 --seed 23
drive dhara-x --log2-ppb 8 --blocks 112 --gc-ratio 17 --seed 24
drive dhara-y --log2-ppb 7 --blocks 176 --gc-ratio 23 --seed 25
[ "$1" = truths ] && exit 0
for s in v w x y; do arm today $R/dhara-$s.json; arm paced $R/dhara-$s.json; done
for t in bench/foreign/results/sssl-ftlsim-*.json; do arm today $t; arm paced $t; done
F=bench/foreign/results
while read fam folder stem; do
    [ "$folder" = - ] && path=$F || path=$F/$folder  # "-": the results folder itself
    sample today "" $fam $path $stem
    sample paced "$PACED" $fam $path $stem
done <<LIST
DiskSim byfig-reserve/unseen disksim-6pkg-4pl
EagleTree iops-form et-4die-r50p200
FEMU byfig5/unseen femu-14lun-136blk-thres84-180us
FlashSim flashsim flashsim-a
MQSim fresh-2chips mqsim
NVMeVirt erasecost nvmevirt-c
SSDsim gctrigger-skew ssdsim-l-uniform
SimpleSSD - simplessd-spare0125
WiscSim wiscgc wiscsee-f
NVMeVirt erasecost nvmevirt-d
SSDsim gctrigger-skew ssdsim-m-uniform
MQSim mqsim-reserve/unseen u1024x32-op12
LIST
