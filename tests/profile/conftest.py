"""Fixtures for the profile tests."""

from __future__ import annotations

import os
import shutil

import pytest


@pytest.fixture
def need_fio() -> str:
    path = shutil.which("fio")
    if path is None:
        pytest.skip("fio is not installed (Debian package fio)")
    return path


@pytest.fixture
def need_root() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root")
