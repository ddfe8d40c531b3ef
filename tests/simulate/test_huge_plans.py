"""A simulation planned far beyond reason (a typo in --drive-writes or --trace-repeat) is
refused before it starts unless --yes says it is meant."""

from __future__ import annotations

import time

import pytest

SMALL = ("simulate", "--advertised", "64M", "--pages-per-block", "64", "--extra-op", "0",
         "--no-progress")  # fmt: skip


@pytest.mark.parametrize(
    "extra",
    [
        ("--drive-writes", "1e9"),
        ("--warmup", "1e8"),
        ("--drive-writes", "5e6", "--extra-op", "0,10"),
    ],
)
def test_a_sweep_planned_for_days_is_refused_without_yes(overprov_cli, extra):
    started = time.monotonic()
    rc, out, err = overprov_cli(*SMALL, *extra)
    assert rc == 1, err
    assert "the sweep is planned at about" in err and "or pass --yes to run it" in err, err
    assert out == ""
    assert time.monotonic() - started < 60  # the estimate's short calibration, not the run
