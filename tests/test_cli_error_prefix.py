"""Every error reads ``overprov COMMAND: message`` once: the CLI (``cli.main``) puts the
command's name in front, so a message that names the command itself would read
``overprov calibrate: calibrate: ...``. Found on calibrate's last refusal of typed figures
(``spare_readings.read_all``: every reading's twin failed) and on every refusal of
``overprov capacity``'s argument."""

from __future__ import annotations

import types

import pytest
from overprov import cli
from overprov.calibrate import predict as predmod
from overprov.calibrate import spare_readings
from overprov.calibrate.twin import TwinConfigError
from overprov.errors import ConfigError


def _stderr_of(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    rc = cli.main(list(argv))
    return rc, capsys.readouterr().err.strip()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("capacity", "0GB"), "overprov capacity: must be > 0, got '0GB'"),
        (("capacity",), "overprov capacity: give either a capacity (e.g. 512GB) or --sectors N"),
    ],
)
def test_capacity_s_refusals_name_the_command_once(capsys, argv, expected):
    rc, err = _stderr_of(capsys, *argv)
    assert rc == 2
    assert err == expected


def test_calibrate_s_last_refusal_of_typed_figures_names_the_command_once(capsys, monkeypatch):
    """With the raw NAND given, the raw-spare readings' twins rejected and every
    effective-spare reading's simulation failing, read_all refuses with its last line. No
    twin is simulated: prepare and read are replaced by their failures."""

    def prepare(fig, reading, curve=None, **kwargs):
        if reading.spare == predmod.RAW:
            raise TwinConfigError(reading.key, 0.0, "twin", "the core's reason", 0.07)
        return types.SimpleNamespace(has_iops=True)

    def read(*args, **kwargs):
        raise ConfigError("the twin's run failed")

    monkeypatch.setattr(spare_readings.predmod, "prepare", prepare)
    monkeypatch.setattr(spare_readings.predmod, "read", read)
    rc, err = _stderr_of(
        capsys, "calibrate", "--points", "20:25000,40:50000", "--advertised", "480GB",
        "--physical", "512GiB", "--extra-op", "20", "--jobs", "1",
    )  # fmt: skip
    assert rc == 2
    assert (
        err.splitlines()[-1] == "overprov calibrate: no reading of the figures could be simulated"
    )


@pytest.mark.parametrize(
    "message", ["calibrate: x", "overprov calibrate: x", "calibrate: calibrate: x"]
)
def test_the_cli_takes_the_command_s_own_name_off_a_message(message):
    assert cli.without_own_prefix(message, "calibrate") == "x"
    assert cli.without_own_prefix(message, "plan") == message
