#!/bin/sh
# Diagnosis (nothing judged): four drives measured again with the stored runs' chunk sizing
# (last-chunk, --no-round-rate) and femularge's (round-rate), only for their timed rounds'
# seconds asked and run (run.json's timed_rounds, kept in overrun/NAME-SIZING.json); the same
# options as measures.sh. One at a time, from the worktree's root:
#   sh bench/foreign/results/femufix/overrun_arms.sh HARNESS WORK >> bench/foreign/results/femufix/runs.log 2>&1
set -u
H=$1 W=$2 R=bench/foreign/results/femufix PY=${PY:-/work/main/.venv/bin/python}
mkdir -p $W $R/overrun
PYTHONPATH=python $PY bench/foreign/results/femufix/judge.py --list > $W/list.txt
for n in femu-8lun-300blk-thres70-4ms-on femu-14lun-224blk-thres60-5ms-ns80-on \
         femu-23lun-118blk-thres58-4300us-ns85 femu-31lun-86blk-thres57-3600us-ns80; do
    opts=$(grep "^measure $n " $W/list.txt | cut -d' ' -f3-)
    for sizing in last-chunk round-rate; do
        sh $R/timed.sh $sizing-$n $W $PY bench/foreign/femu_end_to_end.py measure --binary $H \
            --out $W/$sizing/$n --onset-from-empty --spare-from-onset --chunk-sizing $sizing $opts
        $PY -c "import json,sys; d=json.load(open(sys.argv[1])); json.dump({'chunk_sizing': d['chunk_sizing'], 'timed_rounds': d['timed_rounds']}, open(sys.argv[2], 'w'), indent=0)" \
            $W/$sizing/$n/run.json $R/overrun/$n-$sizing.json
    done
done
echo DONE overrun_arms; date -u
