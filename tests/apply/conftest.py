"""Fixtures for the apply tests; the fakes themselves live in apply_fakes.py."""

from __future__ import annotations

import pytest
from apply_fakes import FakeRunner


@pytest.fixture
def fake_runner() -> FakeRunner:
    return FakeRunner()
