"""Fixtures for the qualify tests."""

from __future__ import annotations

import shutil

import pytest


@pytest.fixture
def need_fio() -> str:
    path = shutil.which("fio")
    if path is None:
        pytest.skip("fio is not installed (Debian package fio)")
    return path
