"""One duration syntax for every option: '90m' is 90 minutes wherever a duration is read, as
calibrate --budget read it (--round-seconds 90m and --duration 90m were refused)."""

from __future__ import annotations

import pytest
from overprov import cli
from overprov.calibrate.budget import parse_budget
from overprov.errors import ConfigError
from overprov.units import parse_duration_seconds


def test_m_is_minutes_as_in_the_budget():
    assert parse_duration_seconds("90m", "--d") == 5400 == parse_duration_seconds("90min", "--d")
    assert parse_budget("90m").io_seconds == parse_duration_seconds("90m", "--d")
    with pytest.raises(ConfigError, match="like 90s, 90m, 10min, 2h or 1d"):
        parse_duration_seconds("90mo", "--d")


@pytest.mark.parametrize(
    ("argv", "dest"),
    [
        (["simulate", "--duration", "90m"], "duration"),
        (["profile", "sim:consumer-tlc-sata", "--round-seconds", "2m"], "round_seconds"),
        (["qualify", "sim:consumer-tlc-sata", "--round-seconds", "2m"], "round_seconds"),
    ],
)
def test_every_duration_option_reads_minutes(argv, dest):
    args = cli.build_parser(argv).parse_args(argv)
    assert getattr(args, dest) in (120, 5400)


def test_help_says_the_syntax(overprov_cli):
    rc, out, _ = overprov_cli("--help")
    assert rc == 0 and "s, m or min, h, d (90s, 90m, 10min, 2h)" in out
