"""The safety suite's matrix report: OVERPROV_SAFETY_REPORT=FILE.md writes every case the
suite ran (refused or not, digests before and after) as a table, and FILE.jsonl, at the end."""

from __future__ import annotations

import os

import pytest
from safety_helpers import write_report


@pytest.fixture(scope="session", autouse=True)
def _report():
    yield
    path = os.environ.get("OVERPROV_SAFETY_REPORT")
    if path:
        write_report(path)
