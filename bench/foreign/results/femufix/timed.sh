#!/bin/sh
# One run of femufix's scripts: NAME WORK COMMAND... runs COMMAND with PYTHONPATH=python under
# `nice -n 10`, its output in WORK/NAME.out, then prints the date, the load, its exit status and
# its CPU seconds (/usr/bin/time: user + system, children included).
name=$1 work=$2; shift 2
date -u; uptime
PYTHONPATH=python /usr/bin/time -o "$work/$name.time" -f "%U+%S CPU s, %e s wall: $name" \
    nice -n 10 "$@" > "$work/$name.out" 2>&1
echo "exit $?: $name"; cat "$work/$name.time"
