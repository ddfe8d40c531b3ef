"""A pytest plugin: each test's CPU seconds, a measure that the machine's load does not inflate.

For every test (setup, call and teardown together) it appends one JSON line to
``$CPULOG.<worker>`` (``main`` without pytest-xdist): the node id, the CPU seconds of the test
process and of its waited-for children (``time.process_time()`` plus
``getrusage(RUSAGE_CHILDREN)``), the wall seconds and the wall-clock start (seconds since the
epoch, to lay the workers' tests on one timeline)::

    CPULOG=/tmp/cpu PYTHONPATH=python:scripts .venv/bin/python -m pytest -p pytest_cpu_log ...

docs/testing.md gives the figures it measured.
"""

from __future__ import annotations

import json
import os
import resource
import time

import pytest


def cpu_seconds() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    cpu, wall, started = cpu_seconds(), time.perf_counter(), time.time()
    yield
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    row = {
        "id": item.nodeid,
        "cpu": round(cpu_seconds() - cpu, 3),
        "wall": round(time.perf_counter() - wall, 3),
        "start": round(started, 3),
    }
    with open(f"{os.environ['CPULOG']}.{worker}", "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")
