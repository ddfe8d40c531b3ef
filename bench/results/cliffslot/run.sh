#!/bin/sh
# bench/results/cliffslot/RULE.md's three commands, from the repository root, one after the other
set -e
PYTHONPATH=python:bench nice -n 10 ${PYTHON:-/work/main/.venv/bin/python} bench/results/cliffslot/judge.py \
    9769:0.01,9769:0.03,9770:0.01,9770:0.03,9771:0.01,9771:0.03,9772:0.01,9772:0.03,9773:0.01,9773:0.03,9774:0.01,9774:0.03,9775:0.01,9775:0.03,9776:0.01,9776:0.03 \
    > bench/results/cliffslot/runs_fresh.json
PYTHONPATH=python:bench nice -n 10 ${PYTHON:-/work/main/.venv/bin/python} bench/results/cliffslot/judge.py --stored \
    231:0.01,231:0.03,232:0.01,232:0.03,233:0.01,233:0.03,235:0.03,237:0.03,238:0.03,241:0.01,241:0.03,244:0.01,244:0.03,245:0.01,245:0.03,246:0.01,246:0.03,252:0.01,252:0.03,257:0.01,257:0.03,258:0.01,259:0.01,259:0.03,264:0.01,267:0.01,267:0.03,268:0.01,269:0.01,269:0.03,273:0.01,273:0.03,9601:0.01,9601:0.03,9602:0.01,9602:0.03,9603:0.01,9603:0.03,9605:0.01,9605:0.03,9606:0.01 \
    > bench/results/cliffslot/runs_seen.json
PYTHONPATH=python:bench ${PYTHON:-/work/main/.venv/bin/python} bench/results/cliffslot/judge.py --decide \
    bench/results/cliffslot/runs_fresh.json bench/results/cliffslot/runs_seen.json \
    > bench/results/cliffslot/decision.json
