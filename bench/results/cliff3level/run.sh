#!/bin/sh
# bench/results/cliff3level/RULE.md's three commands, from the repository root, one after the other
set -e
PYTHONPATH=python:bench nice -n 10 ${PYTHON:-/work/main/.venv/bin/python} bench/results/cliff3level/judge.py \
    9777:0.01,9777:0.03,9778:0.01,9778:0.03,9779:0.01,9779:0.03,9780:0.01,9780:0.03,9781:0.01,9781:0.03,9782:0.01,9782:0.03,9783:0.01,9783:0.03,9784:0.01,9784:0.03 \
    > bench/results/cliff3level/runs_fresh.json
PYTHONPATH=python:bench nice -n 10 ${PYTHON:-/work/main/.venv/bin/python} bench/results/cliff3level/judge.py --stored \
    246:0.03,269:0.03,9603:0.03,232:0.03,235:0.03,231:0.01,241:0.01,246:0.01,257:0.01,258:0.01,273:0.01,252:0.01,259:0.01,264:0.01,269:0.01,9605:0.01,231:0.03,232:0.01,233:0.01,233:0.03,237:0.03,238:0.03,241:0.03,244:0.01,244:0.03,245:0.01,245:0.03,252:0.03,257:0.03,259:0.03,267:0.01,267:0.03,268:0.01,273:0.03,9601:0.01,9601:0.03,9602:0.01,9602:0.03,9603:0.01,9605:0.03,9606:0.01 \
    > bench/results/cliff3level/runs_seen.json
PYTHONPATH=python:bench ${PYTHON:-/work/main/.venv/bin/python} bench/results/cliff3level/judge.py --decide \
    bench/results/cliff3level/runs_fresh.json bench/results/cliff3level/runs_seen.json \
    > bench/results/cliff3level/decision.json
