#!/bin/sh
# The stored FEMU cases of a flag rule (reservespare's, reservenarrow's), one run at a time
# (femufix's timed.sh), from the worktree's root:
#   sh bench/flag_stored_runs.sh RESULTS WORK ARM FLAG...
# burstplain's off-arm check (37 x 74 of femudeadline, 33 x 82 of gatefix predicted again with
# today's defaults into RESULTS/check/), then burststart's stored half B into RESULTS/stored/ and
# femuwin's guards (--spare-from-onset --reserve-gate) into RESULTS/guard/, each predicted with
# FLAG... as NAME-ARM; a folder already run is kept.
set -u
R=$1 W=$2 ARM=$3; shift 3
PY=${PY:-/work/main/.venv/bin/python}
E="$PY bench/foreign/femu_end_to_end.py" T=bench/foreign/results/femufix/timed.sh
BS=bench/results/burststart
lean() { rm -rf "$1/fit" "$1/progress.log"; }
mkdir -p $R/check $R/stored $R/guard
while read kind c src flags; do
    [ -e $R/check/$kind-$c-off/run.json ] || sh $T check-$c $W $E repredict --case $src \
        --out $R/check/$kind-$c-off $flags --truth bench/foreign/results/gatefix/$c.json
done <<LIST
stored femu-37lun-74blk-thres53-3450us-ns84 bench/foreign/results/femudeadline/femu-37lun-74blk-thres53-3450us-ns84
guard femu-33lun-82blk-thres56-3750us-ns81 bench/foreign/results/gatefix/femu-33lun-82blk-thres56-3750us-ns81-on --spare-from-onset --reserve-gate
LIST
{ while read case truth cname; do echo "stored $cname $case $truth"; done < $BS/stored_half.txt
  PYTHONPATH=python $PY bench/foreign/results/femuwin/judge.py --list | grep '^guard ' |
      while read _ g folder truth; do
      echo "guard $g $folder $truth --spare-from-onset --reserve-gate"; done
} | while read kind name case truth flags; do
    [ -e $R/$kind/$name-$ARM/run.json ] && continue
    sh $T $kind-$name-$ARM $W $E repredict --case $case --out $R/$kind/$name-$ARM $flags \
        "$@" --truth $truth
    lean $R/$kind/$name-$ARM
done
for d in $R/check/*; do lean $d; done
