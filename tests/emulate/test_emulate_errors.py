"""``overprov emulate``'s refusals of its drive and ``--size`` name emulate's own arguments:
the drive's builder (``presets``) is shared with ``simulate``, whose errors say ``--preset`` and
``--scale``, options emulate does not have. No root needed: nothing is served."""

from __future__ import annotations

import pytest
from overprov.emulate.cli import drive_config
from overprov.errors import ConfigError


@pytest.mark.parametrize(
    ("drive", "size", "starts"),
    [
        ("no-such-drive", "1GiB", "PRESET|FILE.toml: no preset 'no-such-drive'"),
        ("consumer-tlc-sata", "1/100000", "--size: '1/100000' is too small"),
        ("consumer-tlc-sata", "2", "--size: must shrink the drive"),
    ],
)
def test_a_refusal_names_emulate_s_own_argument(drive: str, size: str, starts: str) -> None:
    with pytest.raises(ConfigError) as refused:
        drive_config(drive, size, 0.0)
    text = str(refused.value)
    assert text.startswith(starts), text
    assert "--scale" not in text and "--preset" not in text, text
