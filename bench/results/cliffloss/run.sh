#!/bin/sh
# bench/results/cliffloss/RULE.md's three commands, from the repository root, one after the other
set -e
PYTHONPATH=python:bench nice -n 10 ${PYTHON:-/work/main/.venv/bin/python} bench/results/cliffloss/judge.py \
    9761:0.01,9761:0.03,9762:0.01,9762:0.03,9763:0.01,9763:0.03,9764:0.01,9764:0.03,9765:0.01,9765:0.03,9766:0.01,9766:0.03,9767:0.01,9767:0.03,9768:0.01,9768:0.03 \
    > bench/results/cliffloss/runs_fresh.json
PYTHONPATH=python:bench nice -n 10 ${PYTHON:-/work/main/.venv/bin/python} bench/results/cliffloss/judge.py "" --seen \
    231:0.01,231:0.03,232:0.01,232:0.03,233:0.01,233:0.03,235:0.03,237:0.03,238:0.03,241:0.01,241:0.03,244:0.01,244:0.03,245:0.01,245:0.03,246:0.01,246:0.03,252:0.01,252:0.03,257:0.01,257:0.03,258:0.01,259:0.01,259:0.03,264:0.01,267:0.01,267:0.03,268:0.01,269:0.01,269:0.03,273:0.01,273:0.03 \
    > bench/results/cliffloss/runs_seen.json
PYTHONPATH=python:bench ${PYTHON:-/work/main/.venv/bin/python} bench/results/cliffloss/judge.py --decide \
    bench/results/cliffloss/runs_fresh.json bench/results/cliffloss/runs_seen.json \
    --seen-recorded bench/results/cliffsmall/runs.json > bench/results/cliffloss/decision.json
